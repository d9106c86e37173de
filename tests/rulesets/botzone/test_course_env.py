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
from rulesets.botzone.seat_view import HU, PENG, TILE_INDEX, action_of, chi_action
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


# --- the fast path (one CourseTable, the agents told by a log) against the text path ------


def play_both_ways(duplicate: bool, seed: int, agent_clz: Any = CourseAgent,
                   fast: bool = True, read: bool = True,
                   wild: float = 0.0) -> tuple[MahjongGBEnv, list[Any]]:
    """A seeded game (claims often; with probability ``wild`` a claim of the discard
    the mask may not offer): every observation, mask and reward in order, what each
    agent's view holds at each of its decisions (``read``) and at the end."""
    env = MahjongGBEnv({"agent_clz": agent_clz, "duplicate": duplicate, "fast": fast})
    random.seed(seed)
    rng = random.Random(seed)
    obs = env.reset()
    seen: list[Any] = []
    done = False
    while not done:
        actions = {}
        for name, o in obs.items():
            agent = env.agents[env.agent_names.index(name)]
            seen.append((name, o["observation"].tolist(), o["action_mask"].tolist()))
            if read:
                seen.append((agent.hand, agent.tileWall, agent.valid))
            legal = np.flatnonzero(o["action_mask"])
            grabs = [a for a in legal if a >= 36]
            actions[name] = int(rng.choice(grabs if grabs and rng.random() < 0.7 else legal))
            if env.state == "claim" and rng.random() < wild:
                t = TILE_INDEX[agent.curTile]
                actions[name] = rng.choice([PENG + t, *(chi_action(t // 9, n, t % 9 + 1)
                                                       for n in range(2, 9)
                                                       if t < 27 and abs(n - t % 9 - 1) <= 1)])
        obs, reward, done = env.step(actions)
        seen.append(sorted(reward.items()))
    seen.append([(o["observation"].tolist(), o["action_mask"].tolist()) for o in obs.values()])
    seen.append([(a.hand, a.packs, a.history, a.tileWall, a.shownTiles, a.wallLast, a.valid)
                 for a in env.agents])
    return env, seen


@pytest.mark.parametrize("duplicate", [pytest.param(True, marks=pytest.mark.slow), False],
                         ids=["duplicate", "classic"])
def test_the_fast_path_gives_the_text_paths_observations_masks_rewards_and_views(
        duplicate: bool) -> None:
    for seed in range(12):
        fast, seen_fast = play_both_ways(duplicate, seed)
        text, seen_text = play_both_ways(duplicate, seed, fast=False)
        assert fast.fast and not text.fast
        assert seen_fast == seen_text, (duplicate, seed)
        assert play_both_ways(duplicate, seed, read=False)[1] == \
            play_both_ways(duplicate, seed, fast=False, read=False)[1]
        assert play_both_ways(duplicate, seed, wild=0.004)[1] == \
            play_both_ways(duplicate, seed, fast=False, wild=0.004)[1]


def test_a_subclass_that_overrides_request2obs_is_told_every_request_as_text() -> None:
    class Recording(CourseAgent):
        def __init__(self, seatWind: int) -> None:
            super().__init__(seatWind)
            self.told: list[str] = []

        def request2obs(self, request: str) -> dict[str, Any] | None:
            self.told.append(request)
            return super().request2obs(request)

    for duplicate in (True, False):
        recording, seen_recording = play_both_ways(duplicate, 3, Recording)
        fast, seen_fast = play_both_ways(duplicate, 3)
        assert not recording.fast and fast.fast
        assert seen_recording == seen_fast
        for seat, agent in enumerate(recording.agents):
            logged = [own if player == seat else others
                      for player, own, others in fast._log]
            assert agent.told == [text for text in logged if text is not None]
            assert agent.told[0] == f"Wind {recording.prevalentWind}"
            assert agent.told[1].startswith("Deal ")
            assert any(text.startswith("Draw ") for text in agent.told)


def test_a_subclass_with_its_own_action2response_keeps_the_fast_path_and_is_asked() -> None:
    asked: list[int] = []

    class Speaking(CourseAgent):
        def action2response(self, action: int) -> str:
            asked.append(int(action))
            return super().action2response(action)

    env, seen = play_both_ways(True, 5, Speaking)
    assert env.fast and asked
    assert seen == play_both_ways(True, 5)[1]
