"""The default ruleset's PettingZoo environment: steps per second on one core.

    .venv/bin/python bench/bench_env_default.py [--games 500] [--seed 0] [--repeat 3]

PettingZoo's own loop (``for agent in env.agent_iter(): obs, ... = env.last();
env.step(...)``) with random legal actions drawn from each observation's mask, the
default encoder (31 x 34 planes), the order-enforcing wrapper of ``env()``, and
fixed seeds (game g is ``reset(seed=seed + g)``). A step is one ``env.step`` of
an agent with a choice (the dead steps after the end are not counted). It also
times the single-agent wrapper (``server.training.single_agent``) with three
random sample AIs as opponents, where a step is one learner decision.

Prints steps per second and games per second by CPU time (best of ``--repeat``
runs): RLCard's Mahjong runs about 4,200 steps/s, 44 games/s on this machine
(measured side by side by ``bench/bench_rlcard.py`` where present).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

from rulesets.default.env import bot_actor, env
from server.training.single_agent import SingleAgentEnv


def run_env(games: int, seed: int) -> tuple[int, float]:
    e = env()
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    for g in range(games):
        e.reset(seed=seed + g)
        for _agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps, time.process_time() - start


def run_single(games: int, seed: int) -> tuple[int, float]:
    sa = SingleAgentEnv(env(), bot_actor("random"), rotate=True)
    rng = np.random.default_rng(seed)
    steps = 0
    start = time.process_time()
    for g in range(games):
        obs, _ = sa.reset(seed=seed + g)
        while True:
            obs, _, terminated, truncated, _ = sa.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if terminated or truncated:
                break
    return steps, time.process_time() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for name, run in (("AEC env, 4 random agents", run_env),
                      ("single-agent, 3 random AIs", run_single)):
        best = min((run(args.games, args.seed) for _ in range(args.repeat)),
                   key=lambda r: r[1])
        steps, seconds = best
        print(f"{name}: {args.games} games, {steps} steps in {seconds:.2f} s CPU: "
              f"{steps / seconds:,.0f} steps/s, {args.games / seconds:,.1f} games/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
