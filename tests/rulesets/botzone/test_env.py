"""The Botzone PettingZoo environment: PettingZoo's own tests, the judge's scores as
rewards, its game records verified, policies as real bots and bots as opponents."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rulesets.botzone.encoders import CourseFeatures, DefaultEncoder
from rulesets.botzone.env import AGENTS, IllegalActionError, bot_actor, env, raw_env
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import HU, PASS, PLAY
from rulesets.botzone.verify import verify_record
from sample_ai.botzone import greedy_bot, random_bot
from server.seam.contract import Reply, VerifyReport

ROOT = Path(__file__).resolve().parents[3]
POLICY_BOT = ROOT / "tests" / "bots" / "botzone" / "policy_last_legal.py"
RANDOM_BOT = ROOT / "sample_ai" / "botzone" / "random_bot.py"


def play(e: Any, seed: int, choose: Any = None) -> dict[str, Any]:
    """One game with random legal actions (HU when legal); the final info and rewards."""
    rng = random.Random(seed)
    rewards: dict[str, float] = {}
    info: dict[str, Any] = {}
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            rewards[agent] = reward
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = choose(e, agent) if choose else HU if HU in legal else int(rng.choice(legal))
        e.step(action)
    return {"info": info, "rewards": rewards}


@pytest.mark.parametrize("variant", ["duplicate", "classic"])
def test_pettingzoo_api_and_seed_tests_pass(variant: str) -> None:
    api_test(env(variant=variant), num_cycles=200)
    seed_test(lambda: env(variant=variant), num_cycles=200)


@pytest.mark.parametrize("variant", ["duplicate", "classic"])
def test_a_game_written_out_passes_verify_and_its_scores_are_the_rewards(
        variant: str, tmp_path: Path) -> None:
    for seed in range(8):
        e = raw_env(variant=variant)
        e.reset(seed=seed)
        result = play(e, seed)
        path = e.write_log(tmp_path / f"{variant}{seed}.json")
        record = json.loads(path.read_text(encoding="utf-8"))
        report = VerifyReport()
        verify_record(record, path.name, report)
        assert not report.problems
        assert [result["rewards"][agent] for agent in AGENTS] == record["scores"]
        assert result["info"]["scores"] == record["scores"]


@pytest.mark.parametrize(("variant", "seed"), [("duplicate", 29), ("classic", 23)])
def test_a_won_game_rewards_each_agent_its_score_once(variant: str, seed: int) -> None:
    """Seeds whose game ends in HU (random HUANG games score 0, which hid a double count)."""
    e = env(variant=variant)
    e.reset(seed=seed)
    result = play(e, seed)
    assert result["info"]["end"] == "HU"
    scores = result["info"]["scores"]
    assert any(scores)
    assert [result["rewards"][agent] for agent in AGENTS] == scores


def test_server_verify_accepts_a_written_game(tmp_path: Path) -> None:
    e = raw_env(variant="duplicate")
    for seed in range(40):  # a game that someone wins
        e.reset(seed=seed)
        if play(e, seed)["info"]["end"] == "HU":
            break
    path = e.write_log(tmp_path)
    run = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                          "verify", str(path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_same_seed_or_initdata_gives_the_same_game() -> None:
    e = raw_env(variant="classic")
    e.reset(seed=7)
    first = play(e, 1)
    walls = e.judge.initdata if e.judge else {}
    e.reset(options={"initdata": {"walltiles": walls["walltiles"], "quan": walls["quan"]}})
    assert e.judge is not None and e.judge.initdata["walltiles"] == walls["walltiles"]
    assert play(e, 1)["rewards"] == first["rewards"]


def test_a_masked_out_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(variant="duplicate")
    e.reset(seed=3)
    agent = e.agent_selection
    before = e.observe(agent)
    with pytest.raises(IllegalActionError, match=agent):
        e.step(PASS)  # seat 0 has drawn: passing is no answer to one's own draw
    after = e.observe(agent)
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_the_encoders_shapes_and_planes() -> None:
    e = raw_env(variant="duplicate", encoder=CourseFeatures())
    e.reset(seed=2)
    obs = e.observe("player_0")
    assert obs["observation"].shape == (6, 4, 9)
    assert obs["observation"][2].sum() == len(set(e.view("player_0").hand))
    default = DefaultEncoder().encode(e.view("player_0"))
    assert default.shape == (11, 34) and default[0].sum() == 14 and default[9].sum() == 1


def test_without_display_fans_the_judge_gives_the_same_game_but_canhu() -> None:
    for variant in ("duplicate", "classic"):
        for seed in range(6):
            e = raw_env(variant=variant)
            e.reset(seed=seed)
            play(e, seed)
            full = Judge(variant, e.initdata)
            fast = Judge(variant, e.initdata, display_fans=False)
            for turn in range(len(e._responses[0])):
                replies = [Reply("OK", e._responses[s][turn]) for s in range(4)]
                a, b = full.step(replies), fast.step(replies)
                strip = [{**o, "display": {k: v for k, v in o["display"].items()
                                           if k != "canHu"}} for o in (a, b)]
                assert strip[0] == strip[1]
            assert full.scores == fast.scores and full.finished


def test_a_sample_ai_plays_in_process_as_an_opponent() -> None:
    e = raw_env(variant="duplicate")
    for seed in range(3):
        e.reset(seed=seed)
        actors = {"player_1": bot_actor(greedy_bot), "player_2": bot_actor(random_bot)}
        rng = random.Random(seed)

        def choose(game: Any, agent: str, actors: Any = actors, rng: Any = rng) -> int:
            if agent in actors:
                return actors[agent](game, agent)
            legal = np.flatnonzero(game.observe(agent)["action_mask"])
            return HU if HU in legal else int(rng.choice(legal))
        play(e, seed, choose)
        # the random bot never claims: its responses are its discards and passes
        assert all(r == "PASS" or r.startswith("PLAY") for r in e.history("player_2")[1])


def policy_responses(record: dict[str, Any], seat: int) -> list[str]:
    from tests.bots.botzone.policy_last_legal import PolicyBot

    bot = PolicyBot()
    requests = [turn["request"] for turn in record["players"][seat]]
    answers = [turn["response"] for turn in record["players"][seat]]
    return [bot.respond(requests[:k + 1], answers[:k]) for k in range(len(requests))]


def test_a_policy_bot_plays_a_real_match_as_its_in_process_twin(tmp_path: Path) -> None:
    bots = [f"json+keep-running:{sys.executable} {POLICY_BOT} --keep-running",
            f"json+keep-running:{sys.executable} {POLICY_BOT} --keep-running",
            f"json+keep-running:{sys.executable} {RANDOM_BOT} --keep-running",
            f"json+keep-running:{sys.executable} {POLICY_BOT} --keep-running"]
    run = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                          "match", "--ruleset", "botzone", "--variant", "duplicate",
                          "--seed", "11", "--time-limit", "8", *bots, "-d", "--log-dir",
                          str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    (match,) = tmp_path.iterdir()
    record = json.loads((match / "games" / "001" / "game.json").read_text())
    assert all(turn["verdict"] == "OK" for seat in record["players"] for turn in seat)
    for seat in (0, 1, 3):
        recorded = [turn["response"] for turn in record["players"][seat]]
        assert policy_responses(record, seat) == recorded
    claims = [r for seat in (0, 1, 3) for r in (t["response"] for t in
                                                record["players"][seat])
              if r.startswith(("PENG", "CHI", "GANG"))]
    assert claims  # the two-decision claims were played for real
    assert record["judge"][-1]["display"]["action"] in ("HU", "HUANG")
    # restarted every turn (Botzone's default): the whole history in one JSON line
    turns = record["players"][1]
    for k in (1, len(turns) // 2, len(turns) - 1):
        given = {"requests": [t["request"] for t in turns[:k + 1]],
                 "responses": [t["response"] for t in turns[:k]]}
        once = subprocess.run([sys.executable, str(POLICY_BOT)], input=json.dumps(given),
                              capture_output=True, text=True, timeout=60)
        assert json.loads(once.stdout)["response"] == turns[k]["response"]


def test_a_policy_bot_in_the_env_answers_as_its_env_decisions() -> None:
    from tests.bots.botzone.policy_last_legal import PolicyBot, last_legal

    e = raw_env(variant="duplicate")
    e.reset(seed=5)
    actor = bot_actor(PolicyBot)
    seen: list[tuple[int, int]] = []

    def choose(game: Any, agent: str) -> int:
        obs = game.observe(agent)
        mine = last_legal(obs["observation"], obs["action_mask"])
        theirs = actor(game, agent)
        seen.append((mine, theirs))
        return theirs
    play(e, 5, choose)
    assert seen and all(a == b for a, b in seen)
    assert any(a >= PLAY for a, _ in seen)


class OneGameBot:
    """random_bot's answers, from a bot object that must only ever see one game."""

    def __init__(self) -> None:
        self.deal: str | None = None

    def respond(self, requests: list[str], responses: list[str]) -> str:
        self.deal = self.deal or requests[1]
        assert requests[1] == self.deal, "a bot object was handed a second game"
        return str(random_bot.respond(requests, responses))


def test_a_bot_class_gets_a_fresh_bot_for_every_game_of_an_env() -> None:
    # bot_actor used to key a game's bots by the id of its judge: a later game's judge
    # took a freed judge's id, and that game's seat was played by the old game's bot,
    # which then answered from the old game's hand (an illegal discard: measured within
    # 11 to 44 games of this loop, whatever the hash seed). 100 games, four bots each.
    actor = bot_actor(OneGameBot)
    game = env(variant="duplicate")
    for seed in range(100):
        game.reset(seed=seed)
        for agent in game.agent_iter():
            _, _, term, trunc, _ = game.last()
            game.step(None if term or trunc else actor(game, agent))
