"""How fast the NOI 2014 training environment steps: random legal actions, one core.

PettingZoo's own loop on ``rulesets.noi2014.env.env()`` (the order-enforcing wrapper,
the default encoder, the action mask in every observation):

    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        env.step(None if term or trunc else random legal action)

An environment step is one ``step`` with an action (the steps of agents already done
at the end are not counted). Games are dealt from seeds ``--seed``, ``--seed`` + 1, ...;
actions come from ``numpy.random.default_rng(--seed)``, so a run is repeatable. If
RLCard is installed its Mahjong environment is measured in the same run (random
legal actions too) for the side-by-side ratio. Beside the wall-clock rates, steps
per second of this process's CPU time (less sensitive to a busy machine).

    .venv/bin/python bench/bench_env_noi2014.py [--games 500] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.noi2014.env import env as noi_env


def bench_noi(games: int, seed: int) -> tuple[int, float, float]:
    environment = noi_env()
    rng = np.random.default_rng(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for number in range(games):
        environment.reset(seed=seed + number)
        for _agent in environment.agent_iter():
            obs, _, term, trunc, _ = environment.last()
            if term or trunc:
                environment.step(None)
                continue
            environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.perf_counter() - start, time.process_time() - cpu


def bench_rlcard(games: int, seed: int) -> tuple[int, float, float] | None:
    try:
        import rlcard  # type: ignore[import-not-found]
    except ImportError:
        return None
    environment = rlcard.make("mahjong", config={"seed": seed})
    rng = np.random.default_rng(seed)
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(games):
        state, _ = environment.reset()
        while not environment.is_over():
            legal = list(state["legal_actions"])
            state, _ = environment.step(legal[int(rng.integers(len(legal)))])
            steps += 1
    return steps, time.perf_counter() - start, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.games < 1:
        print("--games: at least 1", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores")
    rows = [("NOI 2014 env", bench_noi(args.games, args.seed))]
    other = bench_rlcard(args.games, args.seed)
    if other is not None:
        rows.append(("RLCard mahjong", other))
    print(f"{'environment':<16} {'games':>6} {'steps':>8} {'steps/s':>9} {'games/s':>8} "
          f"{'CPU steps/s':>12}")
    for name, (steps, seconds, cpu) in rows:
        print(f"{name:<16} {args.games:>6} {steps:>8} {steps / seconds:>9.0f} "
              f"{args.games / seconds:>8.1f} {steps / cpu:>12.0f}")
    if other is not None:
        print(f"ratio (steps/s): {rows[0][1][0] / rows[0][1][1] / (other[0] / other[1]):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
