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


# The suite runs on pytest-xdist's workers (``-n auto --dist loadgroup`` in
# pyproject.toml), a file at a time: each file's tests stay together on one
# worker, so a module fixture that plays many matches at once plays them once.
# The files that start a Ray cluster share one group: one Ray on the machine at
# a time.
RAY_FILES = frozenset({"server/tournament/test_cluster.py", "server/cluster/test_cluster_units.py",
                       "rulesets/default/test_simulate_spread.py"})
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups: dict[str, str] = {}  # item -> its group
    for item in items:
        name = item.path.resolve().relative_to(TESTS).as_posix()
        group = groups[item.nodeid] = "ray" if name in RAY_FILES else name
        item.add_marker(pytest.mark.xdist_group(group))
    # The workers take the groups in the order they are first collected: by file name,
    # whatever the folder, as the suite ran when it was one folder (measured: the files
    # that start many processes then seldom run side by side).
    items.sort(key=lambda item: (item.path.name, groups[item.nodeid]))
