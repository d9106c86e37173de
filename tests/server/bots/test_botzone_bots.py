"""Botzone bots run as Botzone runs them (SPEC-botzone §7), as real processes.

The bots are in ``tests/bots/botzone``: a drawn-tile discarder in JSON and simple
interaction, restarted every turn or kept running, and one hostile bot per bad
behaviour (``hostile.py MODE BEHAVIOUR [--kept]``). Every bad behaviour gets its
verdict and cause within its limit plus a margin, and no test leaves a process
(every process the test starts carries a tag, looked for in /proc afterwards).
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio

from server.bots import leftovers
from server.bots.botzone_bots import BotzoneLimits, open_botzone_bot, parse_spec
from server.bots.sandbox import processes
from tests.server.bots.test_hostile import (
    bwrap_or_skip,
    no_leftovers,  # noqa: F401  (autouse: nothing left running)
)

BOTS = Path(__file__).resolve().parents[2] / "bots" / "botzone"
DISCARDER = BOTS / "discarder.py"
HOSTILE = BOTS / "hostile.py"
# Python's factor would be 6 (12 s on a first turn): the tests set a factor of
# 1, leaving room for a Python start on a loaded 2-core machine.
LIMITS = BotzoneLimits(base_seconds=1.0, factor=1, memory_mb=256)
# For the bots that hang (TLE), which wait out the whole limit: 1 s on a first turn still
# leaves a Python start and an answer (answer_no_exit, close_stdout) hundreds of ms to
# spare, and 0.5 s a kept bot, already running, to read and print.
HANG_LIMITS = BotzoneLimits(base_seconds=0.5, factor=1, memory_mb=256)
MARGIN = 1.5  # seconds past a limit for a TLE's kill (grace 0.3 s) and a loaded machine
TURNS = ["0 0 1", "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B2 B3 B4", "3 0 DRAW", "2 T5",
         "3 0 PLAY T5", "2 J1", "3 0 PLAY J1"]
ANSWERS = ["PASS", "PASS", "PASS", "PLAY T5", "PASS", "PLAY J1", "PASS"]




def discarder(mode: str, keep: int = 0) -> str:
    """The discarder's spec; one that asks to keep running has the setting on."""
    return f"{mode}{'+keep-running' if keep else ''}:{sys.executable} {DISCARDER} {mode} {keep}"


def group_states(leader: int) -> set[str]:
    return {state for state, _, group, _ in processes().values() if group == leader}


async def stopped(leader: int) -> bool:
    """Whether the group is (soon: a signal takes a moment to land) all stopped."""
    for _ in range(100):
        if group_states(leader) == {"T"}:
            return True
        await trio.sleep(0.01)
    return False


# --- playing well ----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_restarted_bot_gets_the_whole_history_and_its_data_every_turn(mode: str) -> None:
    async with open_botzone_bot(parse_spec(discarder(mode)), "seat0", LIMITS) as bot:
        for n, (request, want) in enumerate(zip(TURNS, ANSWERS, strict=True), start=1):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response, answer.cause) == ("OK", want, "")
            data = "" if n == 1 else str(n - 1)
            assert answer.debug == f"n={n} data={data} global={'' if n == 1 else '1'}"
            assert 0 <= answer.ms < 2000
        assert bot.restarts == len(TURNS)


async def test_globaldata_is_carried_across_the_games_of_a_match() -> None:
    globaldata = ""
    for game in (1, 2, 3):
        async with open_botzone_bot(parse_spec(discarder("json")), "seat0", LIMITS,
                                    globaldata=globaldata) as bot:
            first = await bot.ask(TURNS[0])
            assert first.debug == f"n=1 data= global={globaldata}"
            await bot.ask(TURNS[1])
            globaldata = bot.globaldata
        assert globaldata == str(game)


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_kept_bot_is_stopped_between_turns_and_gets_only_the_new_request(
        mode: str) -> None:
    async with open_botzone_bot(parse_spec(discarder(mode, keep=100)), "seat1", LIMITS) as bot:
        for n, (request, want) in enumerate(zip(TURNS, ANSWERS, strict=True), start=1):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response) == ("OK", want)
            if mode == "json" and n > 1:
                assert answer.debug == f"n={n} kept"
            kept = bot._kept
            assert kept is not None
            assert await stopped(kept.peer.process.pid)
        assert bot.restarts == 1


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_kept_bot_that_exits_after_answering_is_restarted_with_the_whole_history(
        mode: str) -> None:
    """Kept for two answers, it exits after its third; the fourth turn restarts it."""
    async with open_botzone_bot(parse_spec(discarder(mode, keep=2)), "seat2", LIMITS) as bot:
        answers = [await bot.ask(request) for request in TURNS[:5]]
        assert [a.response for a in answers] == ANSWERS[:5]
        assert all(a.verdict == "OK" for a in answers)
        assert bot.restarts == 2
        if mode == "json":
            assert [a.debug for a in answers] == [
                "n=1 data= global=", "n=2 kept", "n=3 kept", "n=4 data=1 global=1", "n=5 kept"]


async def test_a_history_longer_than_a_pipe_buffer_reaches_the_bot() -> None:
    async with open_botzone_bot(parse_spec(discarder("simple")), "seat0", LIMITS) as bot:
        bot.requests = ["3 2 PLAY W1 and some padding to fill the pipe"] * 3000
        bot.responses = ["PASS"] * 3000
        answer = await bot.ask("2 B9")
        assert (answer.verdict, answer.response) == ("OK", "PLAY B9")
        assert answer.debug == "n=3001 data= global="


async def test_four_bots_asked_at_once_keep_their_own_clocks() -> None:
    """A stalling bot costs the others nothing: they answer at once, it times out alone."""
    specs = [discarder("json"), discarder("simple", keep=10), discarder("json"),
             f"json:{sys.executable} {HOSTILE} json silent"]
    finished: dict[int, float] = {}
    answers: dict[int, object] = {}
    async with contextlib.AsyncExitStack() as stack:
        bots = [await stack.enter_async_context(open_botzone_bot(parse_spec(s), f"s{i}", LIMITS))
                for i, s in enumerate(specs)]
        start = trio.current_time()

        async def ask(i: int) -> None:
            answers[i] = await bots[i].ask("2 W5")
            finished[i] = trio.current_time() - start

        async with trio.open_nursery() as nursery:
            for i in range(4):
                nursery.start_soon(ask, i)
    limit = LIMITS.seconds("python", first=True, kept=False)
    for i in range(3):
        assert answers[i].verdict == "OK" and finished[i] < limit / 2  # type: ignore[attr-defined]
    assert answers[3].verdict == "TLE"  # type: ignore[attr-defined]
    assert limit <= finished[3] < limit + MARGIN


async def test_stderr_is_kept_capped_for_the_whole_game(tmp_path: Path) -> None:
    path = tmp_path / "seat0.stderr"
    spec = parse_spec(f"json:{sys.executable} {HOSTILE} json stderr_flood")
    async with open_botzone_bot(spec, "seat0", LIMITS, stderr_path=path) as bot:
        assert (await bot.ask("2 W1")).verdict == "OK"
        assert (await bot.ask("2 W2")).verdict == "OK"
    kept = path.read_bytes()
    assert kept.endswith(b"\n[stderr capped]\n") and len(kept) < (1 << 20) + 100


async def test_working_folder_is_removed_with_the_game(tmp_path: Path) -> None:
    async with open_botzone_bot(parse_spec(discarder("json")), "s", LIMITS,
                                work_root=tmp_path) as bot:
        await bot.ask("2 W1")
        (folder,) = os.listdir(tmp_path)
        # Stamped with its owner: a server killed outright leaves it to the next start's
        # sweep, which keeps it while this process lives.
        assert folder.startswith(leftovers.scratch_prefix("mahjong-bots-"))
        assert leftovers.sweep_scratch(tmp_path) == []
    assert not os.listdir(tmp_path)


# --- hostile bots ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    behaviour: str
    verdict: str  # after a first good turn when kept
    cause: str = ""  # a prefix of the cause
    simple: tuple[str, str] | None = None  # (verdict, response) in simple mode, when they differ
    bwrap_cause: str | None = None


NO_ANSWER = "no complete answer within"
CASES = [
    Case("silent", "TLE", NO_ANSWER),
    Case("slow", "TLE", NO_ANSWER),
    Case("crash", "RE", "exit status 1; its stderr ends: RuntimeError: boom"),
    Case("segfault", "RE", "killed by SIGSEGV"),
    Case("memory_hog", "MLE", "killed by SIGKILL (memory limit of 256 MB reached"),
    Case("garbage", "BAD_OUTPUT", "output is not JSON", simple=("OK", "hello there, judge")),
    Case("not_object", "BAD_OUTPUT", "output is JSON but not an object",
         simple=("OK", '["PASS"]')),
    Case("invalid_utf8", "BAD_OUTPUT", "output is not UTF-8 (byte 0xff at 0)"),
    Case("huge_line", "BAD_OUTPUT", "output longer than 1048576 bytes"),
    Case("stderr_flood", "OK"),
    Case("marker_then_exit", "OK"),
    Case("marker_only", "BAD_OUTPUT", "printed the keep-running marker with no answer"),
    Case("ignore_sigterm", "TLE", NO_ANSWER),
    Case("daemon", "OK"),
    # Under bwrap, bwrap itself holds the bot's output open: the end never shows.
    Case("close_stdout", "TLE", f"{NO_ANSWER} 2 s (it closed its output but did not exit)",
         bwrap_cause=NO_ANSWER),
    Case("answer_no_exit", "TLE",
         f"{NO_ANSWER} 2 s (it answered but neither exited nor printed the keep-running"),
    Case("exit_silent", "BAD_OUTPUT", "exited without printing anything"),
]


async def run_hostile(case: Case, mode: str, kept: bool, sandbox: str = "none") -> None:
    setting = "+keep-running" if kept else ""
    spec = parse_spec(f"{mode}{setting}:{sys.executable} {HOSTILE} {mode} {case.behaviour}"
                      + (" --kept" if kept else ""))
    limits = HANG_LIMITS if case.verdict == "TLE" else LIMITS
    async with open_botzone_bot(spec, "seat3", limits, sandbox=sandbox) as bot:
        if kept:
            first = await bot.ask("2 W1")
            assert (first.verdict, first.response) == ("OK", "PLAY W1")
        limit = limits.seconds("python", first=not kept, kept=kept)
        start = trio.current_time()
        answer = await bot.ask("2 W2")
        took = trio.current_time() - start
        verdict, response = case.verdict, "PLAY W2" if case.verdict == "OK" else None
        if mode == "simple" and case.simple:
            verdict, response = case.simple
        cause = case.cause
        if sandbox == "bwrap" and case.bwrap_cause is not None:
            cause = case.bwrap_cause
        if kept and case.behaviour == "exit_silent":  # exited after its marker: restarted
            verdict, response, cause = "OK", "PLAY W2", ""
        assert (answer.verdict, answer.response) == (verdict, response), answer
        if verdict == "OK":
            assert answer.cause == ""
        else:
            assert answer.cause.startswith(cause.replace(" 2 s", f" {limit:g} s")), answer
        assert took < limit + MARGIN
        if verdict == "TLE":
            assert took >= limit and limit * 1000 <= answer.ms < (limit + 0.2) * 1000
        else:
            assert answer.ms < limit * 1000
        if response == "PLAY W2":  # a bot that answers well answers its next turn too
            assert (await bot.ask("2 W3")).response == "PLAY W3"


@pytest.mark.parametrize("kept", [False, True], ids=["restarted", "kept"])
@pytest.mark.parametrize("mode", ["json", "simple"])
@pytest.mark.parametrize("case", CASES, ids=[c.behaviour for c in CASES])
async def test_hostile_bot_gets_its_verdict_and_cause_in_time(case: Case, mode: str,
                                                              kept: bool) -> None:
    await run_hostile(case, mode, kept)


@pytest.mark.parametrize("mode", ["json", "simple"])
async def test_a_kept_bot_whose_answer_waits_in_its_buffer_is_told_to_flush(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not "nothing printed": its answer and marker came when it exited, at its input's
    end, after the limit."""
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # the bot runs in our environment
    spec = parse_spec(f"{mode}+keep-running:{sys.executable} {HOSTILE} {mode} unflushed --kept")
    async with open_botzone_bot(spec, "seat3", HANG_LIMITS) as bot:
        assert (await bot.ask("2 W1")).response == "PLAY W1"
        answer = await bot.ask("2 W2")
    assert answer.verdict == "TLE"
    assert "nothing printed in time; " in answer.cause
    assert " came only when it exited: its output is buffered; flush stdout after each line " \
        "(Python: print(..., flush=True) or sys.stdout.flush())" in answer.cause


BWRAP_CASES = [c for c in CASES if c.behaviour in (
    "silent", "crash", "segfault", "memory_hog", "marker_then_exit", "ignore_sigterm", "daemon",
    "close_stdout")]


@pytest.mark.parametrize("kept", [False, True], ids=["restarted", "kept"])
@pytest.mark.parametrize("case", BWRAP_CASES, ids=[c.behaviour for c in BWRAP_CASES])
async def test_hostile_bot_gets_its_verdict_under_bwrap(case: Case, kept: bool) -> None:
    bwrap_or_skip()
    await run_hostile(case, "json", kept, sandbox="bwrap")


async def test_kept_bot_under_bwrap_is_stopped_between_turns() -> None:
    bwrap_or_skip()
    spec = parse_spec(discarder("json", keep=100))
    async with open_botzone_bot(spec, "seat0", LIMITS, sandbox="bwrap") as bot:
        for request, want in zip(TURNS, ANSWERS, strict=True):
            assert (await bot.ask(request)).response == want
            assert bot._kept is not None
            assert await stopped(bot._kept.peer.process.pid)
        assert bot.restarts == 1


@pytest.mark.parametrize("behaviour", ["silent", "ignore_sigterm"])
async def test_an_ask_cancelled_midway_leaves_no_process(behaviour: str) -> None:
    spec = parse_spec(f"json+keep-running:{sys.executable} {HOSTILE} json {behaviour} --kept")
    async with open_botzone_bot(spec, "seat0", LIMITS) as bot:
        assert (await bot.ask("2 W1")).verdict == "OK"
        with trio.move_on_after(0.3) as scope:
            await bot.ask("2 W2")
        assert scope.cancelled_caught
    spec = parse_spec(f"json:{sys.executable} {HOSTILE} json {behaviour}")
    async with open_botzone_bot(spec, "seat0", LIMITS) as bot:
        with trio.move_on_after(0.3) as scope:
            await bot.ask("2 W2")
        assert scope.cancelled_caught


async def test_a_bot_cannot_be_asked_twice_at_once() -> None:
    spec = parse_spec(f"json:{sys.executable} {HOSTILE} json silent")
    limits = BotzoneLimits(base_seconds=0.25, factor=1)
    async with open_botzone_bot(spec, "seat0", limits) as bot, trio.open_nursery() as nursery:
        nursery.start_soon(bot.ask, "2 W1")
        await trio.sleep(0.05)
        with pytest.raises(RuntimeError, match="already being asked"):
            await bot.ask("2 W2")
