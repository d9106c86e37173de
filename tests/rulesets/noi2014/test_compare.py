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


def test_the_same_request_gives_the_same_scores_and_the_halves_differ_by_bot() -> None:
    ruleset = load("noi2014")
    one = ruleset.play_deal(DealRequest(1, 9, "greedy", "random", RANDOMS))
    assert one == ruleset.play_deal(DealRequest(1, 9, "greedy", "random", RANDOMS))
    alone = ruleset.play_deal(DealRequest(1, 9, "random", "random", RANDOMS))
    assert one.baseline == alone.baseline  # the baseline's half does not see the candidate


def test_bad_requests_are_refused() -> None:
    ruleset = load("noi2014")
    with pytest.raises(InputError, match="one variant"):
        ruleset.check_deal(DealRequest(0, 1, "random", "random", RANDOMS, "classic"))
    with pytest.raises(InputError, match=r"unknown|cannot import|not a bot"):
        ruleset.check_deal(DealRequest(0, 1, "nosuch:Bot", "random", RANDOMS))
