"""The learner's seat of Botzone's Mahjong env, shaped for a masked-PPO library.

``MaskedSeat(seed=...)`` is a Gymnasium env over ``SingleAgentEnv`` (the project's
single-agent wrapper of ``rulesets.botzone.env``, duplicate variant): the learner
takes a seat drawn at every game, the three others are the random sample AI
(``sample_ai/botzone/random_bot.py``) through ``bot_actor``. What it changes, and
nothing else:

* **The observation** is the env's default encoding (11 x 34, ``encoders.py``)
  flattened to 374 floats and scaled to about [0, 1] (``scale``): tile counts / 4,
  wall sizes / 34. A Box, which every library's MLP policy takes.
* **The mask** is the env's, given by ``action_masks()`` (the name sb3-contrib's
  MaskablePPO calls); the observation carries none.
* **The reward** is the game's score (Botzone's judge) / ``SCORE_SCALE``, plus a
  potential-based shaping term ``gamma * phi(s') - phi(s)`` where ``phi`` is minus
  ``SHAPING`` times the greedy sample AI's distance (``plan_distance``: shanten to
  some 8-fan hand) of the hand the learner rests on (its hand without the tile just
  drawn; the hand as it is when asked about another's discard), ``phi`` = 0 at the
  end. Such a term leaves the best policy unchanged (Ng, Harada and Russell, 1999)
  and tells the learner at once that a discard brought it nearer to a win, where
  the score alone says so once in many games: a policy over the mask at random
  wins about one game in 400 against random bots (2 of 800 measured).
  ``info["score"]`` holds the game's own score at the end.

It imports no torch: the tests run it without the ``sb3`` extra.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rulesets.botzone.env import bot_actor, env
from rulesets.botzone.seat_view import DISCARD, DRAW, N_ACTIONS, N_ROWS, N_TILES, ROB
from sample_ai.botzone import greedy_bot, random_bot
from server.training.single_agent import SingleAgentEnv

VARIANT = "duplicate"
SCORE_SCALE = 10.0  # a win against random bots scores 32 to about 100 points
SHAPING = 1.0  # reward for one step nearer to an 8-fan hand (greedy's distance)
GAMMA = 0.99  # the shaping's discount: train.py gives PPO the same
N_INPUTS = N_ROWS * N_TILES

Vector = npt.NDArray[np.float32]


def scale() -> Vector:
    """What each of the 374 inputs is multiplied by: counts / 4, wall sizes / 34."""
    factors = np.full((N_ROWS, N_TILES), 0.25, dtype=np.float32)
    factors[10, :] = 1.0  # one-hots and small counts
    factors[10, 12:16] = 1 / 34  # tiles left in each wall
    return factors.reshape(-1)


SCALE = scale()


def features(observation: npt.NDArray[Any]) -> Vector:
    """The env's (11, 34) observation as the policy's 374 inputs."""
    return np.asarray(observation, dtype=np.float32).reshape(-1) * SCALE


def distance(view: Any) -> float | None:
    """Greedy's distance to an 8-fan hand of the hand the learner rests on (None when
    the decision is not one where that hand is whole: the discard after a claim)."""
    hand = view.hand
    if view.kind == DRAW:
        hand = list(hand)
        hand.remove(view.tile)
    elif view.kind not in (DISCARD, ROB):
        return None
    return float(greedy_bot.plan_distance(view.packs, hand))


class MaskedSeat(gymnasium.Env[Vector, int]):
    """One seat against three random sample AIs (module docstring)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(self, seed: int = 0, shaping: float = SHAPING, gamma: float = GAMMA,
                 opponents: Any = random_bot) -> None:
        self.inner = SingleAgentEnv(env(variant=VARIANT), bot_actor(opponents), rotate=True)
        self.observation_space = spaces.Box(0.0, 4.0, (N_INPUTS,), np.float32)
        self.action_space: spaces.Space[Any] = spaces.Discrete(N_ACTIONS)
        self.shaping = shaping
        self.gamma = gamma
        self._seeds = np.random.default_rng(seed)
        self._phi = 0.0

    def _potential(self) -> float:
        if not self.shaping:
            return 0.0
        found = distance(self.inner.env.unwrapped.view(self.inner.learner))
        return self._phi if found is None else -self.shaping * found

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Vector, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        deal = int(self._seeds.integers(2**31))
        observation, info = self.inner.reset(seed=deal)
        self._phi = self._potential()
        return features(observation["observation"]), info

    def step(self, action: int) -> tuple[Vector, float, bool, bool, dict[str, Any]]:
        observation, score, terminated, truncated, info = self.inner.step(int(action))
        phi = 0.0 if terminated or truncated else self._potential()
        reward = score / SCORE_SCALE + self.gamma * phi - self._phi
        self._phi = phi
        if terminated or truncated:
            info = {**info, "score": score}
        return features(observation["observation"]), float(reward), terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now (what MaskablePPO asks for before every step)."""
        return self.inner.action_masks()
