"""THUPC 2021 rules and the fixed strategy every player follows. Pure: no I/O.

Turn order: seats 0..3 are A..D; ``direction`` is +1 (A B C D) or -1 (A D C B).
The special tiles act at once when discarded, as a table (``EFFECTS``): PASS
skips the discarder's next player, REVERSE flips the direction and hands the
turn to the discarder's old previous player, DOUBLE gives the discarder a full
extra turn. A claimed discard hands the turn to the claimer, who discards
without drawing.

A hand's distance is the core's exact ``regular_distance`` over its normal
tiles; special tiles take room in the hand but never belong to a complete one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.tiles import N_KINDS, Tile
from rulesets.thupc2021.tiles import DISCARD_PRIORITY, Special, is_special
from scoring.analysis import is_regular_win
from scoring.distance import regular_distance

SEATS = 4
DEAL = 13


def next_seat(seat: int, direction: int, steps: int = 1) -> int:
    return (seat + direction * steps) % SEATS


@dataclass(frozen=True, slots=True)
class Turn:
    """Whose turn comes, the direction of play, and whether it starts with a draw."""

    seat: int
    direction: int = 1
    draws: bool = True


@dataclass(frozen=True, slots=True)
class Effect:
    """Where the turn goes after a special tile: ``steps`` seats on, after any reversal."""

    steps: int
    reverses: bool


EFFECTS: dict[Special, Effect] = {
    Special.PASS: Effect(steps=2, reverses=False),
    Special.REVERSE: Effect(steps=1, reverses=True),
    Special.DOUBLE: Effect(steps=0, reverses=False),
}


def pass_target(seat: int, direction: int) -> int:
    """The seat a PASS skips: always the discarder's next player."""
    return next_seat(seat, direction)


def turn_after_special(seat: int, direction: int, special: Special) -> Turn:
    effect = EFFECTS[special]
    if effect.reverses:
        direction = -direction
    return Turn(next_seat(seat, direction, effect.steps), direction)


@dataclass(slots=True)
class Hand:
    """A player's concealed tiles (normal kinds as counts, specials apart) and melds."""

    counts: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    specials: list[int] = field(default_factory=lambda: [0] * len(Special))
    melds: int = 0

    def add(self, tile: int) -> None:
        if is_special(tile):
            self.specials[tile - N_KINDS] += 1
        else:
            self.counts[tile] += 1

    def remove(self, tile: int) -> None:
        if is_special(tile):
            self.specials[tile - N_KINDS] -= 1
        else:
            self.counts[tile] -= 1

    def distance(self) -> int:
        return regular_distance(self.counts, self.melds)

    def is_complete(self) -> bool:
        return not any(self.specials) and is_regular_win(self.counts, self.melds)

    def wins_on(self, tile: int) -> bool:
        """Whether the hand plus ``tile`` is complete (a RON)."""
        if is_special(tile) or any(self.specials):
            return False
        self.counts[tile] += 1
        try:
            return is_regular_win(self.counts, self.melds)
        finally:
            self.counts[tile] -= 1


def choose_discard(hand: Hand) -> int:
    """A special tile if any; else the tile leaving the least distance, ties by priority.

    No discard leaves less than the whole hand's distance, and unless the hand
    is complete some discard leaves exactly that (a tile the nearest complete
    hand does not use), so the scan stops at the first such tile.
    """
    counts = hand.counts
    floor = regular_distance(counts, hand.melds) or -1
    best, best_distance = -1, 1 << 30
    for tile in DISCARD_PRIORITY:
        if is_special(tile):
            if hand.specials[tile - N_KINDS]:
                return tile
            continue
        if not counts[tile]:
            continue
        counts[tile] -= 1
        d = regular_distance(counts, hand.melds)
        counts[tile] += 1
        if d < best_distance:
            best, best_distance = tile, d
            if d == floor:
                break
    if best < 0:
        raise ValueError("no tile to discard")
    return best


def _lowers(hand: Hand, taken: tuple[int, int]) -> bool:
    """Whether melding ``taken`` from the hand with a discard lowers its distance."""
    before = hand.distance()
    counts = hand.counts
    for t in taken:
        counts[t] -= 1
    try:
        return regular_distance(counts, hand.melds + 1) < before
    finally:
        for t in taken:
            counts[t] += 1


def wants_pong(hand: Hand, tile: Tile) -> bool:
    return hand.counts[tile] >= 2 and _lowers(hand, (tile, tile))


def chow_runs(tile: Tile) -> tuple[Tile, ...]:
    """The lowest tiles of the runs through ``tile``, highest run first."""
    if tile.is_honor:
        return ()
    return tuple(Tile(tile - k) for k in (0, 1, 2) if 1 <= tile.rank - k <= 7)


def chosen_chow(hand: Hand, tile: Tile) -> Tile | None:
    """The first run (highest first) whose chow lowers the distance, if any."""
    for low in chow_runs(tile):
        others = tuple(t for t in (low, low + 1, low + 2) if t != tile)
        if all(hand.counts[t] for t in others) and _lowers(hand, (others[0], others[1])):
            return low
    return None
