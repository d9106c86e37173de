"""How long the greedy bot takes per decision, and how it scores against random.

Plays hands in-process through the pure engine (``rulesets.default.engine.hand.Hand``):
two greedy and two random bots, the line-up rotated by one seat every hand, on
the seeded deals of ``rulesets.default.engine.rng.deal``. Each greedy decision (a call
to ``receive`` that returns an answer) is timed, on the wall clock
(``perf_counter``, what a server's deadline sees) and in CPU time
(``thread_time``, which other processes on a busy machine do not inflate).

    .venv/bin/python bench/bench_greedy.py --hands 1000 [--cold]

Prints the median, 99th percentile and worst decision time, overall and per
prompt (turn after ``pick``; claim after ``mout``; discard after our own
``mpeng``/``mchi``; rob after ``mjgang``), then points per seat-hand for each
bot kind and the number of rejected (illegal) answers, which must be 0.

A match starts a fresh bot process for every hand, so its caches start empty:
``--cold`` empties the hand-analysis caches before each hand to measure that.
Without it the caches stay warm across hands, as in ``server simulate``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol.messages import FromAI, MChi, MJGang, MOut, MPeng, Pick, ToAI
from rulesets.default.engine.hand import Hand, Verdict
from rulesets.default.engine.rng import deal
from sample_ai.framework import Bot
from sample_ai.greedy import GreedyBot
from sample_ai.random_bot import RandomBot
from scoring import analysis

SEATS = 4


@dataclass
class Tally:
    hands: int = 0
    points: dict[str, int] = field(default_factory=dict)  # summed over every seat of a kind
    seats: dict[str, int] = field(default_factory=dict)  # seat-hands played by a kind
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    rejected: int = 0
    fallbacks: int = 0
    # greedy decisions by prompt kind: wall seconds and CPU seconds, in step. Flat
    # float lists, not a tuple per decision: tuples would be tracked by the
    # garbage collector and slow down the very pauses being measured.
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)


def prompt_kind(message: ToAI) -> str:
    if isinstance(message, Pick):
        return "turn"
    if isinstance(message, MOut):
        return "claim"
    if isinstance(message, MPeng | MChi):
        return "discard"
    if isinstance(message, MJGang):
        return "rob"
    return "other"


def play_hand(bots: Sequence[Bot], wall_seed: int, index: int, timed: set[int],
              tally: Tally) -> tuple[Hand, int]:
    """Play one hand; the engine and the number of rejected answers."""
    d = deal(wall_seed, index)
    hand = Hand(d.wall, d.first)
    hand.start()
    rejected = 0
    while not hand.finished:
        answers: list[tuple[int, FromAI]] = []
        for seat, message in hand.drain():
            start, start_cpu = time.perf_counter(), time.thread_time()
            reply = bots[seat].receive(message)
            if reply is not None:
                if seat in timed:
                    kind = prompt_kind(message)
                    tally.wall.setdefault(kind, []).append(time.perf_counter() - start)
                    tally.cpu.setdefault(kind, []).append(time.thread_time() - start_cpu)
                answers.append((seat, reply))
        if not answers:
            raise RuntimeError(f"hand {index}: nobody answered; engine waits on {hand.waiting}")
        for seat, reply in answers:
            if hand.finished:
                break
            if hand.answer(seat, reply).verdict is Verdict.REJECTED:
                rejected += 1
                hand.fault(seat, "rejected")
    return hand, rejected


def clear_caches() -> None:
    """Empty every cache of the hand analysis, as in a freshly started bot process."""
    for value in vars(analysis).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def run(hands: int, seed: int, cold: bool) -> Tally:
    tally = Tally()
    lineup: list[type[Bot]] = [GreedyBot, GreedyBot, RandomBot, RandomBot]
    for i in range(hands):
        classes = [lineup[(s + i) % SEATS] for s in range(SEATS)]
        bots = [cls(seed * 100_000 + i * SEATS + s) for s, cls in enumerate(classes)]
        if cold:
            clear_caches()
        greedy_seats = {s for s, cls in enumerate(classes) if cls is GreedyBot}
        hand, rejected = play_hand(bots, seed, i, greedy_seats, tally)
        result = hand.result
        assert result is not None
        tally.hands += 1
        tally.rejected += rejected
        tally.fallbacks += sum(b.fallbacks for b in bots)
        tally.draws += result.is_draw
        for s, cls in enumerate(classes):
            tally.points[cls.name] = tally.points.get(cls.name, 0) + result.deltas[s]
            tally.seats[cls.name] = tally.seats.get(cls.name, 0) + 1
            if result.winner == s:
                tally.wins[cls.name] = tally.wins.get(cls.name, 0) + 1
    return tally


def _summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"median {statistics.median(ordered) * 1e3:6.2f}  p99 {p99 * 1e3:6.2f}  "
            f"max {ordered[-1] * 1e3:6.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold", action="store_true",
                        help="empty the analysis caches before each hand (a fresh process)")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    tally = run(args.hands, args.seed, args.cold)
    elapsed = time.perf_counter() - began
    print(f"{tally.hands} hands in {elapsed:.1f} s (seed {args.seed}, "
          f"{'cold' if args.cold else 'warm'} caches)")
    print("greedy decision time, ms:")
    for kind in ["all", *sorted(tally.wall)]:
        wall = [x for k, xs in tally.wall.items() if kind in ("all", k) for x in xs]
        cpu = [x for k, xs in tally.cpu.items() if kind in ("all", k) for x in xs]
        print(f"  {kind:>7} n={len(wall):6}  wall: {_summary(wall)}")
        print(f"  {'':>7} {'':8}  cpu:  {_summary(cpu)}")
    for name in sorted(tally.points):
        per_hand = tally.points[name] / tally.seats[name]
        wins = tally.wins.get(name, 0)
        print(f"{name:>7}: {per_hand:+.2f} points per seat-hand, "
              f"wins {wins} ({100 * wins / tally.seats[name]:.1f}% of seat-hands)")
    print(f"draws: {tally.draws} ({100 * tally.draws / tally.hands:.1f}%)")
    print(f"rejected answers: {tally.rejected}; framework fallbacks: {tally.fallbacks}")
    return 0 if tally.rejected == 0 and tally.fallbacks == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
