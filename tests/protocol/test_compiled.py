"""protocol.compiled: the compiled core in use or not, the switch, and the one notice."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from protocol.compiled import FORCE, SAID, changed_source, compiled, manifest_text, write_manifest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """\
import rulesets.default.engine.hand as hand, scoring.fans as fans, server.seam.seeds as seeds
from protocol.compiled import STATE, note_plain
note_plain()
note_plain()
print(STATE, *(module.__file__.rpartition('.')[2] for module in (hand, fans, seeds)))
"""


def _run(args: list[str], force: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, FORCE: force}
    env.pop(SAID, None)  # the suite says it once itself (tests/conftest.py)
    return subprocess.run(args, cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=True)


def test_mahjong_pure_loads_every_module_from_source_and_says_so_once() -> None:
    done = _run([sys.executable, "-c", PROBE], "1")
    assert done.stdout.split() == ["forced", "py", "py", "py"]
    assert done.stderr.count("mahjong:") == 1
    assert f"plain Python, as {FORCE}=1 asks" in done.stderr


def test_server_simulate_on_plain_python_says_so_once_on_stderr() -> None:
    done = _run([sys.executable, "-m", "server.cli", "simulate", "--hands", "3", "--json"],
                "1")
    assert done.stderr.count("mahjong: plain Python") == 1
    assert '"hands": 3' in done.stdout


@pytest.mark.skipif(not compiled(), reason="the core is not compiled here")
def test_the_compiled_core_loads_its_extensions_and_says_nothing() -> None:
    done = _run([sys.executable, "-c", PROBE], "")
    assert done.stdout.split() == ["compiled", "so", "so", "so"]
    assert "mahjong:" not in done.stderr


def test_a_source_changed_since_the_build_is_found(tmp_path: Path) -> None:
    (tmp_path / "protocol").mkdir()
    core = tmp_path / "core.py"
    core.write_text("X = 1\n")
    write_manifest(["core.py"], tmp_path)
    assert changed_source(tmp_path) is None
    later = time.time() + 5
    os.utime(core, (later, later))  # touched (a checkout), the same text: still the build's
    assert changed_source(tmp_path) is None
    core.write_text("X = 2\n")
    assert changed_source(tmp_path) == "core.py"


def test_a_source_edited_while_the_build_ran_makes_the_build_outdated(tmp_path: Path) -> None:
    (tmp_path / "protocol").mkdir()
    core = tmp_path / "core.py"
    core.write_text("X = 1\n")
    taken = manifest_text(["core.py"], tmp_path)  # as the build began
    core.write_text("X = 22\n")  # edited while the compiler ran
    write_manifest(["core.py"], tmp_path, taken)  # the build ends
    assert changed_source(tmp_path) == "core.py"


def test_no_record_of_the_sources_is_a_wheel_whose_sources_are_not_edited(
        tmp_path: Path) -> None:
    assert changed_source(tmp_path) is None
