"""The drop-in course environment's fast path: one table for the four seats.

Theory of operation. ``SeatView`` (one per seat, fed every request as text) is the
reference of what a seat knows and may do; in the drop-in ``MahjongGBEnv`` with the
course's own ``CourseAgent``, keeping four of them request by request was most of a
step's cost, though a seat that is not deciding needs none of it. So the environment
keeps one ``CourseTable`` instead, told each event once as small integers:

* what is public is read where the judge keeps it (the walls, the shown counts for
  和绝张, the flowers), once for all seats;
* each seat keeps only its concealed tile counts (the drawn tile included, as the
  view's), its own melds as the fan calculator takes them, and its observation (the
  course's 6 x 4 x 9: seat wind, prevailing wind, the hand's count levels), changed in
  place one cell per tile moved;
* masks are made only for the seats asked to decide, by the view's own rules
  (``SeatView._compute_legal`` and ``has_choice``, the same HU test ``could_win``
  then the judge's fan calculator), as float32 arrays of 235.

The agents' views are not lost: each event is also logged once, as the course's
request text, and a ``CourseAgent`` replays the log into its view the moment anything
reads it (``CourseAgent.view``). The tests play seeded games both ways (this table and
the agents' own text path) and compare every observation, mask and reward.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rulesets.botzone.fans import Pack, calculate
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import (
    ANGANG,
    BUGANG,
    GANG,
    HU,
    MIN_FAN,
    N_ACTIONS,
    N_TILES,
    PASS,
    PENG,
    PLAY,
    TILE_INDEX,
    TILE_LIST,
    _chi_shape,
    chi_action,
    could_win,
)

_ONES = bytes([0] + [1] * 255)  # bytes.translate: a count -> whether it is held
_NO_ACTION = np.zeros(N_ACTIONS, dtype=np.float32)
_PASS_ONLY = np.zeros(N_ACTIONS, dtype=np.float32)
_PASS_ONLY[PASS] = 1
_PASS_HU = _PASS_ONLY.copy()
_PASS_HU[HU] = 1
_HAND = 2 * 36  # the observation's first hand cell (row 2 of (6, 36))
_OTHERS = [tuple(seat for seat in range(4) if seat != player) for player in range(4)]


def _alone(counts: bytearray, t: int) -> bool:
    """Whether a tile ``t`` not held would have no tile of its suit within two of it."""
    if t >= 27:
        return True
    n = t % 9
    return not any(counts[max(t - n, t - 2):min(t - n + 8, t + 2) + 1])


class CourseTable:
    """The public table of one game, read from ``judge``, and each seat's own hand
    (module docstring)."""

    def __init__(self, judge: Judge, quan: int) -> None:
        self.judge = judge
        self.duplicate = judge.duplicate
        self.walls = judge._walls  # the judge's own lists: always current
        self.quan = quan
        self.counts = [bytearray(N_TILES) for _ in range(4)]
        self.packs: list[list[list[Any]]] = [[], [], [], []]  # the view's ``packs``
        self.kong = -1  # the seat whose last event was its own kong (the view's notice)
        self.source = -1  # who made the discard on the table
        self._obs = [np.zeros((6, 4, 9), dtype=np.float32) for _ in range(4)]
        self._cells = [o.data.cast("B").cast("f") for o in self._obs]
        for seat, cells in enumerate(self._cells):
            cells[27 + seat] = 1.0
            cells[36 + 27 + quan] = 1.0

    # --- hands --------------------------------------------------------------------------

    def add(self, seat: int, t: int, n: int = 1) -> None:
        """``n`` tiles ``t`` into ``seat``'s hand."""
        counts = self.counts[seat]
        cells = self._cells[seat]
        for _ in range(n):
            c = counts[t]
            cells[_HAND + 36 * c + t] = 1.0
            counts[t] = c + 1

    def remove(self, seat: int, t: int, n: int = 1) -> None:
        """``n`` tiles ``t`` out of ``seat``'s hand."""
        counts = self.counts[seat]
        cells = self._cells[seat]
        for _ in range(n):
            c = counts[t] - 1
            cells[_HAND + 36 * c + t] = 0.0
            counts[t] = c

    def observation(self, seat: int) -> np.ndarray:
        """The course's observation of ``seat`` now, a copy of its own."""
        return self._obs[seat].copy()

    # --- events (what the view's requests do to the seat's own hand and melds) ---------

    def draw(self, seat: int, tile: str) -> dict[int, dict[str, np.ndarray]]:
        """``seat`` drew ``tile``: its observation and mask."""
        t = TILE_INDEX[tile]
        self.add(seat, t)
        about_kong = self.kong == seat
        self.kong = -1
        return {seat: {"observation": self._obs[seat].copy(),
                       "action_mask": self._draw_mask(seat, tile, t, about_kong)}}

    def discard(self, seat: int, tile: str) -> dict[int, dict[str, np.ndarray]]:
        """``seat`` discarded ``tile`` (after a draw, or its claim already applied): the
        others' observations and masks (``SeatView`` DISCARD; ``has_choice`` finds most
        of them able to pass only)."""
        t = TILE_INDEX[tile]
        self.remove(seat, t)
        self.kong = -1
        self.source = seat
        after = (seat + 1) % 4
        out = {}
        seen = self._obs
        for other in _OTHERS[seat]:
            counts = self.counts[other]
            count = counts[t]
            mask = None
            if count < 2 and not (t < 27 and after == other and _chi_shape(counts, t)):
                # no claim: a HU at most, which needs a complete shape; with two melds or
                # more only the usual shape, which a tile alone and next to none cannot make
                melds = len(self.packs[other])
                if count == 0 and melds >= 2 and _alone(counts, t):
                    mask = _PASS_ONLY.copy()
                else:
                    with_it = bytearray(counts)
                    with_it[t] += 1
                    if not could_win(with_it, melds):
                        mask = _PASS_ONLY.copy()
            if mask is None:
                mask = self.on_discard(other, seat, tile)
            out[other] = {"observation": seen[other].copy(), "action_mask": mask}
        return out

    def claim(self, seat: int, kind: str, middle: str, tile: str) -> np.ndarray:
        """``seat``'s PENG or CHI (around ``middle``) of the discard ``tile``: its mask
        for the discard to make."""
        t = TILE_INDEX[tile]
        self.kong = -1
        if kind == "PENG":
            self.remove(seat, t, 2)
            self.packs[seat].append(["PENG", tile, (seat - self.source) % 4])
        else:
            m = TILE_INDEX[middle]
            self.add(seat, t)
            for k in (m - 1, m, m + 1):
                self.remove(seat, k)
            self.packs[seat].append(["CHI", middle, t - m + 2])
        mask = bytearray(N_ACTIONS)
        mask[PLAY:PLAY + N_TILES] = self.counts[seat].translate(_ONES)
        return np.frombuffer(mask, dtype=np.uint8).astype(np.float32)

    def kong_claimed(self, seat: int, tile: str) -> None:
        self.remove(seat, TILE_INDEX[tile], 3)
        self.packs[seat].append(["GANG", tile, (seat - self.source) % 4])
        self.kong = seat

    def kong_concealed(self, seat: int, tile: str) -> None:
        self.remove(seat, TILE_INDEX[tile], 4)
        self.packs[seat].append(["GANG", tile, 0])
        self.kong = seat

    def kong_added(self, seat: int, tile: str) -> None:
        self.remove(seat, TILE_INDEX[tile])
        for pack in self.packs[seat]:
            if pack[0] == "PENG" and pack[1] == tile:
                pack[0] = "GANG"
                break
        self.kong = seat

    def other(self) -> None:
        """Any other event (a flower, a claim announced to others): no kong notice."""
        self.kong = -1

    # --- masks ---------------------------------------------------------------------------

    def wall_left(self, seat: int) -> int:
        return len(self.walls[seat] if self.duplicate else self.walls[0])

    def on_discard(self, seat: int, source: int, tile: str) -> np.ndarray:
        """``seat``'s mask on ``source``'s discard ``tile`` (``SeatView`` DISCARD, all of
        ``_compute_legal``)."""
        counts = self.counts[seat]
        t = TILE_INDEX[tile]
        after = (source + 1) % 4
        count = counts[t]
        mask = bytearray(N_ACTIONS)
        mask[PASS] = 1
        wall = self.wall_left(after)
        if self._can_hu(seat, tile, t, False, False, wall == 0):
            mask[HU] = 1
        if wall > 0:
            if t < 27 and after == seat:
                suit, n = divmod(t, 9)
                base = 9 * suit
                for m in (n - 1, n, n + 1):
                    if 1 <= m <= 7 and all(k == t or counts[k]
                                           for k in (base + m - 1, base + m, base + m + 1)):
                        mask[chi_action(suit, m + 1, n + 1)] = 1
            if count >= 2:
                mask[PENG + t] = 1
            if count >= 3:
                mask[GANG + t] = 1
        return np.frombuffer(mask, dtype=np.uint8).astype(np.float32)

    def on_kong_added(self, seat: int, source: int, tile: str) -> np.ndarray:
        """``seat``'s mask on ``source``'s added kong of ``tile`` (``SeatView`` ROB)."""
        wall_last = self.wall_left((source + 1) % 4) == 0
        if self._can_hu(seat, tile, TILE_INDEX[tile], False, True, wall_last):
            return _PASS_HU.copy()
        return _PASS_ONLY.copy()

    @staticmethod
    def ended() -> np.ndarray:
        return _NO_ACTION.copy()

    def _draw_mask(self, seat: int, tile: str, t: int, about_kong: bool) -> np.ndarray:
        counts = self.counts[seat]
        mask = bytearray(N_ACTIONS)
        if self._can_hu(seat, tile, t, True, about_kong,
                        self.wall_left((seat + 1) % 4) == 0):
            mask[HU] = 1
        mask[PLAY:PLAY + N_TILES] = counts.translate(_ONES)
        if self.wall_left(seat) > 0 and (
                not self.duplicate or len(self.walls[(seat + 1) % 4]) > 0):
            if 4 in counts:
                for k in range(N_TILES):
                    if counts[k] == 4:
                        mask[ANGANG + k] = 1
            for pack in self.packs[seat]:
                if pack[0] == "PENG":
                    k = TILE_INDEX[pack[1]]
                    if counts[k]:
                        mask[BUGANG + k] = 1
        return np.frombuffer(mask, dtype=np.uint8).astype(np.float32)

    def _can_hu(self, seat: int, tile: str, t: int, self_drawn: bool, about_kong: bool,
                wall_last: bool) -> bool:
        """``SeatView._can_hu`` on this seat's hand: the shape test, then the calculator
        with the judge's flags, at least 8 fans besides the flowers."""
        counts = self.counts[seat]
        packs = self.packs[seat]
        if self_drawn:  # the drawn tile is in the counts already
            if not could_win(counts, len(packs)):
                return False
            counts = bytearray(counts)
        else:
            counts = bytearray(counts)
            counts[t] += 1
            if not could_win(counts, len(packs)):
                return False
        counts[t] -= 1
        hand = [TILE_LIST[k] for k in range(N_TILES) for _ in range(counts[k])]
        melds: list[Pack] = [(str(p[0]), str(p[1]), int(p[2])) for p in packs]
        judge = self.judge
        flowers = len(judge._flowers[seat])
        fan, _ = calculate(
            melds, hand, tile, flowers=flowers, self_drawn=self_drawn,
            fourth_tile=judge._shown.get(tile, 0) == 3, about_kong=about_kong,
            wall_last=wall_last, seat=seat, quan=self.quan,
        )
        return fan - flowers >= MIN_FAN
