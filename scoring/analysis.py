"""Hand analysis on 34-slot count vectors: decompositions, waits and shanten.

Every function takes counts of the concealed tiles only; declared sets are
passed as how many there are (``n_melds``). The work is split by suit and each
suit's answer is cached, since a suit's nine counts recur across hands: that is
what makes pure-Python scoring fast enough for thousands of hands a second.

Nothing here is specific to one ruleset: seven pairs and thirteen orphans are
separate functions that a ruleset chooses to use.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import product

from protocol.tiles import N_KINDS, TERMINALS_AND_HONORS, Tile

SETS_IN_HAND = 4


class SetKind(IntEnum):
    CHOW = 0
    PUNG = 1
    KONG = 2


@dataclass(frozen=True, slots=True)
class Block:
    """A set inside a winning hand: a chow (by its lowest tile), pung or kong."""

    kind: SetKind
    tile: Tile
    concealed: bool

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is SetKind.CHOW:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * (4 if self.kind is SetKind.KONG else 3)


@dataclass(frozen=True, slots=True)
class Decomposition:
    """Concealed tiles split into sets and one pair (sets as (kind, tile) pairs)."""

    sets: tuple[tuple[SetKind, Tile], ...]
    pair: Tile


# A suit's parts: (sets as (kind, offset) pairs, pair offset or -1).
_SuitParts = tuple[tuple[tuple[int, int], ...], int]


@lru_cache(maxsize=1 << 16)
def _suit_parts(counts: tuple[int, ...], chows: bool) -> tuple[_SuitParts, ...]:
    """Every way one suit's tiles form sets and at most one pair."""
    found: set[_SuitParts] = set()

    def walk(c: list[int], sets: list[tuple[int, int]], pair: int) -> None:
        i = next((k for k, n in enumerate(c) if n), -1)
        if i < 0:
            found.add((tuple(sorted(sets)), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            sets.append((SetKind.PUNG, i))
            walk(c, sets, pair)
            sets.pop()
            c[i] += 3
        if c[i] >= 2 and pair < 0:
            c[i] -= 2
            walk(c, sets, i)
            c[i] += 2
        if chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            sets.append((SetKind.CHOW, i))
            walk(c, sets, pair)
            sets.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(list(counts), [], -1)
    return tuple(sorted(found))


def _groups(counts: Sequence[int]) -> list[tuple[int, tuple[int, ...], bool]]:
    """The count vector cut into (offset, counts, chows allowed) groups."""
    groups = [(base, tuple(counts[base : base + 9]), True) for base in (0, 9, 18)]
    groups.extend((i, (counts[i],), False) for i in range(27, N_KINDS) if counts[i])
    return groups


def decompositions(counts: Sequence[int], n_melds: int = 0) -> list[Decomposition]:
    """Every split of the concealed tiles into ``4 - n_melds`` sets and a pair."""
    need = SETS_IN_HAND - n_melds
    if sum(counts) != 3 * need + 2:
        return []
    options = []
    for base, group, chows in _groups(counts):
        parts = _suit_parts(group, chows)
        if not parts:
            return []
        options.append([(base, p) for p in parts])
    result = []
    for choice in product(*options):
        pairs = [base + pair for base, (_, pair) in choice if pair >= 0]
        if len(pairs) != 1:
            continue
        sets = tuple(
            (SetKind(kind), Tile(base + off)) for base, (ss, _) in choice for kind, off in ss
        )
        result.append(Decomposition(sets, Tile(pairs[0])))
    return result


@lru_cache(maxsize=1 << 16)
def _suit_complete(counts: tuple[int, ...], chows: bool, with_pair: bool) -> bool:
    return any((pair >= 0) == with_pair for _, pair in _suit_parts(counts, chows))


def is_regular_win(counts: Sequence[int], n_melds: int = 0) -> bool:
    """Four sets (counting ``n_melds`` declared ones) and a pair."""
    if sum(counts) != 3 * (SETS_IN_HAND - n_melds) + 2:
        return False
    groups = _groups(counts)
    # Exactly one group holds the pair; a group's size mod 3 says which one.
    pair_groups = [g for g in groups if sum(g[1]) % 3 == 2]
    if len(pair_groups) != 1 or any(sum(g[1]) % 3 == 1 for g in groups):
        return False
    return all(_suit_complete(g[1], g[2], g in pair_groups) for g in groups)


def is_seven_pairs(counts: Sequence[int], n_melds: int = 0) -> bool:
    """Seven pairs, concealed; four equal tiles count as two pairs."""
    return n_melds == 0 and sum(counts) == 14 and all(c % 2 == 0 for c in counts)


def is_thirteen_orphans(counts: Sequence[int], n_melds: int = 0) -> bool:
    return (
        n_melds == 0
        and sum(counts) == 14
        and all(counts[t] >= 1 for t in TERMINALS_AND_HONORS)
        and sum(counts[t] for t in TERMINALS_AND_HONORS) == 14
    )


def is_winning(counts: Sequence[int], n_melds: int = 0) -> bool:
    """Any winning shape of the default ruleset."""
    return (
        is_regular_win(counts, n_melds)
        or is_seven_pairs(counts, n_melds)
        or is_thirteen_orphans(counts, n_melds)
    )


def waiting_tiles(counts: Sequence[int], n_melds: int = 0) -> list[Tile]:
    """Tile kinds that would complete the hand (``3k + 1`` concealed tiles).

    Kinds the player already holds all four of are included, as GB's
    calculator does: the shape waits on them even though none can come.
    """
    work = list(counts)
    waits = []
    for t in range(N_KINDS):
        work[t] += 1
        if is_winning(work, n_melds):
            waits.append(Tile(t))
        work[t] -= 1
    return waits


# --- shanten ------------------------------------------------------------------

# A suit's partial shapes: (sets, partial sets, head pair taken).
_Shape = tuple[int, int, int]


@lru_cache(maxsize=1 << 16)
def _suit_shapes(counts: tuple[int, ...], chows: bool) -> frozenset[_Shape]:
    """Pareto-best (sets, partials, head) extractions from one suit."""
    found: set[_Shape] = set()

    def walk(c: list[int], start: int, m: int, t: int, h: int) -> None:
        i = start
        while i < len(c) and not c[i]:
            i += 1
        if i >= len(c):
            found.add((m, t, h))
            return
        if c[i] >= 3:
            c[i] -= 3
            walk(c, i, m + 1, t, h)
            c[i] += 3
        if chows and i + 2 < len(c) and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            walk(c, i, m + 1, t, h)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
        if c[i] >= 2:
            c[i] -= 2
            if not h:
                walk(c, i, m, t, 1)
            walk(c, i, m, t + 1, h)
            c[i] += 2
        if chows and i + 1 < len(c) and c[i + 1]:
            c[i] -= 1
            c[i + 1] -= 1
            walk(c, i, m, t + 1, h)
            c[i] += 1
            c[i + 1] += 1
        if chows and i + 2 < len(c) and c[i + 2]:
            c[i] -= 1
            c[i + 2] -= 1
            walk(c, i, m, t + 1, h)
            c[i] += 1
            c[i + 2] += 1
        c[i] -= 1  # leave this tile isolated
        walk(c, i, m, t, h)
        c[i] += 1

    walk(list(counts), 0, 0, 0, 0)
    best = {
        s
        for s in found
        if not any(o != s and o[0] >= s[0] and o[0] + o[1] >= s[0] + s[1] and o[2] >= s[2]
                   for o in found)
    }
    return frozenset(best)


def regular_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Tiles away from four sets and a pair (-1 when complete)."""
    need = SETS_IN_HAND - n_melds
    states: set[_Shape] = {(0, 0, 0)}
    for _, group, chows in _groups(counts):
        shapes = _suit_shapes(group, chows)
        states = {
            (m + sm, t + st, h + sh)
            for (m, t, h) in states
            for (sm, st, sh) in shapes
            if h + sh <= 1
        }
    best = 2 * need
    for m, t, h in states:
        m = min(m, need)
        t = min(t, need - m)
        best = min(best, 2 * need - 2 * m - t - h)
    return best


def seven_pairs_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    if n_melds:
        return 99
    return 6 - min(7, sum(c // 2 for c in counts))


def thirteen_orphans_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    if n_melds:
        return 99
    kinds = sum(1 for t in TERMINALS_AND_HONORS if counts[t])
    pair = any(counts[t] >= 2 for t in TERMINALS_AND_HONORS)
    return 13 - kinds - (1 if pair else 0)


def shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Distance to a winning hand of any shape; -1 means already winning."""
    return min(
        regular_shanten(counts, n_melds),
        seven_pairs_shanten(counts, n_melds),
        thirteen_orphans_shanten(counts, n_melds),
    )
