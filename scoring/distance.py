"""Exact distance from a hand to a complete hand of sets and a pair, on count vectors.

The distance of concealed counts ``h`` with ``n_melds`` declared sets is the
least number of tiles a complete hand ``t`` (``4 - n_melds`` sets and a pair,
at most ``copies`` of a kind) holds beyond ``h``: ``min sum(max(0, t[i] - h[i]))``.
It is how many tiles must come in (and as many, or one fewer, go out) before
the hand can win, so a ready 13-tile hand is at distance 1 and a complete one at
0. Unlike ``analysis.regular_shanten``, which counts sets and partial sets, it
is exact, and the cap on copies within the hand is part of it (four 1M and
three declared sets is not ready: a fifth 1M does not exist).

Tiles outside the 34 kinds (a ruleset's special tiles) have no slot: a caller
leaves them out of ``h``, and they can only be thrown away.

Theory of operation: a dynamic programme over the kinds of one group (a suit
of nine, or a lone honour kind). Scanning a suit from 1 to 9 it carries the runs
that are still open: ``a`` runs started one kind back (they need this kind and
the next) and ``b`` started two back (they need this kind only). At each kind it
chooses how many runs start, whether a pung and whether the pair sit there, and
pays for the tiles ``t`` needs beyond ``h``. The answer for a suffix of a suit
depends only on the suffix's counts and ``(a, b)``, so it is cached by those:
hands that differ in one kind share the rest. Each group yields a table of the
least cost of exactly ``s`` sets and ``p`` pairs, and the tables of the groups
are combined by a min-plus product.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from protocol.tiles import COPIES, N_KINDS

SETS_IN_HAND = 4
_INF = 1 << 20
# A group's table: index s * 2 + p holds the least cost of exactly s sets and p pairs.
_Table = tuple[int, ...]
_SIZE = 2 * (SETS_IN_HAND + 1)
_EMPTY: _Table = (0,) + (_INF,) * (_SIZE - 1)
_NOTHING: _Table = (_INF,) * _SIZE


@lru_cache(maxsize=1 << 16)
def _suffix(counts: tuple[int, ...], a: int, b: int, chows: bool, copies: int) -> _Table:
    """The table of a group's suffix, given ``a`` and ``b`` runs still open at its start."""
    if not counts:
        return _EMPTY if a == b == 0 else _NOTHING
    held = counts[0]
    rest = counts[1:]
    opened = a + b  # runs counted among the sets already, where they started
    room = copies - opened
    starts_max = min(room, SETS_IN_HAND - opened) if chows and len(counts) > 2 else 0
    best = list(_NOTHING)
    for starts in range(starts_max + 1):
        tail = _suffix(rest, starts, a, chows, copies)
        for pungs in range(min((room - starts) // 3, SETS_IN_HAND - opened - starts) + 1):
            shift = 2 * (starts + pungs)
            used = opened + starts + 3 * pungs
            cost = used - held if used > held else 0
            best[shift:] = map(min, best[shift:], [t + cost for t in tail[: _SIZE - shift]])
            if used + 2 <= copies:  # the pair sits here too
                cost = used + 2 - held if used + 2 > held else 0
                for k in range(0, _SIZE - shift, 2):
                    value = tail[k] + cost
                    if value < best[k + shift + 1]:
                        best[k + shift + 1] = value
    return tuple(best)


# The (i, j, i + j) index triples of a product: at most SETS_IN_HAND sets and one pair.
_PRODUCT_INDICES = tuple(
    (i, j, i + j)
    for i in range(_SIZE)
    for j in range(_SIZE)
    if i // 2 + j // 2 <= SETS_IN_HAND and i % 2 + j % 2 <= 1
)


@lru_cache(maxsize=1 << 12)
def _product(x: _Table, y: _Table) -> _Table:
    """The min-plus product of two groups' tables."""
    out = list(_NOTHING)
    for i, j, k in _PRODUCT_INDICES:
        value = x[i] + y[j]
        if value < out[k]:
            out[k] = value
    return tuple(out)


@lru_cache(maxsize=1 << 12)
def _honours(counts: tuple[int, ...], copies: int) -> _Table:
    """The combined table of the honour kinds, from their sorted counts."""
    table = _EMPTY
    for c in counts:
        table = _product(table, _suffix((c,), 0, 0, False, copies))
    return table


def regular_distance(counts: Sequence[int], n_melds: int = 0, copies: int = COPIES) -> int:
    """Tiles away from ``4 - n_melds`` sets and a pair (0 when complete).

    ``counts`` is a 34-slot vector of concealed tiles; honours form pairs and
    pungs only, runs never wrap from 9 to 1.
    """
    need = SETS_IN_HAND - n_melds
    if not 0 <= need <= SETS_IN_HAND:
        raise ValueError(f"n_melds must be 0..{SETS_IN_HAND}, not {n_melds}")
    m, s, p = (_suffix(tuple(counts[base : base + 9]), 0, 0, True, copies) for base in (0, 9, 18))
    # Grouped so that a change in one suit leaves a cached half.
    left = _product(_honours(tuple(sorted(counts[27:N_KINDS])), copies), m)
    right = _product(s, p)
    goal = need * 2 + 1
    return min(left[i] + right[goal - i] for i in range(goal + 1) if i % 2 + (goal - i) % 2 == 1)
