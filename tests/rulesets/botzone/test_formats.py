"""Botzone's match formats: seat orders, walls from one seed, rank points per wall."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.botzone import formats
from server.seam.contract import GamePlan


def test_the_24_seat_orders_are_every_permutation_and_the_first_four_are_rotations() -> None:
    orders = formats.seat_orders()
    assert len(orders) == 24 and len(set(orders)) == 24
    assert orders[:4] == [(0, 1, 2, 3), (1, 2, 3, 0), (2, 3, 0, 1), (3, 0, 1, 2)]
    for k in (4, 8, 24):  # any first 4k: every player in every seat k times
        for seat in range(4):
            assert sorted(order[seat] for order in orders[:k]) == sorted(list(range(4)) * (k // 4))


def test_one_seed_makes_every_wall_and_the_same_seed_the_same_walls() -> None:
    plans = formats.duplicate(7, walls=4, orders=2)
    assert len(plans) == 8
    srands = [p.setup["srand"] for p in plans]
    assert srands == [p.setup["srand"] for p in formats.duplicate(7, walls=4, orders=2)]
    assert len(set(srands)) == 4  # one per wall, shared by its orders
    assert [p.setup["quan"] for p in plans] == [0, 0, 1, 1, 2, 2, 3, 3]  # E S W N
    assert srands != [p.setup["srand"] for p in formats.duplicate(8, walls=4, orders=2)]
    assert all(0 <= s < 2**31 for s in srands)


def test_a_duplicate_match_refuses_impossible_sizes() -> None:
    with pytest.raises(ValueError):
        formats.duplicate(1, walls=5)
    with pytest.raises(ValueError):
        formats.duplicate(1, orders=25)


def finished(scores: list[int], action: str = "HU", player: int = 0) -> dict[str, Any]:
    return {"scores": scores, "judge": [{"command": "finish", "content": {},
                                         "display": {"action": action, "player": player}}]}


def test_rank_points_per_wall_then_the_total_breaks_equal_points() -> None:
    plans = [GamePlan(1, 1, (0, 1, 2, 3), {}), GamePlan(2, 1, (1, 2, 3, 0), {}),
             GamePlan(3, 2, (0, 1, 2, 3), {})]
    records = [finished([30, -10, -10, -10]),  # seat 0 = player 0 wins
               finished([-30, 10, 10, 10], "WA", 0),  # seat 0 = player 1 errs
               finished([-8, 40, -16, -16], "HU", 1)]  # player 1 wins wall 2
    rows = formats.standings(plans, records)
    by_player = {r.player: r for r in rows}
    # wall 1 sums: p0 30+10=40, p1 -10-30=-40, p2 -10+10=0, p3 -10+10=0 -> p2/p3 tie on the
    # wall and on the total after wall 2 as well? p2 total -16, p3 -16: they share 2.5
    assert by_player[0].points == 4 + 3  # first on wall 1, second on wall 2 (-8)
    assert by_player[1].points == 1 + 4
    assert by_player[2].points == by_player[3].points == 2.5 + 1.5
    assert by_player[1].penalties == 1 and by_player[0].wins == 1 and by_player[1].wins == 1
    assert [r.place for r in rows] == [1, 2, 3, 3]
    assert sum(r.points for r in rows) == 20  # 10 per wall


def test_equal_wall_sums_share_their_places_whatever_the_other_walls_say() -> None:
    """A wall's rank points come from that wall alone (SPEC-botzone section 8): p1's
    win on wall 2 does not lift it above the others on wall 1, where all four drew."""
    plans = [GamePlan(1, 1, (0, 1, 2, 3), {}), GamePlan(2, 2, (0, 1, 2, 3), {})]
    records = [finished([0, 0, 0, 0], "HUANG"), finished([-10, 30, -10, -10])]
    rows = formats.standings(plans, records)
    points = {r.player: r.points for r in rows}
    # wall 1 all 0: the four share places 1-4, (4+3+2+1)/4 = 2.5 each;
    # wall 2: p1 first (4), p0/p2/p3 share places 2-4, (3+2+1)/3 = 2
    assert points[1] == 2.5 + 4
    assert points[0] == points[2] == points[3] == 2.5 + 2
    assert [r.place for r in rows] == [1, 2, 2, 2]
