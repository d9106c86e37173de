"""Hand analysis on 34-slot count vectors: decompositions, waits and shanten.

Every function takes counts of the concealed tiles only; declared sets are
passed as how many there are (``n_melds``). The work is split by suit and each
suit's answer is cached, since a suit's nine counts recur across hands: that is
what makes pure-Python scoring fast enough for thousands of hands a second.

Nothing here is specific to one ruleset: seven pairs and thirteen orphans are
separate functions that a ruleset chooses to use.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from itertools import product
from operator import itemgetter
from typing import Final

from protocol.tiles import ALL_TILES, N_KINDS, TERMINALS_AND_HONORS, Tile

SETS_IN_HAND: Final = 4


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
    """Every way one suit's tiles form sets and at most one pair.

    The lowest tile starts a pung, the pair or a chow, and the rest is split
    the same way: memoised on the remaining counts, so that suits sharing a
    remainder share the work.
    """
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return (((), -1),)
    n = counts[i]
    found: set[_SuitParts] = set()
    if n >= 3:
        for sets, pair in _suit_parts((*counts[:i], n - 3, *counts[i + 1 :]), chows):
            found.add((tuple(sorted(((SetKind.PUNG, i), *sets))), pair))
    if n >= 2:
        found.update((sets, i) for sets, pair in
                     _suit_parts((*counts[:i], n - 2, *counts[i + 1 :]), chows) if pair < 0)
    if chows and i + 2 < len(counts) and counts[i + 1] and counts[i + 2]:
        rest = (*counts[:i], n - 1, counts[i + 1] - 1, counts[i + 2] - 1, *counts[i + 3 :])
        for sets, pair in _suit_parts(rest, chows):
            found.add((tuple(sorted(((SetKind.CHOW, i), *sets))), pair))
    return tuple(sorted(found))


def _groups(counts: Sequence[int]) -> list[tuple[int, tuple[int, ...], bool]]:
    """The count vector cut into (offset, counts, chows allowed) groups."""
    groups = [(base, tuple(counts[base : base + 9]), True) for base in (0, 9, 18)]
    groups.extend((i, (counts[i],), False) for i in range(27, N_KINDS) if counts[i])
    return groups


# A decomposition in plain ints: sets as (SetKind value, tile) pairs, then the pair.
RawDecomposition = tuple[tuple[tuple[int, int], ...], int]


@lru_cache(maxsize=1 << 16)
def _placed_parts(counts: tuple[int, ...], base: int) -> tuple[RawDecomposition, ...]:
    """``_suit_parts`` of one suit with tile kinds in place (pair -1 if none)."""
    return tuple(
        (tuple((kind, base + off) for kind, off in sets), base + pair if pair >= 0 else -1)
        for sets, pair in _suit_parts(counts, True)
    )


def raw_decompositions(counts: Sequence[int], n_melds: int = 0) -> list[RawDecomposition]:
    """``decompositions`` in plain ints, for callers that score many hands."""
    if sum(counts) != 3 * (SETS_IN_HAND - n_melds) + 2:
        return []
    # Honours split one way only: three are a pung, two the pair.
    honor_sets: list[tuple[int, int]] = []
    honor_pairs: list[int] = []
    if any(counts[27:]):
        for t, n in enumerate(counts[27:], 27):
            if n == 3:
                honor_sets.append((SetKind.PUNG, t))
            elif n == 2:
                honor_pairs.append(t)
            elif n:
                return []
    options = []
    for base in (0, 9, 18):
        group = counts[base : base + 9]
        if any(group):
            parts = _placed_parts(tuple(group), base)
            if not parts:
                return []
            options.append(parts)
    result = []
    for choice in product(*options):
        pairs = [*honor_pairs, *(pair for _, pair in choice if pair >= 0)]
        if len(pairs) == 1:
            sets = [s for suit_sets, _ in choice for s in suit_sets]
            result.append(((*sets, *honor_sets), pairs[0]))
    return result


def decompositions(counts: Sequence[int], n_melds: int = 0) -> list[Decomposition]:
    """Every split of the concealed tiles into ``4 - n_melds`` sets and a pair."""
    return [
        Decomposition(tuple((SetKind(kind), Tile(tile)) for kind, tile in sets), Tile(pair))
        for sets, pair in raw_decompositions(counts, n_melds)
    ]


@lru_cache(maxsize=1 << 16)
def _suit_complete(counts: tuple[int, ...], chows: bool, with_pair: bool) -> bool:
    """Whether one suit's tiles are all sets (and one pair, ``with_pair``).

    A yes-or-no search, cheaper than listing every split: the lowest tile
    starts the pair, a pung or a chow, and the rest must complete.
    """
    i = next((k for k, n in enumerate(counts) if n), -1)
    if i < 0:
        return not with_pair
    n = counts[i]
    if with_pair and n >= 2 and _suit_complete(
            (*counts[:i], n - 2, *counts[i + 1 :]), chows, False):
        return True
    if n >= 3 and _suit_complete((*counts[:i], n - 3, *counts[i + 1 :]), chows, with_pair):
        return True
    return (chows and i + 2 < len(counts) and counts[i + 1] > 0 and counts[i + 2] > 0
            and _suit_complete((*counts[:i], n - 1, counts[i + 1] - 1, counts[i + 2] - 1,
                                *counts[i + 3 :]), chows, with_pair))


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


_odd = (1).__and__  # n & 1: whether a count is odd, for map() in C


def is_seven_pairs(counts: Sequence[int], n_melds: int = 0) -> bool:
    """Seven pairs, concealed; four equal tiles count as two pairs."""
    return n_melds == 0 and sum(counts) == 14 and not any(map(_odd, counts))


def is_thirteen_orphans(counts: Sequence[int], n_melds: int = 0) -> bool:
    if n_melds or sum(counts) != 14:
        return False
    orphans = _ORPHAN_COUNTS(counts)
    return all(orphans) and sum(orphans) == 14


def is_winning(counts: Sequence[int], n_melds: int = 0) -> bool:
    """Any winning shape of the default ruleset."""
    return (
        is_regular_win(counts, n_melds)
        or is_seven_pairs(counts, n_melds)
        or is_thirteen_orphans(counts, n_melds)
    )


# A group's state: (size mod 3, complete as sets only, complete as sets and one pair).
_GroupState = tuple[int, bool, bool]


@lru_cache(maxsize=1 << 16)
def _group_state(counts: tuple[int, ...], chows: bool) -> _GroupState:
    r = sum(counts) % 3
    return (r, r == 0 and _suit_complete(counts, chows, False),
            r == 2 and _suit_complete(counts, chows, True))


# A group's state and waits in one look-up (``_group_state`` and ``_group_waits``): size
# mod 3, complete as sets, complete as sets and a pair, the offsets whose tile completes
# it as sets, and as sets and a pair. A hand's waits are asked for once a turn by every
# seat view and bot, so a suit's 9 counts (or an honour's count) find all of it at once.
_GroupInfo = tuple[int, bool, bool, tuple[int, ...], tuple[int, ...]]
# Keyed by a suit's counts read as a base-5 number (count of the 1 first), and by an
# honour's count.
_SUIT_INFO: Final[dict[int, _GroupInfo]] = {}
_HONOR_INFO: Final[dict[int, _GroupInfo]] = {}
_INFO_LIMIT: Final = 1 << 17  # shapes kept (real hands reach far fewer)


def _group_info(counts: tuple[int, ...], chows: bool) -> _GroupInfo:
    r, sets, with_pair = _group_state(counts, chows)
    plain, paired = _group_waits(counts, chows)
    return (r, sets, with_pair, plain, paired)


def _suit_info(counts: list[int], base: int) -> _GroupInfo | None:
    """The info of the suit starting at ``base``; None if it holds no tile."""
    key = 0
    for i in range(base + 8, base - 1, -1):
        n = counts[i]
        if not 0 <= n <= 4:  # no real hand: computed, not kept (the key would be ambiguous)
            group = tuple(counts[base:base + 9])
            return _group_info(group, True) if any(group) else None
        key = key * 5 + n
    if not key:
        return None
    info = _SUIT_INFO.get(key)
    if info is None:
        info = _group_info(tuple(counts[base:base + 9]), True)
        if len(_SUIT_INFO) < _INFO_LIMIT:
            _SUIT_INFO[key] = info
    return info


def _regular_waits(counts: list[int]) -> list[int]:
    """Kinds that complete four sets and a pair.

    Adding a tile changes one group only, so each group's state is computed
    once and only a group that can take the tile is read again. Empty groups
    are left out: one tile alone never completes anything.
    """
    lone = 0
    for t in range(27, N_KINDS):
        n = counts[t]
        if n == 1 or n == 4:
            lone += 1
    if lone > 1:
        return []  # two honour kinds that no tile completes (one lone, or four)
    bases: list[int] = []
    infos: list[_GroupInfo] = []
    for base in (0, 9, 18):
        suit = _suit_info(counts, base)
        if suit is not None:
            bases.append(base)
            infos.append(suit)
    for t in range(27, N_KINDS):
        n = counts[t]
        if n:
            info = _HONOR_INFO.get(n)
            if info is None:
                info = _group_info((n,), False)
                if len(_HONOR_INFO) < _INFO_LIMIT:
                    _HONOR_INFO[n] = info
            bases.append(t)
            infos.append(info)
    misfits: list[int] = []
    pairs = 0
    for k, info in enumerate(infos):
        if not (info[1] or info[2]):
            misfits.append(k)
            if len(misfits) > 1:
                return []  # the new tile can mend one group only
        if info[0] == 2:
            pairs += 1
    waits: list[int] = []
    for k in misfits or range(len(infos)):
        base, info = bases[k], infos[k]
        pairs_elsewhere = pairs - (info[0] == 2)
        if pairs_elsewhere <= 1:
            for i in (info[4] if pairs_elsewhere == 0 else info[3]):
                waits.append(base + i)
    return waits


@lru_cache(maxsize=1 << 16)
def _group_waits(counts: tuple[int, ...], chows: bool) -> tuple[tuple[int, ...], ...]:
    """Offsets whose tile completes the group: as sets only, and as sets and a pair."""
    size = (sum(counts) + 1) % 3  # the group's size with the tile, mod 3
    if size == 1:
        return (), ()
    fits = tuple(i for i in range(len(counts)) if _suit_complete(
        (*counts[:i], counts[i] + 1, *counts[i + 1 :]), chows, size == 2))
    return ((), fits) if size == 2 else (fits, ())


def is_only_wait_as_pair(counts: Sequence[int], tile: int, n_melds: int = 0) -> bool:
    """Whether ``tile`` was the only wait of a hand that it completes as the pair.

    ``counts`` are the concealed tiles before ``tile``. In such a hand every
    group but the one of ``tile`` is complete sets without a pair, so only that
    group can take a winning tile (``_regular_waits`` in short); seven pairs
    may add a wait, thirteen orphans cannot (the hand holds sets).
    """
    if tile < 27:
        base = tile - tile % 9
        _, paired = _group_waits(tuple(counts[base : base + 9]), True)
        if paired != (tile - base,):
            return False
    if n_melds == 0:
        odd = [t for t, n in enumerate(counts) if n % 2]
        return len(odd) != 1 or odd[0] == tile
    return True


def wait_kinds(counts: Sequence[int], n_melds: int = 0) -> list[int]:
    """``waiting_tiles`` as sorted plain ints."""
    c: list[int] = counts if isinstance(counts, list) else list(counts)  # typed: native ints
    total = singles = threes = odd = high = 0
    for n in c:  # one pass for the size and the counts seven pairs needs
        total += n
        if n == 1:
            singles += 1
        elif n == 3:
            threes += 1
        odd += n & 1
        if n > high:
            high = n
    if total != 3 * (SETS_IN_HAND - n_melds) + 1:
        return []
    waits = _regular_waits(c)
    if n_melds == 0:
        # Six pairs and a lone tile (or a third one): exactly one odd count.
        if (singles + threes if high <= 4 else odd) == 1:
            waits.extend(t for t, n in enumerate(c) if n % 2)
        orphans = 0
        for t in _ORPHAN_KINDS:
            orphans += c[t]
        if orphans == 13:
            missing = [t for t in TERMINALS_AND_HONORS if not c[t]]
            if not missing:  # thirteen different orphans wait on any of them
                waits.extend(TERMINALS_AND_HONORS)
            elif len(missing) == 1:  # twelve and a pair wait on the thirteenth
                waits.append(missing[0])
    return sorted(set(waits)) if waits else waits


def waiting_tiles(counts: Sequence[int], n_melds: int = 0) -> list[Tile]:
    """Tile kinds that would complete the hand (``3k + 1`` concealed tiles).

    Kinds the player already holds all four of are included, as GB's
    calculator does: the shape waits on them even though none can come.
    """
    return [ALL_TILES[t] for t in wait_kinds(counts, n_melds)]


_ORPHANS = frozenset(TERMINALS_AND_HONORS)
_ORPHAN_COUNTS = itemgetter(*TERMINALS_AND_HONORS)
_ORPHAN_KINDS: Final = tuple(int(t) for t in TERMINALS_AND_HONORS)


# --- shanten ------------------------------------------------------------------

# A suit's partial shapes: (sets, partial sets, head pair taken).
_Shape = tuple[int, int, int]


@lru_cache(maxsize=1 << 18)
def _suit_reach(counts: tuple[int, ...], chows: bool) -> frozenset[_Shape]:
    """Every (sets, partials, head) extraction from a suffix of one suit.

    ``counts`` starts at its first non-zero count (or is empty), so suffixes
    shared by different suits share one cache entry. Each call handles the
    first tile and recurses on what is left: a memoised walk, where a plain
    depth-first walk would revisit the same remainders exponentially often
    (a 14-tile flush took a fifth of a second).
    """
    if not counts:
        return frozenset({(0, 0, 0)})
    n = len(counts)
    found: set[_Shape] = set()

    def take(c: list[int], dm: int, dt: int, head: int) -> None:
        k = 0
        while k < n and not c[k]:
            k += 1
        for m, t, h in _suit_reach(tuple(c[k:]), chows):
            if not (head and h):
                found.add((m + dm, t + dt, h + head))

    c = list(counts)
    if c[0] >= 3:
        c[0] -= 3
        take(c, 1, 0, 0)
        c[0] += 3
    if chows and n > 2 and c[1] and c[2]:
        c[0] -= 1
        c[1] -= 1
        c[2] -= 1
        take(c, 1, 0, 0)
        c[0] += 1
        c[1] += 1
        c[2] += 1
    if c[0] >= 2:
        c[0] -= 2
        take(c, 0, 0, 1)
        take(c, 0, 1, 0)
        c[0] += 2
    if chows and n > 1 and c[1]:
        c[0] -= 1
        c[1] -= 1
        take(c, 0, 1, 0)
        c[0] += 1
        c[1] += 1
    if chows and n > 2 and c[2]:
        c[0] -= 1
        c[2] -= 1
        take(c, 0, 1, 0)
        c[0] += 1
        c[2] += 1
    c[0] -= 1  # leave this tile isolated
    take(c, 0, 0, 0)
    return frozenset(found)


@lru_cache(maxsize=1 << 16)
def _suit_shapes(counts: tuple[int, ...], chows: bool) -> frozenset[_Shape]:
    """Pareto-best (sets, partials, head) extractions from one suit."""
    k = 0
    while k < len(counts) and not counts[k]:
        k += 1
    found = _suit_reach(counts[k:], chows)
    best = {
        s
        for s in found
        if not any(o != s and o[0] >= s[0] and o[0] + o[1] >= s[0] + s[1] and o[2] >= s[2]
                   for o in found)
    }
    return frozenset(best)


def _combine(states: Iterable[_Shape], shapes: Iterable[_Shape]) -> set[_Shape]:
    """Every sum of a state and a group's shape that keeps at most one head."""
    return {
        (m + sm, t + st, h + sh)
        for (m, t, h) in states
        for (sm, st, sh) in shapes
        if h + sh <= 1
    }


def _pareto(states: set[_Shape]) -> frozenset[_Shape]:
    """The states no other beats: as many sets, as many sets and partials, same head.

    Dropping a beaten state is exact: adding the same group to both keeps the
    order, and the final count is monotone in sets and in sets plus partials.
    """
    return frozenset(
        s for s in states
        if not any(o != s and o[2] == s[2] and o[0] >= s[0] and o[0] + o[1] >= s[0] + s[1]
                   for o in states)
    )


@lru_cache(maxsize=1 << 16)
def _merge(states: frozenset[_Shape], shapes: frozenset[_Shape]) -> frozenset[_Shape]:
    """``_combine``, pruned and cached: hands share most of their groups."""
    return _pareto(_combine(states, shapes))


@lru_cache(maxsize=1 << 12)
def _honor_states(counts: tuple[int, ...]) -> frozenset[_Shape]:
    """The combined shapes of the honour kinds, from their sorted counts.

    Honour kinds never combine with each other, so only the multiset of their
    counts matters; a kind held once adds nothing and is left out by the caller.
    """
    states: frozenset[_Shape] = frozenset({(0, 0, 0)})
    for c in counts:
        states = _merge(states, _suit_shapes((c,), False))
    return states


@lru_cache(maxsize=1 << 12)
def _distance(states: frozenset[_Shape], need: int) -> int:
    """Shanten from the whole hand's states, for ``need`` concealed sets."""
    best = 2 * need
    for m, t, h in states:
        m = min(m, need)
        t = min(t, need - m)
        best = min(best, 2 * need - 2 * m - t - h)
    return best


def regular_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Tiles away from four sets and a pair (-1 when complete)."""
    states = _honor_states(tuple(sorted(c for c in counts[27:N_KINDS] if c >= 2)))
    for base in (0, 9, 18):
        group = tuple(counts[base : base + 9])
        if any(group):
            states = _merge(states, _suit_shapes(group, True))
    return _distance(states, SETS_IN_HAND - n_melds)


def seven_pairs_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    if n_melds:
        return 99
    # Pairs held: counts of 2 and 3 give one, 4 gives two (counted in C, not a loop).
    pairs = (sum(counts) - counts.count(1) - counts.count(3)) // 2
    return 6 - min(7, pairs)



def thirteen_orphans_shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    if n_melds:
        return 99
    held: tuple[int, ...] = _ORPHAN_COUNTS(counts)
    kinds = len(held) - held.count(0)
    pair = max(held) >= 2
    return 13 - kinds - (1 if pair else 0)


def shanten(counts: Sequence[int], n_melds: int = 0) -> int:
    """Distance to a winning hand of any shape; -1 means already winning."""
    return min(
        regular_shanten(counts, n_melds),
        seven_pairs_shanten(counts, n_melds),
        thirteen_orphans_shanten(counts, n_melds),
    )


def shanten_variants(counts: Sequence[int], n_melds: int, tiles: Iterable[int],
                     delta: int = 1) -> list[int]:
    """``shanten`` of the hand with ``delta`` copies of each of ``tiles`` added, in order.

    For "which discard is best" (``delta=-1`` over the held kinds) and "which
    draws help" (``delta=1``). Adding or removing a tile changes one group of
    the regular shape, so the other groups are merged once and reused, and the
    seven-pairs and thirteen-orphans counts are adjusted, not recounted.
    """
    need = SETS_IN_HAND - n_melds
    suits = [tuple(counts[base : base + 9]) for base in (0, 9, 18)]
    honors = list(counts[27:N_KINDS])
    shapes = [_suit_shapes(group, True) for group in suits]
    honor_states = _honor_states(tuple(sorted(c for c in honors if c >= 2)))
    # The merged states of every group but one suit, and of the three suits.
    without = [
        _merge(_merge(honor_states, shapes[1]), shapes[2]),
        _merge(_merge(honor_states, shapes[0]), shapes[2]),
        _merge(_merge(honor_states, shapes[0]), shapes[1]),
    ]
    all_suits = _merge(_merge(shapes[0], shapes[1]), shapes[2])
    special = n_melds == 0
    pairs = sum(c // 2 for c in counts)
    orphans: tuple[int, ...] = _ORPHAN_COUNTS(counts)
    orphan_kinds = len(orphans) - orphans.count(0)
    orphan_pairs = sum(1 for c in orphans if c >= 2)
    result = []
    for t in tiles:
        c = counts[t]
        if t < 27:
            i, rank = divmod(t, 9)
            group = list(suits[i])
            group[rank] += delta
            states = _merge(without[i], _suit_shapes(tuple(group), True))
        else:
            changed = list(honors)
            changed[t - 27] += delta
            key = tuple(sorted(x for x in changed if x >= 2))
            states = _merge(all_suits, _honor_states(key))
        best = _distance(states, need)
        if special:
            seven = 6 - min(7, pairs + (c + delta) // 2 - c // 2)
            kinds, with_pair = orphan_kinds, orphan_pairs
            if t in _ORPHANS:
                kinds += (c + delta > 0) - (c > 0)
                with_pair += (c + delta >= 2) - (c >= 2)
            thirteen = 13 - kinds - (1 if with_pair else 0)
            best = min(best, seven, thirteen)
        result.append(best)
    return result
