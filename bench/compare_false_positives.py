"""How often does ``server compare`` claim a difference between a bot and itself?

Two parts, both in-process, default ruleset, the random sample AI against itself with the
default opponents (greedy, random, greedy):

* ``bank``: play DEALS real deals of random against random and store each deal's scores
  by seat (``tests/data/compare/random_random_deals.json`` is such a bank: 400 deals,
  seed 12345). The test ``tests/server/compare/test_stats.py`` resamples it.
* ``resample``: RUNS sequential tests on deals drawn from the bank, each deal's two halves
  swapped at random (so the two bots are exactly alike), each run capped at CAP deals;
  prints how many ended "candidate" or "baseline" (false positives: either bot called
  better than itself) and "none" (most of them "equal").
* ``real``: RUNS comparisons of real games (seeds 0..RUNS-1), each capped at CAP deals,
  played on JOBS processes; the same counts.

    python bench/compare_false_positives.py bank --deals 400 --out bank.json
    python bench/compare_false_positives.py resample --bank bank.json --runs 4000 --cap 300
    python bench/compare_false_positives.py real --runs 100 --cap 60 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.compare.run import Plan, compare
from server.compare.stats import Deal, EloModel, PointsModel, Sprt
from server.seam.contract import DealRequest
from server.seam.registry import load

OPPONENTS = ("greedy", "random", "greedy")


def bank(deals: int, seed: int) -> list[list[list[float]]]:
    ruleset = load("default")
    out = []
    for i in range(deals):
        d = ruleset.play_deal(DealRequest(i, seed, "random", "random", OPPONENTS))
        out.append([list(d.candidate), list(d.baseline)])
    return out


def resample(deals: list[list[list[float]]], runs: int, cap: int, model: str,
             seed: int = 0) -> Counter[str]:
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    for _ in range(runs):
        test = Sprt(EloModel() if model == "elo" else PointsModel(0.0, 1.0))
        for _ in range(cap):
            a, b = rng.choice(deals)
            if rng.random() < 0.5:
                a, b = b, a
            test.add(Deal(tuple(a), tuple(b)))
            if test.finished:
                break
        counts[test.finding] += 1
    return counts


def wrong(counts: Counter[str], runs: int) -> float:
    """The share of runs that called either bot better than the other (itself)."""
    return (counts["candidate"] + counts["baseline"]) / runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=("bank", "resample", "real"))
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--bank", type=Path,
                        default=Path("tests/data/compare/random_random_deals.json"))
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--cap", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--model", choices=("elo", "points"), default="elo")
    args = parser.parse_args()
    start = time.perf_counter()
    if args.part == "bank":
        data = bank(args.deals, args.seed)
        text = json.dumps(data, separators=(",", ":"))
        (args.out.write_text(text + "\n") if args.out else print(text))
    elif args.part == "resample":
        counts = resample(json.loads(args.bank.read_text()), args.runs, args.cap, args.model)
        print(f"{args.runs} runs, cap {args.cap} deals, model {args.model}: {dict(counts)}; "
              f"false positive rate (either bot called better) {wrong(counts, args.runs):.4f}")
    else:
        counts = Counter()
        for seed in range(args.runs):
            plan = Plan("default", "random", "random", OPPONENTS, None, seed, args.cap,
                        EloModel() if args.model == "elo" else PointsModel(0.0, 1.0))
            counts[compare(plan, args.jobs).test.finding] += 1
        print(f"{args.runs} real runs, cap {args.cap} deals, model {args.model}: "
              f"{dict(counts)}; false positive rate (either bot called better) "
              f"{wrong(counts, args.runs):.4f}")
    print(f"{time.perf_counter() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
