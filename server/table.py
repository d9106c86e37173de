"""One hand at one table: the async shell around the pure engine.

The engine decides everything; this module moves lines and keeps time. Each
seat has a reader task that frames its bytes into lines (``LineBuffer``) and
stamps each with the trio clock the moment it is read; the hand's loop takes
those stamped lines from one channel, with the earliest pending hard limit as
its cancel scope. A prompt's clock starts when the prompt has been written
(``send_all`` returned: pipes and sockets are unbuffered on our side) and stops
at the stamp of the answer line, so our own processing never counts against a
bot. Fines and faults follow SPEC section 6.

A line that arrived before the seat's current prompt was written is stale (for
example a duplicate answer) and is never taken as the answer to that prompt.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

import structlog
import trio

from protocol.framing import FramingError, LineBuffer, encode_line
from protocol.messages import Join, MalformedLine, MHu, format_line, parse_from_ai
from scoring.settlement import WinKind
from server.bots import Peer
from server.engine.hand import SEATS, TIME_LIMIT_MS, Hand, Verdict

MAX_UNSOLICITED = 1000  # stray lines a seat may send in one hand before it is faulted
MAX_TRANSCRIPT = 20_000  # lines kept per seat per hand


class Eof(Enum):
    EOF = "eof"


EOF = Eof.EOF


@dataclass(frozen=True, slots=True)
class TableOptions:
    hard_limit: float = 5.0  # seconds before an unanswered prompt is a fault
    join_limit: float = 5.0  # seconds for every bot to say join (not fined)
    announce: bool = False  # send "mhu" before closing


def fine_for(elapsed_ms: float, limit_ms: int) -> int:
    """1 point per 100 ms over the limit, rounded (SPEC section 6)."""
    if elapsed_ms < limit_ms + 50:
        return 0
    return math.floor((elapsed_ms - limit_ms + 50) / 100)


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
    server_latency: list[float] = field(default_factory=list)  # seconds, answer read -> prompt
    unsolicited: list[int] = field(default_factory=lambda: [0] * SEATS)
    started_at: float = 0.0
    ended_at: float = 0.0


Stamped = tuple[int, str | FramingError | Eof, float]


async def _reader(seat: int, peer: Peer, channel: trio.MemorySendChannel[Stamped]) -> None:
    buffer = LineBuffer()
    async with channel:
        while True:
            try:
                data = await peer.receive_some()
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                data = b""
            now = trio.current_time()
            if not data:
                for item in buffer.close():
                    await channel.send((seat, item, now))
                await channel.send((seat, EOF, now))
                return
            for item in buffer.feed(data):
                await channel.send((seat, item, now))


class _Table:
    def __init__(self, engine: Hand, peers: Sequence[Peer], options: TableOptions,
                 log: Any, on_fault: Callable[[int], None]) -> None:
        self.engine = engine
        self.peers = peers
        self.options = options
        self.log = log
        self.on_fault = on_fault
        self.out = HandOutcome(engine)
        self.prompt_at: list[float | None] = [None] * SEATS
        self.joined = [False] * SEATS
        self._answer_read: float | None = None

    # --- helpers ----------------------------------------------------------------

    def _note(self, seat: int, direction: str, text: str, at: float) -> None:
        lines = self.out.transcripts[seat]
        if len(lines) < MAX_TRANSCRIPT:
            lines.append(TranscriptLine(round(at - self.out.started_at, 6), direction, text))

    def fault(self, seat: int, cause: str) -> None:
        if seat in self.out.faults:
            return
        self.out.faults[seat] = cause
        self.log.warning("fault", seat=seat, cause=cause)
        self.prompt_at[seat] = None
        if self.engine.started:
            self.engine.fault(seat, cause)
        self.on_fault(seat)

    def _fine(self, seat: int, elapsed_ms: float, limit_ms: int) -> None:
        fine = fine_for(elapsed_ms, limit_ms)
        if fine:
            self.out.fines[seat] += fine
            self.log.info("fine", seat=seat, ms=round(elapsed_ms, 1), limit=limit_ms, points=fine)

    async def flush(self) -> None:
        """Write every queued line; start the clock of each new prompt."""
        by_seat: list[list[str]] = [[] for _ in range(SEATS)]
        for seat, message in self.engine.drain():
            if seat not in self.out.faults:
                by_seat[seat].append(format_line(message))
        for seat, lines in enumerate(by_seat):
            if not lines or seat in self.out.faults:
                continue
            data = b"".join(encode_line(text) for text in lines)
            sent = False
            with trio.move_on_after(self.options.hard_limit):
                try:
                    await self.peers[seat].send(data)
                    sent = True
                except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                    pass
            now = trio.current_time()
            for text in lines:
                self._note(seat, ">", text, now)
                self.log.debug("send", seat=seat, line=text)
            if not sent:
                self.fault(seat, "closed-input")
                continue
            if seat in self.engine.waiting and self.prompt_at[seat] is None:
                self.prompt_at[seat] = now
                if self._answer_read is not None:
                    self.out.server_latency.append(now - self._answer_read)
                    self._answer_read = None

    # --- phases ---------------------------------------------------------------------

    async def join(self, lines: trio.MemoryReceiveChannel[Stamped]) -> None:
        deadline = trio.current_time() + self.options.join_limit
        while not all(self.joined[s] or s in self.out.faults for s in range(SEATS)):
            with trio.move_on_at(deadline):
                seat, item, at = await lines.receive()
                self._on_join_line(seat, item, at)
                continue
            for seat in range(SEATS):
                if not self.joined[seat]:
                    self.fault(seat, "no-join")

    def _on_join_line(self, seat: int, item: str | FramingError | Eof, at: float) -> None:
        if seat in self.out.faults:
            return
        if item is EOF:
            self.fault(seat, "closed-output")
            return
        if isinstance(item, FramingError):
            self._note(seat, "<", repr(item.raw), at)
            self.fault(seat, f"malformed: {item.reason}")
            return
        assert isinstance(item, str)
        self._note(seat, "<", item, at)
        self.log.debug("recv", seat=seat, line=item)
        if self.joined[seat]:
            self._unsolicited(seat, item)
            return
        try:
            message = parse_from_ai(item)
        except MalformedLine as exc:
            self.fault(seat, f"malformed: {exc.reason}")
            return
        if isinstance(message, Join):
            self.joined[seat] = True
        else:
            self.fault(seat, f"no-join: said {item[:40]!r} first")

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
            deadline = min(at for at, _ in pending if at is not None) + self.options.hard_limit
            with trio.move_on_at(deadline) as scope:
                seat, item, at = await lines.receive()
            if scope.cancelled_caught:
                self._expire(trio.current_time())
                continue
            self._on_line(seat, item, at)

    def _expire(self, now: float) -> None:
        hard_ms = self.options.hard_limit * 1000
        for seat, expect in sorted(self.engine.waiting.items()):
            at = self.prompt_at[seat]
            if at is not None and at + self.options.hard_limit <= now:
                self._fine(seat, hard_ms, TIME_LIMIT_MS[expect])
                self.fault(seat, "hard-limit")

    def _unsolicited(self, seat: int, text: str) -> None:
        self.out.unsolicited[seat] += 1
        self.log.info("unsolicited", seat=seat, line=text)
        if self.out.unsolicited[seat] > MAX_UNSOLICITED:
            self.fault(seat, "flood")

    def _on_line(self, seat: int, item: str | FramingError | Eof, at: float) -> None:
        if seat in self.out.faults:
            return
        if item is EOF:
            self.fault(seat, "closed-output")
            return
        if isinstance(item, FramingError):
            self._note(seat, "<", repr(item.raw), at)
            self.fault(seat, f"malformed: {item.reason}")
            return
        assert isinstance(item, str)
        self._note(seat, "<", item, at)
        self.log.debug("recv", seat=seat, line=item)
        try:
            message = parse_from_ai(item)
        except MalformedLine as exc:
            self.fault(seat, f"malformed: {exc.reason}")
            return
        prompt_at = self.prompt_at[seat]
        expect = self.engine.waiting.get(seat)
        if expect is None or prompt_at is None or at < prompt_at:
            self._unsolicited(seat, item)
            return
        elapsed_ms = (at - prompt_at) * 1000
        self.out.answer_ms[seat].append(elapsed_ms)
        self._fine(seat, elapsed_ms, TIME_LIMIT_MS[expect])
        verdict = self.engine.answer(seat, message)
        if verdict.verdict is Verdict.UNSOLICITED:
            self._unsolicited(seat, item)
            return
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
                    on_fault: Callable[[int], None] | None = None) -> HandOutcome:
    """Play one hand with four connected peers; the caller closes them after."""
    if log is None:
        log = structlog.get_logger()
    async with trio.open_nursery() as nursery:

        def kill(seat: int) -> None:
            nursery.start_soon(peers[seat].close)
            if on_fault is not None:
                on_fault(seat)

        table = _Table(engine, peers, options, log, kill)
        table.out.started_at = trio.current_time()
        send, receive = trio.open_memory_channel[Stamped](64)
        async with send:
            for seat, peer in enumerate(peers):
                nursery.start_soon(_reader, seat, peer, send.clone())
        await table.join(receive)
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
