"""Standings from stored results: pure functions, no I/O.

* **points**: the sum over every hand played (fines included, as in a match).
* **per hand**: the mean of a bot's hand scores with a 95% confidence
  interval (Student's t for fewer than 31 hands, the normal beyond).
* **duplicate score**: each hand compared with everyone else who played the
  same deal from the same seat in the same round (every table of a round plays
  the same deals): the bot's points minus their mean, averaged over its hands.
  Luck of the deal cancels out; what is left is play.
* **rating**: OpenSkill (Plackett-Luce), one update per table, the table's
  final order (by points at that table, ties shared) as the ranking, tables
  taken in (round, table) order so the result never depends on which table
  finished first. Shown as the ordinal mu - 3 sigma.
* wins (hands won), draws (hands nobody won), fines, faults, errors (decisions a
  bot's own framework answered for, ``protocol.bot_errors``), host stalls;
  head to head: for each pair, the tables where one finished ahead of, level
  with, or behind the other.

The ranking is by points; equal points by the ruleset's ``swiss_tiebreak``
(``server.seam.contract``): "shuffle" (the default ruleset), the duplicate
score, then the name; "wins" (NOI 2014), games won, then entry order. A
ruleset whose ``ranking`` is "rank_points" (Botzone, the IJCAI duplicate
format, SPEC-botzone section 8) ranks by **rank points** instead: per wall
(the games of one table that share a group, ``HandRow.group``) each player's
points are summed and the four ranked 4/3/2/1, equal sums sharing the mean of
the places they span (3.5 each for two tied first); fill-ins take their
places like anyone (a fill-in that beats a bot on a wall leaves it fewer rank
points) but have no standing. Then by points (the sum of all scores), then
the name. Bots equal on everything the ranking looks at (not on the name or
entry order, which only order the rows) share a rank: 1, 1, 1, 4.

Points are ints where the ruleset's are whole; NOI 2014's averaged ties make
halves (2.5), and every sum of them is exact in binary floating point (so are
the rank points: shared places make halves); ``tidy`` shows a whole float as an int (12, not 12.0).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from server.seam.contract import Ranking, SwissTiebreak

# Student's t, two-sided 95%, by degrees of freedom 1..30
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
RANK_POINTS = (4, 3, 2, 1)  # a wall's first, second, third and fourth place


@dataclass(frozen=True, slots=True)
class HandRow:
    """One seat of one hand of one table."""

    round: int
    table: int
    hand: int  # 0-based in the match
    group: int
    deal: int
    seat: int
    entry: int
    points: float  # fines included; an int unless the ruleset's points are not whole
    fines: int
    faulted: bool
    stalls: int  # host stalls: answers whose fine was lowered for the host's delay
    won: bool
    drawn: bool  # nobody won the hand
    errors: int = 0  # decisions its own framework answered for (``TableRow.errors``)


@dataclass(frozen=True, slots=True)
class TableResult:
    round: int
    table: int
    players: tuple[int, ...]  # entry ids in player order
    points: tuple[float, ...]  # by player
    wins: tuple[int, ...] = ()  # hands (games) won, by player


@dataclass(slots=True)
class Standing:
    entry: int
    name: str
    tables: int = 0
    hands: int = 0
    points: float = 0
    per_hand: float = 0.0
    ci_low: float = 0.0
    ci_high: float = 0.0
    duplicate: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    rating: float = 0.0  # mu - 3 sigma
    wins: int = 0
    draws: int = 0
    fines: int = 0
    faults: int = 0
    errors: int = 0  # decisions its own framework answered for: no fault, a bug to show
    stalls: int = 0
    rank: int = 0  # 1 for the best; bots equal on the ranking's keys share it
    rank_points: float | None = None  # the IJCAI rank points; None: not ranked by them


@dataclass(slots=True)
class Standings:
    rows: list[Standing]  # best first
    rating_history: list[dict[int, float]] = field(default_factory=list)  # after each round
    head_to_head: dict[tuple[int, int], tuple[int, int, int]] = field(default_factory=dict)


def t95(df: int) -> float:
    if df < 1:
        return math.inf
    if df <= len(_T95):
        return _T95[df - 1]
    return statistics.NormalDist().inv_cdf(0.975)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (infinite with fewer than two values)."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, -math.inf, math.inf
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def tidy(x: float) -> float:
    """A whole float as an int (12.0 is shown 12), any other number as it is."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def points_by_entry(tables: Sequence[TableResult], n: int) -> dict[int, float]:
    """Total points of each entry (fill-ins left out): the Swiss seating key."""
    out: dict[int, float] = dict.fromkeys(range(n), 0)
    for t in tables:
        for entry, pts in zip(t.players, t.points, strict=True):
            if entry < n:
                out[entry] += pts
    return {e: tidy(v) for e, v in out.items()}


def wins_by_entry(tables: Sequence[TableResult], n: int) -> dict[int, int]:
    """Hands (games) won by each entry (fill-ins left out): NOI 2014's Swiss tie-break."""
    out = dict.fromkeys(range(n), 0)
    for t in tables:
        for entry, wins in zip(t.players, t.wins, strict=False):
            if entry < n:
                out[entry] += wins
    return out


def shared_places(sums: Mapping[int, float]) -> dict[int, float]:
    """Each player's rank points on one wall from its sum there: 4/3/2/1 by the sums,
    players with equal sums sharing the mean of the places they span."""
    ordered = sorted(sums.values(), reverse=True)
    out: dict[int, float] = {}
    for player, value in sums.items():
        first = ordered.index(value)
        last = len(ordered) - ordered[::-1].index(value)
        places = [RANK_POINTS[i] if i < len(RANK_POINTS) else 0 for i in range(first, last)]
        out[player] = tidy(sum(places) / len(places))
    return out


def wall_rank_points(hands: Sequence[HandRow]) -> dict[tuple[int, int, int], dict[int, float]]:
    """(round, table, wall) -> each entry's rank points on that wall (fill-ins included:
    they take places like anyone)."""
    sums: dict[tuple[int, int, int], dict[int, float]] = {}
    for h in hands:
        wall = sums.setdefault((h.round, h.table, h.group), {})
        wall[h.entry] = wall.get(h.entry, 0) + h.points
    return {key: shared_places(wall) for key, wall in sums.items()}


def rank_points_by_entry(hands: Sequence[HandRow], n: int) -> dict[int, float]:
    """Each entry's rank points over every wall it played (fill-ins left out)."""
    out: dict[int, float] = dict.fromkeys(range(n), 0)
    for wall in wall_rank_points(hands).values():
        for entry, points in wall.items():
            if entry < n:
                out[entry] += points
    return {e: tidy(v) for e, v in out.items()}


def seating_points(ranking: Ranking, tables: Sequence[TableResult], hands: Sequence[HandRow],
                   n: int) -> tuple[dict[int, float], dict[int, float] | None]:
    """What a Swiss round seats the field by: (points, then totals for equal points).
    "points": the sum of points (no totals); "rank_points": rank points, then the sum."""
    if ranking == "rank_points":
        return rank_points_by_entry(hands, n), points_by_entry(tables, n)
    return points_by_entry(tables, n), None


def duplicate_scores(hands: Sequence[HandRow]) -> dict[int, list[float]]:
    """Per entry, per hand: its points minus the others' mean on the same deal and seat."""
    same: dict[tuple[int, int, int, int], list[HandRow]] = {}
    for h in hands:
        same.setdefault((h.round, h.group, h.deal, h.seat), []).append(h)
    out: dict[int, list[float]] = {}
    for rows in same.values():
        if len(rows) < 2:
            continue
        total = sum(r.points for r in rows)
        for r in rows:
            others = (total - r.points) / (len(rows) - 1)
            out.setdefault(r.entry, []).append(r.points - others)
    return out


def _ranks(points: Sequence[float]) -> list[int]:
    """1 for the best; equal points share a rank."""
    return [1 + sum(1 for q in points if q > p) for p in points]


def ratings(tables: Sequence[TableResult], n_all: int,
            ) -> tuple[dict[int, tuple[float, float]], list[dict[int, float]]]:
    """OpenSkill (mu, sigma) per entry and the ordinals after each round."""
    model = PlackettLuce()
    current = {e: model.rating(name=str(e)) for e in range(n_all)}
    history: list[dict[int, float]] = []
    ordered = sorted(tables, key=lambda t: (t.round, t.table))
    for i, t in enumerate(ordered):
        if len(set(t.players)) == len(t.players):
            teams = [[current[e]] for e in t.players]
            rated = model.rate(teams, ranks=[float(r) for r in _ranks(t.points)])
            for e, team in zip(t.players, rated, strict=True):
                current[e] = team[0]
        if i + 1 == len(ordered) or ordered[i + 1].round != t.round:
            history.append({e: r.ordinal() for e, r in current.items()})
    return {e: (r.mu, r.sigma) for e, r in current.items()}, history


def head_to_head(tables: Sequence[TableResult],
                 n: int) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(a, b) -> tables where a finished ahead of, level with, behind b."""
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    for t in tables:
        for i, a in enumerate(t.players):
            for j, b in enumerate(t.players):
                if i == j or a >= n or b >= n or a == b:
                    continue
                ahead, level, behind = out.get((a, b), (0, 0, 0))
                pa, pb = t.points[i], t.points[j]
                out[(a, b)] = (ahead + (pa > pb), level + (pa == pb), behind + (pa < pb))
    return out


def _points_key(s: Standing) -> tuple[float, ...]:
    # the duplicate score is a mean of floats: equal to 9 places is equal (summation order)
    return -s.points, -round(s.duplicate, 9)


def _wins_key(s: Standing) -> tuple[float, ...]:
    return -s.points, -s.wins


def _rank_points_key(s: Standing) -> tuple[float, ...]:
    return -(s.rank_points or 0), -s.points


def share_ranks(order: Sequence[Standing], key: Callable[[Standing], tuple[float, ...]]) -> None:
    """Ranks by place in ``order`` (sorted by ``key`` first), rows with equal keys sharing
    the first's: 1, 1, 1, 4."""
    for place, s in enumerate(order, start=1):
        before = order[place - 2] if place > 1 else None
        s.rank = before.rank if before is not None and key(before) == key(s) else place


def standings(names: Sequence[str], tables: Sequence[TableResult],
              hands: Sequence[HandRow], n_all: int | None = None,
              tiebreak: SwissTiebreak = "shuffle", ranking: Ranking = "points") -> Standings:
    """Every number of the standings; ``names`` are the entries (fill-ins not included)."""
    n = len(names)
    rows = {e: Standing(e, names[e]) for e in range(n)}
    per_hand: dict[int, list[float]] = {e: [] for e in range(n)}
    for h in hands:
        if h.entry >= n:
            continue
        s = rows[h.entry]
        s.hands += 1
        s.points += h.points
        s.fines += h.fines
        s.faults += h.faulted
        s.errors += h.errors
        s.stalls += h.stalls
        s.wins += h.won
        s.draws += h.drawn
        per_hand[h.entry].append(h.points)
    for t in tables:
        for e in set(t.players):
            if e < n:
                rows[e].tables += 1
    dup = duplicate_scores(hands)
    everyone = max([n, n_all or n, *(max(t.players) + 1 for t in tables)])
    rated, history = ratings(tables, everyone)
    for e, s in rows.items():
        s.per_hand, s.ci_low, s.ci_high = mean_ci(per_hand[e])
        s.duplicate = statistics.fmean(dup[e]) if dup.get(e) else 0.0
        s.mu, s.sigma = rated.get(e, (25.0, 25.0 / 3))
        s.rating = s.mu - 3 * s.sigma
    for s in rows.values():
        s.points = tidy(s.points)
    key: Callable[[Standing], tuple[float, ...]]
    if ranking == "rank_points":
        for e, rp in rank_points_by_entry(hands, n).items():
            rows[e].rank_points = rp
        key = _rank_points_key
        order = sorted(rows.values(), key=lambda s: (key(s), s.name))
    elif tiebreak == "wins":
        key = _wins_key
        order = sorted(rows.values(), key=lambda s: (key(s), s.entry))
    else:
        key = _points_key
        order = sorted(rows.values(), key=lambda s: (key(s), s.name))
    share_ranks(order, key)
    history = [{e: v for e, v in h.items() if e < n} for h in history]
    return Standings(order, history, head_to_head(tables, n))
