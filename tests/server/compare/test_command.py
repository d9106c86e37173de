"""How far a comparison is, said on standard error while it runs (server/compare/command.py)."""

from __future__ import annotations

import pytest

from server.compare.command import progress_reporter
from server.compare.run import Feed, Outcome, Plan
from server.compare.stats import PointsModel, Sprt
from server.seam.contract import DealScores


def test_a_long_comparison_says_how_far_it_is_every_few_seconds_on_stderr(
        capsys: pytest.CaptureFixture[str]) -> None:
    plan = Plan("default", "greedy", "random", ("random",) * 3, None, 0, 1000,
                PointsModel(0.0, 0.5))
    now = [0.0]
    outcome = Outcome(Sprt(plan.model))
    feed = Feed(plan, outcome, progress_reporter(plan, every=10.0, clock=lambda: now[0]))
    for index in range(30):
        assert feed.take() == index
        now[0] += 1.0  # a deal a second
        feed.arrive(index, DealScores((3.0, 3.0, 3.0, 3.0), (0.0,) * 4) if index % 2 else
                    DealScores((0.0,) * 4, (2.5, 2.5, 2.5, 2.5)))  # +0.25 a game, undecided
    out, err = capsys.readouterr()
    assert out == ""  # the verdict alone goes to stdout (--json stays one object)
    lines = err.splitlines()
    assert [line.split(" of ")[0] for line in lines] == ["compare: 10", "compare: 20",
                                                          "compare: 30"]
    assert lines[-1].startswith("compare: 30 of at most 1000 deals (120 games), "
                                "candidate minus baseline +0.25 a game; LLR ")
