"""The arithmetic of the per-bot statistics, on hand-made facts."""

from __future__ import annotations

import statistics

import pytest

from server.seam.bot_stats import (
    SeatFacts,
    aggregate,
    answer_summary,
    fault_kind,
    histogram,
    percentile,
)


def test_percentile_interpolates_between_the_nearest_two() -> None:
    assert percentile([5.0], 0.95) == 5.0
    assert percentile([1, 2, 3, 4], 0.5) == 2.5  # the mean of the middle two
    assert percentile(list(range(1, 22)), 0.95) == 20  # (21 - 1) * 0.95 = 19: the 20th value
    assert percentile([10, 0, 20], 0.25) == 5.0  # sorted first: 0 10 20, a quarter: 5
    assert percentile([1, 2], 1.0) == 2 and percentile([1, 2], 0.0) == 1


def test_percentile_agrees_with_the_inclusive_quantiles_of_the_standard_library() -> None:
    values = [3.2, 0.5, 9.1, 4.4, 4.4, 12.0, 7.7, 1.1, 0.9, 30.5, 2.2]
    cuts = statistics.quantiles(values, n=20, method="inclusive")
    assert percentile(values, 0.95) == pytest.approx(cuts[18])
    assert percentile(values, 0.5) == statistics.median(values)


def test_percentile_refuses_nothing_and_a_quantile_out_of_range() -> None:
    with pytest.raises(ValueError, match="no values"):
        percentile([], 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        percentile([1.0], 95)


def test_answer_summary_is_median_p95_and_max_or_none() -> None:
    assert answer_summary([]) is None
    assert answer_summary([4.0, 1.0, 2.0, 3.0]) == {"median": 2.5, "p95": 3.85, "max": 4.0}


def test_histogram_counts_wins_by_fan_in_ascending_order() -> None:
    assert histogram([]) == {}
    hist = histogram([12, 8, 12.0, 8, 88, 2.5])
    assert hist == {"2.5": 1, "8": 2, "12": 2, "88": 1}
    assert list(hist) == ["2.5", "8", "12", "88"]


def test_fault_kind_is_the_first_word_of_the_cause() -> None:
    assert fault_kind("closed-output: exit status 1") == "closed-output"
    assert fault_kind("timeout") == "timeout"
    assert fault_kind("(WA: a wrong answer)") == "WA"
    assert fault_kind("") == "fault"


def test_aggregate_sums_each_players_facts_and_leaves_out_other_players() -> None:
    facts = [
        SeatFacts(0, wins=1, self_drawn=1, fan=8, claims=2, answer_ms=(1.0, 3.0),
                  peak_memory_mb=40.0, cpu_seconds=0.5),
        SeatFacts(0, dealt_in=1, faults=("timeout",), answer_ms=(2.0,),
                  peak_memory_mb=41.5, cpu_seconds=0.25),
        SeatFacts(0, wins=1, on_discard=1, fan=12, faults=("timeout", "closed-output")),
        SeatFacts(1, dealt_in=2, claims=1, answer_ms=(5.0,)),
        SeatFacts(4, wins=1, self_drawn=1, fan=88),  # a fill-in: past the field
    ]
    first, second = aggregate(facts, 2)
    assert first.as_json() == {
        "games": 3, "wins": 2, "self_drawn": 1, "on_discard": 1, "dealt_in": 1, "claims": 2,
        "mean_fan": 10.0, "fan_histogram": {"8": 1, "12": 1},
        "faults": {"closed-output": 1, "timeout": 2},
        "answer_ms": {"median": 2.0, "p95": 2.9, "max": 3.0},
        "peak_memory_mb": 41.5, "cpu_seconds": 0.75,
    }
    assert second.as_json() == {
        "games": 1, "wins": 0, "self_drawn": 0, "on_discard": 0, "dealt_in": 2, "claims": 1,
        "mean_fan": None, "fan_histogram": {}, "faults": {},
        "answer_ms": {"median": 5.0, "p95": 5.0, "max": 5.0},
        "peak_memory_mb": None, "cpu_seconds": None,  # never measured (a TCP bot)
    }


def test_a_bot_that_never_played_has_zeros_and_nulls() -> None:
    (stats,) = aggregate([], 1)
    assert stats.as_json()["games"] == 0
    assert stats.as_json()["answer_ms"] is None and stats.mean_fan is None
