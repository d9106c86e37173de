"""End of input and the keep-running setting of bots on Botzone's protocol (SPEC-botzone
§7), with bots that read their whole input to end of file as Botzone's sample bot does
(jsoncpp's ``cin >> value``): ``tests/bots/botzone/to_eof.py`` (JSON and simple),
``to_eof.cpp``, ``like_sample.py``, and NOI 2014's ``drawn.py --to-eof``.

A restarted bot's input is closed once its request is written. Keep-running is a
setting chosen before the game (``json+keep-running:CMD``, ``keep_running = true``
in BOTS.toml): only a bot with it on keeps its input open and is kept when it
prints the marker; a marker from a bot with it off is answered and the bot is
restarted on its next turn.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from server.bots.botzone_bots import open_botzone_bot, parse_spec
from server.seam.registry import load
from server.tournament.entries import EntriesError, load_entries
from tests.rulesets.botzone.test_match import server
from tests.server.bots.test_botzone_bots import ANSWERS, HANG_LIMITS, LIMITS, MARGIN, TURNS
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)
from tests.system_tools import need

PY = sys.executable
ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots" / "botzone"
TO_EOF = BOTS / "to_eof.py"
DISCARDER = BOTS / "discarder.py"
HOSTILE = BOTS / "hostile.py"
SAMPLE = BOTS / "like_sample.py"
DRAWN = ROOT / "tests" / "bots" / "noi2014" / "drawn.py"
# A duplicate wall of 4 x 17 tiles: 13 dealt and 4 drawn a seat, a full game of 35 turns.
KINDS = [s + str(n) for s in "WBT" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1",
                                                               "J2", "J3"]
SHORT_WALL = " ".join(KINDS[(7 * k) % len(KINDS)] for k in range(68))


@pytest.fixture(scope="module")
def cpp_to_eof(tmp_path_factory: pytest.TempPathFactory) -> Path:
    compiler = need("g++")
    exe = tmp_path_factory.mktemp("to-eof") / "to_eof"
    subprocess.run([compiler, "-O2", "-o", str(exe), str(BOTS / "to_eof.cpp")], check=True,
                   timeout=120)
    return exe


# --- one bot, turn by turn ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_a_restarted_bot_reading_to_end_of_file_answers_every_turn(mode: str) -> None:
    async with open_botzone_bot(parse_spec(f"{mode}:{PY} {TO_EOF} {mode}"), "s0",
                                LIMITS) as bot:
        for n, (request, want) in enumerate(zip(TURNS, ANSWERS, strict=True), start=1):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response, answer.cause) == ("OK", want, ""), answer
            assert answer.debug == f"n={n} data={'' if n == 1 else n - 1} eof"
        assert bot.restarts == len(TURNS)


async def test_the_sample_like_bot_and_a_cpp_one_reading_to_end_of_file_answer(
        cpp_to_eof: Path) -> None:
    for spec in (f"json:{PY} {SAMPLE}", f"json:{cpp_to_eof}"):
        async with open_botzone_bot(parse_spec(spec), "s0", LIMITS) as bot:
            for request in TURNS:
                answer = await bot.ask(request)
                assert answer.verdict == "OK", (spec, answer)
            assert answer.response == "PASS"
            assert (await bot.ask("2 W7")).response.startswith("PLAY ")


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_a_marker_from_a_bot_with_keep_running_off_is_answered_and_it_is_restarted(
        mode: str) -> None:
    """The discarder asks to keep running after every answer; with the setting off each
    turn restarts it with the whole history, its data and globaldata."""
    async with open_botzone_bot(parse_spec(f"{mode}:{PY} {DISCARDER} {mode} 100"), "s1",
                                LIMITS) as bot:
        for n, (request, want) in enumerate(zip(TURNS, ANSWERS, strict=True), start=1):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response) == ("OK", want), answer
            first = n == 1
            assert answer.debug == f"n={n} data={'' if first else n - 1} " \
                                   f"global={'' if first else '1'}"
            assert bot._kept is None
        assert bot.restarts == len(TURNS)


async def test_what_a_bot_does_after_its_marker_does_not_count_with_keep_running_off() -> None:
    """It answers, prints the marker, reads to end of input and crashes: the answer stands."""
    spec = parse_spec(f"json:{PY} {HOSTILE} json marker_then_crash_at_eof")
    async with open_botzone_bot(spec, "s2", LIMITS) as bot:
        for request in ("2 W1", "2 W2"):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response) == ("OK", f"PLAY {request[2:]}"), answer
        assert bot.restarts == 2


async def test_with_keep_running_on_the_input_stays_open_so_reading_to_its_end_times_out(
        ) -> None:
    spec = parse_spec(f"json+keep-running:{PY} {TO_EOF} json")
    assert spec.keep_running
    async with open_botzone_bot(spec, "s3", HANG_LIMITS) as bot:
        limit = HANG_LIMITS.seconds("python", first=True, kept=False)
        start = trio.current_time()
        answer = await bot.ask("2 W1")
        assert limit <= trio.current_time() - start < limit + MARGIN
    assert answer.verdict == "TLE"
    assert answer.cause == (f"no complete answer within {limit:g} s (nothing printed; with "
                            "keep-running on its input stays open, so a bot that reads to the "
                            "end of its input never answers)")


# --- the setting in a bots file -----------------------------------------------------------------


def write_bots(path: Path, entries: list[tuple[str, str, str]]) -> Path:
    """BOTS.toml of (name, command, extra TOML lines)."""
    path.write_text("".join(f'[[bot]]\nname = "{name}"\ncommand = "{command}"\n{extra}\n'
                            for name, command, extra in entries))
    return path


@pytest.mark.parametrize("ruleset", ["botzone", "noi2014"])
def test_keep_running_in_a_bots_file_is_stored_in_the_command_and_read_back(
        ruleset: str, tmp_path: Path) -> None:
    bot = f"{PY} {DISCARDER}"
    path = write_bots(tmp_path / "BOTS.toml", [
        ("plain", f"{bot} json", ""), ("off", f"{bot} json", "keep_running = false"),
        ("kept", f"{bot} json 9", "keep_running = true"),
        ("simple-kept", f"{bot} simple 9", 'io = "simple"\nkeep_running = true')])
    entries = load_entries(path, ruleset)
    rules = load(ruleset)
    prefixes = [rules.split_command(e.command)[0] for e in entries]
    assert prefixes == ["json:", "json:", "json+keep-running:", "simple+keep-running:"]
    specs = [parse_spec(e.command[0]) for e in entries]
    assert [(s.mode, s.keep_running) for s in specs] == [
        ("json", False), ("json", False), ("json", True), ("simple", True)]
    assert specs[3].argv == (PY, str(DISCARDER), "simple", "9")
    (fill_in,) = rules.fill_in_command(0)  # the house bot asks to keep running: it may
    assert parse_spec(fill_in).keep_running


@pytest.mark.parametrize(("ruleset", "extra", "says"), [
    ("botzone", 'keep_running = "yes"', "bot 'b': keep_running must be true or false, not 'yes'"),
    ("noi2014", "keep_running = 1", "bot 'b': keep_running must be true or false, not 1"),
    ("default", "keep_running = true", "bot 'b': keep_running: a setting of bots on Botzone's "
                                       "protocol (rulesets botzone, noi2014)"),
])
def test_a_bad_keep_running_in_a_bots_file_is_named(ruleset: str, extra: str, says: str,
                                                   tmp_path: Path) -> None:
    path = write_bots(tmp_path / "BOTS.toml", [("a", f"{PY} {DISCARDER} json", ""),
                                               ("b", f"{PY} {DISCARDER} json", extra)])
    with pytest.raises(EntriesError) as caught:
        load_entries(path, ruleset)
    assert str(caught.value).startswith(f"{path}: ") and says in str(caught.value)


def test_a_bad_setting_exits_2_with_one_line(tmp_path: Path) -> None:
    path = write_bots(tmp_path / "BOTS.toml", [("a", f"{PY} {DISCARDER} json", ""),
                                               ("b", f"{PY} {DISCARDER} json", "keep_running = 2")])
    run = server("tournament", str(path), "--ruleset", "botzone", "--out", str(tmp_path / "o"))
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert "keep_running must be true or false, not 2" in run.stderr
    bot = f"{PY} {DISCARDER} json"
    run = server("match", "--ruleset", "botzone", *[f"json+keep:{bot}"] * 4)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1, run.stderr
    assert "json+keep: is not a mode or a setting" in run.stderr


# --- whole games through the command line -------------------------------------------------------


def test_a_botzone_match_of_bots_reading_to_end_of_file_plays_with_no_fault(
        tmp_path: Path) -> None:
    """One full game on a short wall, in both interactions, the sample-like bot among them;
    its record keeps every seat's setting."""
    initdata = json.dumps({"srand": 3, "quan": 1, "walltiles": SHORT_WALL})
    bots = [f"json:{PY} {TO_EOF} json", f"simple:{PY} {TO_EOF} simple", f"json:{PY} {SAMPLE}",
            f"simple+keep-running:{PY} {DISCARDER} simple 1000"]
    run = server("match", "--ruleset", "botzone", "--variant", "duplicate", "--initdata",
                 initdata, "--seed", "1", "-d", "--log-dir", str(tmp_path), *bots)
    assert run.returncode == 0, run.stderr
    (match,) = tmp_path.iterdir()
    game = json.loads((match / "games" / "001" / "game.json").read_text())
    assert game["judge"][-1]["display"]["action"] == "HUANG"
    assert len(game["judge"]) == 35
    assert {t["verdict"] for seat in game["players"] for t in seat if t} == {"OK"}
    assert game["players"][0][1]["debug"] == "n=2 data=1 eof"
    meta = json.loads((match / "match.json").read_text())
    assert [p["spec"] for p in meta["players"]] == bots
    check = server("verify", str(match))
    assert check.returncode == 0 and "all agree" in check.stdout, check.stdout


@pytest.mark.slow
def test_a_botzone_tournament_plays_bots_reading_to_end_of_file_with_no_fault(
        tmp_path: Path, cpp_to_eof: Path) -> None:
    """One table, one game: bots reading to end of file (Python, C++), a kept one and the
    house's fill-in (kept too)."""
    path = write_bots(tmp_path / "BOTS.toml", [
        ("eof", f"{PY} {TO_EOF} json", ""),
        ("eof-cpp", str(cpp_to_eof), "keep_running = false"),
        ("kept-b", f"{PY} {DISCARDER} simple 1000", 'io = "simple"\nkeep_running = true')])
    out = tmp_path / "out"
    run = server("tournament", str(path), "--ruleset", "botzone", "--walls", "1", "--orders",
                 "1", "--rounds", "1", "--variant", "duplicate", "--seed", "4", "--out",
                 str(out))
    assert run.returncode == 0, run.stderr
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        commands = {name: json.loads(c)[0] for name, c in
                    db.execute("SELECT name, command FROM entries")}
    finally:
        db.close()
    assert commands["eof"].startswith("json:") and commands["eof-cpp"].startswith("json:")
    assert commands["kept-b"].startswith("simple+keep-running:")
    assert commands["fill-in-1"].startswith("json+keep-running:")
    (game,) = [json.loads(p.read_text()) for p in out.glob("matches/*/games/*/game.json")]
    assert {t["verdict"] for seat in game["players"] for t in seat if t} == {"OK"}
    assert game["judge"][-1]["display"]["action"] in ("HUANG", "HU")


def test_a_noi2014_tournament_plays_bots_reading_to_end_of_file_with_no_fault(
        tmp_path: Path) -> None:
    """NOI 2014's bots speak the same protocol: restarted bots reading to end of file, in
    JSON and in simple interaction, beside a kept one, through a tournament's table."""
    path = write_bots(tmp_path / "BOTS.toml", [
        ("eof-json", f"{PY} {DRAWN} --to-eof", ""),
        ("eof-simple", f"{PY} {DRAWN} --simple --to-eof", 'io = "simple"'),
        ("eof-json-2", f"{PY} {DRAWN} --to-eof", "keep_running = false"),
        ("kept", f"{PY} {DRAWN} --keep", "keep_running = true")])
    out = tmp_path / "out"
    run = server("tournament", str(path), "--ruleset", "noi2014", "--walls", "1", "--orders",
                 "1", "--rounds", "1", "--seed", "4", "--out", str(out))
    assert run.returncode == 0, run.stderr
    (game,) = [json.loads(p.read_text()) for p in out.glob("matches/*/games/*/game.json")]
    assert {t["verdict"] for seat in game["players"] for t in seat if t} == {"OK"}
    assert not game["judge"][-1]["result"]["faulted"]
    standings = json.loads((out / "standings.json").read_text())["standings"]
    assert len(standings) == 4 and all(row["faults"] == 0 for row in standings), standings
