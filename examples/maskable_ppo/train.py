#!/usr/bin/env python3
"""Train a Botzone Mahjong policy with sb3-contrib's MaskablePPO, on a time budget.

The learner plays one seat (drawn at every game) of Botzone's Chinese Standard
Mahjong, duplicate variant, against three random sample AIs: ``adapter.MaskedSeat``
over the project's ``SingleAgentEnv``, its observation a flat Box, its mask given by
``action_masks()``, its reward the game's score plus a shaping term (adapter.py).
MaskablePPO samples only actions the mask allows and learns on PyTorch's CPU build.

When the budget (``--minutes``) is spent, it writes the model (``--out``, sb3's zip:
to resume or inspect with sb3) and the policy's layers for the bot (``--policy``,
``net.py``'s npz), then plays ``--eval-games`` seeded games with the deterministic
policy against three random bots and prints its mean score and wins.

Everything is seeded (deals, seats, network, sampling), but the number of updates
that fit in the budget depends on the machine's speed: ``--steps`` sets it instead,
for a run that can be repeated exactly. Run from the repository root, with the
``sb3`` extra installed: ``python examples/maskable_ppo/train.py --out run/model.zip
--policy run/policy.npz`` (``--help`` for the rest).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import deque
from functools import partial
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path: the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from examples.maskable_ppo import net
from examples.maskable_ppo.adapter import GAMMA, MaskedSeat

try:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as missing:  # the one-line message the house asks for
    sys.exit(f"train.py needs the sb3 extra ({missing.name} is missing): "
             "pip install -e '.[sb3]'")


class Progress(BaseCallback):
    """Prints a line after each rollout; stops learning when the time is up."""

    def __init__(self, seconds: float, log: Any = print) -> None:
        super().__init__()
        self.seconds = seconds
        self.log = log
        self.start = time.monotonic()
        self.scores: deque[float] = deque(maxlen=200)
        self.games = 0
        self.stopped_by_time = False

    def _on_step(self) -> bool:
        for info, done in zip(self.locals["infos"], self.locals["dones"], strict=True):
            if done and "score" in info:
                self.scores.append(float(info["score"]))
                self.games += 1
        if time.monotonic() - self.start > self.seconds:
            self.stopped_by_time = True
            return False
        return True

    def _on_rollout_end(self) -> None:
        elapsed = time.monotonic() - self.start
        scores = np.array(self.scores) if self.scores else np.zeros(1)
        self.log(f"{elapsed:6.0f} s  {self.num_timesteps:8d} steps "
                 f"({self.num_timesteps / max(elapsed, 1e-9):4.0f}/s)  {self.games:6d} games  "
                 f"last {len(self.scores)}: {scores.mean():+6.2f} a game, "
                 f"{(scores > 0).mean():5.1%} won", flush=True)


def policy_layers(model: Any) -> net.Params:
    """The policy's linear layers (hidden ones, then the logits) as numpy arrays."""
    linears = [m for m in model.policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    linears.append(model.policy.action_net)
    return [(m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy())
            for m in linears]


def evaluate(layers: net.Params, games: int, seed: int) -> tuple[float, int, float]:
    """The deterministic policy against three random bots: mean score, wins, its standard
    error (seats drawn, deals from ``seed``; no shaping)."""
    seat = MaskedSeat(seed=seed, shaping=0.0)
    scores = []
    for _ in range(games):
        x, _ = seat.reset()
        done = False
        info: dict[str, Any] = {}
        while not done:
            action = net.best_action(layers, x, seat.action_masks())
            x, _, terminated, truncated, info = seat.step(action)
            done = terminated or truncated
        scores.append(float(info["score"]))
    values = np.array(scores)
    return float(values.mean()), int((values > 0).sum()), float(values.std() / np.sqrt(games))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True,
                        help="where to write the sb3 model (a .zip)")
    parser.add_argument("--policy", type=Path, required=True,
                        help="where to write the bot's layers (a .npz, net.py)")
    parser.add_argument("--minutes", type=float, default=9.0,
                        help="training time budget (wall clock; default 9)")
    parser.add_argument("--steps", type=int, default=10**9,
                        help="stop after this many steps if the time lasts (default: no cap)")
    parser.add_argument("--envs", type=int, default=8, help="games played side by side")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval-games", type=int, default=300)
    parser.add_argument("--eval-seed", type=int, default=10**6,
                        help="deals of the evaluation (apart from training's)")
    args = parser.parse_args(argv)
    for path, suffix in ((args.out, ".zip"), (args.policy, ".npz")):
        if path.suffix != suffix:
            parser.error(f"{path}: give a path ending in {suffix}")
    if args.minutes <= 0 or args.steps <= 0 or args.envs <= 0:
        parser.error("--minutes, --steps and --envs must be positive")

    torch.set_num_threads(1)
    started = time.monotonic()
    envs = DummyVecEnv([partial(MaskedSeat, seed=args.seed * 1000 + k)
                        for k in range(args.envs)])
    envs.seed(args.seed)
    model = MaskablePPO(
        "MlpPolicy", envs, seed=args.seed, gamma=GAMMA, gae_lambda=0.95,
        n_steps=256, batch_size=512, n_epochs=4, learning_rate=5e-4, ent_coef=0.01,
        policy_kwargs={"net_arch": {"pi": [128, 128], "vf": [128, 128]}}, device="cpu",
        verbose=0)
    progress = Progress(args.minutes * 60)
    print(f"MaskablePPO on Botzone duplicate, {args.envs} games side by side, budget "
          f"{args.minutes:g} min, seed {args.seed}", flush=True)
    model.learn(total_timesteps=args.steps, callback=progress)
    trained = time.monotonic() - started
    print(f"trained {trained:.0f} s, {model.num_timesteps} steps, {progress.games} games"
          f"{' (time budget reached)' if progress.stopped_by_time else ''}", flush=True)

    for path in (args.out, args.policy):
        path.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    layers = policy_layers(model)
    net.save(layers, args.policy)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes) and {args.policy} "
          f"({args.policy.stat().st_size:,} bytes)", flush=True)
    if args.eval_games:
        mean, wins, error = evaluate(net.load(args.policy), args.eval_games, args.eval_seed)
        print(f"against 3 random bots, {args.eval_games} games: {mean:+.2f} a game "
              f"(+/- {error:.2f}), {wins} won", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
