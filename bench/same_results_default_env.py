"""A fingerprint of the default ruleset's training environment, to check that a speed-up
changes nothing.

    .venv/bin/python bench/same_results_default_env.py              # 300 games
    .venv/bin/python bench/same_results_default_env.py --games 50

Plays seeded games (game g is ``reset(seed=seed + g)``) through ``env()`` in
PettingZoo's loop, choosing a random legal action from each mask, but HU whenever
it is legal so that wins, robbed kongs and their rewards are met. For every step it
hashes the agent, the observation (the default encoder's planes), the mask, the
reward, the termination, the truncation and the info, and for every game the record
(the engine's events and inputs). Run it before and after a change to the
environment, its seat view or encoder, the engine, ``scoring`` or ``protocol``: the
printed digest must be identical, on the plain and the compiled build
(``tools/build_mypyc.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.default.actions import HU, QGANG
from rulesets.default.env import env

SEED = 2024


def run(games: int, seed: int) -> tuple[int, str]:
    """Steps played and a SHA-256 of every step and every game's record."""
    digest = hashlib.sha256()
    e = env()
    rng = random.Random(seed)
    steps = 0
    for g in range(games):
        e.reset(seed=seed + g)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            mask = obs["action_mask"]
            digest.update(agent.encode())
            digest.update(obs["observation"].tobytes())
            digest.update(mask.tobytes())
            digest.update(repr((reward, term, trunc, sorted(info.items()))).encode())
            if term or trunc:
                action = None
            elif mask[HU] or mask[QGANG]:
                action = HU if mask[HU] else QGANG
            else:
                legal = mask.nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            e.step(action)
            steps += 1
        hand = e.unwrapped.hand
        digest.update(repr((hand.events, hand.inputs)).encode())
    return steps, digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    if args.games < 0:
        print("same_results_default_env: --games must not be negative", file=sys.stderr)
        return 2
    steps, digest = run(args.games, args.seed)
    print(f"default env {args.games} games, seed {args.seed}: {steps} steps sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
