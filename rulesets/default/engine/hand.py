"""One hand of the default ruleset as a pure state machine (SPEC sections 3, 6).

Theory of operation
-------------------
The engine owns the wall, the four hands, the melds and the discards. It never
blocks and keeps no clock: it says whom it waits on (``waiting``, a map from
seat to an ``Expect``), takes their answers (``answer``), and queues the lines
each seat must be sent (``drain``). The shell that moves lines and keeps time,
the in-process simulator and log replay all drive it the same way::

    engine = Hand(wall, first)
    engine.start()
    while not engine.finished:
        for seat, message in engine.drain(): deliver(seat, message)
        ... engine.answer(seat, message) / engine.fault(seat, cause)

Prompts and the answers they allow are data (``ALLOWED``). An answer is
checked before it is applied: a rejected answer changes nothing and comes back
with the reason (the caller decides the fault); a well-formed line from a seat
that was not asked is ``UNSOLICITED`` (log it, drop it), and so is a ``pass``
to a turn or discard prompt: it is never an answer there, so it is chatter
(real bots answer their own ``mjgang`` with it, and it may be read after the
replacement ``pick`` was written), and the seat still owes its answer. Ask the
engine before timing a line: chatter is never timed or fined. A faulted seat is
played by the engine from then on: it discards the newest tile in its hand
(the one it just drew, on a normal turn) and never claims.

Every applied input is appended to ``inputs``; the same wall, first actor and
inputs replay the hand exactly (``replay``). ``events`` is the hand's record in
the vocabulary of the original text log.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final, NamedTuple, TypeVar

from protocol.messages import (
    AGang,
    Chi,
    First,
    FromAI,
    Gang,
    Hu,
    Id,
    Init,
    JGang,
    MAGang,
    MChi,
    MFail,
    MGang,
    MJGang,
    MOut,
    MPeng,
    MPick,
    Out,
    Pass,
    Peng,
    Pick,
    QGang,
    ToAI,
)
from protocol.tiles import ALL_TILES, N_KINDS, Tile, tile_counts
from scoring.fans import FanResult, WinningHand, can_win, score
from scoring.melds import Meld, MeldKind
from scoring.settlement import WinKind, fine_for, settle

SEATS: Final = 4
HONORS: Final = 27  # the first honour kind (``Tile.EAST``): tile kinds as ints
HAND_SIZE: Final = 13
WALL_SIZE: Final = 136


class Expect(Enum):
    """What a prompted seat may answer (and how long it has, by the shell)."""

    TURN = "turn"  # after a draw: out, hu, agang, jgang
    DISCARD = "discard"  # after its pung or chow: out
    CLAIM = "claim"  # after another seat's discard: pass, hu, peng, gang, chi
    ROB = "rob"  # after another seat's added kong: pass, qgang


ALLOWED: dict[Expect, tuple[type[FromAI], ...]] = {
    Expect.TURN: (Out, Hu, AGang, JGang),
    Expect.DISCARD: (Out,),
    Expect.CLAIM: (Pass, Hu, Peng, Gang, Chi),
    Expect.ROB: (Pass, QGang),
}
# Own-turn answers have 1000 ms, claims 500 ms (SPEC section 6).
TIME_LIMIT_MS: dict[Expect, int] = {
    Expect.TURN: 1000, Expect.DISCARD: 1000, Expect.CLAIM: 500, Expect.ROB: 500,
}
# A fault other than the hard limit is charged as an own-turn answer at the hard limit.
FAULT_LIMIT_MS = TIME_LIMIT_MS[Expect.TURN]
HARD_LIMIT_FAULT: Final = "hard-limit"  # the one fault fined for its own time


def is_hard_limit(cause: str) -> bool:
    """Whether a fault's cause is the hard limit ("hard-limit", or with a detail after ": ")."""
    return cause == HARD_LIMIT_FAULT or cause.startswith(HARD_LIMIT_FAULT + ": ")


def fault_fine(hard_limit_ms: float) -> int:
    """The fine of any fault but the hard limit: 40 points at the default 5 s (SPEC section 6).

    A bot that crashes, closes its output, sends a bad or illegal line or never
    joins pays what a bot that answered its own turn at the hard limit would, so
    that a bot never gains by crashing instead of being slow.
    """
    return fine_for(hard_limit_ms, FAULT_LIMIT_MS)


class Verdict(Enum):
    ACCEPTED = "accepted"
    REJECTED = "rejected"  # illegal in answer to a prompt: the caller faults the seat
    UNSOLICITED = "unsolicited"  # well formed, but this seat was not asked: drop it


@dataclass(frozen=True, slots=True)
class Answer:
    verdict: Verdict
    reason: str = ""


ACCEPTED: Final = Answer(Verdict.ACCEPTED)
NOT_ASKED: Final = Answer(Verdict.UNSOLICITED, "not waiting for this seat")
# ``pass`` answers only claim and rob windows; to a turn or discard prompt it is chatter
# (whenever it arrives), never a fault, and the seat's answer is still due.
CHATTER = {expect: Answer(Verdict.UNSOLICITED, f"pass is no answer to a {expect.value} prompt")
           for expect in (Expect.TURN, Expect.DISCARD)}

# Lines are immutable values: the draw and discard lines, sent hundreds of times
# a hand, are made once (building a frozen dataclass costs more than the rest of
# a draw).
# What each seat is sent when ``seat`` draws ``tile`` (``_DRAW_LINES[seat][tile]``)
# or discards it (``_DISCARD_LINES``), as ready (seat, line) pairs.
_Lines = tuple[tuple[int, ToAI], ...]
_DRAW_LINES: Final[tuple[tuple[_Lines, ...], ...]] = tuple(
    tuple(tuple((other, Pick(t) if other == seat else MPick(seat)) for other in range(SEATS))
          for t in ALL_TILES)
    for seat in range(SEATS))
_DISCARD_LINES: Final[tuple[tuple[_Lines, ...], ...]] = tuple(
    tuple(tuple((other, MOut(seat, t)) for other in range(SEATS) if other != seat)
          for t in ALL_TILES)
    for seat in range(SEATS))
# The seats after ``owner``, nearest first: the claim order.
_AFTER: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((owner + k) % SEATS for k in range(1, SEATS)) for owner in range(SEATS))


_C = TypeVar("_C", bound=type)


def _plain_class(cls: _C) -> _C:
    """Marks a class that the build of the compiled core (tools/build_mypyc.py) must leave
    a plain Python class: mypyc cannot make a native subclass of ``RuntimeError``, and
    it keeps any class with a decorator it does not know as a plain one."""
    return cls


@_plain_class
class EngineError(RuntimeError):
    """A bug of the caller's (for example an answer after the hand ended)."""


class Event(NamedTuple):
    """One step of the hand, in the original log's vocabulary.

    kind: pick out peng chi gang agang jgang hu (as the original log), plus
    qgang (a robbed kong), fault and reject (our additions). ``source`` is the
    discarder for claims and wins on a discard.
    """

    kind: str
    seat: int
    tile: Tile | None = None
    source: int | None = None
    detail: str = ""


REJECTED_INPUT: Final = "rejected"  # Input.fault of an answer the engine refused
# Builds a NamedTuple without its Python-level __new__, for the events made twice
# a turn: ``_new(Event, ("pick", seat, tile, None, ""))`` is
# ``Event("pick", seat, tile)``, every field given.
_new: Final = tuple.__new__


class Input(NamedTuple):
    """An input the engine applied: a seat's answer, or a fault."""

    seat: int
    message: FromAI | None  # None for a fault
    fault: str = ""
    after: int = -1  # how many events the hand had when it was applied (for display)


# The classes of the hot path as module constants: the compiled core reads a name
# imported or defined at module level from the module's dict at every use, a ``Final``
# from a C variable.
_PASS_TYPE: Final = Pass
_OUT_TYPE: Final = Out
_EVENT: Final = Event


@dataclass(frozen=True, slots=True)
class HandResult:
    winner: int | None
    kind: WinKind | None
    payer: int | None  # the discarder or kong owner; None for self-drawn and draws
    win_tile: Tile | None
    fans: FanResult | None
    deltas: tuple[int, ...]  # points per seat, before fines

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def fan_total(self) -> int:
        return self.fans.total if self.fans else 0


class _Window:
    """An open claim (after a discard) or rob (after an added kong) window."""

    __slots__ = ("answers", "owner", "rob", "tile")

    def __init__(self, owner: int, tile: Tile, rob: bool) -> None:
        self.owner = owner  # the discarder, or the kong's owner
        self.tile = tile
        self.rob = rob
        self.answers: dict[int, FromAI] = {}


class Hand:
    def __init__(self, wall: Sequence[Tile], first: int) -> None:
        if len(wall) != WALL_SIZE or sorted(tile_counts(wall)) != [4] * N_KINDS:
            raise EngineError("a wall must hold the 136 tiles, four of each kind")
        if not 0 <= first < SEATS:
            raise EngineError(f"first actor {first} is not a seat")
        self.wall: tuple[Tile, ...] = tuple(wall)
        self.first = first
        self.position = 0  # the next wall tile to deal or draw
        self.hands: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.rivers: list[list[Tile]] = [[] for _ in range(SEATS)]
        self.faulted: dict[int, str] = {}
        self.waiting: dict[int, Expect] = {}
        self.events: list[Event] = []
        # The inputs (``inputs``), kept as columns: an ``Input`` made three times a turn and
        # kept to the end of the hand was most of the collector's work in training.
        self._input_seats: list[int] = []
        self._input_messages: list[FromAI | None] = []
        self._input_after: list[int] = []
        self._input_faults: dict[int, str] = {}  # by input number, the inputs with a fault
        self.result: HandResult | None = None
        self._outbox: list[tuple[int, ToAI]] = []
        self._auto: deque[tuple[int, FromAI]] = deque()
        self._window: _Window | None = None
        self._drawn: Tile | None = None  # the tile drawn this turn (the self-drawn win tile)
        self._started = False

    # --- public interface -------------------------------------------------------

    @property
    def inputs(self) -> list[Input]:
        """Every input applied, in order (a new list at each read)."""
        faults = self._input_faults
        return [Input(seat, message, faults.get(i, ""), after) for i, (seat, message, after)
                in enumerate(zip(self._input_seats, self._input_messages, self._input_after,
                                     strict=True))]

    def _input(self, seat: int, message: FromAI | None, fault: str = "") -> None:
        if fault:
            self._input_faults[len(self._input_seats)] = fault
        self._input_seats.append(seat)
        self._input_messages.append(message)
        self._input_after.append(len(self.events))

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def started(self) -> bool:
        return self._started

    @property
    def wall_left(self) -> int:
        return WALL_SIZE - self.position

    def start(self) -> None:
        """Deal: ``id``, ``first`` and ``init`` to each seat, then the first draw."""
        if self._started:
            raise EngineError("the hand has already started")
        self._started = True
        for seat in range(SEATS):
            self._send(seat, Id(seat))
        for seat in range(SEATS):
            self._send(seat, First(self.first))
        for seat in range(SEATS):
            tiles = self.wall[self.position : self.position + HAND_SIZE]
            self.position += HAND_SIZE
            self.hands[seat] = list(tiles)
            self._send(seat, Init(tuple(tiles)))
        self._draw(self.first)
        self._run_auto()

    def drain(self) -> list[tuple[int, ToAI]]:
        """The lines queued since the last call, as (seat, message), in order."""
        out, self._outbox = self._outbox, []
        return out

    def check(self, seat: int, message: FromAI) -> Answer:
        """Whether ``answer`` would accept this; changes nothing."""
        expect = self.waiting.get(seat)
        if expect is None or self.result is not None or seat in self.faulted:
            return NOT_ASKED
        if type(message) is Pass:
            if expect is Expect.CLAIM or expect is Expect.ROB:
                return ACCEPTED
            return CHATTER[expect]
        if not isinstance(message, ALLOWED[expect]):
            allowed = ", ".join(cls.keyword for cls in ALLOWED[expect])
            return Answer(Verdict.REJECTED, f"{message.keyword} is not an answer to a "
                                            f"{expect.value} prompt (expected {allowed})")
        reason = self._illegal(seat, expect, message)
        return Answer(Verdict.REJECTED, reason) if reason else ACCEPTED

    def legal_answers(self, seat: int) -> list[FromAI]:
        """Every answer ``answer`` would accept from this seat now."""
        expect = self.waiting.get(seat)
        if expect is None or self.result is not None or seat in self.faulted:
            return []
        hand = self.hands[seat]
        counts = tile_counts(hand)
        # Passing, and discarding a tile one holds, are always legal when asked;
        # every other answer is a shortlist that ``check`` has the last word on.
        legal: list[FromAI] = []
        shortlist: list[FromAI] = []
        if expect is Expect.TURN or expect is Expect.DISCARD:
            legal.extend(Out(ALL_TILES[t]) for t in range(N_KINDS) if counts[t])
        if expect is Expect.TURN:
            shortlist.append(Hu())
            shortlist.extend(AGang(ALL_TILES[t]) for t in range(N_KINDS) if counts[t] == 4)
            shortlist.extend(JGang(m.tile) for m in self.melds[seat]
                             if m.kind is MeldKind.PUNG and counts[m.tile])
        elif expect is Expect.CLAIM:
            window = self._window
            assert window is not None
            t = window.tile
            legal.append(Pass())
            shortlist.append(Hu())
            if counts[t] >= 2:
                shortlist.append(Peng())
            if counts[t] >= 3:
                shortlist.append(Gang())
            if seat == (window.owner + 1) % SEATS and t < HONORS:
                shortlist.extend(Chi(ALL_TILES[t - k]) for k in range(3) if t - k >= 0)
        elif expect is Expect.ROB:
            legal.append(Pass())
            shortlist.append(QGang())
        legal.extend(c for c in shortlist if self.check(seat, c).verdict is Verdict.ACCEPTED)
        return legal

    def answer(self, seat: int, message: FromAI) -> Answer:
        """Apply a seat's answer if it is legal now."""
        waiting = self.waiting
        if type(message) is _PASS_TYPE and seat not in self.faulted:
            # The common case, three times a turn, taken straight: a pass in a window.
            expect = waiting.get(seat)
            if expect is Expect.CLAIM or expect is Expect.ROB:
                self._input(seat, message)
                del waiting[seat]
                self._window_answer(seat, message)
                if self._auto:
                    self._run_auto()
                return ACCEPTED
        elif type(message) is _OUT_TYPE and seat not in self.faulted:
            # Once a turn, taken straight too: a discard of a held tile when asked for one.
            expect = waiting.get(seat)
            tile = message.tile
            if (expect is Expect.TURN or expect is Expect.DISCARD) and tile in self.hands[seat]:
                self._input(seat, message)
                del waiting[seat]
                self._discard(seat, tile)
                if self._auto:
                    self._run_auto()
                return ACCEPTED
        verdict = self.check(seat, message)
        if verdict.verdict is Verdict.ACCEPTED:
            self._input(seat, message)
            self._apply(seat, message)
            if self._auto:
                self._run_auto()
        elif verdict.verdict is Verdict.REJECTED:
            # Kept as an input too, so a replay re-makes the same "reject" event.
            self._input(seat, message, REJECTED_INPUT)
            self.events.append(Event("reject", seat, detail=verdict.reason))
        return verdict

    def fault(self, seat: int, cause: str) -> None:
        """Mark a seat faulted: the engine plays it to the end of the hand."""
        if seat in self.faulted or self.result is not None:
            return
        self.faulted[seat] = cause
        self._input(seat, None, cause)
        self.events.append(Event("fault", seat, detail=cause))
        if seat in self.waiting:
            self._auto.append((seat, self._auto_answer(seat, self.waiting[seat])))
        self._run_auto()

    def census(self) -> list[int]:
        """How many of each kind are accounted for (wall, hands, melds, rivers, win)."""
        counts = tile_counts(self.wall[self.position :])
        for seat in range(SEATS):
            for t in self.hands[seat]:
                counts[t] += 1
            for t in self.rivers[seat]:
                counts[t] += 1
            for m in self.melds[seat]:
                if m.kind is MeldKind.CHOW:
                    counts[m.tile] += 1
                    counts[m.tile + 1] += 1
                    counts[m.tile + 2] += 1
                else:
                    counts[m.tile] += m.kind.size
        if self.result is not None and self.result.win_tile is not None and \
                self.result.kind is not WinKind.SELF_DRAWN:
            counts[self.result.win_tile] += 1
        if self._window is not None and self._window.rob:
            counts[self._window.tile] += 1  # an added kong's tile while it may be robbed
        return counts

    # --- legality -----------------------------------------------------------------

    def _illegal(self, seat: int, expect: Expect, m: FromAI) -> str:
        hand = self.hands[seat]
        if isinstance(m, Out):
            return "" if m.tile in hand else f"out {m.tile}: not in hand"
        if isinstance(m, Hu):
            if expect is Expect.TURN:
                drawn = self._drawn
                assert drawn is not None
                rest = list(hand)
                rest.remove(drawn)
                return "" if can_win(rest, self.melds[seat], drawn) else "hu: not a winning hand"
            window = self._window
            assert window is not None
            return "" if can_win(hand, self.melds[seat], window.tile) else \
                f"hu on {window.tile}: not a winning hand"
        if isinstance(m, AGang):
            return "" if hand.count(m.tile) == 4 else f"agang {m.tile}: needs four in hand"
        if isinstance(m, JGang):
            has_pung = any(x.kind is MeldKind.PUNG and x.tile == m.tile for x in self.melds[seat])
            if not has_pung:
                return f"jgang {m.tile}: no pung of {m.tile}"
            return "" if m.tile in hand else f"jgang {m.tile}: not in hand"
        window = self._window
        assert window is not None
        t = window.tile
        if isinstance(m, QGang):
            return "" if can_win(hand, self.melds[seat], t) else \
                f"qgang on {t}: not a winning hand"
        if isinstance(m, Peng):
            return "" if hand.count(t) >= 2 else f"peng {t}: needs two in hand"
        if isinstance(m, Gang):
            return "" if hand.count(t) >= 3 else f"gang {t}: needs three in hand"
        if isinstance(m, Chi):
            return self._illegal_chi(seat, window, m.tile)
        return ""  # Pass

    def _illegal_chi(self, seat: int, window: _Window, low: Tile) -> str:
        t = window.tile
        if seat != (window.owner + 1) % SEATS:
            return f"chi {low}: only the seat after the discarder may chow"
        if t >= HONORS:
            return f"chi {low}: {t} is an honour"
        if low >= HONORS or low % 9 > 6 or low // 9 != t // 9:  # not a suited 1..7 of t's suit
            return f"chi {low}: no run of {t} starts at {low}"
        if not 0 <= t - low <= 2:
            return f"chi {low}: the run {low}.. does not contain {t}"
        need = [ALL_TILES[low + i] for i in range(3) if low + i != t]
        hand = list(self.hands[seat])
        for x in need:
            if x not in hand:
                return f"chi {low}: {x} not in hand"
            hand.remove(x)
        return ""

    # --- transitions -----------------------------------------------------------------

    def _apply(self, seat: int, m: FromAI) -> None:
        expect = self.waiting.pop(seat)
        if expect is Expect.CLAIM or expect is Expect.ROB:
            self._window_answer(seat, m)
            return
        if isinstance(m, Out):
            self._discard(seat, m.tile)
        elif isinstance(m, Hu):
            drawn = self._drawn
            assert drawn is not None
            self.events.append(Event("hu", seat, drawn))
            rest = list(self.hands[seat])
            rest.remove(drawn)
            self._finish_win(seat, WinKind.SELF_DRAWN, None, drawn, rest)
        elif isinstance(m, AGang):
            for _ in range(4):
                self.hands[seat].remove(m.tile)
            self.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, m.tile))
            self.events.append(Event("agang", seat, m.tile))
            self._broadcast(MAGang(seat))
            self._draw(seat)
        elif isinstance(m, JGang):
            self.hands[seat].remove(m.tile)
            self.events.append(Event("jgang", seat, m.tile))
            self._broadcast(MJGang(seat, m.tile))
            self._open_window(seat, m.tile, rob=True)

    def _window_answer(self, seat: int, m: FromAI) -> None:
        """A responder's answer (no longer waited on) to the open window."""
        window = self._window
        assert window is not None
        window.answers[seat] = m
        if not self.waiting:  # during a window only its responders are asked
            self._resolve(window)

    def _discard(self, seat: int, tile: Tile) -> None:
        self.hands[seat].remove(tile)
        self.rivers[seat].append(tile)
        self._drawn = None
        self.events.append(_new(_EVENT, ("out", seat, tile, None, "")))
        self._outbox.extend(_DISCARD_LINES[seat][tile])
        self._open_window(seat, tile, rob=False)

    def _open_window(self, owner: int, tile: Tile, rob: bool) -> None:
        window = _Window(owner, tile, rob)
        self._window = window
        expect = Expect.ROB if rob else Expect.CLAIM
        waiting, faulted = self.waiting, self.faulted
        for seat in _AFTER[owner]:
            waiting[seat] = expect
            if seat in faulted:
                self._auto.append((seat, self._auto_answer(seat, expect)))
        if not waiting:
            self._resolve(window)

    def _resolve(self, window: _Window) -> None:
        self._window = None
        owner, tile = window.owner, window.tile
        answers = window.answers
        for a in answers.values():
            if type(a) is not _PASS_TYPE:
                break
        else:  # everybody passed
            if window.rob:
                self._draw(owner, added_kong=tile)
            else:
                self._draw((owner + 1) % SEATS)
            return
        order = _AFTER[owner]
        if window.rob:
            robber = next((s for s in order if isinstance(answers.get(s), QGang)), None)
            if robber is not None:
                self.events.append(Event("qgang", robber, tile, owner))
                self.events.append(Event("hu", robber, tile, owner))
                self._finish_win(robber, WinKind.ROBBED_KONG, owner, tile, self.hands[robber])
                return
            self._draw(owner, added_kong=tile)
            return
        winner = next((s for s in order if isinstance(answers.get(s), Hu)), None)
        if winner is not None:
            self.rivers[owner].pop()
            self.events.append(Event("hu", winner, tile, owner))
            self._finish_win(winner, WinKind.DISCARD, owner, tile, self.hands[winner])
            return
        chower = next((s for s in order if isinstance(answers.get(s), Chi)), None)
        taker = next((s for s in order if isinstance(answers.get(s), (Peng, Gang))), None)
        if taker is not None:
            self.rivers[owner].pop()
            kong = isinstance(answers[taker], Gang)
            for _ in range(3 if kong else 2):
                self.hands[taker].remove(tile)
            self.melds[taker].append(Meld(MeldKind.KONG if kong else MeldKind.PUNG, tile))
            self.events.append(Event("gang" if kong else "peng", taker, tile, owner))
            self._broadcast(MGang(taker, tile) if kong else MPeng(taker, tile))
            if chower is not None:
                self._send(chower, MFail())
            if kong:
                self._draw(taker)
            else:
                self._prompt(taker, Expect.DISCARD)
            return
        if chower is not None:
            chi = answers[chower]
            assert isinstance(chi, Chi)
            self.rivers[owner].pop()
            for i in range(3):
                if chi.tile + i != tile:
                    self.hands[chower].remove(ALL_TILES[chi.tile + i])
            self.melds[chower].append(Meld(MeldKind.CHOW, chi.tile))
            self.events.append(Event("chi", chower, chi.tile, owner))
            self._broadcast(MChi(chower, chi.tile))
            self._prompt(chower, Expect.DISCARD)
            return
        self._draw((owner + 1) % SEATS)

    def _draw(self, seat: int, added_kong: Tile | None = None) -> None:
        if added_kong is not None:
            # An added kong nobody robbed: the pung becomes a kong, then the owner draws.
            melds = self.melds[seat]
            for i, meld in enumerate(melds):
                if meld.kind is MeldKind.PUNG and meld.tile == added_kong:
                    melds[i] = Meld(MeldKind.KONG, meld.tile)
                    break
        if self.position >= WALL_SIZE:
            self.events.append(Event("draw", seat))
            self.result = HandResult(None, None, None, None, None, (0,) * SEATS)
            self.waiting.clear()
            return
        tile = self.wall[self.position]
        self.position += 1
        self.hands[seat].append(tile)
        self._drawn = tile
        self.events.append(_new(_EVENT, ("pick", seat, tile, None, "")))
        self._outbox.extend(_DRAW_LINES[seat][tile])
        self._prompt(seat, Expect.TURN)

    def _finish_win(self, winner: int, kind: WinKind, payer: int | None, tile: Tile,
                    concealed: Sequence[Tile]) -> None:
        fans = score(WinningHand(tuple(concealed), tuple(self.melds[winner]), tile,
                                 kind is WinKind.SELF_DRAWN))
        deltas = settle(winner, kind, fans.total, payer)
        self.result = HandResult(winner, kind, payer, tile, fans, tuple(deltas))
        self.waiting.clear()
        self._auto.clear()

    # --- prompts and autoplay --------------------------------------------------------

    def _prompt(self, seat: int, expect: Expect) -> None:
        self.waiting[seat] = expect
        if seat in self.faulted:
            self._auto.append((seat, self._auto_answer(seat, expect)))

    def _auto_answer(self, seat: int, expect: Expect) -> FromAI:
        if expect in (Expect.CLAIM, Expect.ROB):
            return Pass()
        return Out(self.hands[seat][-1])

    def _run_auto(self) -> None:
        while self._auto and self.result is None:
            seat, message = self._auto.popleft()
            if self.waiting.get(seat) is None:
                continue
            self._input(seat, message, "auto")
            self._apply(seat, message)

    def _send(self, seat: int, message: ToAI) -> None:
        self._outbox.append((seat, message))

    def _broadcast(self, message: ToAI) -> None:
        self._outbox.extend((seat, message) for seat in range(SEATS))


def replay(wall: Sequence[Tile], first: int, inputs: Sequence[Input]) -> Hand:
    """Re-run a hand from its recorded inputs; raises ``EngineError`` on divergence."""
    hand = Hand(wall, first)
    hand.start()
    for step, item in enumerate(inputs):
        if item.fault == "auto":
            continue  # the engine regenerates its own autoplay
        if item.message is None:
            hand.fault(item.seat, item.fault)
            continue
        verdict = hand.answer(item.seat, item.message)
        expected = Verdict.REJECTED if item.fault == REJECTED_INPUT else Verdict.ACCEPTED
        if verdict.verdict is not expected:
            raise EngineError(f"input {step} ({item.seat}: {item.message.keyword}) "
                              f"was {verdict.verdict.value}: {verdict.reason}")
    return hand
