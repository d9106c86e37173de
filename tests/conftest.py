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
import os
from pathlib import Path
from typing import Any

import pytest
from xdist.scheduler import LoadScopeScheduling

from protocol.compiled import SAID, notice

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("server", "protocol", "scoring", "sample_ai", "rulesets", "tests", "bench")


def pytest_report_header() -> str | None:
    """On plain Python (no compiler, MAHJONG_PURE=1, a stale build): said once, here."""
    return notice()


# The notice of plain Python is said once, in the header above, not by every command
# a test starts (tests/protocol/test_compiled.py checks it with the variable unset).
os.environ[SAID] = "1"


def pytest_sessionstart(session: pytest.Session) -> None:
    for name in PACKAGES:
        if (ROOT / name).is_dir():
            compileall.compile_dir(ROOT / name, quiet=2)


# The suite runs on pytest-xdist's workers (``-n auto --dist loadgroup`` in
# pyproject.toml), a file at a time: each file's tests stay together on one
# worker, so a module fixture that plays many matches at once plays them once.
# The files that start a Ray cluster share one group: one Ray on the machine at
# a time. The groups are made here (``group_of``, in ``GroupScheduling``), not by
# ``xdist_group`` marks: xdist 3.8 writes a mark's group into ``item._nodeid``,
# which pytest 9 no longer reads, so every test went to whichever worker was free
# and both workers played a file's module fixture, each all of its matches.
RAY_FILES = frozenset({"server/tournament/test_cluster.py", "server/cluster/test_cluster_units.py",
                       "rulesets/default/test_simulate_spread.py"})
TESTS = Path(__file__).resolve().parent


def group_of(path: str) -> str:
    """The group of a test file, by its path under tests/ (``rulesets/botzone/test_match.py``)."""
    return "ray" if path in RAY_FILES else path


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    groups = {item.nodeid: group_of(item.path.resolve().relative_to(TESTS).as_posix())
              for item in items}
    # The workers take the groups in the order they are first collected: the longest
    # files first (``LONGEST``, measured), so that no long file starts when the other
    # worker is nearly done and the suite's end waits for it alone; then by file name,
    # whatever the folder, as the suite ran when it was one folder (measured: the files
    # that start many processes then seldom run side by side).
    items.sort(key=lambda item: (LONGEST.get(groups[item.nodeid], len(LONGEST)),
                                 item.path.name, groups[item.nodeid]))
    # The longest groups are slow as a whole: ``pytest -m "not slow"``, the edit-test loop,
    # leaves them out with the tests marked one by one (the whole suite runs everything).
    for item in items:
        if groups[item.nodeid] in LONGEST:
            item.add_marker(pytest.mark.slow)


class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist: no types
    """xdist's scheduling by scope, a scope being a file's group (``group_of``)."""

    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return group_of(path.removeprefix(f"{TESTS.name}/"))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto``: one worker more than the cores this process may use. A worker spends
    part of its time waiting on its bots (their deadlines, their start-up), during which
    a core would idle: measured on the 2-core machine, the suite took 13 min 22 s on
    three workers and 15 min 41 s on two. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still rules."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + 1


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScopeScheduling | None:
    if config.getvalue("dist") != "loadgroup":
        return None  # another --dist asked for: xdist's own
    return GroupScheduling(config, log)


# The groups that take longest, longest first (seconds on one worker, from ``pytest
# --durations=0`` summed by group on the 2-core machine while other work loaded it, about
# 1.7 times its idle time): the Ray files (190 s), Botzone's sample bots (220, a third less
# since), the default ruleset's end-to-end matches (180), NOI 2014's matches, the
# tournaments and Botzone's commands (110 to 120 each), then 100 to 45 s each.
LONGEST = {group: rank for rank, group in enumerate((
    "ray", "sample_ai/test_botzone_sample_ai.py", "rulesets/default/test_match_e2e.py",
    "rulesets/noi2014/test_match.py", "server/tournament/test_tournament.py",
    "rulesets/botzone/test_commands.py", "server/bots/test_botzone_eof.py",
    "server/cli/test_compare_cmd.py", "rulesets/botzone/test_match.py",
    "server/bots/test_runtimes_limits.py", "server/bots/test_hostile.py",
    "rulesets/default/test_replay_verify.py", "server/bots/test_remote.py",
    "server/bots/test_botzone_bots.py", "rulesets/default/engine/test_hand_properties.py",
    "server/cli/test_cli_paths.py", "server/tournament/test_bot_stats.py",
    "test_student_bugs.py", "rulesets/noi2014/test_properties.py",
    "server/web/test_browser.py"))}
