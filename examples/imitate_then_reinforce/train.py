#!/usr/bin/env python3
"""Train the example's policy with numpy alone: imitate greedy, then REINFORCE.

1. Imitation. The default ruleset's environment (``rulesets.default.env``)
   plays hands with the greedy sample AI in one seat (a new seat each hand) and
   the random sample AI in the three others, each driven by ``bot_actor``. At
   every decision of the greedy seat the observation (the default encoding),
   the action mask and greedy's action are recorded. The MLP of ``net.py``
   learns greedy's action by cross-entropy over the legal actions, with
   minibatch Adam; a tenth of the hands is held out to measure its accuracy.
2. Policy gradient. ``SingleAgentEnv`` puts the policy in a seat drawn at each
   hand (three random sample AIs in the others); actions are sampled from the
   policy, the reward is the hand's score, and REINFORCE with a baseline (the
   batch's mean score) nudges the weights, with a small learning rate so the
   imitation is refined, not forgotten.

Everything is seeded: the same budget gives the same weights. Run from the
repository root: ``python examples/imitate_then_reinforce/train.py`` (about
four minutes on two cores; ``--help`` for the budget). It prints its progress and
times and writes ``my_weights.npz`` beside this file (``--out`` to choose; the
committed ``weights.npz`` is only overwritten when named). ``POLICY_WEIGHTS=FILE``
makes ``policy_bot.py`` play the file.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

if __package__ in (None, ""):  # run by path: the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
# Small matrices: one BLAS thread is fastest, and many times faster on a busy machine
# (measured here: 3 s against 38 s for the same products with two busy cores).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from examples.imitate_then_reinforce import net
from rulesets.default.actions import AGANG, CHI, JGANG, OUT
from rulesets.default.env import bot_actor, env, raw_env
from server.training.single_agent import SingleAgentEnv

HERE = Path(__file__).resolve().parent
WEIGHTS = HERE / "my_weights.npz"
"""Where a run writes by default: not the committed ``weights.npz`` beside it."""
Log = Callable[[str], None]


@dataclass(frozen=True)
class Budget:
    """How much to train. ``Budget()`` is the full run; ``Budget.tiny()`` a test's."""

    hands: int = 3000  # imitation: hands played, greedy's decisions recorded
    held_out: float = 0.1  # the share of those hands kept to measure accuracy
    epochs: int = 16
    batch: int = 256
    lr: float = 2e-3
    hidden: int = 32  # the MLP's ReLUs
    tile_hidden: int = 64  # the tile scorer's
    rl_hands: int = 3000  # policy gradient: hands played by the policy
    rl_batch: int = 50  # hands per update
    rl_lr: float = 5e-5
    eval_hands: int = 400  # hands to measure the policy against random bots, after each phase
    seed: int = 25

    @classmethod
    def tiny(cls, hands: int = 40) -> Budget:
        """A budget for a test: ``hands`` imitation hands, as many policy-gradient ones."""
        return cls(hands=hands, epochs=8, batch=64, hidden=8, tile_hidden=8, rl_hands=hands,
                   rl_batch=max(hands // 4, 1), eval_hands=4)


@dataclass
class Report:
    """What a run measured (``train`` returns it with the weights)."""

    samples: int = 0
    record_seconds: float = 0.0
    losses: list[float] = field(default_factory=list)  # training loss, each epoch
    train_accuracy: float = 0.0
    held_out_accuracy: float = 0.0
    imitate_seconds: float = 0.0
    rl_scores: list[float] = field(default_factory=list)  # mean score, each update
    rl_seconds: float = 0.0
    imitation_score: float = 0.0  # mean score per hand against random bots (``evaluate``)
    final_score: float = 0.0  # the same after the policy gradient


# --- 1. imitation ---------------------------------------------------------------------


@dataclass(frozen=True)
class Decisions:
    """Greedy's decisions: observations, masks, actions and the hand each came from."""

    x: npt.NDArray[np.float32]
    mask: npt.NDArray[np.bool_]
    action: npt.NDArray[np.intp]
    hand: npt.NDArray[np.intp]

    def take(self, rows: npt.NDArray[np.bool_] | npt.NDArray[np.intp]) -> Decisions:
        return Decisions(self.x[rows], self.mask[rows], self.action[rows], self.hand[rows])


def record_greedy(hands: int, seed: int, log: Log = print) -> Decisions:
    """Play ``hands`` hands (deals of ``seed``): greedy in seat ``h % 4`` of hand
    ``h``, random elsewhere; record every decision greedy makes."""
    game = raw_env()
    greedy, random = bot_actor("greedy"), bot_actor("random")
    xs: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.int8]] = []
    actions: list[int] = []
    hand_of: list[int] = []
    start = time.perf_counter()
    for h in range(hands):
        if h == 0:
            game.reset(seed=seed)
        else:
            game.reset()
        teacher = f"player_{h % 4}"
        while not all(game.terminations.values()):
            agent = game.agent_selection
            if agent == teacher:
                seen = game.observe(agent)
                action = greedy(game, agent)
                xs.append(seen["observation"].reshape(-1))
                masks.append(seen["action_mask"])
                actions.append(action)
                hand_of.append(h)
            else:
                action = random(game, agent)
            game.step(action)
        if (h + 1) % 500 == 0 or h + 1 == hands:
            log(f"  recorded {h + 1}/{hands} hands, {len(actions)} decisions "
                f"({time.perf_counter() - start:.0f} s)")
    return Decisions(np.array(xs, np.float32).reshape(-1, net.N_INPUTS),
                     np.array(masks, bool).reshape(-1, net.N_ACTIONS),
                     np.array(actions, np.intp), np.array(hand_of, np.intp))


def _symmetries() -> list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """The 12 relabellings of the tiles that keep the game's shape: the three suits in any
    order, each with its ranks as they are or reversed (1 <-> 9); the honours stay.
    Each is (kinds, actions): new column ``k`` of the planes is old column ``kinds[k]``,
    and old action ``a`` becomes action ``actions[a]``."""
    out = []
    for order in itertools.permutations(range(3)):
        for flip in (False, True):
            new_kind = list(range(net.N_KINDS))
            for suit in range(3):
                for rank in range(9):
                    new_kind[9 * suit + rank] = 9 * order[suit] + (8 - rank if flip else rank)
            actions = list(range(net.N_ACTIONS))
            for kind in range(net.N_KINDS):
                for base in (OUT, AGANG, JGANG):
                    actions[base + kind] = base + new_kind[kind]
            for suit in range(3):
                for low in range(7):
                    new_low = 6 - low if flip else low
                    actions[CHI + 7 * suit + low] = CHI + 7 * order[suit] + new_low
            kinds = np.argsort(new_kind)  # the old kind that lands on each new one
            out.append((kinds.astype(np.intp), np.array(actions, np.intp)))
    return out


SYMMETRIES = _symmetries()


def relabel(data: Decisions, symmetry: int) -> Decisions:
    """The same decisions with the tiles relabelled by ``SYMMETRIES[symmetry]``."""
    kinds, actions = SYMMETRIES[symmetry]
    n = len(data.action)
    x = data.x.reshape(n, net.N_PLANES, net.N_KINDS)[:, :, kinds].reshape(n, -1)
    return Decisions(x, data.mask[:, np.argsort(actions)], actions[data.action], data.hand)


class Adam:
    """Adam (Kingma and Ba) over a dict of arrays, updated in place."""

    def __init__(self, params: net.Params, lr: float,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8) -> None:
        self.lr, self.betas, self.eps, self.t = lr, betas, eps, 0
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}

    def step(self, params: net.Params, grads: net.Params) -> None:
        self.t += 1
        b1, b2 = self.betas
        scale = self.lr * np.sqrt(1 - b2 ** self.t) / (1 - b1 ** self.t)
        for k, g in grads.items():
            self.m[k] = b1 * self.m[k] + (1 - b1) * g
            self.v[k] = b2 * self.v[k] + (1 - b2) * g * g
            params[k] -= (scale * self.m[k] / (np.sqrt(self.v[k]) + self.eps)).astype(np.float32)


def accuracy(params: net.Params, data: Decisions) -> float:
    """The share of decisions where the policy's most probable action is greedy's."""
    if len(data.action) == 0:
        return float("nan")
    right = 0
    for lo in range(0, len(data.action), 4096):  # in slices: the windows take room
        logp = net.Pass(params, data.x[lo:lo + 4096], data.mask[lo:lo + 4096]).logp
        right += int((logp.argmax(axis=1) == data.action[lo:lo + 4096]).sum())
    return right / len(data.action)


def imitate(params: net.Params, data: Decisions, budget: Budget, log: Log = print
            ) -> list[float]:
    """Minibatch Adam on the cross-entropy of greedy's actions; the loss of each epoch."""
    rng = np.random.default_rng(budget.seed)
    adam = Adam(params, budget.lr)
    n = len(data.action)
    losses = []
    for epoch in range(budget.epochs):
        order = rng.permutation(n)
        total = 0.0
        for lo in range(0, n, budget.batch):
            # Each minibatch under one of the 12 relabellings of the tiles, drawn at random:
            # twelve times the data for the price of recording it once.
            batch = relabel(data.take(order[lo:lo + budget.batch]), int(rng.integers(12)))
            x, mask, action = batch.x, batch.mask, batch.action
            rows = batch.action
            fwd = net.Pass(params, x, mask)
            logp = fwd.logp
            picked = np.arange(len(rows))
            total += float(-logp[picked, action].sum())
            dlogits = np.exp(logp)  # softmax - one-hot, averaged over the batch
            dlogits[picked, action] -= 1.0
            dlogits /= len(rows)
            adam.step(params, fwd.backward(params, dlogits))
        losses.append(total / n)
        log(f"  epoch {epoch + 1}/{budget.epochs}: loss {losses[-1]:.3f}")
    return losses


# --- 2. policy gradient -----------------------------------------------------------------


def reinforce(params: net.Params, budget: Budget, log: Log = print) -> list[float]:
    """REINFORCE with the batch's mean score as baseline, in ``SingleAgentEnv`` against
    three random sample AIs, the learner's seat drawn each hand; the mean score of each
    update's hands."""
    learner = SingleAgentEnv(env(), bot_actor("random"), rotate=True)
    rng = np.random.default_rng(budget.seed + 1)
    adam = Adam(params, budget.rl_lr)
    scores: list[float] = []
    spread = 0.0  # a running scale of the advantages
    played = 0
    seed: int | None = budget.seed + 1
    while played < budget.rl_hands:
        xs, masks, actions, returns = [], [], [], []
        batch_scores = []
        for _ in range(min(budget.rl_batch, budget.rl_hands - played)):
            obs, _ = learner.reset(seed=seed)
            seed = None  # then the next deals of that seed
            steps = 0
            score = 0.0
            done = False
            while not done:
                x = obs["observation"].reshape(1, -1)
                mask = obs["action_mask"].astype(bool).reshape(1, -1)
                logp = net.Pass(params, x, mask).logp
                cumulative = np.cumsum(np.exp(logp[0], dtype=np.float64))
                action = int(np.searchsorted(cumulative, rng.random() * cumulative[-1]))
                while not mask[0, action]:  # rounding at a forbidden edge: step back
                    action -= 1
                xs.append(x[0])
                masks.append(mask[0])
                actions.append(action)
                steps += 1
                obs, reward, terminated, truncated, _ = learner.step(action)
                score += reward
                done = terminated or truncated
            returns += [score] * steps
            batch_scores.append(score)
            played += 1
        mean = float(np.mean(batch_scores))
        scores.append(mean)
        spread = float(np.std(batch_scores)) if spread == 0.0 else \
            0.9 * spread + 0.1 * float(np.std(batch_scores))
        advantage = (np.array(returns, np.float32) - mean) / (spread + 1.0)
        x_all = np.array(xs, np.float32)
        mask_all = np.array(masks, bool)
        action_all = np.array(actions, np.intp)
        fwd = net.Pass(params, x_all, mask_all)
        logp = fwd.logp
        picked = np.arange(len(action_all))
        dlogits = np.exp(logp)  # the gradient of -advantage * log p(action)
        dlogits[picked, action_all] -= 1.0
        dlogits *= advantage[:, None] / len(batch_scores)
        adam.step(params, fwd.backward(params, dlogits))
        if len(scores) % 10 == 0 or played >= budget.rl_hands:
            log(f"  {played}/{budget.rl_hands} hands: mean score of the last "
                f"{min(len(scores), 10)} updates {np.mean(scores[-10:]):+.2f}")
    return scores


def evaluate(params: net.Params, hands: int, seed: int) -> float:
    """The policy's mean score per hand (most probable action, as the bot plays) against
    three random sample AIs, seat ``h % 4`` in hand ``h`` of the deals of ``seed``."""
    game = raw_env()
    random = bot_actor("random")
    total = 0.0
    for h in range(hands):
        if h == 0:
            game.reset(seed=seed)
        else:
            game.reset()
        me = f"player_{h % 4}"
        while not all(game.terminations.values()):
            agent = game.agent_selection
            if agent == me:
                seen = game.observe(agent)
                game.step(net.best_action(params, seen["observation"], seen["action_mask"]))
            else:
                game.step(random(game, agent))
        total += game.rewards[me]
    return total / hands


# --- the whole run ----------------------------------------------------------------------


def train(budget: Budget, log: Log = print) -> tuple[net.Params, Report]:
    """Both phases on ``budget``; the weights and what was measured."""
    report = Report()
    log(f"1. imitation of greedy: recording {budget.hands} hands (seed {budget.seed})")
    start = time.perf_counter()
    data = record_greedy(budget.hands, budget.seed, log)
    report.samples = len(data.action)
    report.record_seconds = time.perf_counter() - start
    cut = budget.hands - int(budget.hands * budget.held_out)
    train_set, held_out = data.take(data.hand < cut), data.take(data.hand >= cut)
    log(f"  {len(train_set.action)} decisions to learn from, {len(held_out.action)} held out")
    params = net.init(budget.hidden, budget.tile_hidden, budget.seed)
    start = time.perf_counter()
    report.losses = imitate(params, train_set, budget, log)
    report.imitate_seconds = time.perf_counter() - start
    report.train_accuracy = accuracy(params, train_set)
    report.held_out_accuracy = accuracy(params, held_out)
    log(f"  greedy's action chosen: {report.train_accuracy:.1%} of the training "
        f"decisions, {report.held_out_accuracy:.1%} of the held-out ones")
    report.imitation_score = evaluate(params, budget.eval_hands, budget.seed + 2)
    log(f"  against three random bots: {report.imitation_score:+.2f} points per hand "
        f"({budget.eval_hands} hands)")
    log(f"2. REINFORCE against three random bots: {budget.rl_hands} hands")
    start = time.perf_counter()
    report.rl_scores = reinforce(params, budget, log)
    report.rl_seconds = time.perf_counter() - start
    report.final_score = evaluate(params, budget.eval_hands, budget.seed + 2)
    log(f"  against three random bots: {report.final_score:+.2f} points per hand "
        f"(the same {budget.eval_hands} hands)")
    return params, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    full = Budget()
    parser.add_argument("--hands", type=int, default=full.hands,
                        help="imitation hands to record (default %(default)s)")
    parser.add_argument("--epochs", type=int, default=full.epochs)
    parser.add_argument("--rl-hands", type=int, default=full.rl_hands,
                        help="policy-gradient hands (default %(default)s)")
    parser.add_argument("--seed", type=int, default=full.seed)
    parser.add_argument("--out", type=Path, default=WEIGHTS,
                        help="where to write the weights (default: my_weights.npz beside this; "
                             "the committed weights.npz only when named)")
    args = parser.parse_args(argv)
    for name in ("hands", "epochs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.rl_hands < 0:
        parser.error("--rl-hands must be 0 or more")
    budget = replace(full, hands=args.hands, epochs=args.epochs, rl_hands=args.rl_hands,
                     seed=args.seed)
    start = time.perf_counter()
    params, report = train(budget)
    total = time.perf_counter() - start
    net.save(params, args.out)
    print(f"done in {total:.0f} s (recording {report.record_seconds:.0f} s, imitation "
          f"{report.imitate_seconds:.0f} s, REINFORCE {report.rl_seconds:.0f} s); "
          f"weights: {args.out} ({args.out.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
