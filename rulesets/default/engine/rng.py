"""Seeded, reproducible deals for a match (SPEC section 2).

The generator is SHA-256 in counter mode: block ``i`` of a stream is
``sha256(label || ":" || i)`` read as four big-endian 64-bit words. It depends
on nothing but ``hashlib``, so the same seed gives the same walls on every
machine and every Python version (``random``'s algorithms may change).
Bounded integers use rejection sampling, so there is no modulo bias; a shuffle
is Fisher-Yates from the last position down.

Match seed -> group seed g: the first 63 bits of the stream labelled
``"match/<seed>/group/<g>"``. Group seed -> deal k (k = 0..3): the wall is a
shuffle of the 136 tiles drawn from stream ``"group/<group seed>/deal/<k>"``,
and the first actor is the next value below 4 from the same stream.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from protocol.tiles import Tile, full_set
from server.seam.seeds import SeedStream

T = TypeVar("T")
GROUPS = 6
ROUNDS = 4
DEALS = 4
SEATS = 4
# The six cyclic orders of four players (SPEC section 2), as player indices.
GROUP_ORDERS: tuple[tuple[int, int, int, int], ...] = (
    (0, 1, 2, 3), (0, 2, 1, 3), (0, 2, 3, 1), (0, 3, 1, 2), (0, 3, 2, 1), (0, 1, 3, 2),
)


@dataclass(frozen=True, slots=True)
class Deal:
    """One hand's shared randomness: the wall (draw order) and the first actor."""

    wall: tuple[Tile, ...]
    first: int


def group_seed(match_seed: int, group: int) -> int:
    return SeedStream(f"match/{match_seed}/group/{group}").next_u64() >> 1


def deal(seed: int, index: int) -> Deal:
    """Deal ``index`` of a stream of deals (a group's four, or a simulation's N)."""
    stream = SeedStream(f"group/{seed}/deal/{index}")
    wall = full_set()
    stream.shuffle(wall)
    return Deal(tuple(wall), stream.below(SEATS))


def seating(group: int, round_: int) -> tuple[int, int, int, int]:
    """Player index at each seat: seat s gets order[(s + r) mod 4]."""
    order = GROUP_ORDERS[group]
    return (
        order[round_ % 4], order[(1 + round_) % 4], order[(2 + round_) % 4],
        order[(3 + round_) % 4],
    )


@dataclass(frozen=True, slots=True)
class HandPlan:
    """Where one hand of a match sits: its numbers, seed, seating and deal."""

    number: int  # 0-based across the match
    group: int
    round: int
    deal_index: int
    seed: int  # the group seed
    seats: tuple[int, int, int, int]  # player index at each seat


def match_plan(match_seed: int, groups: int = GROUPS) -> Iterator[HandPlan]:
    """The hands of a duplicate match in playing order."""
    number = 0
    for g in range(groups):
        gs = group_seed(match_seed, g)
        for r in range(ROUNDS):
            for k in range(DEALS):
                yield HandPlan(number, g, r, k, gs, seating(g, r))
                number += 1


def wall_from_hands_and_draws(hands: Sequence[Sequence[Tile]],
                              draws: Sequence[Tile]) -> tuple[Tile, ...]:
    """The wall that deals ``hands`` (seat 0..3) and then yields ``draws`` in order."""
    return tuple(t for h in hands for t in h) + tuple(draws)
