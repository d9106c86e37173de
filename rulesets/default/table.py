"""One hand at one table: the async shell around the pure engine.

The engine decides everything; this module moves lines and keeps time. Each
seat has a reader task that frames its bytes into lines (``LineBuffer``) and
stamps each with the trio clock the moment it is read; the hand's loop takes
those stamped lines from one channel, with the earliest pending hard limit as
its cancel scope. A prompt's clock starts when the prompt has been written
(the write returned: pipes and sockets are unbuffered on our side) and stops
at the stamp of the answer line, so our own processing never counts against a
bot. Fines and faults follow SPEC section 6. Lines are written with one plain
non-blocking write (``Peer.send_nowait``) and only what does not fit goes
through ``send`` under the hard limit: the common case costs no trip through
trio's scheduler.

Host stalls (``TableOptions.host_stalls``, on in tournaments): when an answer
would be fined, the time the host, not the bot, held it up is taken off first.
That time is how late this event loop was when it read the answer (a monitor
task sleeps in 5 ms ticks and records each late wake-up; the late stretch that
ends at the answer counts, from the prompt on) plus how long the bot waited on
the kernel's run queue for a CPU since the prompt (``/proc/<pid>/schedstat``).
The bot's own CPU time (``/proc/<pid>/stat``) is measured too: a bot that burnt
more CPU than its limit gets no allowance. An answer whose fine is lowered
this way is a host stall; its timing entry carries the allowance as a fourth
field, so ``server verify`` can still recompute the fine. Off by default: a
single match behaves as it always did.

A line that arrived before the seat's current prompt was written is stale (for
example a duplicate answer) and is never taken as the answer to that prompt.
"Before" is decided by a counter that the readers and the writer share, not by
the clock: a line and a prompt can carry the same time stamp (a coarse clock, or
trio's virtual clock in tests), but never the same place in that order.

A line the readers stamped in time is never lost to a deadline the loop
noticed late (after a slow write to another seat, say): lines already read are
taken before the hard limit is enforced, and a line stamped past its seat's
hard limit is a hard-limit fault whenever it is looked at.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import structlog
import trio

from protocol.framing import FramingError, LineBuffer, encode_line
from protocol.messages import FromAI, Join, MalformedLine, MHu, format_line, parse_from_ai
from rulesets.default.engine.hand import (
    FAULT_LIMIT_MS,
    HARD_LIMIT_FAULT,
    SEATS,
    TIME_LIMIT_MS,
    Expect,
    Hand,
    Verdict,
    is_hard_limit,
)
from rulesets.default.late import fine_after_host
from scoring.settlement import WinKind, fine_for
from server.bots.processes import EOF_GRACE, Peer, ProcessPeer
from server.bots.seats import TableOptions

MAX_UNSOLICITED = 1000  # stray lines a seat may send in one hand before it is faulted
MAX_TRANSCRIPT = 20_000  # lines kept per seat per hand
CLAIMS = frozenset({"peng", "gang", "chi", "qgang"})  # engine events logged as "claim"


class Eof(Enum):
    EOF = "eof"


EOF = Eof.EOF


STALL_TICK = 0.005  # seconds between the loop monitor's wake-ups
STALL_MIN = 0.002  # a wake-up later than this marks the loop busy
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True, slots=True)
class TranscriptLine:
    at: float  # seconds since the hand started
    direction: str  # ">" to the bot, "<" from the bot
    text: str


@dataclass(slots=True)
class HandOutcome:
    engine: Hand
    fines: list[int] = field(default_factory=lambda: [0] * SEATS)
    faults: dict[int, str] = field(default_factory=dict)  # seat -> cause
    transcripts: list[list[TranscriptLine]] = field(
        default_factory=lambda: [[] for _ in range(SEATS)])
    answer_ms: list[list[float]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    # (seat, ms, limit ms) for every timed answer and hard limit, so fines can be re-checked;
    # (seat, ms, limit ms, host ms) for an answer the host held up (a host stall)
    timings: list[tuple[float, ...]] = field(default_factory=list)
    host_stalls: list[int] = field(default_factory=lambda: [0] * SEATS)  # by seat
    server_latency: list[float] = field(default_factory=list)  # seconds, answer read -> prompt
    unsolicited: list[int] = field(default_factory=lambda: [0] * SEATS)
    started_at: float = 0.0
    joined_at: float = 0.0  # every bot joined (or was faulted): the deal is written next
    ended_at: float = 0.0


class Stamp:
    """A time and a place in the order of reads and writes at one table."""

    __slots__ = ("at", "seq")

    def __init__(self, at: float, seq: int) -> None:
        self.at = at  # trio.current_time() when read (or written)
        self.seq = seq


class _Order:
    """The table's shared counter of reads and writes."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last = 0

    def stamp(self) -> Stamp:
        self.last += 1
        return Stamp(trio.current_time(), self.last)


Stamped = tuple[int, str | FramingError | Eof, Stamp]


def process_clock(pid: int) -> tuple[float, float] | None:
    """(CPU ms, run-queue wait ms) a process has used so far, or None if unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        fields = stat[stat.rindex(b")") + 2:].split()
        cpu_ms = (int(fields[11]) + int(fields[12])) * 1000 / _CLOCK_TICKS  # utime + stime
        wait_ms = 0.0
        try:
            with open(f"/proc/{pid}/schedstat", "rb") as f:
                wait_ms = int(f.read().split()[1]) / 1e6
        except (OSError, IndexError, ValueError):
            pass
        return cpu_ms, wait_ms
    except (OSError, IndexError, ValueError):
        return None


class LoopMonitor:
    """Intervals in which this event loop was busy elsewhere (late wake-ups)."""

    def __init__(self) -> None:
        self.busy: list[tuple[float, float]] = []
        self.due = math.inf  # when the monitor should wake next

    async def run(self) -> None:
        while True:
            before = trio.current_time()
            self.due = before + STALL_TICK
            await trio.sleep(STALL_TICK)
            woke = trio.current_time()
            late = woke - before - STALL_TICK
            if late > STALL_MIN:
                self.busy.append((woke - late, woke))
                del self.busy[:-1000]

    def late_ms(self, start: float, end: float) -> float:
        """How late the loop was at ``end`` (trio clock): its busy stretch then, from ``start``.

        Only the stretch that ends when the answer is read counts: the loop being
        descheduled now and then while a bot thinks (a busy host) delays nothing.
        """
        busy = list(self.busy[-2:])
        now = trio.current_time()
        if now - self.due > STALL_MIN:  # late right now: the monitor has not woken yet
            busy.append((self.due, now))
        total = 0.0
        for lo, hi in busy:
            if hi >= end - STALL_TICK:
                total += max(0.0, min(hi, end) - max(lo, start))
        return total * 1000


async def _reader(seat: int, peer: Peer, channel: trio.MemorySendChannel[Stamped],
                  order: _Order) -> None:
    buffer = LineBuffer()
    async with channel:
        while True:
            try:
                data = await peer.receive_some()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                data = b""
            stamp = order.stamp()
            if not data:
                for item in buffer.close():
                    await channel.send((seat, item, stamp))
                await channel.send((seat, EOF, stamp))
                return
            for item in buffer.feed(data):
                await channel.send((seat, item, stamp))


def _closed_output(peer: Peer) -> str:
    """The fault cause of a seat whose output ended, with how its bot ended if known."""
    detail = getattr(peer, "exit_detail", "")
    return f"closed-output: {detail}" if detail else "closed-output"


class _Table:
    def __init__(self, engine: Hand, peers: Sequence[Peer], options: TableOptions,
                 log: Any, on_fault: Callable[[int], None]) -> None:
        self.engine = engine
        self.peers = peers
        self.options = options
        self.log = log
        self.on_fault = on_fault
        self.out = HandOutcome(engine)
        self.order = _Order()
        self.prompt_at: list[Stamp | None] = [None] * SEATS
        # Why the last chatter a seat sent since its current prompt was no answer, so a
        # hard-limit fault can say that the line it did send was no answer.
        self.chatter: list[str | None] = [None] * SEATS
        self.joined = [False] * SEATS
        self._answer_read: float | None = None
        self.monitor: LoopMonitor | None = None  # with options.host_stalls
        self.pids: list[int | None] = [getattr(getattr(p, "process", None), "pid", None)
                                       for p in peers]
        self.clock_at_prompt: list[tuple[float, float] | None] = [None] * SEATS
        self._events_seen = 0  # engine events already looked at for claims to log
        # Told before each batch of lines is written (the live feed's pictures): after
        # the answers that led to it were stamped, before the next prompt's clock starts.
        self.watch: Callable[[], None] | None = None
        # A seat's own clock (a person's seat: ``server.bots.person``) replaces the hard
        # limit for it, and no answer within it is fined; its time-out costs what a bot's does.
        clocks = [getattr(p, "clock", None) for p in peers]
        self.hard = [options.hard_limit if c is None else float(c) for c in clocks]
        self.own_ms = [None if c is None else round(float(c) * 1000) for c in clocks]

    # --- helpers ----------------------------------------------------------------

    def _note(self, seat: int, direction: str, text: str, at: float) -> None:
        lines = self.out.transcripts[seat]
        if len(lines) < MAX_TRANSCRIPT:
            lines.append(TranscriptLine(round(at - self.out.started_at, 6), direction, text))

    def fault(self, seat: int, cause: str) -> None:
        """Fault a seat once: fine it, record why, stop it; the engine plays it on.

        Every fault but the hard limit (fined for its time by ``_hard_limit``)
        costs what an own-turn answer at the hard limit would (SPEC section 6),
        recorded as that timing so that ``server verify`` recomputes it.
        """
        if seat in self.out.faults:
            return
        if not is_hard_limit(cause):
            self._fine(seat, self.options.hard_limit * 1000, FAULT_LIMIT_MS)
        self.out.faults[seat] = cause
        peer = self.peers[seat]
        if isinstance(peer, ProcessPeer) and (cause == "no-join" or is_hard_limit(cause)):
            # Silent in time: a bot whose output is buffered writes its lines when it
            # exits; let it, so that its fault can say it was buffered (rulesets.default.
            # advice).
            peer.eof_grace = EOF_GRACE
        self.log.warning("fault", seat=seat, cause=cause)
        self.prompt_at[seat] = None
        if self.engine.started:
            self.engine.fault(seat, cause)
        self.on_fault(seat)

    def _fine(self, seat: int, elapsed_ms: float, limit_ms: int,
              window: tuple[float, float] | None = None) -> None:
        fine = fine_for(elapsed_ms, limit_ms)
        host_ms = self._host_ms(seat, limit_ms, window) if fine and window else 0.0
        if host_ms > 0 and fine_after_host(elapsed_ms, limit_ms, host_ms) < fine:
            fine = fine_after_host(elapsed_ms, limit_ms, host_ms)
            self.out.timings.append((seat, round(elapsed_ms, 3), limit_ms, round(host_ms, 3)))
            self.out.host_stalls[seat] += 1
            self.log.info("host_stall", seat=seat, ms=round(elapsed_ms, 1), limit=limit_ms,
                          host_ms=round(host_ms, 1), points=fine)
        else:
            self.out.timings.append((seat, round(elapsed_ms, 3), limit_ms))
        if fine:
            self.out.fines[seat] += fine
            self.log.info("fine", seat=seat, ms=round(elapsed_ms, 1), limit=limit_ms, points=fine)

    def _host_ms(self, seat: int, limit_ms: int, window: tuple[float, float]) -> float:
        """How long the host held up an answer given in ``window``; 0 if it was the bot."""
        if self.monitor is None:
            return 0.0
        host_ms = self.monitor.late_ms(*window)
        pid, before = self.pids[seat], self.clock_at_prompt[seat]
        after = process_clock(pid) if pid is not None and before is not None else None
        if before is not None and after is not None:
            cpu_ms, wait_ms = after[0] - before[0], after[1] - before[1]
            if cpu_ms >= limit_ms:  # the bot was busy thinking: its own time
                return 0.0
            host_ms += max(0.0, wait_ms)
            self.log.debug("host_time", seat=seat, cpu_ms=round(cpu_ms, 1),
                           wait_ms=round(wait_ms, 1), loop_ms=round(host_ms - wait_ms, 1))
        return min(host_ms, (window[1] - window[0]) * 1000)

    async def flush(self) -> None:
        """Write every queued line; start the clock of each new prompt.

        A seat that cannot be written to is faulted only once the whole batch is
        out, so that ``engine.waiting`` still describes the batch being written;
        its autoplay may queue more lines, written by the next round of the loop.
        """
        self._log_claims()
        if self.watch is not None:
            self.watch()
        while batch := self.engine.drain():
            by_seat: list[list[str]] = [[] for _ in range(SEATS)]
            for seat, message in batch:
                if seat not in self.out.faults:
                    by_seat[seat].append(format_line(message))
            waiting = self.engine.waiting
            # Prompts first: a bot starts thinking before the others hear the news.
            order = sorted(range(SEATS), key=lambda s: s not in waiting)
            failed: list[int] = []
            for seat in order:
                lines = by_seat[seat]
                if lines and not await self._write(seat, lines):
                    failed.append(seat)
            for seat in failed:
                self.fault(seat, "closed-input")

    def _log_claims(self) -> None:
        """Log each claim the engine resolved since the last call."""
        events = self.engine.events
        for i in range(self._events_seen, len(events)):
            event = events[i]
            if event.kind in CLAIMS and event.tile is not None:
                self.log.debug("claim", seat=event.seat, kind=event.kind,
                               tile=event.tile.code, source=event.source)
        self._events_seen = len(events)

    async def _write(self, seat: int, lines: list[str]) -> bool:
        """Write one seat's lines; start its clock if it is now prompted."""
        data = b"".join(encode_line(text) for text in lines)
        peer = self.peers[seat]
        sent = False
        try:
            taken = peer.send_nowait(data)  # almost always all of it
            if taken == len(data):
                sent = True
            else:
                with trio.move_on_after(self.options.hard_limit):
                    await peer.send(data[taken:])
                    sent = True
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
        written = self.order.stamp()
        for text in lines:
            self._note(seat, ">", text, written.at)
            self.log.debug("send", seat=seat, line=text)
        if sent and seat in self.engine.waiting and self.prompt_at[seat] is None:
            self.prompt_at[seat] = written
            self.chatter[seat] = None
            if self.monitor is not None:
                pid = self.pids[seat]
                self.clock_at_prompt[seat] = process_clock(pid) if pid is not None else None
            if self._answer_read is not None:
                self.out.server_latency.append(written.at - self._answer_read)
                self._answer_read = None
        return sent

    # --- phases ---------------------------------------------------------------------

    async def join(self, lines: trio.MemoryReceiveChannel[Stamped]) -> None:
        deadline = trio.current_time() + self.options.join_limit
        while not all(self.joined[s] or s in self.out.faults for s in range(SEATS)):
            with trio.move_on_at(deadline):
                seat, item, stamp = await lines.receive()
                self._on_join_line(seat, item, stamp.at)
                continue
            for seat in range(SEATS):
                if not self.joined[seat]:
                    # A remote seat can say why nobody came (no connection, a bad token).
                    reason = getattr(self.peers[seat], "missing_reason", None)
                    self.fault(seat, f"no-join: {reason}" if reason else "no-join")

    def _message(self, seat: int, item: str | FramingError | Eof, at: float,
                 stray: bool = False, ms: float | None = None) -> tuple[str, FromAI] | None:
        """The line a seat sent and its message, or None once it is dealt with.

        Logs the line (with ``ms``, its time since the seat's prompt, when it
        came after one); a closed stream, a bad line or a line that is no message
        faults the seat; a blank line (or any line, when ``stray``) is chatter.
        """
        if seat in self.out.faults:
            if item is not EOF:
                self._unread(seat, item)
            return None
        if item is EOF:
            self.fault(seat, _closed_output(self.peers[seat]))
            return None
        if isinstance(item, FramingError):
            self._unread(seat, item)
            self._note(seat, "<", repr(item.raw), at)
            self.fault(seat, f"malformed: {item.reason}")
            return None
        assert isinstance(item, str)
        self._note(seat, "<", item, at)
        self.log.debug("recv", seat=seat, line=item, ms=ms)
        if stray or item == "":  # a blank line is chatter, not a message
            self._unsolicited(seat, item, "blank line" if item == "" else "not asked")
            return None
        try:
            return item, parse_from_ai(item)
        except MalformedLine as exc:
            self._unread(seat, item)
            self.fault(seat, f"malformed: {exc.reason}")
            return None

    def _unread(self, seat: int, item: str | FramingError | Eof) -> None:
        """A line of a seat the protocol did not take, kept for its fault line."""
        keep = getattr(self.peers[seat], "keep_unread", None)
        if keep is not None:
            keep(item.raw if isinstance(item, FramingError) else str(item))

    def _on_join_line(self, seat: int, item: str | FramingError | Eof, at: float) -> None:
        got = self._message(seat, item, at, stray=self.joined[seat])
        if got is None:
            return
        text, message = got
        if isinstance(message, Join):
            self.joined[seat] = True
        else:
            self._unread(seat, text)
            self.fault(seat, f"no-join: said {text[:40]!r} first")

    async def play(self, lines: trio.MemoryReceiveChannel[Stamped]) -> None:
        engine = self.engine
        engine.start()
        for seat in range(SEATS):
            if seat in self.out.faults:
                engine.fault(seat, self.out.faults[seat])
        while True:
            await self.flush()
            if engine.finished:
                return
            pending = [(self.prompt_at[s], s) for s in engine.waiting]
            if any(at is None for at, _ in pending):
                raise RuntimeError(f"prompt without a clock: {pending}")
            deadline = min(p.at + self.hard[s] for p, s in pending if p is not None)
            try:
                # Lines already read come first, even past a deadline: they were in time
                # if their stamps say so (receive() would check the deadline first).
                seat, item, stamp = lines.receive_nowait()
            except trio.WouldBlock:
                with trio.move_on_at(deadline) as scope:
                    seat, item, stamp = await lines.receive()
                if scope.cancelled_caught:
                    self._expire(trio.current_time())
                    continue
            self._on_line(seat, item, stamp)

    def _expire(self, now: float) -> None:
        for seat, expect in sorted(self.engine.waiting.items()):
            at = self.prompt_at[seat]
            if at is not None and at.at + self.hard[seat] <= now:
                self._hard_limit(seat, expect)

    def _hard_limit(self, seat: int, expect: Expect) -> None:
        self._fine(seat, self.options.hard_limit * 1000, TIME_LIMIT_MS[expect])
        chatter = self.chatter[seat]
        self.fault(seat, HARD_LIMIT_FAULT if chatter is None else
                   f"{HARD_LIMIT_FAULT}: only chatter ({chatter})")

    def _unsolicited(self, seat: int, text: str, reason: str = "not asked") -> None:
        self.out.unsolicited[seat] += 1
        self.log.info("unsolicited", seat=seat, line=text, reason=reason)
        if self.out.unsolicited[seat] > MAX_UNSOLICITED:
            self.fault(seat, "flood")

    def _on_line(self, seat: int, item: str | FramingError | Eof, stamp: Stamp) -> None:
        at = stamp.at
        prompt = self.prompt_at[seat]
        since = None if prompt is None or stamp.seq < prompt.seq else (at - prompt.at) * 1000
        got = self._message(seat, item, at, ms=None if since is None else round(since, 1))
        if got is None:
            return
        item, message = got
        expect = self.engine.waiting.get(seat)
        if expect is None or prompt is None or stamp.seq < prompt.seq:
            self._unsolicited(seat, item, "not asked" if expect is None or prompt is None
                              else "read before its prompt was written")
            return
        if at > prompt.at + self.hard[seat]:
            self._hard_limit(seat, expect)  # read late, seen later still
            return
        # The engine has its say before anything is timed: a line it does not take
        # (a ``pass`` to a turn prompt is chatter) is neither timed nor fined, and the
        # prompt's clock runs on from the prompt.
        verdict = self.engine.answer(seat, message)
        if verdict.verdict is Verdict.UNSOLICITED:
            self.chatter[seat] = verdict.reason
            self._unsolicited(seat, item, verdict.reason)
            return
        elapsed_ms = (at - prompt.at) * 1000
        self.out.answer_ms[seat].append(elapsed_ms)
        own = self.own_ms[seat]
        self._fine(seat, elapsed_ms, TIME_LIMIT_MS[expect] if own is None else own,
                   (prompt.at, at))
        self.prompt_at[seat] = None
        if verdict.verdict is Verdict.REJECTED:
            self.fault(seat, f"illegal: {verdict.reason}")
            return
        self._answer_read = at
        self.log.debug("accept", seat=seat, line=item, ms=round(elapsed_ms, 2))

    async def announce(self) -> None:
        result = self.engine.result
        if result is None or result.winner is None:
            return
        payer = result.winner if result.kind is WinKind.SELF_DRAWN else result.payer
        assert payer is not None
        line = format_line(MHu(result.winner, payer, result.fan_total))
        for seat in range(SEATS):
            if seat in self.out.faults:
                continue
            with trio.move_on_after(0.5):
                try:
                    await self.peers[seat].send(encode_line(line))
                    self._note(seat, ">", line, trio.current_time())
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass


async def play_hand(engine: Hand, peers: Sequence[Peer], options: TableOptions,
                    log: Any = None,
                    on_fault: Callable[[int], None] | None = None,
                    outcome: HandOutcome | None = None,
                    watch: Callable[[], None] | None = None) -> HandOutcome:
    """Play one hand with four connected peers; the caller closes them after.

    ``outcome``, when given, is filled in as the hand goes: the caller keeps what
    was played (fines included) if ``on_fault`` raises to cut the hand short.
    ``watch`` is called before each batch of lines is written, outside every clock
    (the live feed looks at the engine's new events then).
    """
    if log is None:
        log = structlog.get_logger()
    async with trio.open_nursery() as nursery:

        def kill(seat: int) -> None:
            nursery.start_soon(peers[seat].close)
            if on_fault is not None:
                on_fault(seat)

        table = _Table(engine, peers, options, log, kill)
        table.watch = watch
        if outcome is not None:
            table.out = outcome
        table.out.started_at = trio.current_time()
        if options.host_stalls:
            table.monitor = LoopMonitor()
            nursery.start_soon(table.monitor.run)
        send, receive = trio.open_memory_channel[Stamped](64)
        async with send:
            for seat, peer in enumerate(peers):
                nursery.start_soon(_reader, seat, peer, send.clone(), table.order)
        await table.join(receive)
        table.out.joined_at = trio.current_time()
        await table.play(receive)
        if options.announce:
            await table.announce()
        table.out.ended_at = trio.current_time()
        nursery.cancel_scope.cancel()
    result = engine.result
    assert result is not None
    log.info("hand_over", winner=result.winner, how=result.kind.value if result.kind else "draw",
             payer=result.payer, fans=result.fan_total, deltas=list(result.deltas),
             fines=table.out.fines, faults=table.out.faults)
    return table.out
