"""The example examples/maskable_ppo without torch: the env adapter MaskablePPO trains on
(observation, mask, shaped reward, seeding), the numpy network of the saved policy, and the
committed policy played as a Botzone bot answering only legal actions. Training itself needs
the sb3 extra (torch), which the test extra leaves out: its README gives the measured run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from examples.maskable_ppo import net
from examples.maskable_ppo.adapter import N_INPUTS, SCORE_SCALE, MaskedSeat, distance
from examples.maskable_ppo.policy_bot import LAYERS, PolicyBot
from rulesets.botzone.env import bot_actor, env
from rulesets.botzone.seat_view import N_ACTIONS


def play(seat: MaskedSeat, seed: int) -> tuple[list[np.ndarray], list[float], dict[str, object]]:
    """One game at random over the mask: the observations, the rewards, the last info."""
    rng = np.random.default_rng(seed)
    x, _ = seat.reset()
    seen, rewards = [x], []
    while True:
        mask = seat.action_masks()
        assert mask.dtype == np.bool_ and mask.shape == (N_ACTIONS,) and mask.any()
        x, reward, terminated, truncated, info = seat.step(int(rng.choice(np.flatnonzero(mask))))
        seen.append(x)
        rewards.append(reward)
        if terminated or truncated:
            return seen, rewards, info


def test_the_observation_is_a_flat_scaled_box_and_the_mask_is_the_envs() -> None:
    seat = MaskedSeat(seed=3)
    seen, _, _ = play(seat, 3)
    assert all(x.shape == (N_INPUTS,) and x.dtype == np.float32 for x in seen)
    assert all(seat.observation_space.contains(x) for x in seen)
    assert max(float(x.max()) for x in seen) <= 1.0  # counts / 4, walls / 34


def test_the_shaping_adds_up_to_the_score_less_the_first_potential() -> None:
    # With gamma 1 the shaping terms cancel along the game: what is left is the score
    # and minus the potential of the first hand (greedy's distance of it, times SHAPING).
    for seed in range(4):
        seat = MaskedSeat(seed=seed, shaping=1.0, gamma=1.0)
        seat.reset()
        first = distance(seat.inner.env.unwrapped.view(seat.inner.learner))
        seat = MaskedSeat(seed=seed, shaping=1.0, gamma=1.0)
        _, rewards, info = play(seat, seed)
        assert first is not None
        assert np.isclose(sum(rewards), float(info["score"]) / SCORE_SCALE + first)  # type: ignore[arg-type]


def test_the_deals_and_seats_follow_the_seed() -> None:
    first = play(MaskedSeat(seed=5), 1)
    again = play(MaskedSeat(seed=5), 1)
    other = play(MaskedSeat(seed=6), 1)
    assert len(first[0]) == len(again[0])
    assert all(np.array_equal(a, b) for a, b in zip(first[0], again[0], strict=True))
    assert first[1] == again[1]
    assert not np.array_equal(first[0][0], other[0][0])


def test_the_saved_network_picks_the_best_legal_action(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(8, N_INPUTS)).astype(np.float32), np.zeros(8, np.float32)),
              (rng.normal(size=(N_ACTIONS, 8)).astype(np.float32),
               np.zeros(N_ACTIONS, np.float32))]
    net.save(layers, tmp_path / "p.npz")
    loaded = net.load(tmp_path / "p.npz")
    assert [w.shape for w, _ in loaded] == [w.shape for w, _ in layers]
    x = rng.random(N_INPUTS).astype(np.float32)
    logits = net.logits(loaded, x)
    mask = np.zeros(N_ACTIONS, np.int8)
    mask[[3, 40, 100]] = 1
    assert net.best_action(loaded, x, mask) == [3, 40, 100][int(np.argmax(logits[[3, 40, 100]]))]
    mask[:] = 0
    mask[int(np.argmin(logits))] = 1  # the worst action, when it is the only legal one
    assert net.best_action(loaded, x, mask) == int(np.argmin(logits))


def test_the_committed_policy_plays_whole_games_as_a_bot_with_legal_actions_only() -> None:
    # Four seats of the committed policy as Botzone bots (requests in, responses out), the
    # env's judge checking every action: an illegal one would raise.
    assert LAYERS[0][0].shape[1] == N_INPUTS and LAYERS[-1][0].shape[0] == N_ACTIONS
    actor = bot_actor(PolicyBot)
    game = env(variant="duplicate")
    for seed in range(3):
        game.reset(seed=seed)
        ends = set()
        for agent in game.agent_iter():
            _, _, terminated, truncated, info = game.last()
            if terminated or truncated:
                ends.add(info["end"])
            game.step(None if terminated or truncated else actor(game, agent))
        assert ends in ({"HU"}, {"HUANG"})  # no error (WA) ended the game


def test_the_bot_plays_what_the_network_picks_on_the_training_observation() -> None:
    # The bot rebuilds its view from Botzone's requests; the learner's seat of the env
    # encodes the judge's state: the same inputs, so the same action, at every decision.
    # Twelve games of the learner's seat among random sample AIs, seats drawn (seed 7):
    # the committed policy won one of them (measured: 38 points), the random bots none.
    seat = MaskedSeat(seed=7, shaping=0.0)
    actor = bot_actor(PolicyBot)
    scores = []
    for _ in range(12):
        x, _ = seat.reset()
        while True:
            mask = seat.action_masks()
            action = actor(seat.inner.env, seat.inner.learner)
            assert mask[action]
            assert action == net.best_action(LAYERS, x, mask)
            x, _, terminated, truncated, info = seat.step(action)
            if terminated or truncated:
                scores.append(float(info["score"]))
                break
    assert min(scores) >= 0 and sum(scores) > 0


def test_a_missing_policy_file_is_one_line_not_a_traceback(tmp_path: Path) -> None:
    bot = Path(__file__).resolve().parents[2] / "examples" / "maskable_ppo" / "policy_bot.py"
    env_vars = {**os.environ, "MASKABLE_PPO_POLICY": str(tmp_path / "none.npz")}
    done = subprocess.run([sys.executable, str(bot)], input="", capture_output=True,
                          text=True, env=env_vars, timeout=60)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "cannot read the policy" in done.stderr
