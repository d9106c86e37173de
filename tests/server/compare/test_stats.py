"""The paired statistics and the SPRT of ``server compare`` (server/compare/stats.py)."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from server.compare.stats import (
    MIN_DEALS,
    Deal,
    EloModel,
    PointsModel,
    Sprt,
    bounds,
    elo_to_score,
    llr,
    mean_interval,
    score_to_elo,
    summarize,
    t_quantile_975,
)

BANK = Path(__file__).resolve().parents[2] / "data" / "compare" / "random_random_deals.json"
# The false-positive check: RUNS sequential tests on resampled real deals, each capped at
# CAP deals (about 2 s). A test's false positive rate is at most alpha (0.05); the margin is
# three binomial standard deviations of RUNS runs at alpha.
RUNS = 600
CAP = 150


def test_t_quantiles_match_the_tables() -> None:
    assert t_quantile_975(1) == pytest.approx(12.706, abs=1e-3)
    assert t_quantile_975(10) == pytest.approx(2.228, abs=1e-3)
    assert t_quantile_975(40) == pytest.approx(2.0211, abs=2e-4)
    assert t_quantile_975(120) == pytest.approx(1.9799, abs=2e-4)
    assert t_quantile_975(10**6) == pytest.approx(1.95996, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile_975(0)


def test_a_deal_gives_the_difference_per_game_and_the_share_of_games_won() -> None:
    deal = Deal((8.0, -2.0, 0.0, 4.0), (0.0, -2.0, 4.0, -6.0))
    assert deal.difference == pytest.approx((10 - (-4)) / 4)
    assert deal.score == pytest.approx((1 + 0.5 + 0 + 1) / 4)
    with pytest.raises(ValueError):
        Deal((1.0,), (1.0, 2.0))


def test_the_interval_is_students_t_over_deals() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    got = mean_interval(values)
    half = 2.7764 * math.sqrt(2.5 / 5)
    assert (got.mean, got.low, got.high) == pytest.approx((3.0, 3.0 - half, 3.0 + half))
    assert mean_interval([2.0]).low == -math.inf


def test_elo_and_score_are_inverse_and_logistic() -> None:
    assert elo_to_score(0) == 0.5
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(elo_to_score(123.0)) == pytest.approx(123.0)
    assert score_to_elo(1.0) == math.inf


def test_bounds_are_walds_and_refuse_alpha_out_of_range() -> None:
    low, high = bounds(0.05, 0.05)
    assert (low, high) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    for bad in (0.0, 0.5, -1.0, 1.2):
        with pytest.raises(ValueError, match="alpha"):
            bounds(bad, 0.05)


def test_llr_is_the_normal_gsprt_with_the_sample_variance() -> None:
    values = [0.0, 1.0, 1.0, 1.0]  # mean 0.75, variance (over n) 0.1875
    assert llr(values, 0.5, 0.6) == pytest.approx(4 * 0.1 * (1.5 - 1.1) / (2 * 0.1875))
    # No variance: floored at half the gap, squared; all deals alike still decide.
    assert llr([1.0, 1.0, 1.0], 0.0, 1.0) == pytest.approx(3 * 1.0 * 1.0 / (2 * 0.25))
    assert llr([0.5, 0.5], 0.5, 0.6) < 0


def test_identical_deals_decide_at_the_minimum_rather_than_stall() -> None:
    same = Sprt(PointsModel(0.0, 1.0))
    while not same.finished and len(same.deals) < 100:
        same.add(Deal((-3.0, 0.0, 2.0, 0.0), (-3.0, 0.0, 2.0, 0.0)))
    assert (same.decision, same.finding) == ("none", "equal")
    assert len(same.deals) == MIN_DEALS
    with pytest.raises(ValueError):
        same.add(Deal((1.0,), (1.0,)))
    sweep = Sprt(EloModel(0, 10))
    while not sweep.finished and len(sweep.deals) < 100:
        sweep.add(Deal((1.0, 2.0, 3.0, 4.0), (0.0, 0.0, 0.0, 0.0)))
    assert sweep.decision == "candidate" and len(sweep.deals) == MIN_DEALS


def test_the_models_refuse_pairs_in_the_wrong_order() -> None:
    with pytest.raises(ValueError, match="elo0"):
        EloModel(5, 5)
    with pytest.raises(ValueError, match="P0 < P1"):
        PointsModel(2, 1)


def test_a_clearly_better_candidate_is_decided_after_the_minimum_of_deals() -> None:
    test = Sprt(PointsModel(0.0, 1.0))
    rng = random.Random(1)
    while not test.finished and len(test.deals) < 1000:
        test.add(Deal((5.0 + rng.random(), 4.0), (0.0, rng.random())))
    assert test.decision == "candidate" and len(test.deals) == MIN_DEALS
    with pytest.raises(ValueError):
        test.add(Deal((1.0,), (1.0,)))
    summary = summarize(test)
    assert summary.decision == "candidate" and summary.games == 2 * MIN_DEALS
    assert summary.ci_low > 0


def test_a_clearly_worse_candidate_is_decided_for_the_baseline() -> None:
    test = Sprt(EloModel(0, 10))
    rng = random.Random(2)
    while not test.finished and len(test.deals) < 1000:
        a, b = rng.random(), rng.random()
        test.add(Deal((a, b - 1, a), (a + 1, b, a + rng.random())))
    assert test.decision == test.finding == "baseline" and summarize(test).mean < 0
    assert test.llr_baseline >= test.upper


def test_a_candidate_not_better_by_the_margin_is_not_called_worse() -> None:
    """A small edge for the candidate, well below H1's margin: the candidate's test closes
    (not better by the margin), and the baseline is never called better."""
    test = Sprt(PointsModel(0.0, 4.0))
    rng = random.Random(3)
    while not test.finished and len(test.deals) < 1000:
        test.add(Deal((rng.gauss(0.5, 3.0),), (0.0,)))
    assert (test.decision, test.finding) == ("none", "equal")
    assert test.llr <= test.lower and test.llr_baseline <= test.lower


@pytest.mark.parametrize("model", [EloModel(0, 10), PointsModel(0.0, 1.0)])
def test_a_bot_against_itself_claims_no_difference_more_often_than_alpha(model: object
                                                                         ) -> None:
    """Real deals of the random bot against itself (the bench's bank), each deal's halves
    swapped at random so the two are exactly alike: either bot called better at most alpha
    of the time."""
    deals = json.loads(BANK.read_text())
    rng = random.Random(7)
    wrong = 0
    for _ in range(RUNS):
        test = Sprt(model)  # type: ignore[arg-type]
        for _ in range(CAP):
            a, b = rng.choice(deals)
            if rng.random() < 0.5:
                a, b = b, a
            test.add(Deal(tuple(a), tuple(b)))
            if test.finished:
                break
        wrong += test.decision != "none"  # either bot called better than itself
    margin = 3 * math.sqrt(0.05 * 0.95 / RUNS)
    assert wrong / RUNS <= 0.05 + margin
