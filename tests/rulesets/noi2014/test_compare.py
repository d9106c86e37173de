"""NOI 2014's deals for ``server compare`` (rulesets/noi2014/compare.py, through the seam)."""

from __future__ import annotations

import pytest

from server.seam.contract import DealRequest
from server.seam.errors import InputError
from server.seam.registry import load

RANDOMS = ("random", "random", "random")


def test_the_same_bot_in_both_halves_scores_the_same_place_points() -> None:
    ruleset = load("noi2014")
    for index in range(3):
        got = ruleset.play_deal(DealRequest(index, 9, "random", "random", RANDOMS))
        assert got.candidate == got.baseline
        assert all(1.0 <= s <= 4.0 for s in got.candidate)  # places: 4/3/2/1, ties averaged


def test_greedy_places_above_random_on_the_same_walls() -> None:
    ruleset = load("noi2014")
    deals = [ruleset.play_deal(DealRequest(i, 9, "greedy", "random", RANDOMS)) for i in range(3)]
    assert sum(sum(d.candidate) for d in deals) > sum(sum(d.baseline) for d in deals)
    again = ruleset.play_deal(DealRequest(0, 9, "greedy", "random", RANDOMS))
    assert again == deals[0]  # the same request, the same scores


def test_bad_requests_are_refused() -> None:
    ruleset = load("noi2014")
    with pytest.raises(InputError, match="one variant"):
        ruleset.check_deal(DealRequest(0, 1, "random", "random", RANDOMS, "classic"))
    with pytest.raises(InputError, match=r"unknown|cannot import|not a bot"):
        ruleset.check_deal(DealRequest(0, 1, "nosuch:Bot", "random", RANDOMS))
