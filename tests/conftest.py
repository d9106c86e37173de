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
    # The workers take the groups in the order they are first collected: the longest
    # files first (``LONGEST``, measured), so that no long file starts when the other
    # worker is nearly done and the suite's end waits for it alone; then by file name,
    # whatever the folder, as the suite ran when it was one folder (measured: the files
    # that start many processes then seldom run side by side).
    items.sort(key=lambda item: (LONGEST.get(groups[item.nodeid], len(LONGEST)),
                                 item.path.name, groups[item.nodeid]))


# The groups that take longest, longest first (seconds on one worker of the 2-core CI
# machine, from ``pytest --durations``): botzone's recorded games replayed live (about
# 300 s), then the Ray files, the default ruleset's end-to-end matches, the Botzone sample
# bots' games, NOI 2014's whole Swiss, the tournaments (about 100 to 150 s each).
LONGEST = {group: rank for rank, group in enumerate((
    "rulesets/botzone/test_match.py", "ray", "rulesets/default/test_match_e2e.py",
    "sample_ai/test_botzone_sample_ai.py", "rulesets/noi2014/test_swiss.py",
    "server/tournament/test_tournament.py", "rulesets/noi2014/test_match.py",
    "rulesets/botzone/test_commands.py", "server/bots/test_hostile.py",
    "server/web/test_browser.py", "rulesets/default/engine/test_hand_properties.py"))}
