"""One learning seat in any of the rulesets' PettingZoo environments, as a Gymnasium env.

``SingleAgentEnv(aec_env, opponents)`` wraps an agent-environment-cycle env
(``rulesets.<ruleset>.env.env()``): one agent (the learner) is played through
``reset``/``step``, every other agent by an actor, a callable ``(env, agent) ->
action`` (each ruleset's ``bot_actor(...)`` turns its sample AIs and saved
policies into actors). After ``reset`` and after each ``step`` the actors play
until the learner must decide or the game ends, so every observation the
learner gets is one it must act on (with its ``action_mask``), or the last one.

* ``reset(seed=s)`` resets the wrapped env with the same seed (its deal), so a
  run can be replayed; with ``rotate=True`` the learner's seat is drawn from
  this env's own seeded generator at every reset. A deal in which the game ends
  before the learner is ever asked is skipped for the next one (``info
  ["skipped_deals"]`` counts them).
* ``step(action)`` returns ``(observation, reward, terminated, truncated,
  info)``: the reward is the learner's reward over the step and the actors'
  moves that followed (the game's score at its end, 0 before, in our envs);
  ``info`` is the wrapped env's info for the learner (``scores`` at the end).
* An action the mask forbids raises the wrapped env's error by default
  (``illegal="raise"``); ``illegal="replace"`` plays the first legal action
  instead and says so in ``info["illegal_action"]`` (what a check that samples
  unmasked actions, such as Gymnasium's ``check_env``, needs).
* ``action_masks()`` gives the current mask (the name masked-PPO trainers call).

It imports no ruleset: only gymnasium, numpy and pettingzoo's types.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt

Actor = Callable[[Any, str], int]
Observation = dict[str, npt.NDArray[Any]]
ILLEGAL_MODES = ("raise", "replace")
MAX_SKIPPED_DEALS = 1000


class SingleAgentEnv(gymnasium.Env[Observation, int]):
    """One learner among actors in a PettingZoo AEC env (module docstring)."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's attribute)

    def __init__(self, env: Any, opponents: Actor | Mapping[str, Actor],
                 learner: str | None = None, rotate: bool = False,
                 illegal: str = "raise") -> None:
        agents = list(env.possible_agents)
        if learner is not None and learner not in agents:
            raise ValueError(f"learner {learner!r} is not an agent of the env ({agents})")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal={illegal!r}: use one of {', '.join(ILLEGAL_MODES)}")
        self.env = env
        self.agents = agents
        self.learner: str = agents[0] if learner is None else learner
        self.rotate = rotate
        self.illegal = illegal
        if callable(opponents):
            self.opponents: dict[str, Actor] = dict.fromkeys(agents, opponents)
        else:
            self.opponents = dict(opponents)
            need = agents if rotate else [a for a in agents if a != self.learner]
            missing = [a for a in need if a not in self.opponents]
            if missing:
                raise ValueError(f"no actor for {', '.join(missing)} (give one actor for "
                                 "every seat, or a mapping with every other agent)")
        self.observation_space = env.observation_space(self.learner)
        self.action_space = env.action_space(self.learner)

    # --- the Gymnasium interface --------------------------------------------------------

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if self.rotate:
            self.learner = self.agents[int(self.np_random.integers(len(self.agents)))]
        self.env.reset(seed=seed, options=options)
        skipped = 0
        self._play_others()
        while self._learner_done():  # the game ended before the learner had a say
            skipped += 1
            if skipped > MAX_SKIPPED_DEALS:
                raise RuntimeError(f"{self.learner} was never asked in {skipped} games")
            self.env.reset()
            self._play_others()
        info = dict(self.env.infos.get(self.learner, {}))
        if skipped:
            info["skipped_deals"] = skipped
        return self.env.observe(self.learner), info

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        env = self.env
        if self._learner_done():
            raise RuntimeError("step after the game ended: call reset()")
        extra: dict[str, Any] = {}
        mask = env.observe(self.learner)["action_mask"]
        if self.illegal == "replace" and not (0 <= int(action) < len(mask) and mask[action]):
            extra["illegal_action"] = int(action)
            action = int(np.flatnonzero(mask)[0])
        env.step(int(action))
        reward = float(env.rewards.get(self.learner, 0.0))
        reward += self._play_others()
        terminated = bool(env.terminations.get(self.learner, True))
        truncated = bool(env.truncations.get(self.learner, False))
        info = {**env.infos.get(self.learner, {}), **extra}
        return env.observe(self.learner), reward, terminated, truncated, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans."""
        mask: npt.NDArray[np.bool_] = self.env.observe(self.learner)["action_mask"].astype(bool)
        return mask

    def close(self) -> None:
        self.env.close()

    # --- the others' moves ----------------------------------------------------------------

    def _learner_done(self) -> bool:
        env = self.env
        return bool(env.terminations.get(self.learner, True)
                    or env.truncations.get(self.learner, False))

    def _play_others(self) -> float:
        """Let the actors play until the learner must act or is done; its rewards meanwhile."""
        env, learner = self.env, self.learner
        reward = 0.0
        while not self._learner_done():
            agent = env.agent_selection
            if agent == learner:
                break
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
            else:
                env.step(self.opponents[agent](env, agent))
            reward += float(env.rewards.get(learner, 0.0))
        return reward
