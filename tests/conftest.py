"""Suite-wide set-up: the repository's modules compiled once before any test runs.

The suite starts thousands of Python processes (servers, bots), each importing
this repository's packages. Where the environment sets PYTHONDONTWRITEBYTECODE
no process writes its bytecode, so every one of them would compile every module
it imports again (a fifth of a bot's start, a quarter of a server's). Compiled
once here, they all read it; a stale file is recompiled, so nothing changes but
the time.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("server", "protocol", "scoring", "sample_ai", "rulesets", "tests", "bench")


def pytest_sessionstart(session: pytest.Session) -> None:
    for name in PACKAGES:
        if (ROOT / name).is_dir():
            compileall.compile_dir(ROOT / name, quiet=2)
