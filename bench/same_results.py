"""A fingerprint of what ``server simulate`` plays, to check that a speed-up changes nothing.

    .venv/bin/python bench/same_results.py                     # 2,000 random + 300 mixed hands
    .venv/bin/python bench/same_results.py --random 200 --mixed 50

Plays hands through ``rulesets.default.engine.simulate.play_hands`` (the code behind
``server simulate``): four random bots, then greedy and random bots mixed (greedy,
random, greedy, random, rotating one seat a hand), and prints, for each line-up, the
points of every player summed, and a SHA-256 of every hand's full record: its events,
its inputs (every answer the engine applied) and its result (winner, kind, fans,
points). Run it before and after a change to the engine, the sample bots, ``scoring``
or ``protocol``: the two outputs must be identical. It runs the same on the plain and
the compiled build (``tools/build_mypyc.py``), which is how the compiled one is
checked.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.default.engine.simulate import Played, check_specs, play_hands

SEED = 2024
LINEUPS = {"random": ["random"] * 4, "mixed": ["greedy", "random", "greedy", "random"]}


def fingerprint(played: Played) -> str:
    """Everything a hand did, as text: events, inputs and result."""
    hand, result = played.hand, played.result
    fans = None if result.fans is None else (result.fans.fans, result.fans.total,
                                             result.fans.counts)
    return repr((hand.events, hand.inputs, result.winner, result.kind, result.payer,
                 result.win_tile, fans, result.deltas, played.illegal, played.errors))


def run(specs: Sequence[str], hands: int, seed: int) -> tuple[list[int], str]:
    """The players' summed points and a digest of every hand's fingerprint."""
    digest = hashlib.sha256()
    points = [0] * 4
    for played, record in play_hands(check_specs(specs), seed, range(hands)):
        digest.update(fingerprint(played).encode())
        for p in range(4):
            points[p] += record.points[p]
    return points, digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--random", type=int, default=2000, help="hands of four random bots")
    parser.add_argument("--mixed", type=int, default=300, help="hands of greedy and random")
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    if args.random < 0 or args.mixed < 0:
        print("same_results: hand counts must not be negative", file=sys.stderr)
        return 2
    for name, hands in (("random", args.random), ("mixed", args.mixed)):
        points, digest = run(LINEUPS[name], hands, args.seed)
        print(f"{name:6} {hands:5} hands, seed {args.seed}: points {points} sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
