"""NOI 2014 matches through the real command line: bots in every interaction, the
contest's input line, the log, and hostile bots that hurt nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulesets.noi2014.verify import verify_path
from server.bots.botzone_io import NOI2014, BotzoneLimits, format_input
from tests.rulesets.botzone.test_match import HOSTILE, KEPT_TOO, server
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

DRAWN = "tests/bots/noi2014/drawn.py"
DISCARDER = "tests/bots/botzone/discarder.py"


def only_match(logs: Path) -> Path:
    (match,) = logs.iterdir()
    return match


def games_of(match: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((match / "games").glob("*/game.json"))]


def test_the_contest_input_line_has_its_fields_and_limits_as_the_statement_writes_them():
    line = format_input("json", ["0 1", "1 B1"], ["PASS"], "", "ignored", 1.0, 256, NOI2014)
    assert json.loads(line) == {"requests": ["0 1", "1 B1"], "responses": ["PASS"], "data": "",
                                "time_limit": "1000", "memory_limit": "256"}
    limits = BotzoneLimits(dialect=NOI2014)
    assert limits.seconds("cpp", first=True, kept=False) == 1.0  # no doubled first turn
    assert limits.seconds("python", first=False, kept=False) == 6.0


def test_a_round_in_every_interaction_plays_one_wall_four_times_with_seats_rotated(tmp_path):
    # the restarted two read their input to end of file, as Botzone's sample bot does
    bots = [f"json:python3 {DRAWN} --to-eof", f"json+keep-running:python3 {DRAWN} --keep",
            f"simple:python3 {DRAWN} --simple --to-eof",
            f"simple+keep-running:python3 {DRAWN} --simple --keep"]
    run = server("match", "--ruleset", "noi2014", "--format", "round", "--seed", "5", "-d",
                 "--log-dir", str(tmp_path), *bots, timeout=300)
    assert run.returncode == 0, run.stderr
    match = only_match(tmp_path)
    games = games_of(match)
    assert [g["order"] for g in games] == [[0, 1, 2, 3], [3, 0, 1, 2], [2, 3, 0, 1], [1, 2, 3, 0]]
    assert len({tuple(g["wall"]) for g in games}) == 1
    for game in games:
        entries = [e for seat in game["players"] for e in seat if e is not None]
        assert {e["verdict"] for e in entries} == {"OK"}
        result = game["judge"][-1]["result"]
        assert result["end"] == "wall" and not result["faulted"]
        assert sum(game["scores"]) == 10
        assert game["players"][0][0]["request"] == "0 0"
    meta = json.loads((match / "match.json").read_text())
    assert meta["ruleset"] == "noi2014" and meta["completed"]
    assert sum(r["points"] for r in meta["standings"]) == 40
    sheet = (match / "scoresheet.csv").read_text().splitlines()
    assert len(sheet) == 5 and sheet[1].split(",")[-4:] == [str(p) for p in games[0]["scores"]]


def test_data_is_carried_from_turn_to_turn_and_over_64_kib_is_a_fault(tmp_path):
    bots = [f"json:python3 {DISCARDER} json", f"json:python3 {DRAWN} --big-data",
            f"json:python3 {DRAWN}", f"json:python3 {DRAWN}"]
    run = server("match", "--ruleset", "noi2014", "--seed", "3", "-d", "--log-dir",
                 str(tmp_path), *bots, timeout=300)
    assert run.returncode == 0, run.stderr
    match = only_match(tmp_path)
    (game,) = games_of(match)
    # the two alike are named apart, in the standings and the scoresheet's columns
    names = [p["name"] for p in json.loads((match / "match.json").read_text())["players"]]
    assert names[2:] == [f"{bots[2]} (P2)", f"{bots[3]} (P3)"] and names[1] == bots[1]
    assert (match / "scoresheet.csv").read_text().splitlines()[0].endswith(
        f"{bots[2]} (P2),{bots[3]} (P3)")
    assert f"{bots[2]} (P2)" in run.stdout
    debugs = [e["debug"] for e in game["players"][0] if e is not None]
    assert debugs[0] == "n=1 data= global=" and debugs[2] == "n=3 data=2 global="
    first = game["players"][1][0]
    assert first["verdict"] == "BAD_OUTPUT" and "data longer than 65536 bytes" in first["cause"]


CASES = [(b, v, False) for b, v in HOSTILE] + [(b, v, True) for b, v in HOSTILE
                                                if b in KEPT_TOO]
IDS = [b for b, _ in HOSTILE] + [f"{b}-kept" for b, _ in HOSTILE if b in KEPT_TOO]


@pytest.fixture(scope="module")
def hostile_matches(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Any, Path]]:
    """One match per hostile behaviour (the hostile bot in seat 1, three kept discarders
    in the others), three matches at a time; each id's run and log folder."""
    from concurrent.futures import ThreadPoolExecutor

    def play(case: tuple[str, str | None, bool], name: str) -> tuple[Any, Path]:
        behaviour, _, kept = case
        logs = tmp_path_factory.mktemp(f"hostile-{name}")
        hostile = ("json+keep-running:" if kept else "json:") + \
            f"python3 tests/bots/botzone/hostile.py json {behaviour}" + \
            (" --kept" if kept else "")
        bots = [f"json+keep-running:python3 {DISCARDER} json 1000", hostile,
                f"simple+keep-running:python3 {DISCARDER} simple 1000",
                f"json+keep-running:python3 {DISCARDER} json 1000"]
        run = server("match", "--ruleset", "noi2014", "--time-limit", "0.25", "--seed", "2",
                     "-d", "--log-dir", str(logs), *bots, timeout=180)
        return run, logs

    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(play, case, name) for case, name in zip(CASES, IDS,
                                                                             strict=True)}
        return {name: future.result() for name, future in futures.items()}


@pytest.mark.slow
@pytest.mark.parametrize(("behaviour", "verdict", "kept"), CASES, ids=IDS)
def test_a_hostile_bot_is_faulted_and_the_others_play_on(behaviour, verdict, kept,
                                                         hostile_matches) -> None:
    run, logs = hostile_matches[f"{behaviour}-kept" if kept else behaviour]
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    match = only_match(logs)
    (game,) = games_of(match)
    result = game["judge"][-1]["result"]
    assert result["end"] == "wall"  # three well-behaved players play the wall out
    turns = [e for e in game["players"][1] if e is not None]
    if verdict is not None:
        assert result["faulted"] == [1] and game["scores"][1] == 1
        assert turns[-1]["verdict"] == verdict and turns[-1]["cause"]
        assert [len([e for e in seat if e]) for seat in game["players"]][1] == (2 if kept else 1)
    elif result["faulted"]:  # whatever its verdict, it is recorded with its cause
        assert result["faulted"] == [1] and turns[-1]["cause"]
    for seat in (0, 2, 3):
        assert all(e["verdict"] == "OK" for e in game["players"][seat] if e is not None)
    # verified in-process (what ``server verify`` runs; the command is tested on NOI 2014
    # matches in test_view_verify.py): eleven verify processes cost 7 s of CPU
    report = verify_path(match)
    assert report.ok, report.problems


def test_check_bot_passes_a_sound_bot_and_names_each_problem_of_a_bad_one() -> None:
    good = server("check-bot", "--ruleset", "noi2014", "--games", "1",
                  "keep-running:python3 sample_ai/noi2014/greedy_bot.py --keep-running",
                  timeout=180)
    assert good.returncode == 0, good.stdout + good.stderr
    assert "1 game(s), 0 problem(s)" in good.stdout
    # one that reads its input to end of file: no fault; its only problem is its
    # target ("B1", on purpose), which is not a fault in NOI 2014
    to_eof = server("check-bot", "--ruleset", "noi2014", "--games", "1",
                    f"simple:python3 {DRAWN} --simple --to-eof", timeout=180)
    assert to_eof.stdout.splitlines()[1:] == [
        "  its target hand is not valid: not a winning hand (4 sets and a pair) (answered 'B1')",
        "1 game(s), 1 problem(s)"], to_eof.stdout + to_eof.stderr
    garbage = server("check-bot", "--ruleset", "noi2014", "--games", "1",
                     "json:python3 tests/bots/botzone/hostile.py json garbage", timeout=180)
    assert garbage.returncode == 1
    assert "BAD_OUTPUT" in garbage.stdout and "request '0 " in garbage.stdout
