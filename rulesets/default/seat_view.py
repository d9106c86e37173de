"""What one seat knows of a hand, built only from its protocol lines and its own answers.

``SeatView`` is fed every line the server sends the seat (``receive``) and every
answer the seat gives (``answered``), exactly as a bot program sees them; it
never looks at the engine. The training environment keeps one per seat, and the
policy bot keeps one in a real match, so a policy sees the same view (and the
same legal actions) in training and in play.

It follows the server's word as ``sample_ai.framework`` does: the seat's own
discard is applied when answered (the server does not echo it), claims and
kongs when the server broadcasts them. ``legal_actions`` lists the actions
(``rulesets.default.actions``) the engine would accept from the seat now; the
property tests check it against ``Hand.check`` decision by decision.

The state is kept as plain count lists, updated line by line, so an encoder
reads it without rebuilding anything. ``grid`` mirrors them as the default
encoder's count-based planes (``rulesets.default.encoding``), in this seat's
relative order, as the float32 values of the observation, written cell by cell as
the lines come. ``planes()`` writes the rows that depend on the prompt into it too
and hands it to the encoder, which copies it into its observation with one numpy call.
"""

from __future__ import annotations

from array import array
from typing import Any, Final

from protocol.messages import (
    AGang,
    First,
    FromAI,
    Id,
    Init,
    MAGang,
    MChi,
    MGang,
    MJGang,
    MOut,
    MPeng,
    MPick,
    Out,
    Pick,
    ToAI,
)
from protocol.tiles import N_KINDS, Tile
from rulesets.default.actions import AGANG, CHI, GANG, HU, JGANG, PASS, PENG, QGANG
from rulesets.default.engine.hand import SEATS, Expect
from scoring.analysis import is_winning, wait_kinds
from scoring.melds import Meld, MeldKind

WALL_AFTER_DEAL: Final = 136 - 4 * 13


def _chi_choices(t: int) -> tuple[tuple[int, int, int], ...]:
    """The chows on a discard of kind ``t``: (action, the two other tiles of the run)."""
    if t >= 27:
        return ()
    base = t - t % 9
    out = []
    for low in range(max(base, t - 2), min(base + 6, t) + 1):
        a, b = (x for x in (low, low + 1, low + 2) if x != t)
        out.append((CHI + 7 * (base // 9) + (low - base), a, b))
    return tuple(out)


_CHI_CHOICES: Final = tuple(_chi_choices(t) for t in range(N_KINDS))

# The rows of ``SeatView.grid`` (the default encoder's planes, 34 float32 cells each):
# own hand at least 1..4, melds and rivers of seat +0..+3 (count / 4), concealed
# kongs of seat +0..+3 (/ 4), unseen copies (/ 4), the place after first.
GRID_ROWS: Final = 31
_MELDS: Final = 5 * N_KINDS
_RIVERS: Final = 9 * N_KINDS
_HIDDEN: Final = 13 * N_KINDS
_UNSEEN: Final = 17 * N_KINDS
_PLACE: Final = 27 * N_KINDS
# A hand count's four level bytes (rows 0..3 of its column), and a constant row.
_LEVELS: Final = tuple(memoryview(array("f", [1.0 if n > level else 0.0 for level in range(4)]))
                       for n in range(5))
_ROW: Final = tuple(memoryview(array("f", [n * 0.25] * N_KINDS)) for n in range(5))
_NO_PLACE: Final = memoryview(array("f", [0.0] * (4 * N_KINDS)))
# Before the deal: nothing seen, four unseen copies of every kind.
_EMPTY_GRID: Final = array("f", [0.0] * _UNSEEN + [1.0] * N_KINDS
                           + [0.0] * ((GRID_ROWS - 18) * N_KINDS)).tobytes()
# What ``planes`` writes into ``grid``'s rows 4 and 18..26 (module docstring).
_ZERO_ROW: Final = memoryview(array("f", [0.0] * N_KINDS))
_ZERO_ASKED: Final = memoryview(array("f", [0.0] * (8 * N_KINDS)))  # rows 18..25
_WALL_ROWS: Final = tuple(memoryview(array("f", [n / WALL_AFTER_DEAL] * N_KINDS))
                          for n in range(WALL_AFTER_DEAL + 1))


# ``receive`` dispatches on the message's class through this table.
_MPICK: Final = 0
_MOUT: Final = 1
_PICK: Final = 2
_MPENG: Final = 3
_MCHI: Final = 4
_MGANG: Final = 5
_MAGANG: Final = 6
_MJGANG: Final = 7
_ID: Final = 8
_FIRST: Final = 9
_INIT: Final = 10
_OTHER: Final = 11
_KINDS: Final[dict[type, int]] = {
    MPick: _MPICK, MOut: _MOUT, Pick: _PICK, MPeng: _MPENG, MChi: _MCHI, MGang: _MGANG,
    MAGang: _MAGANG, MJGang: _MJGANG, Id: _ID, First: _FIRST, Init: _INIT,
}


# Module constants, read from C variables by the compiled core (``rulesets.default.
# engine.hand`` says why).
_OUT_TYPE: Final = Out
_AGANG_TYPE: Final = AGang
_MPICK_TYPE: Final = MPick
# Melds are values: the four views of a claim share one, made here once.
_PUNGS: Final = tuple(Meld(MeldKind.PUNG, t) for t in Tile)
_KONGS: Final = tuple(Meld(MeldKind.KONG, t) for t in Tile)
_CHOWS: Final = tuple(Meld(MeldKind.CHOW, t) if t < 27 and t % 9 <= 6 else None for t in Tile)
_MOUT_TYPE: Final = MOut
_PICK_TYPE: Final = Pick


class SeatView:
    """One seat's knowledge of the hand, line by line."""

    __slots__ = ("_agang", "_before_draw", "_cells", "_seen", "_waits", "about", "counts",
                 "drawn", "first", "grid",
                 "hidden_kongs", "last_discard", "meld_counts", "melds", "prompt",
                 "river_counts", "rivers", "seat", "wall_left")

    def __init__(self) -> None:
        self.seat = -1
        self.first = -1
        self.counts: list[int] = [0] * N_KINDS  # own concealed tiles, by kind
        self.drawn: Tile | None = None  # the tile just drawn, during own turn
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        # Tiles shown in each seat's melds, by kind (own concealed kongs included,
        # other seats' concealed kongs are not shown: ``hidden_kongs`` counts them).
        self.meld_counts: list[list[int]] = [[0] * N_KINDS for _ in range(SEATS)]
        self.hidden_kongs: list[int] = [0] * SEATS
        self.rivers: list[list[Tile]] = [[] for _ in range(SEATS)]  # discards still lying
        self.river_counts: list[list[int]] = [[0] * N_KINDS for _ in range(SEATS)]
        self.wall_left = WALL_AFTER_DEAL
        self.last_discard: tuple[int, Tile] | None = None
        self.prompt: Expect | None = None  # what this seat is asked now, if anything
        self.about: tuple[int, Tile] | None = None  # the discard or added kong asked about
        self._agang: Tile | None = None  # our agang, until ``magang`` confirms it
        self._waits: frozenset[int] | None = None  # of the concealed hand, until it changes
        # During own turn: the waits of the hand before the draw, if they were known (the
        # claim checks since the last own turn have asked for them): the drawn tile wins
        # exactly when it is one of them, a set look-up instead of a winning-hand search.
        self._before_draw: frozenset[int] | None = None
        # Own concealed + every shown meld tile + every discard lying, by kind.
        self._seen: list[int] = [0] * N_KINDS
        self.grid = bytearray(_EMPTY_GRID)  # the encoder's planes (module docstring)
        self._cells = memoryview(self.grid).cast("f")  # ``grid``'s cells as floats

    def _rebuild_grid(self) -> None:
        """Write ``grid`` afresh from the count lists (when the seat or first changes)."""
        cells = self._cells
        if not any(self._seen) and not any(self.hidden_kongs):  # nothing seen yet
            cells[_PLACE:] = _NO_PLACE
            if self.first >= 0:
                place = _PLACE + (self.seat - self.first) % SEATS * N_KINDS
                cells[place:place + N_KINDS] = _ROW[4]
            return
        self.grid[:] = bytes(len(self.grid))
        me = self.seat
        seen = self._seen
        for t in range(N_KINDS):
            n = self.counts[t]
            cells[t:t + 4 * N_KINDS:N_KINDS] = _LEVELS[max(0, min(n, 4))]
            for seat in range(SEATS):
                n += self.meld_counts[seat][t] + self.river_counts[seat][t]
            seen[t] = n
            cells[_UNSEEN + t] = (4 - n) * 0.25 if n < 4 else 0.0
        for seat in range(SEATS):
            rel = (seat - me) % SEATS * N_KINDS
            for t in range(N_KINDS):
                cells[_MELDS + rel + t] = self.meld_counts[seat][t] * 0.25
                cells[_RIVERS + rel + t] = self.river_counts[seat][t] * 0.25
            cells[_HIDDEN + rel:_HIDDEN + rel + N_KINDS] = _ROW[self.hidden_kongs[seat]]
        if self.first >= 0:
            place = _PLACE + (me - self.first) % SEATS * N_KINDS
            cells[place:place + N_KINDS] = _ROW[4]

    def _own(self, t: int, n: int) -> None:
        """Own concealed count of ``t`` changed by ``n`` (``counts`` already updated)."""
        cells = self._cells
        c = self.counts[t]
        if n == 1 and 1 <= c <= 4:  # one level cell turns on (or off, below): a draw, a discard
            cells[(c - 1) * N_KINDS + t] = 1.0
        elif n == -1 and 0 <= c <= 3:
            cells[c * N_KINDS + t] = 0.0
        else:
            cells[t:t + 4 * N_KINDS:N_KINDS] = _LEVELS[c]
        seen = self._seen[t] + n
        self._seen[t] = seen
        cells[_UNSEEN + t] = (4 - seen) * 0.25 if seen < 4 else 0.0

    def _shown(self, row: int, seat: int, t: int, value: int, n: int) -> None:
        """A meld (``row`` ``_MELDS``) or river (``_RIVERS``) count of ``seat`` is now
        ``value``, changed by ``n``."""
        cells = self._cells
        cells[row + (seat - self.seat) % SEATS * N_KINDS + t] = value * 0.25
        seen = self._seen[t] + n
        self._seen[t] = seen
        cells[_UNSEEN + t] = (4 - seen) * 0.25 if seen < 4 else 0.0

    def planes(self) -> bytearray:
        """``grid`` with the rows that depend on the prompt written too (the drawn tile,
        the tile asked about, the prompt, whose tile, the wall left: rows 4 and 18..26
        of ``rulesets.default.encoding``), so all 31 planes of the default encoder's
        observation, as float32 bytes. ``grid`` itself is returned: copy it before the
        view takes its next line."""
        cells = self._cells
        cells[4 * N_KINDS:5 * N_KINDS] = _ZERO_ROW
        cells[18 * N_KINDS:26 * N_KINDS] = _ZERO_ASKED
        prompt = self.prompt
        if prompt is not None:
            if prompt is Expect.TURN:
                row = 19
                drawn = self.drawn
                if drawn is not None:
                    cells[4 * N_KINDS + drawn] = 1.0
            else:
                row = 20 if prompt is Expect.DISCARD else 21 if prompt is Expect.CLAIM else 22
            cells[row * N_KINDS:(row + 1) * N_KINDS] = _ROW[4]
            about = self.about
            if about is not None:
                cells[18 * N_KINDS + about[1]] = 1.0
                rel = (about[0] - self.seat) % SEATS
                if rel:
                    cells[(22 + rel) * N_KINDS:(23 + rel) * N_KINDS] = _ROW[4]
        left = self.wall_left
        cells[26 * N_KINDS:27 * N_KINDS] = _WALL_ROWS[left] if 0 <= left <= WALL_AFTER_DEAL \
            else memoryview(array("f", [max(left, 0) / WALL_AFTER_DEAL] * N_KINDS))
        return self.grid

    # --- lines in -------------------------------------------------------------------

    def receive(self, message: ToAI) -> None:
        """Apply one line the server sent this seat."""
        # The three lines of every turn first, by class; the others through ``_KINDS``.
        if type(message) is _MPICK_TYPE:
            self.wall_left -= 1
            self.last_discard = None
            return
        if type(message) is _MOUT_TYPE:
            seat = message.seat
            tile = message.tile
            t: int = tile  # a plain int indexes the count lists natively
            self.rivers[seat].append(tile)
            river = self.river_counts[seat]
            n = river[t] + 1
            river[t] = n
            self._shown(_RIVERS, seat, t, n, 1)
            self.last_discard = (seat, tile)
            if seat != self.seat:
                self.prompt = Expect.CLAIM
                self.about = (seat, tile)
            return
        if type(message) is _PICK_TYPE:
            tile = message.tile
            t = tile
            self.counts[t] += 1
            self._own(t, 1)
            self._before_draw = self._waits
            self._waits = None
            self.drawn = tile
            self.wall_left -= 1
            self.last_discard = None
            self.prompt = Expect.TURN
            self.about = None
            return
        kind = _KINDS.get(type(message), _OTHER)
        m: Any = message  # its type is ``kind``'s (a look-up, not a chain of isinstance)
        if kind == _MPENG:
            self._claim(m.seat, _PUNGS[m.tile], m.tile)
        elif kind == _MCHI:
            low = m.tile
            last = self.last_discard
            claimed = last[1] if last is not None and 0 <= last[1] - low <= 2 else low
            chow = _CHOWS[low] if 0 <= low < N_KINDS else None
            self._claim(m.seat, Meld(MeldKind.CHOW, low) if chow is None else chow, claimed)
        elif kind == _MGANG:
            self._claim(m.seat, _KONGS[m.tile], m.tile)
        elif kind == _MAGANG:
            self._concealed_kong(m.seat)
        elif kind == _MJGANG:
            self._added_kong(m.seat, m.tile)
        elif kind == _ID:
            self.seat = m.seat
            self._rebuild_grid()
        elif kind == _FIRST:
            self.first = m.seat
            self._rebuild_grid()
        elif kind == _INIT:
            for t in m.tiles:
                self.counts[t] += 1
                self._own(t, 1)
            self._waits = None
        # mfail (a lost chow) and mhu (the end) change nothing.

    def answered(self, answer: FromAI) -> None:
        """Apply this seat's own answer to its prompt (the server echoes no discard)."""
        if type(answer) is _OUT_TYPE:
            tile = answer.tile
            t: int = tile
            me = self.seat
            self.counts[t] -= 1
            self._own(t, -1)
            self._waits = None
            self.rivers[me].append(tile)
            river = self.river_counts[me]
            n = river[t] + 1
            river[t] = n
            self._shown(_RIVERS, me, t, n, 1)
            self.last_discard = (me, tile)
            self.drawn = None
        elif type(answer) is _AGANG_TYPE:
            self._agang = answer.tile
        self.prompt = None
        self.about = None

    def _claim(self, seat: int, meld: Meld, claimed: Tile) -> None:
        last = self.last_discard
        if last is not None and last[1] == claimed:
            owner = last[0]
            river = self.rivers[owner]
            if river and river[-1] == claimed:
                river.pop()
                counts = self.river_counts[owner]
                counts[claimed] -= 1
                self._shown(_RIVERS, owner, claimed, counts[claimed], -1)
            self.last_discard = None
        self.melds[seat].append(meld)
        shown = self.meld_counts[seat]
        for t in meld.tiles:
            shown[t] += 1
            self._shown(_MELDS, seat, t, shown[t], 1)
        if seat == self.seat:
            counts = self.counts
            for t in meld.tiles:  # all but the claimed tile came from the hand
                counts[t] -= 1
                self._own(t, -1)
            counts[claimed] += 1
            self._own(claimed, 1)
            self._waits = None
            if meld.kind is not MeldKind.KONG:
                self.prompt = Expect.DISCARD
                self.about = None

    def _concealed_kong(self, seat: int) -> None:
        if seat != self.seat:
            self.hidden_kongs[seat] += 1
            row = _HIDDEN + (seat - self.seat) % SEATS * N_KINDS
            self._cells[row:row + N_KINDS] = _ROW[self.hidden_kongs[seat]]
            return
        tile, self._agang = self._agang, None
        if tile is None:  # not ours to apply: the engine only sends magang after agang
            return
        self.counts[tile] -= 4
        self._own(tile, -4)
        self._waits = None
        self.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, tile))
        self.meld_counts[seat][tile] += 4
        self._shown(_MELDS, seat, tile, self.meld_counts[seat][tile], 4)
        self.drawn = None

    def _added_kong(self, seat: int, tile: Tile) -> None:
        melds = self.melds[seat]
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.PUNG and meld.tile == tile:
                melds[i] = _KONGS[tile]
                break
        self.meld_counts[seat][tile] += 1
        self._shown(_MELDS, seat, tile, self.meld_counts[seat][tile], 1)
        if seat == self.seat:
            self.counts[tile] -= 1
            self._own(tile, -1)
            self._waits = None
            self.drawn = None
        else:
            self.prompt = Expect.ROB
            self.about = (seat, tile)

    # --- what this seat may answer ------------------------------------------------------

    def waits(self) -> frozenset[int]:
        """The kinds that complete the concealed hand (between own turns)."""
        if self._waits is None:
            self._waits = frozenset(wait_kinds(self.counts, len(self.melds[self.seat])))
        return self._waits

    def legal_actions(self) -> list[int]:
        """The actions the engine accepts from this seat now ([] when not asked)."""
        prompt = self.prompt
        counts = self.counts
        if prompt is Expect.CLAIM:
            about = self.about
            assert about is not None
            owner, t = about
            legal = [PASS]
            if t in self.waits():
                legal.append(HU)
            n = counts[t]
            if n >= 2:
                legal.append(PENG)
                if n >= 3:
                    legal.append(GANG)
            if owner == (self.seat - 1) % SEATS:
                for action, a, b in _CHI_CHOICES[t]:
                    if counts[a] and counts[b]:
                        legal.append(action)
            return legal
        if prompt is Expect.TURN:
            legal = [t for t in range(N_KINDS) if counts[t]]
            legal.extend([AGANG + t for t in legal if counts[t] == 4])
            legal.extend(JGANG + m.tile for m in self.melds[self.seat]
                         if m.kind is MeldKind.PUNG and counts[m.tile])
            drawn, before = self.drawn, self._before_draw
            if drawn is not None and before is not None:
                if drawn in before:
                    legal.append(HU)
            elif is_winning(counts, len(self.melds[self.seat])):
                legal.append(HU)
            return legal
        if prompt is Expect.DISCARD:
            return [t for t in range(N_KINDS) if counts[t]]
        if prompt is Expect.ROB:
            about = self.about
            assert about is not None
            return [PASS, QGANG] if about[1] in self.waits() else [PASS]
        return []

    def only_pass(self) -> bool:
        """Whether this seat is asked and may only pass (the env and the policy bot
        answer such a prompt themselves)."""
        prompt = self.prompt
        if prompt is Expect.CLAIM:
            about = self.about
            assert about is not None
            owner, t = about
            counts = self.counts
            if counts[t] >= 2:
                return False  # peng
            if owner == (self.seat - 1) % SEATS:
                for _action, a, b in _CHI_CHOICES[t]:
                    if counts[a] and counts[b]:
                        return False
            return t not in self.waits()
        if prompt is Expect.ROB:
            about = self.about
            assert about is not None
            return about[1] not in self.waits()
        return False
