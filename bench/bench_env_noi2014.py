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
legal actions too), the two alternating round by round so that whatever else loads
the machine hits both alike. Beside the wall-clock rates: steps per second of this
process's CPU time, the best and the median round (less sensitive to a busy machine).

    .venv/bin/pip install rlcard        # once, for the side-by-side (not a dependency)
    .venv/bin/python bench/bench_env_noi2014.py [--games 300] [--rounds 3] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import statistics
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
            legal = np.flatnonzero(obs["action_mask"])
            environment.step(int(legal[rng.integers(len(legal))]))
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
    parser.add_argument("--games", type=int, default=300, help="games per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        print("--games and --rounds: at least 1", file=sys.stderr)
        return 2
    print(f"load average {os.getloadavg()[0]:.2f} (1 min), {os.cpu_count()} cores; "
          f"{args.rounds} round(s) of {args.games} games, the two alternating")
    runs: dict[str, list[tuple[int, float, float]]] = {}
    for number in range(args.rounds):
        seed = args.seed + number * args.games
        runs.setdefault("NOI 2014 env", []).append(bench_noi(args.games, seed))
        other = bench_rlcard(args.games, seed)
        if other is not None:
            runs.setdefault("RLCard mahjong", []).append(other)
    print(f"{'environment':<16} {'games':>6} {'steps':>8} {'steps/s':>9} {'games/s':>8} "
          f"{'CPU steps/s (best, median)':>28}")
    best: dict[str, float] = {}
    for name, rows in runs.items():
        steps = sum(r[0] for r in rows)
        seconds = sum(r[1] for r in rows)
        games = args.games * len(rows)
        rates = sorted(r[0] / r[2] for r in rows)
        best[name] = rates[-1]
        print(f"{name:<16} {games:>6} {steps:>8} {steps / seconds:>9.0f} "
              f"{games / seconds:>8.1f} {rates[-1]:>14.0f} {statistics.median(rates):>12.0f}")
    if len(best) == 2:
        print(f"NOI 2014 env / RLCard, CPU steps/s (best): "
              f"{best['NOI 2014 env'] / best['RLCard mahjong']:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
