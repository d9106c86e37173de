"""Person seats: a ``web:NAME`` seat is played by a person from a page, not by a program.

Theory of operation. ``PersonSeats`` is a ``Launcher``: for a seat whose AI argument
is ``web:NAME`` it gives a ``PersonPeer``, for the others it asks its fallback (bot
processes). The peer looks like a bot to the table: it says ``join`` at once, takes
the table's lines and answers them. Each line goes to the seat's ``SeatBoard``,
which the ruleset provides (``server.seam.contract``): it is fed exactly what a bot
of that seat would read, so it knows nothing the seat could not know. The page
(``server.web.seat_page``) shows the board's picture and offers its choices; a click
comes back through ``PersonSeat.answer``, which takes only one of the current
choices (for the current prompt: the page says which version it saw) and refuses
anything else without telling the table: a refused click costs the seat nothing,
and its clock runs on.

A prompt whose only choice is to pass (another seat's discard the person cannot
claim), or one the ruleset answers by itself (kind ``auto``: NOI 2014's target
hand), is answered at once, as the policy bot does, so the person clicks only
where there is something to decide.

The person's clock is the peer's ``clock`` (seconds per answer, ``DEFAULT_CLOCK``);
the table reads it in place of its hard limit for this seat and fines no answer
within it. A person who does not answer in time gets what a bot gets at the hard
limit: the fault and its fine, and the server plays the seat to the end of the
hand. ``PersonSeat.note`` says so on the page.

The first hand waits until every person has opened their page (the launcher does
not open their seat before), so nobody's clock runs while a link is being copied.

A ``PersonSeat`` lives for the whole match (the token, the current hand's board,
the last state), so a reloaded page finds the seat as it was.

Tokens are compared in constant time (``hmac.compare_digest``), against a dummy
for an unknown name, so a wrong name costs as much as a wrong token.
"""

from __future__ import annotations

import hmac
import math
import secrets
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import trio

from protocol.framing import decode_line
from server.bots.botzone_io import OK, TLE, Answer
from server.bots.processes import Peer
from server.bots.seats import Launcher, ProcessLauncher, SeatRequest
from server.seam.contract import Choice, GamePlan, SeatBoard, TableRequest
from server.seam.errors import InputError

PREFIX = "web:"  # an AI argument web:NAME is a person's seat
DEFAULT_CLOCK = 30.0  # seconds a person has for each answer
MAX_NAME = 64
AFTER_TIMEOUT = ("the server plays your seat to the end of this hand, as for a bot that "
                 "does not answer, and you play again from the next hand.")
AUTO = ("pass", "auto")  # a lone choice of these kinds is answered without the person
_DUMMY = secrets.token_urlsafe(16).encode()  # compared against for an unknown name


class PersonSetupError(ValueError):
    """A bad web:NAME argument or person option."""


def person_name(spec: str) -> str | None:
    """NAME for an AI argument ``web:NAME``, None for any other argument."""
    return spec[len(PREFIX):] if spec.startswith(PREFIX) else None


def check_name(text: str) -> str:
    if not 0 < len(text) <= MAX_NAME or not all(c.isalnum() or c in "-_." for c in text) \
            or not text.isascii():
        raise PersonSetupError(f"web:{text[:20]!r}: a person's name is 1..{MAX_NAME} letters, "
                               "digits, '-', '_' or '.'")
    return text


@dataclass(frozen=True, slots=True)
class PersonOptions:
    """A match's person seats, checked: names, tokens, the clock, where the page serves."""

    tokens: Mapping[str, str]
    clock: float = DEFAULT_CLOCK
    bind: str = "127.0.0.1:0"
    # How long a table waits for a person's page to open (a match: as long as it takes;
    # a tournament: PAGE_WAIT_MOVES of the person's moves, then the seat plays on without
    # them, timing out as a silent bot's, and no later table waits again until they come).
    page_wait: float = math.inf


def person_options(ais: Sequence[str], clock: float = DEFAULT_CLOCK,
                   bind: str = "127.0.0.1:0") -> PersonOptions | None:
    """The person seats of a match's AI arguments (None when there are none), each
    with a fresh token."""
    names = [check_name(name) for spec in ais if (name := person_name(spec)) is not None]
    if len(set(names)) < len(names):
        raise PersonSetupError("two AIs have the same web:NAME")
    if not names:
        return None
    if not clock > 0:
        raise PersonSetupError(f"a person's clock must be more than 0 s, not {clock:g}")
    return PersonOptions({name: secrets.token_urlsafe(16) for name in names}, clock, bind)


class _Taker(Protocol):
    """What takes a person's answers for one hand or game (``PersonPeer``,
    ``PersonTurnSeat``)."""

    @property
    def live(self) -> bool:
        """Whether it takes an answer now."""
        ...

    def give(self, answer: str) -> None: ...


def _timed_out(seat: PersonSeat) -> str:
    return f"You did not answer within {seat.clock:g} s: {seat.after_timeout}"


class PersonSeat:
    """One person's seat for the whole match: what the page shows and takes."""

    def __init__(self, name: str, token: str, clock: float,
                 after_timeout: str = AFTER_TIMEOUT) -> None:
        self.name = name
        self.after_timeout = after_timeout  # what the ruleset does then, in words
        self._token = token.encode()
        self.clock = clock
        self.board: SeatBoard | None = None
        self.peer: _Taker | None = None
        self.hands = 0  # hands started
        self.version = 0
        self.asked_at: float | None = None  # when the current prompt was written
        self.note = "waiting for the first hand"
        self.over = False  # the match has ended
        self.seen = trio.Event()  # the page has asked for the state once
        self.absent = False  # a table waited its page_wait for the page, in vain
        self._changed = trio.Event()

    def token_ok(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self._token)

    def bump(self) -> None:
        self.version += 1
        self._changed.set()
        self._changed = trio.Event()

    async def changed_since(self, version: int) -> None:
        """Until the state's version passes ``version``."""
        while self.version <= version:
            await self._changed.wait()

    def choices(self) -> list[Choice]:
        if self.board is None or self.peer is None or not self.peer.live:
            return []
        return self.board.choices()

    def state(self) -> dict[str, Any]:
        """What the page draws: the board's picture, the choices, the time left."""
        choices = self.choices()
        left = None
        if choices and self.asked_at is not None:
            left = max(0.0, self.clock - (trio.current_time() - self.asked_at))
        return {
            "name": self.name, "hand": self.hands, "version": self.version,
            "note": self.note, "over": self.over, "clock": self.clock,
            "time_left": None if left is None else round(left, 2),
            "board": None if self.board is None else self.board.picture(),
            "choices": [{"answer": c.answer, "kind": c.kind, "label": c.label,
                         "tile": c.tile, "step": c.step} for c in choices],
        }

    def answer(self, text: str, version: int | None = None) -> str | None:
        """Send ``text`` as the seat's answer: None when taken, else why it is refused."""
        peer = self.peer
        if peer is None or not peer.live or self.board is None:
            return "this seat is asked nothing now"
        if version is not None and version != self.version:
            return "the table has moved on since the page was drawn; look again"
        choices = {c.answer: c for c in self.board.choices()}
        if not choices:
            return "it is not this seat's turn to answer"
        choice = choices.get(text)
        if choice is None:
            return f"{text[:40]!r} is not one of the answers offered now"
        if choice.step:  # the first half of an answer: nothing is sent yet
            self.board.step(text)
            self.bump()
            return None
        peer.give(text)
        return None


class PersonPeer:
    """A person's seat for one hand, as the table sees it: a ``Peer`` with a clock."""

    def __init__(self, label: str, seat: PersonSeat, board: SeatBoard) -> None:
        self.label = label
        self.seat = seat
        self.board = board
        self.clock = seat.clock  # the table's hard limit for this seat
        self._send, self._receive = trio.open_memory_channel[bytes](16)
        self._joined = False
        self._closed = False

    @property
    def live(self) -> bool:
        return not self._closed

    def give(self, answer: str) -> None:
        self.board.answered(answer)
        self.seat.asked_at = None
        self.seat.note = ""
        self._send.send_nowait(answer.encode() + b"\n")
        self.seat.bump()

    def send_nowait(self, data: bytes) -> int:
        if self._closed:
            raise trio.ClosedResourceError(f"{self.seat.name}'s hand is over")
        for raw in data.split(b"\n"):
            line = decode_line(raw)
            if isinstance(line, str) and line.strip():
                self.board.feed(line.strip())
        choices = self.board.choices()
        if len(choices) == 1 and choices[0].kind in AUTO:
            self.give(choices[0].answer)
            return len(data)
        if choices and self.seat.asked_at is None:
            self.seat.asked_at = trio.current_time()
            self.seat.note = ""
        self.seat.bump()
        return len(data)

    async def send(self, data: bytes) -> None:
        self.send_nowait(data)
        await trio.lowlevel.checkpoint()

    async def receive_some(self) -> bytes:
        if not self._joined:
            self._joined = True
            return b"join\n"
        try:
            return await self._receive.receive()
        except trio.EndOfChannel:
            return b""

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        seat = self.seat
        if self.board.choices():  # asked, and the table stopped the seat: the clock ran out
            seat.note = _timed_out(seat)
        elif not seat.over:
            seat.note = "This hand is over; the next one starts soon."
        seat.asked_at = None
        self._send.close()
        seat.bump()
        await trio.lowlevel.checkpoint()


class PersonTurnSeat:
    """A person's seat for one game of a turn-based ruleset (``server.turns.driver``'s
    ``TurnSeat``): each request is fed to the board and answered from the page, on the
    person's clock; no answer in time is the verdict a bot gets (TLE)."""

    def __init__(self, seat: PersonSeat, board: SeatBoard) -> None:
        self.seat = seat
        self.board = board
        self._send, self._receive = trio.open_memory_channel[str](16)
        self._closed = False
        self._asking = False  # between a request and its answer

    @property
    def live(self) -> bool:
        return self._asking and not self._closed

    def give(self, answer: str) -> None:
        self._asking = False
        self.board.answered(answer)
        self.seat.asked_at = None
        self.seat.note = ""
        self._send.send_nowait(answer)
        self.seat.bump()

    async def ask(self, request: str) -> Answer:
        seat = self.seat
        self.board.feed(request)
        choices = self.board.choices()
        if len(choices) == 1 and choices[0].kind in AUTO:
            self.board.answered(choices[0].answer)
            seat.bump()
            return Answer(OK, choices[0].answer, None, 0, "")
        start = trio.current_time()
        seat.asked_at = start
        seat.note = ""
        self._asking = True
        seat.bump()
        with trio.move_on_after(seat.clock):
            answer = await self._receive.receive()
            return Answer(OK, answer, None, round((trio.current_time() - start) * 1000), "")
        self._closed = True
        self._asking = False
        seat.asked_at = None
        seat.note = _timed_out(seat)
        seat.bump()
        return Answer(TLE, None, None, round(seat.clock * 1000),
                      f"a person: no answer within {seat.clock:g} s")

    def close(self) -> None:
        if not self._closed and not self.seat.over:
            self.seat.note = "This game is over; the next one starts soon."
        self._closed = True
        self.seat.asked_at = None
        self.seat.bump()


BoardFactory = Callable[[], SeatBoard]
SeatOpener = Callable[[int, int, GamePlan, Path | None], AbstractAsyncContextManager[Any]]


class PersonSeats:
    """A ``Launcher``: ``web:NAME`` seats for people, the others from ``fallback``."""

    def __init__(self, options: PersonOptions, board: BoardFactory,
                 fallback: Launcher | None = None,
                 after_timeout: str = AFTER_TIMEOUT) -> None:
        self.options = options
        self.seats = {name: PersonSeat(name, token, options.clock, after_timeout)
                      for name, token in options.tokens.items()}
        self.new_board = board
        self.fallback = fallback if fallback is not None else ProcessLauncher()
        self.over_note = "The match is over. Thank you for playing."  # the pages at the end

    def find(self, name: str, token: str) -> PersonSeat | None:
        """The seat ``name`` if ``token`` is its token; the same work for any name."""
        seat = self.seats.get(name)
        ok = seat.token_ok(token) if seat is not None else \
            hmac.compare_digest(token.encode(), _DUMMY)
        if not ok or seat is None:
            return None
        seat.seen.set()
        return seat

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        name = person_name(request.name)
        if name is None and len(request.argv) == 1:
            name = person_name(request.argv[0])
        if name is None:
            return await self.fallback.open(request, nursery)
        return await self.open_person(name, request)

    def over(self, fallback: Launcher) -> Launcher:
        """A launcher for one table of a tournament: a seat whose command is
        ``web:NAME`` from these seats, the others from ``fallback`` (the table's own)."""
        return _TableSeats(self, fallback)

    async def open_person(self, name: str, request: SeatRequest) -> Peer:
        if request.folder is not None:  # the same files as a local seat's
            (request.folder / f"seat{request.seat}.stderr").touch()
        seat = self.seats[name]
        await self._await_page(seat)
        board = self.new_board()
        peer = PersonPeer(f"seat{request.seat}", seat, board)
        seat.board, seat.peer = board, peer
        seat.hands += 1
        seat.asked_at = None
        seat.note = ""
        seat.bump()
        return peer

    async def _await_page(self, seat: PersonSeat) -> None:
        """The first hand waits for the person's page to open: at most ``page_wait``
        seconds, after which the seat plays without them (each prompt then times out, as
        a silent bot's would) and no later table waits for them again."""
        if seat.seen.is_set() or seat.absent:
            return
        seat.note = "The table waits for you."
        with trio.move_on_after(self.options.page_wait):
            await seat.seen.wait()
        if not seat.seen.is_set():
            seat.absent = True  # the time-outs' faults say it on the console

    def turn_opener(self, specs: Sequence[str], fallback: SeatOpener) -> SeatOpener:
        """A turn match's ``SeatOpener``: person seats for ``web:NAME`` players (by their
        spec in ``specs``), ``fallback``'s seats for the others."""

        @asynccontextmanager
        async def opener(player: int, seat_number: int, plan: GamePlan,
                         stderr: Path | None) -> AsyncIterator[Any]:
            name = person_name(specs[player])
            if name is None:
                async with fallback(player, seat_number, plan, stderr) as bot:
                    yield bot
                return
            seat = self.seats[name]
            await self._await_page(seat)
            board = self.new_board()
            taker = PersonTurnSeat(seat, board)
            seat.board, seat.peer = board, taker
            seat.hands += 1
            seat.note = ""
            seat.bump()
            try:
                yield taker
            finally:
                taker.close()

        return opener

    def finish(self) -> None:
        """The match is over: every page says so."""
        for seat in self.seats.values():
            seat.over = True
            seat.note = self.over_note
            seat.bump()


class _TableSeats:
    """``PersonSeats.over``: a tournament table's launcher with the tournament's persons."""

    def __init__(self, seats: PersonSeats, fallback: Launcher) -> None:
        self.seats = seats
        self.fallback = fallback

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        name = person_name(request.argv[0]) if len(request.argv) == 1 else None
        if name is None or name not in self.seats.seats:
            return await self.fallback.open(request, nursery)
        return await self.seats.open_person(name, request)


def seats_of(specs: Sequence[str], args: Mapping[str, Any] | Any, board: BoardFactory,
             after_timeout: str = AFTER_TIMEOUT) -> PersonSeats | None:
    """A turn match's person seats from its AIs and options (``clock``, ``seat_bind``),
    None when no AI is ``web:NAME``; a bad one is an InputError."""
    try:
        options = person_options(specs, args.get("clock") or DEFAULT_CLOCK,
                                 args.get("seat_bind") or "127.0.0.1:0")
    except PersonSetupError as exc:
        raise InputError(str(exc)) from None
    return None if options is None else PersonSeats(options, board,
                                                    after_timeout=after_timeout)


def stand_ins(table: TableRequest, stand_in: str) -> TableRequest:
    """A tournament table of a turn-based ruleset with each ``web:NAME`` player's
    command ``stand_in``: a bot never started, as the person's seat is opened in its
    place (``PersonSeats.turn_opener``)."""
    return replace(table, players=[
        (name, (stand_in,) if len(command) == 1 and person_name(command[0]) is not None
         else command) for name, command in table.players])


def links(base: str, options: PersonOptions) -> Iterable[tuple[str, str]]:
    """Each person's name and the link to their seat's page."""
    for name, token in options.tokens.items():
        yield name, f"{base.rstrip('/')}/seat/{name}?token={token}"
