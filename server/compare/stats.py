"""The statistics of ``server compare``: paired differences, their confidence interval, and
a sequential probability ratio test (SPRT) that stops as soon as the evidence decides.

Theory of operation. Each deal gives one paired observation: the candidate's mean score per
game on it minus the baseline's (``Deal.difference``), and one paired "match score" in
[0, 1]: the share of the deal's games (one per seat) in which the candidate scored more
than the baseline did in the same seat, ties counting half (``Deal.score``). Deals are
independent (each is seeded by its number); the games of one deal are not (same tiles), so
every variance below is taken over deals, never over games, as fastchess's pentanomial
model takes it over game pairs.

* The mean difference per game is the mean of the deals' differences; its 95% confidence
  interval is Student's t over deals (``t_quantile``; n - 1 degrees of freedom).
* The SPRT is the generalized SPRT of fastchess and Fishtest: the log-likelihood ratio of
  two normal models of the per-deal observation with the sample variance,
  ``LLR = n (m1 - m0) (2 x̄ - m0 - m1) / (2 s²)`` (s²: the variance over deals, divided
  by n), and Wald's bounds ``ln(beta / (1 - alpha'))`` and ``ln((1 - beta) / alpha')``.
  A chess engine's test is one-sided (is the patch better?); ``server compare`` must say
  which of two bots is better, or that neither is, so it runs two one-sided tests side
  by side, each at alpha' = alpha / 2: the candidate's (H0: m0, H1: m1) and its mirror,
  the baseline's (the same hypotheses with the bots' roles swapped: -P0, -P1 points;
  Elo -E0, -E1). A test crossing its upper bound ends the comparison with that bot
  ("candidate" or "baseline"); a test crossing its lower bound closes (that bot is not
  better by the margin) and the other goes on; both closed ends it with "none" and the
  finding "equal" (neither bot is better by the margin). A cap with a test still open
  is "none", "undecided". So a bot against itself is called better than itself with a
  chance of at most alpha (each side alpha / 2), and a bot better by the margin is
  missed with a chance of at most beta.

  - ``PointsModel`` (``--points P0,P1``): the observation is the difference per game,
    H0: mean = P0, H1: mean = P1, in the ruleset's points.
  - ``EloModel`` (``--elo0 E0 --elo1 E1``, the default 0 and 10): the observation is the
    deal's match score, and the hypotheses are logistic Elo differences, an expected score
    of ``1 / (1 + 10^(-elo / 400))``. The Elo scale fits every ruleset at once (its points
    need not be comparable: NOI 2014 scores places, Botzone fans), and it needs no guess of
    a ruleset's spread of points; the cost is that it sees who did better on each game, not
    by how much.

  No decision is taken before ``MIN_DEALS`` deals: the sample variance of a handful of
  deals is too rough to trust. The variance is floored at ``((m1 - m0) / 2)²``: deals
  that vary less than half the gap between the hypotheses count as varying that much.
  Without the floor a variance of zero stalls the test for good (a candidate that wins
  every game of every deal, a deterministic bot against itself), and a tiny one decides
  on noise; with it the former decides at ``MIN_DEALS`` deals (for H1, for H0), and the
  test is unchanged whenever the deals really vary, as a bot's scores do.

Pure: no I/O, no clock, no trio.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Literal

Decision = Literal["candidate", "baseline", "none"]
# How the comparison ended: a bot better; "equal": neither better by the margin (both
# one-sided tests accepted H0); "undecided": stopped (a cap, Ctrl-C) with a test open.
Finding = Literal["candidate", "baseline", "equal", "undecided"]
MIN_DEALS = 8
CONFIDENCE = 0.95
# Student's t, two-sided 95% (the 0.975 quantile), for 1 to 30 degrees of freedom.
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def t_quantile_975(df: int) -> float:
    """Student's t 0.975 quantile with ``df`` degrees of freedom: a table to 30, then the
    Cornish-Fisher expansion around the normal (within 1e-4 there)."""
    if df < 1:
        raise ValueError("degrees of freedom must be at least 1")
    if df <= len(_T975):
        return _T975[df - 1]
    z = NormalDist().inv_cdf(0.975)
    v = float(df)
    return (z + (z**3 + z) / (4 * v)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4))


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's games: each bot's score in the game where it sat in seat s."""

    candidate: tuple[float, ...]
    baseline: tuple[float, ...]

    def __post_init__(self) -> None:
        if not self.candidate or len(self.candidate) != len(self.baseline):
            raise ValueError("a deal needs the same number (at least one) of games of each bot")

    @property
    def games(self) -> int:
        return len(self.candidate)

    @property
    def difference(self) -> float:
        """The candidate's mean score per game minus the baseline's."""
        return (sum(self.candidate) - sum(self.baseline)) / self.games

    @property
    def score(self) -> float:
        """The candidate's match score: games it did better in, ties half, over games."""
        points = sum(1.0 if c > b else 0.5 if c == b else 0.0
                     for c, b in zip(self.candidate, self.baseline, strict=True))
        return points / self.games


@dataclass(frozen=True, slots=True)
class Interval:
    mean: float
    low: float
    high: float


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean and its 95% Student's t interval (one value: no interval, just the mean)."""
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, -math.inf, math.inf)
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return Interval(mean, mean - half, mean + half)


def elo_to_score(elo: float) -> float:
    """The expected score of a logistic Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The logistic Elo difference of an expected score (infinite at 0 and 1)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True, slots=True)
class PointsModel:
    """H0: mean difference per game = p0; H1: = p1 (``--points P0,P1``)."""

    p0: float
    p1: float
    kind: str = "points"

    def __post_init__(self) -> None:
        if not self.p0 < self.p1:
            raise ValueError(f"--points P0,P1 needs P0 < P1, got {self.p0:g},{self.p1:g}")

    def observe(self, deal: Deal) -> float:
        return deal.difference

    @property
    def h0(self) -> float:
        return self.p0

    @property
    def h1(self) -> float:
        return self.p1

    def mirrored(self) -> tuple[float, float]:
        """The baseline's hypotheses (H0, H1) on the same observation: -P0, -P1."""
        return -self.p0, -self.p1

    def describe(self) -> str:
        return (f"H0: mean difference {self.p0:+g} points per game, H1: {self.p1:+g} "
                "(normal GSPRT over deals)")


@dataclass(frozen=True, slots=True)
class EloModel:
    """H0: logistic Elo difference = elo0; H1: = elo1, on the deals' match scores."""

    elo0: float = 0.0
    elo1: float = 10.0
    kind: str = "elo"

    def __post_init__(self) -> None:
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1)) \
                or not self.elo0 < self.elo1:
            raise ValueError(f"--elo0 must be below --elo1 (finite), got {self.elo0:g} and "
                             f"{self.elo1:g}")
        if not (self.elo0 > -1000 and self.elo1 < 1000):
            raise ValueError("--elo0 and --elo1 must lie between -1000 and 1000")

    def observe(self, deal: Deal) -> float:
        return deal.score

    @property
    def h0(self) -> float:
        return elo_to_score(self.elo0)

    @property
    def h1(self) -> float:
        return elo_to_score(self.elo1)

    def mirrored(self) -> tuple[float, float]:
        """The baseline's hypotheses (H0, H1) on the same observation: Elo -E0, -E1."""
        return elo_to_score(-self.elo0), elo_to_score(-self.elo1)

    def describe(self) -> str:
        return (f"H0: Elo {self.elo0:+g}, H1: Elo {self.elo1:+g} (logistic, on each deal's "
                "share of games the candidate did better in; normal GSPRT over deals)")


Model = PointsModel | EloModel


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR of one test: (accept H0 below, accept H1 above)."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 0.5:
            raise ValueError(f"--{name} must be above 0 and below 0.5, got {value:g}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def llr(values: Sequence[float], h0: float, h1: float) -> float:
    """The generalized SPRT's log-likelihood ratio of H1 (mean h1) against H0 (mean h0),
    normal with the sample variance (the maximum-likelihood one, over n; floored at
    ``((h1 - h0) / 2)²``)."""
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    return _llr(n, mean, math.fsum((x - mean) ** 2 for x in values) / n if n else 0.0, h0, h1)


def _llr(n: int, mean: float, var: float, h0: float, h1: float) -> float:
    if n < 2:
        return 0.0
    var = max(var, ((h1 - h0) / 2.0) ** 2)
    return n * (h1 - h0) * (2.0 * mean - h0 - h1) / (2.0 * var)


@dataclass(slots=True)
class _Side:
    """One one-sided test: its hypotheses, its LLR, and whether it has closed (H0) or
    ended the comparison (H1)."""

    h0: float
    h1: float
    llr: float = 0.0
    state: Literal["open", "h0", "h1"] = "open"

    def update(self, n: int, mean: float, var: float, lower: float, upper: float) -> None:
        if self.state != "open":
            return
        self.llr = _llr(n, mean, var, self.h0, self.h1)
        if n >= MIN_DEALS:
            if self.llr >= upper:
                self.state = "h1"
            elif self.llr <= lower:
                self.state = "h0"


@dataclass(slots=True)
class Sprt:
    """The test as deals come in, in deal order: ``add`` each, then read ``decision``
    (and ``finished``, ``finding``). Two one-sided tests at alpha / 2 each (module
    docstring): the candidate's and the baseline's."""

    model: Model
    alpha: float = 0.05
    beta: float = 0.05
    deals: list[Deal] = field(default_factory=list)
    decision: Decision = "none"
    lower: float = field(init=False, default=0.0)
    upper: float = field(init=False, default=0.0)
    _candidate: _Side = field(init=False)
    _baseline: _Side = field(init=False)
    _sum: float = field(init=False, default=0.0)  # of the observations, and of their squares
    _squares: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        bounds(self.alpha, self.beta)  # the user's alpha and beta, checked as given
        self.lower, self.upper = bounds(self.alpha / 2.0, self.beta)
        self._candidate = _Side(self.model.h0, self.model.h1)
        self._baseline = _Side(*self.model.mirrored())

    @property
    def llr(self) -> float:
        """The candidate's test's LLR (H1: the candidate better by the margin)."""
        return self._candidate.llr

    @property
    def llr_baseline(self) -> float:
        """The baseline's test's LLR (H1: the baseline better by the margin)."""
        return self._baseline.llr

    @property
    def finished(self) -> bool:
        """Whether the evidence has ended the comparison (a bot better, or both equal)."""
        return self.decision != "none" or self.finding == "equal"

    @property
    def finding(self) -> Finding:
        if self.decision != "none":
            return self.decision
        if self._candidate.state == "h0" and self._baseline.state == "h0":
            return "equal"
        return "undecided"

    def add(self, deal: Deal) -> Decision:
        """Count one more deal (refused once finished) and decide if the evidence does."""
        if self.finished:
            raise ValueError("the test has decided already")
        self.deals.append(deal)
        x = self.model.observe(deal)
        self._sum += x
        self._squares += x * x
        n = len(self.deals)
        mean = self._sum / n
        var = max(0.0, self._squares / n - mean * mean)
        for side in (self._candidate, self._baseline):
            side.update(n, mean, var, self.lower, self.upper)
        if self._candidate.state == "h1":
            self.decision = "candidate"
        elif self._baseline.state == "h1":
            self.decision = "baseline"
        return self.decision


@dataclass(frozen=True, slots=True)
class Summary:
    """What ``server compare`` reports of the deals counted."""

    deals: int
    games: int  # games each bot played: the deals' games
    mean: float  # per game, candidate minus baseline
    ci_low: float
    ci_high: float
    score: float  # the candidate's match score over the deals (ties half)
    elo: float  # its logistic Elo difference
    llr: float  # the candidate's test's
    llr_baseline: float  # the baseline's test's
    lower: float
    upper: float
    decision: Decision
    finding: Finding
    candidate_mean: float  # the candidate's mean score per game
    baseline_mean: float


def summarize(test: Sprt) -> Summary:
    deals = test.deals
    interval = mean_interval([d.difference for d in deals])
    games = sum(d.games for d in deals)
    score = math.fsum(d.score for d in deals) / len(deals) if deals else 0.5
    cand = math.fsum(sum(d.candidate) for d in deals) / games if games else 0.0
    base = math.fsum(sum(d.baseline) for d in deals) / games if games else 0.0
    return Summary(len(deals), games, interval.mean, interval.low, interval.high, score,
                   score_to_elo(score), test.llr, test.llr_baseline, test.lower, test.upper,
                   test.decision, test.finding, cand, base)
