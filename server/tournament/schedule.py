"""Who plays whom: the tables of each round, a pure function of the seed and standings.

Theory of operation. A tournament is a list of entries (bot ids ``0..n-1``) and
a seed. Each round is a list of tables of four; a table plays one (short)
duplicate match. Every table of a round gets the same match seed, so the whole
field plays the same deals from the same seats in that round, which is what the
duplicate-normalised score compares.

* ``swiss``: round 1 seats a seeded shuffle of the field; each later round
  sorts the field by standing (points so far, ties broken by that shuffle) and
  seats 1-4, 5-8, .... A ruleset that ranks by rank points (Botzone) sorts
  by them, then by the sum of its scores, then by the shuffle: the order of
  its standings. A ruleset whose ``swiss_tiebreak`` is "wins" (NOI
  2014) sorts every round by points, then games won, then entry order, so its
  round 1 seats the field in entry order.
* ``round-robin``: each round takes the best of some seeded arrangements and
  improves it by swapping players between tables, so that it adds least to
  the sum of squares of the counts of times each pair has met: every bot meets
  every other about equally often. Seating
  is balanced by the duplicate match itself: within a group each player sits
  every seat once.
* ``gauntlet``: one hero plays every table of the round; the rest of the field
  is shuffled into threes to face it.

When the field is not a multiple of four, the lowest table is filled with
**fill-ins**: house bots (the greedy sample AI) with ids ``n, n+1, n+2``. They
play like anyone else but have no standing; their results are stored and
shown apart. Nobody gets a bye, so every entry plays the same number of hands.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from server.seam.contract import SwissTiebreak
from server.seam.seeds import SeedStream

FORMATS = ("swiss", "round-robin", "gauntlet")
CANDIDATES = 50  # round-robin arrangements tried per round, the best then improved


@dataclass(frozen=True, slots=True)
class TablePlan:
    round: int  # 1-based
    table: int  # 1-based within the round
    players: tuple[int, int, int, int]  # entry ids (fill-ins >= n) in player order P0..P3
    seed: int  # the match seed


def round_seed(seed: int, round_: int) -> int:
    """The match seed every table of a round plays (63 bits)."""
    digest = hashlib.sha256(f"tournament/{seed}/round/{round_}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def fill_ins(n: int) -> int:
    """How many fill-in seats a round of ``n`` entries needs."""
    return -n % 4


def _shuffled(items: Sequence[int], label: str) -> list[int]:
    out = list(items)
    SeedStream(label).shuffle(out)
    return out


def _tables(round_: int, seed: int, order: Sequence[int], n: int) -> list[TablePlan]:
    seats = list(order) + [n + k for k in range(fill_ins(len(order)))]
    ms = round_seed(seed, round_)
    return [TablePlan(round_, i // 4 + 1, (seats[i], seats[i + 1], seats[i + 2], seats[i + 3]), ms)
            for i in range(0, len(seats), 4)]


def swiss_round(n: int, seed: int, round_: int, points: Mapping[int, float],
                tiebreak: SwissTiebreak = "shuffle",
                wins: Mapping[int, int] | None = None,
                totals: Mapping[int, float] | None = None) -> list[TablePlan]:
    """Round ``round_`` of a Swiss tournament, seated by ``points`` after the rounds
    before, equal points by ``tiebreak`` ("wins": by ``wins``, then entry order;
    "shuffle": by ``totals`` when given, Botzone's sum of scores under its rank points,
    then the seeded shuffle)."""
    if tiebreak == "wins":
        won = wins or {}
        order = sorted(range(n), key=lambda e: (-points.get(e, 0), -won.get(e, 0), e))
        return _tables(round_, seed, order, n)
    shuffled = _shuffled(range(n), f"tournament/{seed}/swiss-order")
    place = {e: i for i, e in enumerate(shuffled)}
    total = totals or {}
    order = sorted(range(n), key=lambda e: (-points.get(e, 0), -total.get(e, 0), place[e])) \
        if round_ > 1 else shuffled
    return _tables(round_, seed, order, n)


def _cost(order: Sequence[int], met: Mapping[tuple[int, int], int]) -> int:
    """What a round adds to the sum of squared meeting counts."""
    cost = 0
    for i in range(0, len(order), 4):
        for a, b in combinations(sorted(order[i:i + 4]), 2):
            cost += 2 * met.get((a, b), 0) + 1
    return cost


def _improve(order: list[int], met: Mapping[tuple[int, int], int]) -> list[int]:
    """Swap two players of different tables while that lowers the cost (best swap first)."""
    best = _cost(order, met)
    while True:
        found: tuple[int, int] | None = None
        for i, j in combinations(range(len(order)), 2):
            if i // 4 == j // 4:
                continue
            order[i], order[j] = order[j], order[i]
            cost = _cost(order, met)
            order[i], order[j] = order[j], order[i]
            if cost < best:
                best, found = cost, (i, j)
        if found is None:
            return order
        i, j = found
        order[i], order[j] = order[j], order[i]


def round_robin(n: int, seed: int, rounds: int) -> list[TablePlan]:
    """Every round of a round-robin: each pair meets about equally often."""
    met: dict[tuple[int, int], int] = {}
    plans: list[TablePlan] = []
    for r in range(1, rounds + 1):
        stream = SeedStream(f"tournament/{seed}/round-robin/{r}")
        best: list[int] | None = None
        best_cost = -1
        for _ in range(CANDIDATES):
            order = list(range(n))
            stream.shuffle(order)
            cost = _cost(order, met)
            if best is None or cost < best_cost:
                best, best_cost = order, cost
        assert best is not None
        best = _improve(best, met)
        for i in range(0, n, 4):
            for pair in combinations(sorted(best[i:i + 4]), 2):
                met[pair] = met.get(pair, 0) + 1
        plans.extend(_tables(r, seed, best, n))
    return plans


def gauntlet(n: int, seed: int, rounds: int, hero: int) -> list[TablePlan]:
    """Every round of a gauntlet: ``hero`` against the rest, three at a time."""
    field = [e for e in range(n) if e != hero]
    plans: list[TablePlan] = []
    for r in range(1, rounds + 1):
        order = _shuffled(field, f"tournament/{seed}/gauntlet/{r}")
        order += [n + k for k in range(-len(order) % 3)]
        ms = round_seed(seed, r)
        for t, i in enumerate(range(0, len(order), 3), start=1):
            a, b, c = order[i:i + 3]
            plans.append(TablePlan(r, t, (hero, a, b, c), ms))
    return plans


def pair_meetings(plans: Sequence[TablePlan], n: int) -> dict[tuple[int, int], int]:
    """How many tables each pair of entries shared (fill-ins left out)."""
    met: dict[tuple[int, int], int] = {}
    for p in plans:
        for a, b in combinations(sorted(x for x in p.players if x < n), 2):
            met[(a, b)] = met.get((a, b), 0) + 1
    return met
