"""``server check-bot CMD``: does a student's bot speak the protocol correctly?

It plays a few hands of the bot against the sample AIs, exactly as a match
would (same launcher, limits and deadlines), and checks four things: the bot
joins; it answers every prompt within the time limits; it makes only legal
moves; it exits when it is stopped (SIGTERM) and leaves nothing behind. Each
problem is reported with the hand, the bot's seat and the transcript line that
shows it; a bot that ended before saying ``join`` never started, and a bot
whose output ended is shown with the end of its stderr (why it stopped).

An answer is late as the match fines it, with the host-stall allowance of a
tournament's tables on (``rulesets.default.table``): the time the machine, not the
bot, held an answer up is taken off first, so a good bot is not refused because the
machine was busy when it was checked (a hand-in is checked while a tournament plays).
Those answers are counted in the report's note, not as problems.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import structlog
import trio

from protocol.bot_errors import MARKER
from rulesets.default.advice import buffered_line, fault_advice
from rulesets.default.engine.rng import match_plan
from rulesets.default.late import fine_after_host
from rulesets.default.match import HandSummary, MatchConfig, Player, play_match_hand
from rulesets.default.table import TranscriptLine
from scoring.settlement import fine_for
from server.bots.processes import Peer, ProcessPeer
from server.bots.seats import ProcessLauncher, Sandbox, SeatRequest, TableOptions
from server.output.say import last_lines

SAMPLES = Path(__file__).resolve().parents[2] / "sample_ai"
OPPONENTS = ("greedy.py", "greedy.py", "random_bot.py")
CHECKS = ("joins", "answers in time", "legal moves", "exits when killed")
OWN_TURN = ("pick",)
CLAIM = ("mout", "mjgang")
SHOW_PER_HAND = 3  # problems of one kind listed per hand
STDERR_LINES = 5  # lines of the end of a bot's stderr shown when it stopped talking


@dataclass(frozen=True, slots=True)
class Problem:
    check: str  # one of CHECKS
    hand: int  # 1-based
    seat: int
    what: str
    line: str = ""  # the transcript line that shows it
    stderr: tuple[str, ...] = ()  # the last lines the bot wrote on stderr, when they tell why


@dataclass(slots=True)
class CheckReport:
    hands: int
    problems: list[Problem] = field(default_factory=list)
    stray_lines: int = 0  # lines no prompt asked for (ignored, not a fault)
    answers: int = 0
    host_stalls: int = 0  # answers late only because the machine held them up

    @property
    def ok(self) -> bool:
        return not self.problems


# The checked bot's grace between SIGTERM and SIGKILL: "it had to be killed" is said only
# of a bot that really outlives SIGTERM, not of one the machine's load kept dying slowly
# (the match's own grace is shorter: there it is a cost to the other seats, not a verdict).
CHECK_KILL_GRACE = 2.0


class _Recorder:
    """The match's launcher, keeping the checked bot's peer of each hand."""

    def __init__(self, sandbox: Sandbox) -> None:
        self.launcher = ProcessLauncher(sandbox)
        self.peers: dict[int, ProcessPeer] = {}

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        peer = await self.launcher.open(request, nursery)
        if request.player == 0 and isinstance(peer, ProcessPeer):
            peer.kill_grace = CHECK_KILL_GRACE
            self.peers[request.hand] = peer
        return peer


async def check_bot(argv: Sequence[str], *, hands: int = 4, seed: int = 1,
                    options: TableOptions | None = None,
                    sandbox: Sandbox | None = None) -> CheckReport:
    """Play ``hands`` hands of the bot (player 0) against the sample AIs and judge it."""
    options = replace(options or TableOptions(), host_stalls=True)
    recorder = _Recorder(sandbox or Sandbox())
    opponents = [Player(name, (str(SAMPLES / name), "--seed", str(seed + i)))
                 for i, name in enumerate(OPPONENTS)]
    config = MatchConfig((Player("bot", tuple(argv)), *opponents), seed, 1, None, options,
                         launcher=recorder)
    report = CheckReport(hands)
    log = structlog.get_logger()
    for plan in list(match_plan(seed, 1))[:hands]:
        summary = await play_match_hand(config, plan, None, log)
        _judge(report, summary, recorder.peers.get(plan.number), argv)
    return report


def _judge(report: CheckReport, summary: HandSummary, peer: ProcessPeer | None,
           argv: Sequence[str]) -> None:
    hand = summary.plan.number + 1
    seat = summary.plan.seats.index(0)
    outcome = summary.outcome
    lines = outcome.transcripts[seat]
    report.stray_lines += outcome.unsolicited[seat]
    cause = outcome.faults.get(seat)
    if cause is not None:
        problem = _fault(hand, seat, cause, lines)
        unread = peer.unread_tail if peer is not None else b""
        advice = fault_advice(cause, argv, unread)
        if advice:
            problem = replace(problem, what=f"{cause}: {advice}")
        late = buffered_line(cause, unread)
        if late is not None and problem.line == "(said nothing)":
            problem = replace(problem, line=f"(said nothing in time; {late!r} came when it "
                              "exited)")
        if cause.startswith("closed-output") and peer is not None:
            said = last_lines(peer.stderr_tail, STDERR_LINES)
            problem = replace(problem, stderr=tuple(said) or ("(nothing)",))
        report.problems.append(problem)
    for what, line in _late_answers(lines, seat, outcome.timings):
        report.problems.append(Problem("answers in time", hand, seat, what, line))
    report.host_stalls += outcome.host_stalls[seat]
    report.answers += len(outcome.answer_ms[seat])
    if peer is not None and peer.reports.count:  # bugs its framework answered for
        for what, n in peer.reports.distinct.items():
            report.problems.append(Problem(
                "legal moves", hand, seat, "its own code failed (its framework answered a "
                f"safe move instead): {what}", f"{n} time(s) in this hand; the first "
                f"{peer.reports.detail.get(what, '')}", _traceback(peer.stderr_tail, what)))
    if peer is not None:
        if peer.needed_kill:
            report.problems.append(Problem(
                "exits when killed", hand, seat,
                f"still running {peer.kill_grace:g} s after SIGTERM: it had to be killed "
                "(SIGKILL)"))
        if peer.left_behind:
            report.problems.append(Problem(
                "exits when killed", hand, seat,
                f"left {peer.left_behind} process(es) running after it was stopped"))


def _fault(hand: int, seat: int, cause: str, lines: list[TranscriptLine]) -> Problem:
    sent = [t for t in lines if t.direction == ">"]
    said = [t for t in lines if t.direction == "<"]
    if cause.startswith("no-join"):
        return Problem("joins", hand, seat, cause, _show(said[0]) if said else "(said nothing)")
    if cause.startswith(("malformed", "illegal", "flood")):
        joined = any(t.text == "join" for t in said)
        check = "legal moves" if joined else "joins"
        return Problem(check, hand, seat, cause, _show(said[-1]) if said else "")
    if cause.startswith("closed-output") and not any(t.text == "join" for t in said):
        return Problem("joins", hand, seat, f"never started: it ended before saying join "
                       f"({cause})", _show(said[-1]) if said else "(said nothing)")
    if cause.startswith("hard-limit"):
        return Problem("answers in time", hand, seat, f"{cause}: no answer to the prompt",
                       _show(sent[-1]) if sent else "")
    return Problem("legal moves", hand, seat, f"{cause} (the bot stopped talking)",
                   _show(lines[-1]) if lines else "")


def _traceback(stderr: bytes, what: str) -> tuple[str, ...]:
    """The Python traceback a bot wrote on stderr just before its last report of
    ``what`` (``protocol.bot_errors``), if the end of its stderr still holds it."""
    lines = last_lines(stderr, 80, limit=200)
    reported = [i for i, line in enumerate(lines) if line.startswith(MARKER + what)]
    if not reported:
        return ()
    before = lines[:reported[-1]]
    starts = [i for i, line in enumerate(before) if line.startswith("Traceback (most recent")]
    if not starts:
        return ()
    shown = before[starts[-1]:]
    end = next((i for i, line in enumerate(shown) if i and not line.startswith(" ")), None)
    return tuple(shown[:end + 1] if end is not None else shown)


def _late_answers(lines: list[TranscriptLine], seat: int,
                  timings: Sequence[tuple[float, ...]]) -> list[tuple[str, str]]:
    """Answers the match fined (over their limit, after the host's share is taken off),
    each with its prompt and answer lines from the transcript.

    ``timings`` holds one entry per timed answer, in order, for every seat (then the
    hard limit's, which is a fault, told as one); the transcript gives the prompts and
    answers in the same order.
    """
    late: list[tuple[str, str]] = []
    answered = _answers(lines, seat)
    own = [t for t in timings if int(t[0]) == seat][:len(answered)]
    for (prompt, answer), (_, ms, limit, *host) in zip(answered, own, strict=False):
        fine = fine_after_host(ms, int(limit), host[0]) if host else fine_for(ms, int(limit))
        if fine:
            held = f", {host[0]:.0f} ms of it the machine's" if host else ""
            late.append((f"answered {ms:.0f} ms after the prompt (limit {limit:.0f} ms{held})",
                         f"{_show(prompt)}  then  {_show(answer)}"))
    return late


def _answers(lines: list[TranscriptLine], seat: int
             ) -> list[tuple[TranscriptLine, TranscriptLine]]:
    """Each timed prompt to ``seat`` with the line that answered it, in order."""
    found: list[tuple[TranscriptLine, TranscriptLine]] = []
    prompt: TranscriptLine | None = None
    for t in lines:
        words = t.text.split()
        if t.direction == ">":
            if not words:
                continue
            own = words[0] in OWN_TURN or (words[0] in ("mpeng", "mchi")
                                           and words[1] == str(seat))
            if own or (words[0] in CLAIM and words[1] != str(seat)):
                prompt = t
            continue
        if prompt is None or t.text == "join":
            continue
        found.append((prompt, t))
        prompt = None
    return found


def _show(t: TranscriptLine) -> str:
    return f"{t.at:9.3f} {t.direction} {t.text}"


def format_report(report: CheckReport, command: str) -> list[str]:
    """The report as text lines, for a student."""
    out = [f"check-bot {command}: {report.hands} hands against "
           + ", ".join(n.removesuffix(".py") for n in OPPONENTS)]
    for check in CHECKS:
        found = [p for p in report.problems if p.check == check]
        out.append(f"  {check:<20} {'ok' if not found else f'{len(found)} problem(s)'}")
    if report.host_stalls:
        out.append(f"  note: {report.host_stalls} answer(s) were late only because this "
                   "machine was busy (its share of the time taken off, as in a tournament)")
    if report.stray_lines:
        out.append(f"  note: {report.stray_lines} line(s) answered no prompt (ignored; over "
                   "1000 in a hand is a fault)")
    # A problem is told once, with the hands it came back in: a bug that breaks every
    # hand the same way is one problem to read, not one traceback per hand.
    again: dict[tuple[str, str, tuple[str, ...]], list[int]] = {}
    for p in report.problems:
        again.setdefault((p.check, p.what, p.stderr), []).append(p.hand)
    shown: dict[tuple[int, str], int] = {}
    told: set[tuple[str, str, tuple[str, ...]]] = set()
    for p in report.problems:
        key = (p.hand, p.check)
        same = (p.check, p.what, p.stderr)
        if same in told:
            continue
        told.add(same)
        shown[key] = shown.get(key, 0) + 1
        if shown[key] > SHOW_PER_HAND:
            continue
        out.append(f"hand {p.hand}, seat {p.seat}: [{p.check}] {p.what}")
        if p.line:
            out.append(f"    {p.line}")
        out.extend(f"    stderr: {line}" for line in p.stderr)
        more = again[same][1:]
        if more:
            hands = sorted(set(more))
            out.append(f"    ... and {len(more)} more time(s) the same, in hand(s) "
                       + ", ".join(map(str, hands)))
    for (hand, check), n in shown.items():
        if n > SHOW_PER_HAND:
            out.append(f"hand {hand}: [{check}] and {n - SHOW_PER_HAND} more like these")
    out.append("the bot speaks the protocol correctly" if report.ok
               else f"{len(report.problems)} problem(s)")
    return out
