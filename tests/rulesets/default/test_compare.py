"""The default ruleset's deals for ``server compare`` (rulesets/default/compare.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rulesets.default.compare import games
from rulesets.default.engine.simulate import play_hands, resolve_bot
from server.seam.contract import DealRequest
from server.seam.errors import InputError
from server.seam.registry import load

OPPONENTS = ("greedy", "random", "greedy")
ROOT = Path(__file__).resolve().parents[3]


def test_each_subject_sits_in_every_seat_with_the_opponents_after_it() -> None:
    seen = games()
    assert [(subject, seat) for subject, seat, _ in seen] == \
        [(j, s) for j in (0, 1) for s in range(4)]
    for subject, seat, order in seen:
        assert order[seat] == subject
        assert [order[(seat + 1 + k) % 4] for k in range(3)] == [2, 3, 4]


def test_a_deal_is_the_wall_simulate_plays_as_that_hand() -> None:
    """Greedy plays deterministically: in seat 0 against greedy opponents, the candidate's
    hand on deal 3 of seed 11 is ``server simulate``'s hand 3 of seed 11 where all four
    are greedy and its player sits in seat 0."""
    ruleset = load("default")
    got = ruleset.play_deal(DealRequest(3, 11, "greedy", "greedy", ("greedy",) * 3))
    played, _ = next(play_hands([resolve_bot("greedy")] * 4, 11, range(3, 4)))
    assert got.candidate[0] == played.result.deltas[0] == got.baseline[0]


def test_the_same_request_gives_the_same_scores() -> None:
    ruleset = load("default")
    one = ruleset.play_deal(DealRequest(0, 2, "random", "greedy", OPPONENTS))
    assert one == ruleset.play_deal(DealRequest(0, 2, "random", "greedy", OPPONENTS))
    assert len(one.candidate) == len(one.baseline) == 4


def test_bad_bots_are_refused_before_a_hand() -> None:
    ruleset = load("default")
    with pytest.raises(InputError, match=r"unknown bot|cannot import"):
        ruleset.check_deal(DealRequest(0, 0, "nosuch:Bot", "random", OPPONENTS))
    with pytest.raises(InputError, match="3 bots"):
        ruleset.check_deal(DealRequest(0, 0, "random", "random", ("random",)))
    with pytest.raises(InputError, match="one variant"):
        ruleset.check_deal(DealRequest(0, 0, "random", "random", OPPONENTS, "classic"))
    with pytest.raises(InputError, match="in-process only"):
        ruleset.check_deal(DealRequest(0, 0, "sample_ai.greedy:GreedyBot",
                                       f"{sys.executable} {ROOT}/sample_ai/random_bot.py",
                                       OPPONENTS))


def test_real_processes_play_the_same_deal_through_the_match_machinery() -> None:
    """Two real bot commands (the sample AIs' files), one deal: eight hands of fresh
    processes under the table's deadlines."""
    ruleset = load("default")
    request = DealRequest(0, 4, f"{sys.executable} {ROOT}/sample_ai/greedy.py",
                          f"{sys.executable} {ROOT}/sample_ai/random_bot.py", OPPONENTS)
    ruleset.check_deal(request)
    got = ruleset.play_deal(request)
    assert len(got.candidate) == 4 and got.faults == (0, 0)
    # Greedy plays deterministically: in-process on the same deal, the same points.
    local = ruleset.play_deal(DealRequest(0, 4, "greedy", "random", OPPONENTS))
    assert got.candidate == local.candidate
