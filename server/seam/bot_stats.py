"""Per-bot statistics: the facts a ruleset reads from one seat's log of one hand or game
(``SeatFacts``, what ``Ruleset.seat_facts`` gives), and their sums over a match or a
tournament (``aggregate``), in the shape ``standings.json`` and ``match.json`` write
(``BotStats.as_json``).

Every ruleset's facts mean the same (the docs say how each ruleset counts them): a win
is self-drawn or on another's tile (a discard, or a robbed kong); a deal-in is a
seat's discard or kong that another won on; a claim is a meld made of another's
discard (chow, pung, exposed kong); ``fan`` is what the win was worth in the ruleset's
own units. The resources are the bot's own: its answer times, the peak memory of its
processes and their CPU time, as the logs keep them.

Percentiles interpolate linearly between the two nearest of the sorted values (the
``inclusive`` method of ``statistics.quantiles``: the median of an even count is the
mean of the middle two; p95 of 1..21 is 20).

Pure: no I/O.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """One seat of one hand (default ruleset) or game (Botzone, NOI 2014)."""

    player: int  # index in the match or table
    wins: int = 0  # 0 or 1 (a seat wins at most once a hand or game)
    self_drawn: int = 0
    on_discard: int = 0  # won on another's discard or robbed kong
    dealt_in: int = 0  # times another won on this seat's discard or kong (NOI 2014: up to 3)
    claims: int = 0  # chows, pungs and exposed kongs made of another's discard
    fan: float | None = None  # what the win was worth (None: no win)
    faults: tuple[str, ...] = ()  # each fault's kind (the first word of its cause)
    answer_ms: tuple[float, ...] = ()  # every answer's time
    peak_memory_mb: float | None = None  # its processes' peak (None: not measured)
    cpu_seconds: float | None = None  # its processes' CPU time (None: not measured)


@dataclass(slots=True)
class BotStats:
    """One bot's statistics over many hands or games."""

    games: int = 0
    wins: int = 0
    self_drawn: int = 0
    on_discard: int = 0
    dealt_in: int = 0
    claims: int = 0
    fans: list[float] = field(default_factory=list)
    faults: Counter[str] = field(default_factory=Counter)
    answer_ms: list[float] = field(default_factory=list)
    peak_memory_mb: float | None = None
    cpu_seconds: float | None = None

    def add(self, facts: SeatFacts) -> None:
        self.games += 1
        self.wins += facts.wins
        self.self_drawn += facts.self_drawn
        self.on_discard += facts.on_discard
        self.dealt_in += facts.dealt_in
        self.claims += facts.claims
        if facts.fan is not None:
            self.fans.append(facts.fan)
        self.faults.update(facts.faults)
        self.answer_ms.extend(facts.answer_ms)
        if facts.peak_memory_mb is not None:
            self.peak_memory_mb = max(self.peak_memory_mb or 0.0, facts.peak_memory_mb)
        if facts.cpu_seconds is not None:
            self.cpu_seconds = (self.cpu_seconds or 0.0) + facts.cpu_seconds

    @property
    def mean_fan(self) -> float | None:
        return sum(self.fans) / len(self.fans) if self.fans else None

    def as_json(self) -> dict[str, Any]:
        """The ``"stats"`` object of standings.json and match.json."""
        mean = self.mean_fan
        times = answer_summary(self.answer_ms)
        return {
            "games": self.games, "wins": self.wins, "self_drawn": self.self_drawn,
            "on_discard": self.on_discard, "dealt_in": self.dealt_in, "claims": self.claims,
            "mean_fan": None if mean is None else round(mean, 2),
            "fan_histogram": histogram(self.fans),
            "faults": dict(sorted(self.faults.items())),
            "answer_ms": times,
            "peak_memory_mb": None if self.peak_memory_mb is None
            else round(self.peak_memory_mb, 1),
            "cpu_seconds": None if self.cpu_seconds is None else round(self.cpu_seconds, 2),
        }


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values``, interpolated between the nearest two."""
    if not values:
        raise ValueError("no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"quantile {q} is not between 0 and 1")
    ordered = sorted(values)
    at = (len(ordered) - 1) * q
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


def answer_summary(times: Sequence[float]) -> dict[str, float] | None:
    """Median, p95 and max of answer times in ms (rounded to a thousandth); None if none."""
    if not times:
        return None
    return {"median": round(percentile(times, 0.5), 3), "p95": round(percentile(times, 0.95), 3),
            "max": round(max(times), 3)}


def fan_key(fan: float) -> str:
    """A histogram's key: 8 for 8 and 8.0, 2.5 for 2.5."""
    return str(int(fan)) if float(fan).is_integer() else str(fan)


def histogram(fans: Iterable[float]) -> dict[str, int]:
    """How many wins were worth each fan total, by fan (ascending; keys are strings, as
    JSON object keys must be)."""
    counts = Counter(fans)
    return {fan_key(fan): counts[fan] for fan in sorted(counts)}


def fault_kind(cause: str) -> str:
    """A fault's kind: the first word of its cause, without the punctuation around it
    (``closed-output: exit status 1`` -> ``closed-output``, ``(WA: ...)`` -> ``WA``)."""
    words = cause.split()
    word = words[0] if words else ""
    return word.strip("()[]:;,.") or "fault"


def aggregate(facts: Iterable[SeatFacts], players: int) -> list[BotStats]:
    """Each player's statistics (``players`` of them, by index) over ``facts``; facts of
    a player outside the range (a tournament's fill-ins, mapped past the field) are
    left out."""
    out = [BotStats() for _ in range(players)]
    for fact in facts:
        if 0 <= fact.player < players:
            out[fact.player].add(fact)
    return out
