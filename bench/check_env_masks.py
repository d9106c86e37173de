#!/usr/bin/env python3
"""The default env's masks against the engine, over many random games (``--games N``).

At every decision the env meets (the ones it asks an agent, and the ones it
answers ``pass`` itself because nothing else is legal), every one of the 128
actions is put to the engine's non-mutating ``Hand.check``: the mask must allow
exactly those it accepts. Random legal actions, a fixed seed; prints the counts.

    .venv/bin/python bench/check_env_masks.py --games 2000
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.rulesets.default.mask_check import play_checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    stats = play_checked(args.games, args.seed)
    seconds = time.perf_counter() - start
    print(f"{args.games} games: {stats.decisions} decisions asked of agents; "
          f"{stats.seat_checks} seat masks compared with the engine ({stats.only_pass} "
          f"could only pass), {stats.checks} Hand.check calls, all agreed "
          f"({seconds:.1f} s)")
    print("actions taken:", dict(stats.kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
