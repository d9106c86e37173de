"""The pure core imports no trio and no structlog (STYLE: a pure core, a thin shell)."""

from __future__ import annotations

import subprocess
import sys

CORE = [
    "protocol", "protocol.tiles", "protocol.messages", "protocol.framing",
    "scoring", "scoring.analysis", "scoring.fans", "scoring.settlement", "scoring.distance",
    "rulesets.default.engine.hand", "rulesets.default.engine.rng",
    "rulesets.default.engine.record", "rulesets.default.engine.legacy_log",
    "rulesets.default.engine.simulate", "rulesets.default.engine.table_view",
    "sample_ai", "sample_ai.framework", "sample_ai.greedy", "sample_ai.random_bot",
    "rulesets.thupc2021", "server.seam.contract", "server.seam.registry",
    "server.seam.errors", "server.seam.seeds",
    "rulesets.botzone", "rulesets.botzone.tiles", "rulesets.botzone.fans",
    "rulesets.botzone.judge", "rulesets.botzone.formats", "rulesets.botzone.view",
    "rulesets.botzone.fan_names", "rulesets.botzone.seat_view", "rulesets.botzone.table",
]


def test_core_modules_import_neither_trio_nor_structlog() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {CORE!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in ('trio', 'structlog', 'rich', 'typer') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"
