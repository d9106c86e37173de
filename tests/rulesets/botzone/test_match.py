"""Botzone matches end to end: real bot processes in every interaction, the log
re-judged, nothing left running.

The strongest check replays the games judged by the official judge
(tests/data/botzone): every one of them in-process, through the same turn
driver, judge, match folder and verify as the server command (seats that answer
from the record), and a few of them live (``LIVE``): four real bot processes
answer as the recorded seats did (``tests/bots/botzone/recorded.py``), from the
recorded initdata, in every interaction, through a recorded time-out and a
recorded crash, and the server must send every request, show every display and
give the scores of the recorded game again.

The matches are independent of one another: a module fixture plays those of the
selected tests three at a time (``tests.concurrent_runs``), each with its own
check that it left nothing running, and each test checks its own match as it
did when it played it alone.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import trio

from rulesets.botzone import formats
from rulesets.botzone.records import NAME
from rulesets.botzone.rules import BotzoneRules, game_header, parse_initdata
from rulesets.botzone.stats import game_facts
from rulesets.botzone.verify import verify_path
from server.seam.contract import GamePlan
from server.turns.match import TurnMatch, TurnPlayer, run_turn_match
from tests.concurrent_runs import Done, run_concurrently, selected
from tests.datadir import botzone_games
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
GAMES = botzone_games()
RECORDED = "tests/bots/botzone/recorded.py"
DISCARDER = "tests/bots/botzone/discarder.py"
# The games also replayed live, chosen to cover what only real processes show: every
# interaction (``modes``: a seat restarted every turn in JSON, c09 and d15, and in
# simple interaction, d11), a recorded time-out (c14, d12) and a recorded crash (c18,
# d11), both variants, and one whole real game (c02, 92 turns); all 34 are replayed
# in-process (``test_every_botzone_game_replayed_in_process_...``).
LIVE = [index for index, path in enumerate(GAMES) if path.stem in {
    "c02_real_mixed_discard_win", "c09_kong_flower_replacement", "c14_tle_test_bot",
    "c18_real_random_bot_re", "d11_re_test_bot", "d12_tle_test_bot", "d15_two_hu_claims"}]
VERIFIED_LIVE = "c02_real_mixed_discard_win"  # by ``server verify``; the others in-process


def modes(index: int) -> list[tuple[str, str]]:
    """How each seat of game ``index`` talks: kept running, in JSON and simple
    interaction by turns; in every fourth game one seat (moving) is restarted every
    turn instead, in JSON or simple interaction by turns."""
    kept = [("json+keep-running", "json keep"), ("simple+keep-running", "simple keep")]
    seats = [kept[(index + seat) % 2] for seat in range(4)]
    if index % 4 == 0:
        seats[index // 4 % 4] = ("json", "") if index % 8 == 0 else ("simple", "simple")
    return seats


def server(*args: str, timeout: float = 300,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**(env or os.environ), "COLUMNS": "200"})


def only_game(logs: Path) -> tuple[Path, dict[str, Any]]:
    (match,) = logs.iterdir()
    return match, json.loads((match / "games" / "001" / "game.json").read_text())


@dataclass(frozen=True)
class Played:
    """``server match ARGS -d --log-dir LOGS``, then ``server verify`` of the match it logged."""

    logs: Path
    run: subprocess.CompletedProcess[str]
    verify: subprocess.CompletedProcess[str] | None  # None: not one match folder to verify


def match_job(logs: Path, args: list[str], timeout: float = 300,
              verify: bool = True) -> Callable[[dict[str, str]], Played]:
    """The match, then ``server verify`` of it unless ``verify`` is false (the test then
    verifies in-process: ``verify_path`` is what the command runs; the command itself is
    started by the tests of the one game and of the replays)."""
    def job(env: dict[str, str]) -> Played:
        run = server("match", *args, "-d", "--log-dir", str(logs), timeout=timeout, env=env)
        folders = list(logs.iterdir()) if logs.is_dir() else []
        checked = server("verify", str(folders[0]), env=env) \
            if verify and len(folders) == 1 else None
        return Played(logs, run, checked)
    return job


@pytest.fixture(scope="module")
def played(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> dict[str, Done[Played]]:
    """The match of every selected test, three at a time, the longest first."""
    jobs: dict[str, Callable[[dict[str, str]], Played]] = {}
    for _ in selected(request, "test_one_game_in_every_interaction_is_logged_verified_and_"
                               "leaves_nothing"):
        jobs["one game"] = match_job(tmp_path_factory.mktemp("one-game"), ONE_GAME)
    for params in selected(request, "test_a_hostile_bot_gets_its_verdict_and_the_penalty_and_"
                                    "hurts_nothing"):
        behaviour, kept = params["behaviour"], params["kept"]
        jobs[f"hostile {behaviour} {kept}"] = match_job(
            tmp_path_factory.mktemp("hostile"), hostile_args(behaviour, kept), timeout=120,
            verify=False)
    for params in selected(request, "test_a_game_judged_on_botzone_played_again_live_gives_"
                                    "every_request_display_and_score"):
        index = params["index"]
        jobs[f"replay {index}"] = match_job(tmp_path_factory.mktemp("replay"), replay_args(index),
                                            verify=GAMES[index].stem == VERIFIED_LIVE)
    return run_concurrently(jobs, workers=3)


def replay_args(index: int) -> list[str]:
    path = GAMES[index]
    recorded = json.loads(path.read_text(encoding="utf-8"))
    bots = [f"{mode}:python3 {RECORDED} {path} {seat} {extra}".strip()
            for seat, (mode, extra) in enumerate(modes(index))]
    return ["--ruleset", "botzone", "--variant", recorded["variant"], "--initdata", str(path),
            "--time-limit", "0.25", "--seed", "1", *bots]


def assert_replayed(game: dict[str, Any], recorded: dict[str, Any]) -> None:
    """Every display, every request to every seat, every verdict and the scores of the
    recorded game."""
    for k, (ours, theirs) in enumerate(zip(game["judge"], recorded["judge"], strict=True)):
        assert ours == theirs, f"judge turn {k}"
    for seat in range(4):
        assert [t["request"] for t in game["players"][seat]] == \
            [t["request"] for t in recorded["players"][seat]]
        assert [t["verdict"] for t in game["players"][seat]] == \
            [t["verdict"] for t in recorded["players"][seat]]
    assert game["scores"] == recorded["scores"]


@pytest.mark.slow
@pytest.mark.parametrize("index", LIVE, ids=[GAMES[index].stem for index in LIVE])
def test_a_game_judged_on_botzone_played_again_live_gives_every_request_display_and_score(
        index: int, played: dict[str, Done[Played]]) -> None:
    recorded = json.loads(GAMES[index].read_text(encoding="utf-8"))
    done = played[f"replay {index}"].result()
    run = done.run
    assert run.returncode == 0, run.stderr
    match, game = only_game(done.logs)
    assert_replayed(game, recorded)
    if GAMES[index].stem == VERIFIED_LIVE:
        check = done.verify
        assert check is not None and check.returncode == 0, check and check.stdout
    else:
        report = verify_path(match)
        assert report.ok, report.problems


@dataclass(frozen=True)
class Answer:
    """An answer as a bot transport reports it (``server.turns.driver.Answered``)."""

    verdict: str
    response: str | None
    debug: str | None = None
    ms: int = 0
    cause: str = ""


class RecordedSeat:
    """One seat of a recorded game, in-process: on its k-th request it gives the verdict
    and the response of the seat's k-th recorded turn, as ``recorded.py`` does live (a
    recorded TLE or RE is that verdict, without the wait or the crash), and it fails on a
    request that is not the recorded one."""

    def __init__(self, turns: list[dict[str, Any]]) -> None:
        self.turns = turns
        self.asked = 0

    async def ask(self, request: str) -> Answer:
        turn = self.turns[self.asked]
        assert request == turn["request"], f"turn {self.asked}"
        self.asked += 1
        ok = turn["verdict"] == "OK"
        return Answer(turn["verdict"], turn["response"] if ok else None,
                      cause="" if ok else f"recorded {turn['verdict']}")


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_botzone_game_replayed_in_process_gives_every_request_display_and_score(
        path: Path, tmp_path: Path) -> None:
    """What ``server match --ruleset botzone --initdata GAME`` plays, with the match's own
    driver, judge and folder, its seats answering from the record; then verified."""
    recorded = json.loads(path.read_text(encoding="utf-8"))

    @asynccontextmanager
    async def opener(player: int, seat: int, plan: GamePlan,
                     stderr: Path | None) -> AsyncIterator[RecordedSeat]:
        yield RecordedSeat(recorded["players"][seat])

    variant = recorded["variant"]
    root = tmp_path / "match"
    match = TurnMatch(NAME, [TurnPlayer(f"seat {s}", f"recorded {s}") for s in range(4)],
                      formats.one_game(1, parse_initdata(str(path))), BotzoneRules(variant),
                      opener, root, meta={"variant": variant, "format": "one", "seed": 1},
                      header=game_header, facts=game_facts)
    trio.run(run_turn_match, match)
    _, game = only_game(tmp_path)
    assert game["initdata"] == recorded["initdata"]
    assert_replayed(game, recorded)
    report = verify_path(root)
    assert report.ok, report.problems


ONE_GAME = ["--ruleset", "botzone", "--seed", "5",
            f"json:python3 {DISCARDER} json", f"simple:python3 {DISCARDER} simple",
            f"json+keep-running:python3 {DISCARDER} json 1000",
            f"simple+keep-running:python3 {DISCARDER} simple 1000"]


def test_one_game_in_every_interaction_is_logged_verified_and_leaves_nothing(
        played: dict[str, Done[Played]]) -> None:
    done = played["one game"].result()
    run = done.run
    assert run.returncode == 0, run.stderr
    assert "game 1/1 (one game): draw (HUANG)" in run.stderr
    match, game = only_game(done.logs)
    assert game["ruleset"] == "botzone" and game["variant"] == "classic"
    assert game["initdata"] == {"srand": game["judge"][0]["initdata"]["srand"]}
    assert len(game["judge"][0]["initdata"]["walltiles"].split()) == 144
    assert all(t["verdict"] == "OK" and t["ms"] >= 0 for p in game["players"] for t in p)
    # data and globaldata went from turn to turn (the discarder's debug tells what it got)
    assert game["players"][0][3]["debug"] == "n=4 data=3 global=1"
    assert game["players"][2][3]["debug"] == "n=4 kept"
    meta = json.loads((match / "match.json").read_text())
    assert meta["completed"] and [r["points"] for r in meta["standings"]] == [2.5] * 4
    check = done.verify
    assert check is not None and check.returncode == 0 and "all agree" in check.stdout, \
        check and check.stdout


@pytest.mark.slow
def test_a_short_duplicate_match_ranks_each_wall_and_its_report_has_every_game(
        tmp_path: Path) -> None:
    compiler = shutil.which("g++")
    fast = []
    if compiler is not None:
        exe = tmp_path / "drawn_discard"
        subprocess.run([compiler, "-O2", "-o", str(exe), "bench/bots/drawn_discard.cpp"],
                       cwd=ROOT, check=True, timeout=120)
        fast = [f"simple+keep-running:{exe}"]
    bots = [*fast, *[f"{mode}+keep-running:python3 {DISCARDER} {mode} 1000"
                     for mode in ("json", "simple", "json", "simple")]][:4]
    logs = tmp_path / "logs"
    run = server("match", "--ruleset", "botzone", "--format", "duplicate", "--walls", "2",
                 "--orders", "4", "--variant", "duplicate", "--seed", "11", "-d", "--log-dir",
                 str(logs), *bots, timeout=600)
    assert run.returncode == 0, run.stderr
    (match,) = logs.iterdir()
    meta = json.loads((match / "match.json").read_text())
    assert len(meta["plan"]) == 8 and meta["format"] == "duplicate"
    assert sum(r["points"] for r in meta["standings"]) == 20  # 4+3+2+1 on each of 2 walls
    assert {r["games"] for r in meta["standings"]} == {8}
    check = server("verify", str(match))
    assert check.returncode == 0, check.stdout
    report = server("report", str(match), "--html", str(tmp_path / "report" / "index.html"))
    assert report.returncode == 0, report.stderr
    assert len(list((tmp_path / "report" / "index-games").glob("*.html"))) == 8


HOSTILE = [("silent", "TLE"), ("crash", "RE"), ("garbage", "BAD_OUTPUT"),
           ("memory_hog", "MLE"), ("daemon", None), ("ignore_sigterm", None),
           ("marker_only", "BAD_OUTPUT"), ("answer_no_exit", "TLE"), ("close_stdout", None)]
KEPT_TOO = ("silent", "crash")  # also on a kept bot's turn


@pytest.mark.slow
@pytest.mark.parametrize(("behaviour", "verdict", "kept"),
                         [(b, v, False) for b, v in HOSTILE] + [(b, v, True) for b, v in HOSTILE
                                                               if b in KEPT_TOO],
                         ids=[b for b, _ in HOSTILE] + [f"{b}-kept" for b, _ in HOSTILE
                                                         if b in KEPT_TOO])
def test_a_hostile_bot_gets_its_verdict_and_the_penalty_and_hurts_nothing(
        behaviour: str, verdict: str | None, kept: bool, played: dict[str, Done[Played]]) -> None:
    done = played[f"hostile {behaviour} {kept}"].result()
    run = done.run
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    match, game = only_game(done.logs)
    final = game["judge"][-1]
    assert final["command"] == "finish"
    turns = game["players"][1]
    if verdict is not None:
        assert final["display"]["action"] == verdict and final["display"]["player"] == 1
        assert game["scores"] == [10, -30, 10, 10]
        assert turns[-1]["verdict"] == verdict and turns[-1]["cause"]
    report = verify_path(match)
    assert report.ok, report.problems


# The daemon-leaving bot answers every turn, restarted each time: against three discarders
# the game is the whole wall (175 starts, each leaving a daemon: 21 s of CPU); with the
# greedy sample in seat 0 on seed 11's wall greedy wins at turn 43, 43 daemons cleaned up
# (with 1 s a turn: at 0.2 s the greedy bot timed out on the loaded machine, ending the game
# at another turn each run).
SHORT_GAME = {"daemon"}


def hostile_args(behaviour: str, kept: bool) -> list[str]:
    hostile = ("json+keep-running:" if kept else "json:") + \
        f"python3 tests/bots/botzone/hostile.py json {behaviour}" + (" --kept" if kept else "")
    first = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running" \
        if behaviour in SHORT_GAME else f"json+keep-running:python3 {DISCARDER} json 1000"
    bots = [first, hostile, f"simple+keep-running:python3 {DISCARDER} simple 1000",
            f"json+keep-running:python3 {DISCARDER} json 1000"]
    seed, limit = ("11", "1") if behaviour in SHORT_GAME else ("2", "0.2")
    return ["--ruleset", "botzone", "--time-limit", limit, "--seed", seed, *bots]
