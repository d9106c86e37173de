#!/usr/bin/env python3
"""The Botzone environment's property check over many games (the suite runs a few).

Plays GAMES games per variant through ``rulesets.botzone.env`` (HU when legal, else
mostly claims, else random legal actions) and at every decision steps a copy of the
judge with each of the 235 actions' responses, the other seats passing: every action
the mask allows must be accepted, every one it forbids refused (WA or WH).

    python3 bench/check_env_botzone.py [GAMES] [FIRST_SEED]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.rulesets.botzone.test_seat_view import check_game


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 1000
    first = int(argv[1]) if len(argv) > 1 else 0
    for variant in ("duplicate", "classic"):
        start = time.perf_counter()
        decisions = checked = 0
        ends: dict[str, int] = {}
        for seed in range(first, first + games):
            d, c, info = check_game(variant, seed)
            decisions += d
            checked += c
            ends[str(info["end"])] = ends.get(str(info["end"]), 0) + 1
            if (seed - first + 1) % 100 == 0:
                print(f"  {variant}: {seed - first + 1} games checked", flush=True)
        print(f"{variant}: {games} games, {decisions} decisions, {checked} actions checked "
              f"against the judge, all agree; ends {ends} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
