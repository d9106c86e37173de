"""The course's MahjongGBEnv drop-in: the reference games, fed their wall and their
players' answers as course actions, end with their recorded scores; its own agent's
masks are the judge's."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from rulesets.botzone.course_env import CourseAgent, MahjongGBEnv
from rulesets.botzone.seat_view import HU, action_of
from tests.datadir import botzone_games

GAMES = botzone_games()
UNFED = {"c14_tle_test_bot", "c18_real_random_bot_re", "d11_re_test_bot", "d12_tle_test_bot"}
"""Games ended by a verdict (a stall, a crash): the course's env has no verdicts."""


def feed(record: dict[str, Any]) -> dict[str, float]:
    """A reference game through the drop-in: its wall, and its players' answers as actions
    (the environment sets the agents' variant from ``duplicate``)."""
    env = MahjongGBEnv({"agent_clz": CourseAgent,
                        "duplicate": record["variant"] == "duplicate"})
    obs = env.reset(record["initdata"]["quan"], record["initdata"]["walltiles"])
    pending: dict[int, int] = {}
    reward: dict[str, float] = {}
    done = False
    while not done:
        actions = {}
        turn = env.judge.turn
        for name in obs:
            seat = env.agent_names.index(name)
            if env.state == "discard":
                actions[name] = pending.pop(seat)
                continue
            response = record["players"][seat][turn]["response"]
            action, discard = action_of(response, env.agents[seat].view)
            if discard is not None:
                pending[seat] = discard
            actions[name] = action
        obs, reward, done = env.step(actions)
    return reward


@pytest.mark.parametrize("path", [p for p in GAMES if p.stem not in UNFED],
                         ids=lambda p: p.stem)
def test_a_reference_game_fed_to_the_course_env_ends_with_its_scores(path: Any) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    reward = feed(record)
    assert [reward[name] for name in MahjongGBEnv.agent_names] == record["scores"]


@pytest.mark.parametrize("duplicate", [True, False])
def test_random_course_agents_play_whole_games_without_an_invalid_move(
        duplicate: bool) -> None:
    env = MahjongGBEnv({"agent_clz": CourseAgent, "duplicate": duplicate, "variety": 5})
    rng = random.Random(1)
    for _ in range(10):
        obs = env.reset()
        done = False
        while not done:
            actions = {}
            for name, o in obs.items():
                legal = np.flatnonzero(o["action_mask"])
                actions[name] = HU if HU in legal else int(rng.choice(legal))
                assert o["observation"].shape == (6, 4, 9)
            obs, reward, done = env.step(actions)
        assert len(reward) == 4
        assert env.judge.output()["display"]["action"] in ("HU", "HUANG")


def test_in_classic_an_agent_that_takes_the_variant_is_told_every_flower() -> None:
    told: list[str] = []

    class Listening(CourseAgent):
        def request2obs(self, request: str) -> dict[str, Any] | None:
            if self.seatWind == 0:
                told.append(request)
            return super().request2obs(request)

    env = MahjongGBEnv({"agent_clz": Listening, "duplicate": False})
    random.seed(2)
    rng = random.Random(2)
    obs = env.reset()
    done = False
    while not done:
        obs, _, done = env.step({name: int(rng.choice(np.flatnonzero(o["action_mask"])))
                                 for name, o in obs.items()})
    flowers = [f"Player {seat} BuHua {tile}" for seat in range(4)
               for tile in env.judge._flowers[seat]]
    assert sorted(r for r in told if " BuHua " in r) == sorted(flowers) and flowers
    assert env.agents[0].tileWall[0] == len(env.judge._walls[0])
