#!/usr/bin/env python3
"""Steps and games per second of the Botzone training environment, one core.

Seconds are the process's CPU time (less noisy on a shared machine than the wall
clock; the same on a quiet one).

PettingZoo's loop (``agent_iter``, ``last``, ``step``) on ``raw_env`` and on ``env()``,
with the default encoder and the action masks, each agent taking a random legal
action (fixed seed), per variant.
``--profile`` prints where the time goes (cProfile, top functions).

    python3 bench/bench_env_botzone.py [--games N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.botzone.env import env as wrapped_env
from rulesets.botzone.env import raw_env


def run(variant: str, games: int, seed: int = 0, wrapped: bool = False) -> tuple[int, float]:
    """(steps, seconds) of ``games`` games with random legal actions, on ``raw_env`` or
    (``wrapped``) ``env()``, inside PettingZoo's order-enforcing wrapper."""
    env = (wrapped_env if wrapped else raw_env)(variant=variant)
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for game in range(games):
        env.reset(seed=seed + game)
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
    return steps, time.process_time() - start


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    for variant in ("duplicate", "classic"):
        for wrapped in (False, True):
            steps, seconds = run(variant, args.games, wrapped=wrapped)
            name = "env()" if wrapped else "raw_env"
            print(f"{variant:9} {name:7}: {args.games} games, {steps} steps in "
                  f"{seconds:.2f} s: {steps / seconds:,.0f} steps/s, "
                  f"{args.games / seconds:,.1f} games/s")
    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(run, "duplicate", max(1, args.games // 3))
        pstats.Stats(profile).sort_stats("tottime").print_stats(15)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
