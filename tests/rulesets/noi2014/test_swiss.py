"""The NOI 2014 contest's Swiss, whole: 12 sample bots (Python and C++), 4 rounds, a
player handing in a new program between rounds, a run killed and resumed."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_ai" / "noi2014"
# One seat order a table (each round then one game a table) and no sandbox: the Swiss's
# pairing, hand-in and resume are what this shows; the C++ bots restart every turn,
# which under bubblewrap tripled the time (tests/server/bots/test_hostile.py sandboxes).
SETTINGS = ["--ruleset", "noi2014", "--rounds", "4", "--orders", "1", "--seed", "14",
            "--sandbox", "none", "--jobs", "2"]


@pytest.fixture(scope="module")
def plain_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = need("g++")
    exe = tmp_path_factory.mktemp("cpp") / "plain_bot"
    subprocess.run([compiler, "-O2", "-std=c++17", "-o", str(exe),
                    str(SAMPLES / "plain_bot.cpp")], check=True, timeout=180)
    return exe


def field(folder: Path, plain: Path) -> Path:
    """12 entries: 4 greedy and 4 random Python bots (kept running, JSON and simple),
    4 C++; ``handin.py`` starts as the random bot and is handed in as the greedy one."""
    shutil.copyfile(SAMPLES / "random_bot.py", folder / "handin.py")
    lines = []
    for k in range(4):
        io = "simple" if k % 2 else "json"
        flag = " --simple" if io == "simple" else ""
        lines += [("greedy", k, f"{SAMPLES / 'greedy_bot.py'} --keep-running{flag}", io),
                  ("random", k, f"{SAMPLES / 'random_bot.py'} --keep-running{flag}", io),
                  ("cpp", k, str(plain), "json")]
    text = ""
    for kind, k, command, io in lines:
        if kind == "random" and k == 3:
            command = f"{folder / 'handin.py'} --keep-running"
            kind, io = "handin", "json"
        python = f"{sys.executable} " if command.split()[0].endswith(".py") else ""
        keep = "true" if "--keep-running" in command else "false"
        text += (f'[[bot]]\nname = "{kind}-{k}"\ncommand = "{python}{command}"\nio = "{io}"\n'
                 f'keep_running = {keep}\n')
    (folder / "BOTS.toml").write_text(text)
    return folder / "BOTS.toml"


def run_with_handin(folder: Path, out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("swiss_run.py")), str(folder / "handin.py"),
         str(SAMPLES / "greedy_bot.py"), "--", "server", "tournament", *extra,
         "--out", str(out)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True)


def done_tables(out: Path) -> list[tuple[int, int]]:
    db = out / "tournament.sqlite"
    if not db.exists():
        return []
    try:
        with sqlite3.connect(db, timeout=5) as con:
            return list(con.execute("SELECT round, tbl FROM tables WHERE status = 'done'"))
    except sqlite3.Error:
        return []


def standings(out: Path) -> list[tuple[str, float]]:
    rows = json.loads((out / "standings.json").read_text())
    rows = rows["standings"] if isinstance(rows, dict) else rows
    return [(r["bot"], r["points"]) for r in rows]


@pytest.mark.slow
def test_a_12_player_swiss_with_a_hand_in_completes_and_killed_and_resumed_ends_the_same(
        tmp_path: Path, plain_bot: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    bots_one, bots_two = field(one, plain_bot), field(two, plain_bot)

    # The whole run and the one to be killed play side by side (each spends much of its
    # time waiting on its bots), the whole one's standings read once both are over.
    whole = run_with_handin(one, one / "out", str(bots_one), *SETTINGS)
    killed = run_with_handin(two, two / "out", str(bots_two), *SETTINGS)
    try:
        deadline = time.monotonic() + 600
        while not any(r == 3 for r, _ in done_tables(two / "out")):  # the hand-in is done
            assert killed.poll() is None, killed.communicate()[1]
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.killpg(killed.pid, signal.SIGKILL)
        killed.communicate(timeout=60)
        assert len(done_tables(two / "out")) < 12
        _, errors = whole.communicate(timeout=600)
    finally:
        for run in (whole, killed):
            if run.poll() is None:
                os.killpg(run.pid, signal.SIGKILL)
                run.communicate(timeout=60)
    assert whole.returncode == 0, errors
    reference = standings(one / "out")
    assert len(reference) == 12
    resumed = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                              "tournament", "--resume", "--out", str(two / "out")], cwd=ROOT,
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert standings(two / "out") == reference

    with sqlite3.connect(one / "out" / "tournament.sqlite") as con:
        rows = list(con.execute(
            "SELECT p.round, p.hash FROM programs p JOIN entries e ON e.id = p.entry "
            "WHERE e.name = 'handin-3' ORDER BY p.round"))
    assert [r for r, _ in rows] == [1, 2, 3, 4]
    assert rows[0][1] == rows[1][1] != rows[2][1] == rows[3][1]
    points = dict(reference)
    greedy = sum(points[f"greedy-{k}"] for k in range(4)) / 4
    random_ = sum(points[f"random-{k}"] for k in range(3)) / 3
    assert greedy > random_ + 4  # per player, over 4 games of 4/3/2/1
