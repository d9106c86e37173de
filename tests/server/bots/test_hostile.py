"""No bot can hurt the match (issue 6): hostile bots, limits, nothing left running.

Each hostile bot in ``tests/hostile`` does one bad thing. A hand with three
copies of it and one greedy sample AI must end normally: the hostile seats are
faulted with the right cause (or, for the harmless kinds of misbehaviour, not
at all), the greedy seat is never faulted or fined, and no process is left
(checked through /proc, by a tag in the environment of everything the test
starts). The same suite runs under ``--sandbox bwrap`` (skipped where bwrap
is missing, except under CI, where that fails).

The fuzzing bot plays 1,000 hands through the server's ``play_hand`` over
fake peers in virtual time (``tests/hostile/fuzz_hands.py``, in two worker
processes), and a few hands as real processes.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import resource
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import structlog

from rulesets.default.engine.rng import match_plan
from rulesets.default.match import HandSummary, MatchConfig, Player, play_match_hand
from server.bots.processes import ProcessPeer
from server.bots.sandbox import TAG_VARIABLE, BotLimits
from server.bots.seats import ProcessLauncher, Sandbox, TableOptions
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[3]
HOSTILE = ROOT / "tests" / "hostile"
GREEDY = ROOT / "sample_ai" / "greedy.py"
ENV_TAG = "HOSTILE_TEST_TAG"
# A hard limit that hanging bots must reach (a hostile bot that should be stopped
# by something else gets its own, longer one), and a join limit that four Python
# bots starting at once meet on a loaded 2-core machine (over 1 s there, measured).
OPTIONS = TableOptions(hard_limit=1.5, join_limit=5.0)
LIMITS = BotLimits(memory_mb=256, cpu_seconds=2, file_mb=8)


# --- nothing left running ------------------------------------------------------------------


def tagged_processes(tag: str) -> dict[int, str]:
    """Live processes (zombies aside) whose environment carries ``tag``: pid -> cmdline."""
    needle = f"{ENV_TAG}={tag}".encode()
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle not in (entry / "environ").read_bytes():
                continue
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(
                errors="replace")
        except OSError:
            continue
        found[int(entry.name)] = cmdline
    return found


@pytest.fixture(autouse=True)
def no_leftovers(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Fail the test if any process it started (however it escaped) is still alive."""
    tag = uuid.uuid4().hex
    monkeypatch.setenv(ENV_TAG, tag)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    yield tag
    structlog.reset_defaults()
    leftovers = tagged_processes(tag)
    for pid in leftovers:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not leftovers, f"processes left running: {leftovers}"


def bwrap_or_skip() -> None:
    need("bwrap")


@pytest.fixture(params=["none", "bwrap"])
def sandbox_kind(request: pytest.FixtureRequest) -> str:
    kind = str(request.param)
    if kind == "bwrap":
        bwrap_or_skip()
    return kind


# --- the hostile bots ------------------------------------------------------------------------


@dataclass(frozen=True)
class Hostile:
    script: str
    args: tuple[str, ...] = ()
    causes: tuple[str | None, ...] = (None,)  # fault cause prefixes; None: not faulted
    unsolicited: bool = False  # its stray lines are counted
    limits: BotLimits | None = None  # instead of LIMITS
    bwrap_causes: tuple[str | None, ...] | None = None  # when they differ in the sandbox
    hard_limit: float | None = None  # instead of OPTIONS.hard_limit

    @property
    def id(self) -> str:
        return "-".join((self.script.removesuffix(".py"), *self.args))


CRASH = "closed-output: exit status 1"
SUITE = [
    Hostile("never_joins.py", causes=("no-join",)),
    Hostile("join_then_hang.py", causes=("hard-limit",)),
    Hostile("ignore_sigterm.py", causes=("hard-limit",)),
    Hostile("crash_random.py", causes=(CRASH,)),
    Hostile("exit_at_once.py", causes=("closed-output: exit status 0",)),
    # In the sandbox bwrap itself holds the bot's stdout: the end never shows.
    Hostile("close_stdout.py", causes=("closed-output",), bwrap_causes=("hard-limit",)),
    Hostile("huge_line.py", causes=("malformed: ",)),
    Hostile("stderr_flood.py"),
    Hostile("invalid_utf8.py", causes=("malformed: ",)),
    Hostile("markup_lines.py", causes=("malformed: unknown keyword '[/x]'",)),
    # A line no prompt asked for is ignored, unless it lands just after a real
    # prompt was written: then it is that prompt's answer (the protocol has no ids).
    Hostile("answer_twice.py", causes=(None, "illegal: "), unsolicited=True),
    Hostile("unsent_prompts.py", causes=(None, "illegal: "), unsolicited=True),
    Hostile("illegal.py", ("discard",), causes=("illegal: ",)),
    Hostile("illegal.py", ("claim",), causes=("illegal: ", None)),
    Hostile("illegal.py", ("win",), causes=("illegal: ",)),
    # In the sandbox the bot's exit ends its PID namespace, the child with it: the
    # server sees the end of its output, or, when its first prompt is written as
    # bwrap goes (a race the load decides), a closed input.
    Hostile("fork_pipes.py", causes=("hard-limit",),
            bwrap_causes=("closed-output: exit status 0", "closed-input")),
    Hostile("setsid_daemon.py"),
    Hostile("memory_hog.py",
            causes=("closed-output: killed by SIGKILL (memory limit of 256 MB reached",),
            hard_limit=4.0),
    # The hard limit is far above the CPU limit's 1 s in wall time: at a load of 24 on
    # 2 cores a spinning bot gets its 1 s of CPU only after some 12 s, and a 4 s hard
    # limit then faulted it first (seen once). A quiet run ends at the 1 s of CPU.
    Hostile("cpu_spin.py", causes=("closed-output: killed by SIGXCPU (cpu limit)",),
            limits=BotLimits(memory_mb=256, cpu_seconds=1, file_mb=8), hard_limit=30.0),
    Hostile("huge_file.py", causes=("closed-output: killed by SIGXFSZ (file size limit)",)),
    Hostile("fuzz.py", ("7",),
            causes=(None, "illegal: ", "malformed: ", "no-join", "hard-limit", "flood")),
]


def peak_rss_mb() -> float:
    """This process's peak resident memory so far (VmHWM)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc/self/status")


class RecordingLauncher(ProcessLauncher):
    """A ProcessLauncher that keeps every peer it started."""

    def __init__(self, sandbox: Sandbox) -> None:
        super().__init__(sandbox)
        self.peers: list[ProcessPeer] = []

    async def open(self, request, nursery):  # type: ignore[no-untyped-def]
        peer = await super().open(request, nursery)
        assert isinstance(peer, ProcessPeer)
        self.peers.append(peer)
        return peer


async def play_hostile_hand(bot: Hostile, kind: str, number: int = 0,
                            limits: BotLimits | None = None,
                            ) -> tuple[HandSummary, int, RecordingLauncher]:
    """Hand ``number`` with three copies of ``bot`` and one greedy AI; the greedy player."""
    hostile = (sys.executable, str(HOSTILE / bot.script), *bot.args)
    greedy = (sys.executable, str(GREEDY), "--seed", "1")
    greedy_player = number % 4
    players = [Player(bot.id, hostile)] * 4
    players[greedy_player] = Player("greedy", greedy)
    launcher = RecordingLauncher(Sandbox(limits or bot.limits or LIMITS, kind))
    options = TableOptions(bot.hard_limit or OPTIONS.hard_limit, OPTIONS.join_limit)
    config = MatchConfig(tuple(players), seed=11, groups=1, options=options, launcher=launcher)
    plan = list(match_plan(11, 1))[number]
    summary = await play_match_hand(config, plan, None, structlog.get_logger())
    return summary, greedy_player, launcher


@pytest.mark.parametrize("bot", SUITE, ids=[b.id for b in SUITE])
async def test_hostile_bots_cannot_hurt_the_match(bot: Hostile, sandbox_kind: str) -> None:
    peak_before = peak_rss_mb()
    summary, greedy, launcher = await play_hostile_hand(bot, sandbox_kind)
    assert peak_rss_mb() - peak_before < 32, "the server's memory grew"  # (100 MB lines...)
    outcome = summary.outcome
    engine = outcome.engine
    assert engine.result is not None and not summary.aborted
    assert sum(engine.result.deltas) == 0
    assert engine.census() == [4] * len(engine.census())
    # the greedy player is untouched
    assert greedy not in dict(summary.faults)
    assert summary.fines[greedy] == 0
    # the hostile seats, each with the right cause
    causes = bot.bwrap_causes if sandbox_kind == "bwrap" and bot.bwrap_causes else bot.causes
    for seat, player in enumerate(summary.plan.seats):
        if player == greedy:
            continue
        cause = outcome.faults.get(seat)
        assert any(cause is None if want is None else cause is not None and cause.startswith(want)
                   for want in causes), (seat, cause, outcome.transcripts[seat][-3:])
    if bot.unsolicited:
        assert sum(outcome.unsolicited) > 0
    greedy_label = f"seat{summary.plan.seats.index(greedy)}"
    hostile_peers = [p for p in launcher.peers if p.label != greedy_label]
    if bot.script == "ignore_sigterm.py" and sandbox_kind == "none":
        assert all(p.needed_kill for p in hostile_peers)  # in the sandbox, bwrap dies of it
    if bot.script == "setsid_daemon.py" and sandbox_kind == "none":
        # (in the sandbox, the PID namespace ends with the bot and takes the daemon)
        assert sum(p.left_behind for p in launcher.peers) >= 1  # one sweep may take all


async def test_server_memory_stays_bounded_and_seats_restart_every_hand() -> None:
    """Two hands in a row: the seat is restarted fresh; the server's memory stays bounded."""
    bot = Hostile("huge_line.py")
    for number in (1, 2):
        summary, greedy, _ = await play_hostile_hand(bot, "none", number)
        assert summary.outcome.engine.result is not None
        assert greedy not in dict(summary.faults)
    assert peak_rss_mb() < 1024


async def test_work_dirs_are_per_bot_and_hand_and_removed(tmp_path: Path) -> None:
    bot = Hostile("huge_file.py")
    summary, _, launcher = await play_hostile_hand(
        bot, "none", limits=BotLimits(memory_mb=256, cpu_seconds=5, file_mb=1))
    assert "(file size limit)" in next(iter(summary.outcome.faults.values()))
    dirs = {p.work_dir for p in launcher.peers}
    assert len(dirs) == 4 and None not in dirs
    assert not any(d.exists() for d in dirs if d is not None)


# --- the fuzzing bot, in-process ------------------------------------------------------------

FUZZ_HANDS = 1000
FUZZ_WORKERS = 2  # processes, each playing its share of the hands


def test_fuzzing_bots_never_break_the_server_over_a_thousand_hands() -> None:
    """1,000 hands of four fuzzing peers through ``play_hand`` (``tests/hostile/fuzz_hands.py``).

    Every hand ends, tiles are conserved, settlement balances, and no exception
    escapes the server; the hands are shared between worker processes.
    """
    share = FUZZ_HANDS // FUZZ_WORKERS
    workers = [subprocess.Popen([sys.executable, "-m", "tests.hostile.fuzz_hands", str(w * share),
                                 str(share)], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
               for w in range(FUZZ_WORKERS)]
    reports = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err[-3000:]
        reports.append(json.loads(out))
    assert sum(r["hands"] for r in reports) == FUZZ_HANDS
    assert sum(r["faults"] for r in reports) > 0 and sum(r["wins"] for r in reports) > 0
    causes = {c for r in reports for c in r["causes"]}
    assert {"hard-limit", "illegal", "malformed", "closed-output", "no-join"} <= causes


async def test_fuzzing_bot_processes_play_real_hands(sandbox_kind: str) -> None:
    for number, seed in ((0, "1"), (1, "2")):
        bot = Hostile("fuzz.py", (seed,))
        summary, greedy, _ = await play_hostile_hand(bot, sandbox_kind, number)
        engine = summary.outcome.engine
        assert engine.result is not None and sum(engine.result.deltas) == 0
        assert greedy not in dict(summary.faults) and summary.fines[greedy] == 0


def test_limits_reach_the_bot_process() -> None:
    """The rlimits are set in the child (no address-space limit: the memory limit is on
    memory used, server.bots.memlimit), and a bot's tag marks it."""
    probe = ("import resource as r; print(r.getrlimit(r.RLIMIT_AS)[0], "
             "r.getrlimit(r.RLIMIT_CPU), r.getrlimit(r.RLIMIT_FSIZE)[0] >> 20, "
             "r.getrlimit(r.RLIMIT_CORE))")
    out = subprocess.run([sys.executable, "-c", probe], preexec_fn=LIMITS.apply,
                         capture_output=True, text=True, check=True).stdout.split(None, 1)
    assert out[0] == str(resource.RLIM_INFINITY)
    assert out[1].strip() == "(2, 3) 8 (0, 0)"
    assert TAG_VARIABLE == "MAHJONG_BOT_ID"
