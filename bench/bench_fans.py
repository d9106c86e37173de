"""Fan evaluations per second: ``scoring.fans.score`` beside PyMahjongGB.

Both score the same hands in the same run: random winning hands from the
differential test's generator (``tests/gb_oracle.random_hand``: concealed and
melded, self-drawn or not, seven pairs and thirteen orphans among them). The
hands are built, and turned into GB's call arguments, before any clock starts.

    .venv/bin/python bench/bench_fans.py [--hands 10000] [--rounds 5] [--seed 1]

Our scoring caches per-suit results, so a hand seen twice is cheaper the
second time; every round therefore scores hands never seen before, once each:

* steady state: the caches are first warmed on other hands (as in a
  long-running server), then each round's fresh hands are scored;
* cold start: every cache is cleared before each round.

Within a round the two sides alternate by chunks of 1,000 hands, so a busy
machine slows both alike. Both the wall clock and the CPU time of the thread
are reported (on a loaded machine the wall clock includes waiting for a CPU):
the median round, then every round.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring import analysis, fans
from scoring.fans import WinningHand, score
from tests.gb_oracle import gb_call, random_hand

CHUNK = 1000


def clear_caches() -> None:
    for module in (analysis, fans):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def timed(run: Callable[[], object]) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one call."""
    wall, cpu = time.perf_counter(), time.thread_time()
    run()
    return time.perf_counter() - wall, time.thread_time() - cpu


def one_round(hands: Sequence[WinningHand], calls: Sequence[dict[str, Any]],
              calculator: Callable[..., Any]) -> list[float]:
    """Evaluations per second on hands we have not scored before.

    Ours then GB's, each first by the wall clock, then in CPU time.
    """
    ours = [0.0, 0.0]
    theirs = [0.0, 0.0]
    for i in range(0, len(hands), CHUNK):
        chunk, chunk_calls = hands[i : i + CHUNK], calls[i : i + CHUNK]

        def run_ours(chunk: Sequence[WinningHand] = chunk) -> None:
            for hand in chunk:
                score(hand)

        def run_gb(chunk_calls: Sequence[dict[str, Any]] = chunk_calls) -> None:
            for kwargs in chunk_calls:
                calculator(**kwargs)

        for k, t in enumerate(timed(run_ours)):
            ours[k] += t
        for k, t in enumerate(timed(run_gb)):
            theirs[k] += t
    return [len(hands) / t for t in (*ours, *theirs)]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10000, help="hands per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError:
        sys.exit("PyMahjongGB is not installed (pip install PyMahjongGB)")

    rng = random.Random(args.seed)
    n = args.hands
    print(f"{n:,} fresh random winning hands per round, {args.rounds} rounds, seed {args.seed}, "
          f"Python {sys.version.split()[0]}")
    warm_up = [random_hand(rng) for _ in range(n)]
    for label, cold in (("steady state", False), ("cold start", True)):
        clear_caches()
        if not cold:
            for hand in warm_up:
                score(hand)
        results = []
        for _ in range(args.rounds):
            hands = [random_hand(rng) for _ in range(n)]
            calls = [gb_call(hand) for hand in hands]
            if cold:
                clear_caches()
            results.append(one_round(hands, calls, MahjongFanCalculator))
        for clock, k in (("wall clock", 0), ("CPU time", 1)):
            ours = statistics.median(r[k] for r in results)
            theirs = statistics.median(r[k + 2] for r in results)
            ratio = statistics.median(r[k] / r[k + 2] for r in results)
            print(f"{label:>12}, {clock:>10}: scoring.fans.score {ours:8,.0f} evals/s | "
                  f"PyMahjongGB {theirs:9,.0f} evals/s | ours/GB {ratio:.3f}")
            print(" " * 26 + "rounds: "
                  + ", ".join(f"{r[k]:,.0f} vs {r[k + 2]:,.0f}" for r in results))


if __name__ == "__main__":
    main()
