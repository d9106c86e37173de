"""Deals counted in deal order whatever order they end in (server/compare/run.py)."""

from __future__ import annotations

import pytest

from server.compare.run import Feed, Outcome, Plan, anchored, compare
from server.compare.stats import MIN_DEALS, EloModel, PointsModel, Sprt
from server.seam.contract import DealScores

WIN = DealScores((4.0, 2.0, 1.0, 3.0), (0.0, 1.0, 0.0, 2.0))


def plan(max_deals: int = 100) -> Plan:
    return Plan("default", "greedy", "random", ("greedy", "random", "greedy"), None, 0,
                max_deals, PointsModel(0.0, 0.5))


def test_deals_that_end_out_of_order_wait_for_those_before_them() -> None:
    outcome = Outcome(Sprt(plan().model))
    feed = Feed(plan(), outcome)
    taken = [feed.take() for _ in range(3)]
    assert taken == [0, 1, 2]
    feed.arrive(2, WIN)
    feed.arrive(1, WIN)
    assert outcome.scores == []
    feed.arrive(0, WIN)
    assert len(outcome.scores) == 3


def test_deals_past_the_stop_are_not_counted() -> None:
    outcome = Outcome(Sprt(plan().model))
    feed = Feed(plan(), outcome)
    indices = [feed.take() for _ in range(MIN_DEALS + 3)]
    varied = [DealScores((4.0 + i % 3, 2.0, 1.0, 3.0), (0.0, 1.0, 0.0, 2.0)) for i in range(20)]
    for index in reversed(indices):  # the last ones end first
        assert index is not None
        feed.arrive(index, varied[index])
    assert outcome.test.decision == "candidate"
    assert len(outcome.scores) == MIN_DEALS and outcome.uncounted == 3
    assert feed.take() is None


def test_the_cap_ends_without_a_decision() -> None:
    got = compare(Plan("default", "random", "random", ("random",) * 3, None, 0, 3, EloModel()))
    assert got.test.decision == "none" and len(got.scores) == 3


def test_a_bot_file_is_named_by_its_absolute_path_for_other_machines(tmp_path: object,
                                                                     monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    from pathlib import Path

    folder = Path(str(tmp_path))
    (folder / "bot.py").write_text("")
    monkeypatch.chdir(folder)
    assert anchored("bot.py:Bot") == f"{folder.resolve()}/bot.py:Bot"
    assert anchored("greedy") == "greedy"
    assert anchored("python3 bot.py") == "python3 bot.py"
