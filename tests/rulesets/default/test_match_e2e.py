"""The match server end to end: real bot processes, real pipes, real time.

The bots are the tiny programs in ``tests/bots`` (one behaviour each) and the
sample AIs. Some tests run the ``server`` command as a subprocess, as a person
would; those that need a chosen hand or a short real deadline call
``play_match_hand`` in-process, which starts, plays and kills real processes
just the same. Deadlines are real here, so timing assertions allow hundreds of
milliseconds of slack, and fines are checked against the times the server
recorded rather than against the bots' nominal delays.

After every test, no process started for it may be left running (the
``no_leftover_bots`` fixture).
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import json
import os
import shlex
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import structlog

from rulesets.default.engine.rng import HandPlan, match_plan
from rulesets.default.logs import MatchFiles
from rulesets.default.match import HandSummary, MatchConfig, Player, play_match_hand
from rulesets.default.table import fine_for
from server.bots.seats import TableOptions
from tests.server.cli.inprocess import server_here
from tests.signals import ctrl_c_works

ROOT = Path(__file__).resolve().parents[3]
BOTS = "tests/bots"
DRAWBOT = f"{BOTS}/drawbot.py"
GREEDY = "sample_ai/greedy.py"
RANDOM = "sample_ai/random_bot.py"
TAG = "MATCH_E2E_TEST_TAG"
DEFAULT_OPTIONS = TableOptions()


# --- no process is left behind ---------------------------------------------------------


def _bot_processes() -> dict[int, tuple[str, str]]:
    """Live processes running a test bot or a sample AI: pid -> (cmdline, environ)."""
    found: dict[int, tuple[str, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            if "tests/bots" not in cmdline and "sample_ai" not in cmdline:
                continue
            environ = (entry / "environ").read_bytes().decode(errors="replace")
        except OSError:  # gone meanwhile, or not ours to read
            continue
        found[int(entry.name)] = (cmdline, environ)
    return found


@pytest.fixture(autouse=True)
def no_leftover_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Fail the test if a bot it started (directly or through the server) survives it.

    Every process the test starts inherits a unique tag in its environment, so
    bots of other sessions running on the same machine are not mistaken for
    ours. The venv's ``bin`` goes first on PATH so that the bots' ``#!/usr/bin/env
    python3`` finds a plain interpreter rather than a slower shim.
    """
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    before = set(_bot_processes())
    yield tag
    leftovers = {pid: cmd for pid, (cmd, env) in _bot_processes().items()
                 if pid not in before and f"{TAG}={tag}" in env}
    for pid in leftovers:  # a bot leads its own process group; a server does not
        with contextlib.suppress(OSError):
            os.killpg(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not leftovers, f"bot processes left running: {leftovers}"


def our_bots(tag: str) -> list[int]:
    return [pid for pid, (_, env) in _bot_processes().items() if f"{TAG}={tag}" in env]


# --- helpers --------------------------------------------------------------------------------


def server_argv(*args: str) -> list[str]:
    return [sys.executable, "-c", "from server.cli.app import main; main()", *args]


def run_server(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(server_argv(*args), cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "200"})


def match_dir(log_dir: Path) -> Path:
    (folder,) = [p for p in log_dir.iterdir() if p.is_dir()]
    return folder


def read_sheet(folder: Path) -> list[list[str]]:
    with (folder / "scoresheet.csv").open(newline="") as f:
        return list(csv.reader(f))


def hand_records(hand_dir: Path) -> dict[str, Any]:
    """events.jsonl of one hand: the header, events, inputs and result."""
    records: dict[str, Any] = {"event": [], "input": []}
    for line in (hand_dir / "events.jsonl").read_text().splitlines():
        record = json.loads(line)
        kind = record.pop("type")
        if kind in ("event", "input"):
            records[kind].append(record)
        else:
            records[kind] = record
    return records


def hand_dirs(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir())


async def play_hands(players: Sequence[str], seed: int, numbers: Sequence[int], root: Path,
                     options: TableOptions = DEFAULT_OPTIONS) -> list[HandSummary]:
    """Play chosen hands of a match in-process, with real bot processes.

    ``players`` are AI arguments as on the command line, relative to the repository.
    """
    argvs = [(str(ROOT / p.split()[0]), *p.split()[1:]) for p in players]
    cfg = MatchConfig(tuple(Player(p, argv) for p, argv in zip(players, argvs, strict=True)),
                      seed, 1, root, options)
    plans: dict[int, HandPlan] = {p.number: p for p in match_plan(seed, 1)}
    files = MatchFiles(root)
    summaries = [await play_match_hand(cfg, plans[n], files, structlog.get_logger())
                 for n in numbers]
    files.close([0, 0, 0, 0])
    return summaries


def answer_limits(transcript: Path) -> list[int]:
    """The time limit (ms) of each answer a seat gave, from its transcript.

    An answer answers the last prompt written before it: ``pick`` (1000 ms),
    ``mout`` or ``mjgang`` (500 ms). (Enough for bots that never claim.)
    """
    limits: list[int] = []
    limit = 0
    for line in transcript.read_text().splitlines():
        _, direction, keyword, *_ = line.split()
        if direction == ">":
            limit = {"pick": 1000, "mout": 500, "mjgang": 500}.get(keyword, limit)
        elif keyword != "join":
            limits.append(limit)
    return limits


def assert_autoplayed_after_fault(records: dict[str, Any], seat: int) -> None:
    """After its fault, the seat discarded each tile it drew, by the server's hand."""
    events = records["event"]
    fault_at = next(i for i, e in enumerate(events) if e["kind"] == "fault" and e["seat"] == seat)
    picks = [i for i, e in enumerate(events)
             if i > fault_at and e["kind"] == "pick" and e["seat"] == seat]
    assert len(picks) > 10
    for i in picks:
        assert events[i + 1] == {"kind": "out", "seat": seat, "tile": events[i]["tile"]}
    auto = [i for i in records["input"] if i["seat"] == seat and i.get("fault") == "auto"]
    assert sum(1 for i in auto if i["line"].startswith("out ")) >= len(picks)


@pytest.fixture(autouse=True)
def _quiet_logs() -> Iterator[None]:
    import logging

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    yield
    structlog.reset_defaults()


# --- every way a hand can end ----------------------------------------------------------------

# Found by playing the sample AIs in-process (``rulesets.default.engine.simulate.play_hand``)
# over the first hands of many match seeds: (match seed, hand number) for each ending.
# The sample AIs are deterministic only given ``--seed``.
SEEDED = [f"{GREEDY} --seed 7", f"{GREEDY} --seed 7", f"{RANDOM} --seed 7",
          f"{RANDOM} --seed 7"]
ENDINGS = [
    ("draw", [DRAWBOT] * 4, 3, 0),
    ("ron", SEEDED, 0, 0),
    ("tsumo", SEEDED, 0, 1),
    ("qgang", SEEDED, 280, 2),
]


@pytest.mark.parametrize(("ending", "players", "seed", "number"), ENDINGS,
                         ids=[e[0] for e in ENDINGS])
async def test_hand_completes_with_each_kind_of_ending(
        tmp_path: Path, ending: str, players: list[str], seed: int, number: int) -> None:
    (summary,) = await play_hands(players, seed, [number], tmp_path)
    result = summary.outcome.engine.result
    assert result is not None
    assert summary.faults == []
    assert (result.kind.value if result.kind else "draw") == ending
    assert sum(summary.points) == 0
    assert summary.fines == [0, 0, 0, 0]
    (hand_dir,) = hand_dirs(tmp_path)
    records = hand_records(hand_dir)
    assert records["result"]["result"] == ending
    log_tail = (hand_dir / "game.log").read_text().splitlines()[-1]
    if ending == "draw":
        assert log_tail == "draw"
    else:
        assert log_tail.startswith("score ")
    (row,) = read_sheet(tmp_path)[1:-1]
    assert row[7] == ending


# --- time: fines and the hard limit ----------------------------------------------------------


async def test_slow_bot_is_fined_exactly_per_spec(tmp_path: Path) -> None:
    """1.2 s before a discard is 2 points (floor((1200 - 1000 + 50) / 100)), each time."""
    turns = 3
    slow = f"{BOTS}/slow.py --delay 1.2 --turns {turns}"
    (summary,) = await play_hands([slow, DRAWBOT, DRAWBOT, DRAWBOT], 3, [0], tmp_path)
    seat = summary.plan.seats.index(0)
    (hand_dir,) = hand_dirs(tmp_path)
    answer_ms = hand_records(hand_dir)["result"]["answer_ms"][seat]
    limits = answer_limits(hand_dir / f"seat{seat}.transcript")
    assert len(limits) == len(answer_ms) > 20
    slow_at = [i for i, limit in enumerate(limits) if limit == 1000][:turns]
    slow_turns = [answer_ms[i] for i in slow_at]
    # The sleep, give or take the load: the clock starts once the server has seen its write
    # return, which on a busy machine can be some milliseconds after the bot read the prompt.
    assert all(1100 <= ms < 1200 + 1500 for ms in slow_turns), slow_turns
    # The fine is the formula applied to each answer's recorded time, summed.
    expected = sum(fine_for(ms, limit) for ms, limit in zip(answer_ms, limits, strict=True))
    sheet = read_sheet(tmp_path)
    assert int(sheet[1][sheet[0].index("Fines0")]) == summary.fines[0] == expected
    others = [(ms, limits[i]) for i, ms in enumerate(answer_ms) if i not in slow_at]
    if all(1150 <= ms < 1250 for ms in slow_turns) and \
            all(fine_for(ms, limit) == 0 for ms, limit in others):  # unless badly overloaded
        assert expected == 2 * turns
    assert summary.points[0] == -expected  # a draw: fines are the only points
    assert summary.faults == []


async def test_silent_bot_is_faulted_at_the_hard_limit_and_the_hand_goes_on(
        tmp_path: Path) -> None:
    options = TableOptions(hard_limit=1.5)
    began = time.monotonic()
    summaries = await play_hands([DRAWBOT, f"{BOTS}/silent.py", DRAWBOT, DRAWBOT], 3, [0, 1],
                                 tmp_path, options)
    assert time.monotonic() - began >= 2 * 1.5
    for summary, hand_dir in zip(summaries, hand_dirs(tmp_path), strict=True):
        seat = summary.plan.seats.index(1)
        records = hand_records(hand_dir)
        assert summary.faults == [(1, "hard-limit")]
        # Fined for the time up to the hard limit, against its first prompt's limit.
        own_turn = records["hand"]["first"] == seat
        assert summary.fines[1] == fine_for(1500, 1000 if own_turn else 500) == \
            (5 if own_turn else 10)
        # It answered nothing; the server played its seat to the end of the wall.
        assert records["result"]["answer_ms"][seat] == []
        assert records["result"]["result"] == "draw"
        assert [e["seat"] for e in records["event"] if e["kind"] == "fault"] == [seat]
        assert_autoplayed_after_fault(records, seat)
        # The prompt it ignored was its last line: it was killed at the limit.
        transcript = (hand_dir / f"seat{seat}.transcript").read_text().splitlines()
        assert transcript[-1].split()[1] == ">"


# --- what the terminal shows ----------------------------------------------------------------


def test_bot_lines_and_names_that_look_like_markup_are_printed_as_written(
        tmp_path: Path) -> None:
    """rich reads ``[/x]`` as a closing tag and ``:ghost:`` as an emoji: a fault
    quoting such a line, or an AI path holding one, once stopped the match."""
    odd = tmp_path / "[/x] :ghost:"  # the folder "[" and in it "x] :ghost:"
    odd.mkdir(parents=True)
    bot = odd / "drawbot.py"
    bot.write_text((ROOT / DRAWBOT).read_text())
    bot.chmod(0o755)
    # Two hands: the markup bot faults at its first prompt of every hand, and the standings
    # naming the odd path are printed at the end however many hands were played.
    proc = run_server("tests/hostile/markup_lines.py", shlex.quote(str(bot)), DRAWBOT, DRAWBOT,
                      "--seed", "5", "--hands", "2", "--log-dir", str(tmp_path / "logs"))
    assert proc.returncode == 0, proc.stderr
    assert "faulted: malformed: unknown keyword '[/x]'" in proc.stderr
    assert ":ghost:" in proc.stdout and str(odd) in proc.stdout


# --- faults, autoplay and fresh processes -----------------------------------------------------


def test_faulty_bots_are_faulted_autoplayed_and_restarted_every_hand(tmp_path: Path) -> None:
    proc = run_server(DRAWBOT, f"{BOTS}/crash_mid_hand.py", f"{BOTS}/garbage.py",
                      f"{BOTS}/illegal_discard.py", "-d", "--seed", "5", "--hands", "5",
                      "--log-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    folder = match_dir(tmp_path)
    sheet = read_sheet(folder)
    # Five hands: the fifth is the first with the players in other seats (a 16-hand group
    # showed nothing more).
    assert len(sheet) == 1 + 5 + 1
    causes = {1: "closed-output", 2: "malformed: unknown keyword 'hello,'", 3: "illegal: out "}
    for row, hand_dir in zip(sheet[1:-1], hand_dirs(folder), strict=True):
        # The Faults column names the players, in player order whatever seats they held,
        # each with its whole cause.
        said = [f.split(": ", 1) for f in row[-1].split("; ")]
        assert [who for who, _ in said] == sheet[0][3:6]
        assert [cause.split(":")[0] for _, cause in said] == \
            ["closed-output", "malformed", "illegal"]
        # A draw: each fault's fine (40 at the default hard limit) is all that counts.
        assert row[7] == "draw" and row[2:6] == ["0", "-40", "-40", "-40"]
        assert row[11:15] == ["0", "40", "40", "40"]
        records = hand_records(hand_dir)
        seats = [s["player"] for s in records["hand"]["seats"]]
        faults = {seats[int(seat)]: cause for seat, cause in records["result"]["faults"].items()}
        assert faults.keys() == causes.keys()
        for player, cause in causes.items():
            assert faults[player].startswith(cause)
            assert_autoplayed_after_fault(records, seats.index(player))
        # Fresh processes: the crashing bot counted its prompts from 1 again in this hand,
        # and the garbage bot spoiled its first prompt again.
        crash_seat = seats.index(1)
        stderr = (hand_dir / f"seat{crash_seat}.stderr").read_text()
        assert stderr.startswith("crashing on prompt 3:")
        answers = [line for line in (hand_dir / f"seat{seats.index(2)}.transcript")
                   .read_text().splitlines() if line.split()[1] == "<"]
        assert answers[1].endswith("hello, I am not a Mahjong message")  # after join
    assert "player 1 (tests/bots/crash_mid_hand.py) faulted: closed-output" in proc.stderr


def test_on_fault_end_ends_the_match_with_the_faulty_player_last(tmp_path: Path) -> None:
    proc = run_server(f"{BOTS}/crash_mid_hand.py", DRAWBOT, DRAWBOT, DRAWBOT, "-d",
                      "--seed", "5", "--on-fault", "end", "--log-dir", str(tmp_path))
    assert proc.returncode == 1, proc.stderr
    folder = match_dir(tmp_path)
    summary = json.loads((folder / "match.json").read_text())
    assert summary["completed"] is False and summary["interrupted"] is False
    assert summary["ended_by_fault"] == 0
    assert summary["ranking"][-1] == 0
    assert summary["hands_played"] == 0
    sheet = read_sheet(folder)
    assert [row[7] for row in sheet[1:-1]] == ["aborted"]
    assert sheet[0][2] == "tests/bots/crash_mid_hand.py"  # the players by name
    assert sheet[1][-1] == "tests/bots/crash_mid_hand.py: closed-output: exit status 1"
    # The aborted hand keeps the fault's fine (40 at the default hard limit).
    assert sheet[1][11:15] == ["40", "0", "0", "0"]
    assert sheet[-1] == ["Total", "", "-40", "0", "0", "0"]
    assert summary["players"][0]["fines"] == 40
    table_rows = [line for line in proc.stdout.splitlines() if "P0" in line]
    assert len(table_rows) == 1 and "ended the match" in table_rows[0]
    assert table_rows[0].split()[1] == "4"  # ranked last
    assert "NOT completed" in proc.stdout


# --- stray answers real bots send ---------------------------------------------------------------

RACER = f"{BOTS}/kong_racer.py"


def forced_stray_passes(hand_dir: Path) -> int:
    """How often a seat read its own ``mjgang``, then its replacement ``pick``, then said
    ``pass``: the stray answer arriving after the next prompt was written."""
    count = 0
    for seat in range(4):
        lines = [tuple(line.split(maxsplit=1)[1].split(" ", 1)) for line in
                 (hand_dir / f"seat{seat}.transcript").read_text().splitlines()]
        for first, second, third in zip(lines, lines[1:], lines[2:], strict=False):
            if first[0] == ">" and first[1].startswith(f"mjgang {seat} ") and \
                    second[0] == ">" and second[1].startswith("pick ") and third == ("<", "pass"):
                count += 1
    return count


@pytest.mark.slow
def test_a_pass_to_its_own_mjgang_read_after_the_replacement_pick_never_faults(
        tmp_path: Path) -> None:
    """SPEC section 3: such a ``pass`` is logged and ignored, whatever its timing.

    ``kong_racer`` makes added kongs whenever it can and writes its ``pass`` only
    once it has read the ``pick`` that follows, so the race is lost every time.
    Three matches at once (12 hands, 2 of them with greedy AIs), through the server
    command: no fault in any hand, and ``server verify`` agrees with every record. The
    first 4 hands each: 11 races on these seeds, each a sure fault if a stray ``pass``
    faulted. Four racers play the same race in hand k and k + 4 (the table is symmetric,
    every bot here deterministic): a 16-hand group each played 42 races, the same 10 of
    the four-racer tables four times over, and showed nothing more.
    """
    matches = [("1", "4", [RACER] * 4), ("2", "4", [RACER] * 4),
               ("3", "4", [RACER, GREEDY, RACER, GREEDY])]
    env = {**os.environ, "COLUMNS": "200"}
    runs = [subprocess.Popen(server_argv(*players, "-d", "--seed", seed, "--hands", hands,
                                         "--log-dir", str(tmp_path / seed)),
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
            for seed, hands, players in matches]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0], outputs
    hands = races = stray = 0
    for seed, played, _ in matches:
        folder = match_dir(tmp_path / seed)
        sheet = read_sheet(folder)
        assert len(sheet) == 1 + int(played) + 1
        assert [row[-1] for row in sheet[1:-1]] == [""] * int(played)  # no fault
        for hand_dir in hand_dirs(folder):
            result = hand_records(hand_dir)["result"]
            assert result["faults"] == {}, hand_dir
            hands += 1
            races += forced_stray_passes(hand_dir)
            stray += sum(result["unsolicited"])
        verified = server_here("verify", str(folder), columns=200)  # in-process: the records
        assert verified.returncode == 0, verified.stdout + verified.stderr
    assert hands == 12
    assert races >= 10, races  # 11 on these seeds: 4 and 6 at the four-racer tables
    assert stray >= races  # each one logged as a stray line


# Bots with the habits of the three public C++ bots written for the original server
# (``tests/bots/cpp_habits.py`` says which habit comes from which), and the match seeds
# in which the one that answers its own ``mjgang`` makes added kongs, with the hands played
# (the first hands up to the second kong of seed 18: the other hands of a 16-hand group, 11
# more kongs, showed nothing more).
LIKE_MAHJONGAI = f"{BOTS}/like_mahjongai.py"
LIKE_7PAIRS = f"{BOTS}/like_7pairs.py"
LIKE_STICNARF = f"{BOTS}/like_sticnarf.py"
SEEDED_GREEDY = f"{GREEDY} --seed 7"
LIKE_CPP_MATCHES = [
    ("26", [LIKE_MAHJONGAI, LIKE_7PAIRS, LIKE_STICNARF, SEEDED_GREEDY], [], 2, 1),
    ("18", [LIKE_MAHJONGAI, LIKE_MAHJONGAI, LIKE_STICNARF, SEEDED_GREEDY], ["--announce"], 7,
     2),
]


@pytest.mark.slow
def test_bots_with_the_real_cpp_bots_habits_play_full_matches_with_greedy_unfaulted(
        tmp_path: Path) -> None:
    """A match each, through the server command (hands won and drawn): every stray
    ``pass`` to an own ``mjgang`` is logged and ignored, a bot that aborts on ``mhu``
    (``--announce``) or at the end of its input is not faulted, nothing is fined."""
    env = {**os.environ, "COLUMNS": "200"}
    runs = [subprocess.Popen(server_argv(*players, *extra, "-d", "--seed", seed, "--hands",
                                         str(hands), "--log-dir", str(tmp_path / seed)),
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
            for seed, players, extra, hands, _ in LIKE_CPP_MATCHES]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    for seed, players, _, hands, kongs in LIKE_CPP_MATCHES:
        folder = match_dir(tmp_path / seed)
        assert json.loads((folder / "match.json").read_text())["completed"] is True
        sheet = read_sheet(folder)
        assert len(sheet) == 1 + hands + 1
        assert [row[-1] for row in sheet[1:-1]] == [""] * hands  # no fault
        assert any(row[7] != "draw" for row in sheet[1:-1])  # a win: its mhu was met
        strays = 0
        for hand_dir in hand_dirs(folder):
            records = hand_records(hand_dir)
            assert records["result"]["faults"] == {}, hand_dir
            seats = [s["player"] for s in records["hand"]["seats"]]
            events = records["event"]
            owners = [e["seat"] for e in events if e["kind"] == "jgang"
                      and players[seats[e["seat"]]] == LIKE_MAHJONGAI]
            # Its pass is read for sure when the hand goes on with its replacement draw
            # (it writes the pass first); a robbed kong ends the hand at once.
            drew = [e["seat"] for e, after in itertools.pairwise(events)
                    if e["kind"] == "jgang" and e["seat"] in owners
                    and (after["kind"], after["seat"]) == ("pick", e["seat"])]
            for seat in set(drew):
                said = [line.split(None, 1)[1] for line in
                        (hand_dir / f"seat{seat}.transcript").read_text().splitlines()]
                kongs_at = [i for i, line in enumerate(said)
                            if line.startswith(f"> mjgang {seat} ")]
                assert sum("< pass" in said[i + 1:i + 4] for i in kongs_at) >= drew.count(seat)
            strays += len(owners)
            # Each one read is logged as a stray line.
            assert len(drew) <= sum(records["result"]["unsolicited"]) <= len(owners)
        assert strays == kongs
        verified = server_here("verify", str(folder), columns=200)  # in-process: the records
        assert verified.returncode == 0, verified.stdout + verified.stderr


# --- the sample AIs, and reproducibility ---------------------------------------------------------


def test_sample_match_completes_and_replays_the_same_deals(tmp_path: Path) -> None:
    """The acceptance command, run twice at once with the same seed, for its first hands
    (four: each deal a different wall and seats; a 16-hand group showed nothing more)."""
    args = [GREEDY, GREEDY, RANDOM, RANDOM, "-d", "--seed", "1", "--hands", "4"]
    env = {**os.environ, "COLUMNS": "200"}
    runs = [subprocess.Popen(server_argv(*args, "--log-dir", str(tmp_path / str(i))), cwd=ROOT,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for i in range(2)]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    folders = [match_dir(tmp_path / str(i)) for i in range(2)]
    sheets = [read_sheet(folder) for folder in folders]
    for sheet in sheets:
        assert len(sheet) == 1 + 4 + 1
        header, rows, total = sheet[0], sheet[1:-1], sheet[-1]
        # The players' columns are headed by their names (the 3rd to 6th), and so are
        # their fines (the 12th to 15th: "Fines greedy").
        points = list(range(2, 6))
        fines = list(range(11, 15))
        assert [header[i] for i in fines] == [f"Fines {header[i]}" for i in points]
        for row in rows:
            # Zero-sum apart from fines (which are paid to nobody).
            assert sum(int(row[i]) for i in points) + sum(int(row[i]) for i in fines) == 0
            assert row[-1] == ""  # no faults
        assert total[:2] == ["Total", ""]
        assert [int(x) for x in total[2:6]] == [sum(int(r[i]) for r in rows) for i in points]
    # Same seed: the same hands, deals and first actors, in the same order.
    hands = [[hand_records(d)["hand"] for d in hand_dirs(folder)] for folder in folders]
    assert [(h["game_id"], h["wall"], h["first"], h["seats"]) for h in hands[0]] == \
        [(h["game_id"], h["wall"], h["first"], h["seats"]) for h in hands[1]]
    assert [[*r[:2], r[6]] for r in sheets[0][1:-1]] == [[*r[:2], r[6]] for r in sheets[1][1:-1]]
    # The results themselves may differ: the sample AIs break ties at random, and
    # without --seed they seed from the system. See the next test.


async def test_seeded_sample_ais_give_the_same_scoresheet_twice(tmp_path: Path) -> None:
    results = []
    for run in ("a", "b"):
        await play_hands(SEEDED, 1, range(4), tmp_path / run)
        results.append(read_sheet(tmp_path / run))
    assert results[0] == results[1]
    assert len(results[0]) == 1 + 4 + 1


# --- the command line --------------------------------------------------------------------------


BAD_AIS = [
    (["tests/bots/no_such_bot.py", DRAWBOT, DRAWBOT, DRAWBOT],
     "tests/bots/no_such_bot.py does not exist"),
    (["{not_executable}", DRAWBOT, DRAWBOT, DRAWBOT], "is not executable"),
    ([DRAWBOT, DRAWBOT, DRAWBOT], "need exactly 4 AIs, got 3"),
    ([DRAWBOT] * 5, "need exactly 4 AIs, got 5"),
    (["no-such-program-anywhere", DRAWBOT, DRAWBOT, DRAWBOT], "no program"),
    (["python3 nosuch.py", DRAWBOT, DRAWBOT, DRAWBOT],
     "python3 would run nosuch.py, which does not exist"),
    ([DRAWBOT, "python3 -u tests/bots/nosuch.py --seed 1", DRAWBOT, DRAWBOT],
     "python3 would run tests/bots/nosuch.py, which does not exist"),
    ([DRAWBOT, DRAWBOT, "bash tests/bots/x.sh", DRAWBOT],
     "bash would run tests/bots/x.sh, which does not exist"),
]


@pytest.mark.parametrize(("ais", "message"), BAD_AIS)
def test_bad_ai_argument_exits_2_before_anything_starts(
        tmp_path: Path, ais: list[str], message: str) -> None:
    """Through the command line's entry point in this process (``tests.server.cli.inprocess``);
    the next test runs the real process."""
    refused_before_anything_starts(
        tmp_path, ais, message, lambda *args: server_here(*args, columns=200))


def test_the_server_process_given_a_bad_ai_exits_2_before_anything_starts(
        tmp_path: Path) -> None:
    ais, message = BAD_AIS[0]
    refused_before_anything_starts(tmp_path, ais, message,
                                   lambda *args: run_server(*args, timeout=30))


def refused_before_anything_starts(
        tmp_path: Path, ais: list[str], message: str,
        server: Callable[..., subprocess.CompletedProcess[str]]) -> None:
    not_executable = tmp_path / "bot.py"
    not_executable.write_text("print('join')\n")
    marker = tmp_path / "started"
    # A good AI that leaves a mark if it is ever started.
    canary = f"sh -c 'touch {marker}; exec {DRAWBOT}'"
    ais = [a.format(not_executable=not_executable) for a in ais]
    ais = [*ais[:-1], canary]
    logs = tmp_path / "logs"
    proc = server(*ais, "-d", "--seed", "1", "--log-dir", str(logs))
    assert proc.returncode == 2
    assert "error" in proc.stderr and message in " ".join(proc.stderr.split())
    assert not logs.exists()
    assert not marker.exists()


@pytest.mark.parametrize(("signum", "status", "word"), [
    (signal.SIGINT, 130, "interrupted"),  # Ctrl-C
    (signal.SIGTERM, 143, "terminated (SIGTERM)"),
    (signal.SIGHUP, 129, "terminated (SIGHUP)"),  # the terminal was closed
], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_ctrl_c_stops_the_match_and_keeps_the_finished_hands(
        tmp_path: Path, no_leftover_bots: str, signum: int, status: int, word: str) -> None:
    # One bot takes 50 ms a turn, so that a hand lasts about a second: SIGINT lands mid-hand.
    slow = f"{BOTS}/slow.py --delay 0.05"
    proc = subprocess.Popen(server_argv(slow, DRAWBOT, DRAWBOT, DRAWBOT, "-d", "--seed", "2",
                                        "--groups", "1", "--log-dir", str(tmp_path)),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_works)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            sheets = list(tmp_path.glob("*/scoresheet.csv"))
            if sheets and len(sheets[0].read_text().splitlines()) >= 3:  # header + 2 hands
                break
            time.sleep(0.05)
        else:
            pytest.fail("no two hands finished in 60 s")
        time.sleep(0.3)
        assert our_bots(no_leftover_bots)  # a hand is being played
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == status, err
    assert word in err and "every bot was stopped" in err
    assert our_bots(no_leftover_bots) == []
    folder = match_dir(tmp_path)
    summary = json.loads((folder / "match.json").read_text())
    assert summary["completed"] is False and summary["interrupted"] is True
    sheet = read_sheet(folder)
    rows = sheet[1:-1]
    assert summary["hands_played"] == len(rows) >= 2
    assert all(len(row) == len(sheet[0]) and row[7] == "draw" for row in rows)
    assert sheet[-1][0] == "Total"
    for hand_dir in hand_dirs(folder)[: len(rows)]:
        assert hand_records(hand_dir)["result"]["result"] == "draw"
    # The hand it stopped during is marked, and the tools say what it is in one line. Given
    # the hand's folder alone they read its marker, whatever signal wrote it: once (Ctrl-C)
    # shows that; the match's folder, with the files the stop wrote, after every signal.
    # (The tools run in-process, tests.server.cli.inprocess: they read what the stopped
    # process left; test_replay_verify runs verify as a process.)
    (unfinished,) = hand_dirs(folder)[len(rows):]
    assert (unfinished / "INCOMPLETE").read_text().startswith("an unfinished hand")
    for command in ("replay", "verify") if signum == signal.SIGINT else ():
        run = server_here(command, str(unfinished), columns=200)
        assert run.returncode == 2
        assert run.stderr.count("\n") == 1 and "an unfinished hand" in run.stderr, run.stderr
    run = server_here("verify", str(folder), columns=200)
    assert run.returncode == 0, run.stdout
    assert f"note: {unfinished.name}: not checked: an unfinished hand" in run.stdout
    run = server_here("report", str(folder), "--html", str(tmp_path / "report.html"),
                      columns=200)
    assert run.returncode == 0, run.stderr
    assert f"note: {unfinished.name}: no page: an unfinished hand" in run.stdout


def test_nohup_keeps_the_server_through_a_closed_terminal() -> None:
    """SIGHUP stops a run only when it was not ignored at the start (``nohup``)."""
    from server.output.stopping import stop_signals

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        assert stop_signals() == [signal.SIGTERM]
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        assert stop_signals() == [signal.SIGTERM, signal.SIGHUP]
    finally:
        signal.signal(signal.SIGHUP, before)


# --- a student's bot outside the repository ------------------------------------------------

STUDENT_BOT = """\
#!/usr/bin/env python3
import sys

from sample_ai.framework import run_stdio
from sample_ai.greedy import GreedyBot

sys.exit(run_stdio(GreedyBot))
"""
# A PATH as a person who never activated the virtual environment has it: ``python3``
# there is the system's, which has none of this repository's packages.
BARE_PATH = "/usr/bin:/bin"


def student_bot(folder: Path, name: str = "mybot.py", text: str = STUDENT_BOT) -> Path:
    """A bot saved in the student's own folder, as sample_ai/README.md shows."""
    folder.mkdir(parents=True, exist_ok=True)
    bot = folder / name
    bot.write_text(text)
    bot.chmod(0o755)
    return bot


def bare_env() -> dict[str, str]:
    env = {**os.environ, "PATH": BARE_PATH, "COLUMNS": "200"}
    env.pop("VIRTUAL_ENV", None)
    return env


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
@pytest.mark.parametrize("form", ["path", "python3 path"])
def test_a_students_bot_outside_the_repository_runs_in_the_servers_environment(
        tmp_path: Path, sandbox: str, form: str) -> None:
    """Its ``#!/usr/bin/env python3`` (or ``python3 mybot.py``) finds the server's Python,
    with ``sample_ai`` and ``protocol``, though the venv was never activated.

    Two hands: a bot that could not import would fault in the first, and the second shows
    its process started the same way again (a full 16-hand group showed nothing more)."""
    if sandbox == "bwrap":
        from tests.server.bots.test_hostile import bwrap_or_skip

        bwrap_or_skip()
    bot = student_bot(tmp_path / "student")
    ai = str(bot) if form == "path" else f"python3 {bot}"
    logs = tmp_path / "logs"
    proc = subprocess.run(server_argv(ai, DRAWBOT, DRAWBOT, DRAWBOT, "-d", "--seed", "3",
                                      "--hands", "2", "--log-dir", str(logs),
                                      "--sandbox", sandbox),
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert "faulted" not in proc.stderr
    rows = read_sheet(match_dir(logs))[1:-1]
    assert len(rows) == 2 and all(row[-1] == "" for row in rows)


def test_a_bot_that_names_its_interpreter_by_absolute_path_keeps_it(tmp_path: Path) -> None:
    """The environment puts the server's venv first on PATH; an absolute path is not
    looked up, so /usr/bin/python3 stays the system's (which has no sample_ai). Two hands:
    the bot faults in each, at its import."""
    bot = student_bot(tmp_path / "student")
    proc = subprocess.run(server_argv(f"/usr/bin/python3 {bot}", DRAWBOT, DRAWBOT, DRAWBOT,
                                      "--seed", "3", "--hands", "2"),
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=bare_env())
    assert proc.returncode == 0, proc.stderr
    assert "faulted: closed-output: exit status 1" in proc.stderr


def fault_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if " faulted: " in line]


def test_a_fault_line_names_the_player_hand_cause_and_the_bots_last_stderr_line(
        tmp_path: Path) -> None:
    """A student's bot that cannot import what it needs: the console says why, with the
    file that holds its whole traceback."""
    bot = student_bot(tmp_path / "student", text="#!/usr/bin/env python3\nimport no_such_module\n")
    logs = tmp_path / "logs"
    # Seven hands: the repeats shown are cut after five ("...").
    proc = run_server(DRAWBOT, str(bot), DRAWBOT, f"{BOTS}/crash_mid_hand.py", "-d",
                      "--seed", "5", "--hands", "7", "--log-dir", str(logs))
    assert proc.returncode == 0, proc.stderr
    lines = fault_lines(proc.stderr)
    # A fault the same as one said before (same player, cause and last stderr line) is
    # not said again: it is counted at the end.
    again = [line for line in proc.stderr.splitlines() if "the problem said at hand" in line]
    assert len(lines) + sum(int(line.split("came back ")[1].split()[0]) for line in again) \
        == 2 * 7
    assert f"player 1 ({bot}): the problem said at hand 1 came back 6 more time(s), the " \
        "same (hand 2, hand 3, hand 4, hand 5, hand 6, ...)" in again
    folder = match_dir(logs)
    for number, hand_dir in enumerate(hand_dirs(folder), start=1):
        seats = [s["player"] for s in hand_records(hand_dir)["hand"]["seats"]]
        student = hand_dir / f"seat{seats.index(1)}.stderr"
        crash = hand_dir / f"seat{seats.index(3)}.stderr"
        assert "Traceback" in student.read_text()
        if number == 1:
            assert f"hand 1: player 1 ({bot}) faulted: closed-output: exit status 1; its " \
                "stderr ends: ModuleNotFoundError: No module named 'no_such_module' " \
                f"(all of it in {student})" in lines
        crashed = crash.read_text().strip()
        said = f"player 3 ({BOTS}/crash_mid_hand.py) faulted: closed-output: exit status 1; " \
            f"its stderr ends: {crashed} (all of it in "
        assert any(line.startswith("hand ") and said in line for line in lines)


@pytest.mark.parametrize("verbose", [[], ["-v"]], ids=["quiet", "verbose"])
def test_without_a_log_folder_the_fault_line_says_the_stderr_was_not_kept(
        tmp_path: Path, verbose: list[str]) -> None:
    """With ``-v`` too: the account tells the fault, and the fault line says why."""
    bot = student_bot(tmp_path / "student", text="#!/usr/bin/env python3\nimport no_such_module\n")
    proc = run_server(str(bot), DRAWBOT, DRAWBOT, DRAWBOT, "--seed", "5", "--hands", "2",
                      *verbose)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in fault_lines(proc.stderr) if line.startswith("hand ")]
    assert lines == [f"hand 1: player 0 ({bot}) faulted: closed-output: exit status 1; its "
                     "stderr ends: ModuleNotFoundError: No module named 'no_such_module' "
                     "(not kept: -d keeps it in the log folder)"]  # said once, then counted
    assert f"player 0 ({bot}): the problem said at hand 1 came back 1 more time(s)" \
        in proc.stderr
