"""The NOI 2014 training environment: PettingZoo's conformance and seed tests, masked-out
actions refused with nothing changed, a game written with write_log passes ``server
verify`` with the rewards as its scores, and a policy bot plays the same game as a real
bot process in a match, in-process, and through the environment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from rulesets.noi2014.env import IllegalActionError, bot_actor, env, raw_env
from rulesets.noi2014.tiles import shuffled_wall
from sample_ai.noi2014 import greedy_bot, random_bot
from tests.bots.noi2014.policy_bot import PolicyBot
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
POLICY_BOT = "tests/bots/noi2014/policy_bot.py"
SAMPLES = "sample_ai/noi2014"


def random_game(environment: raw_env, seed: int) -> int:
    rng = np.random.default_rng(seed)
    steps = 0
    for _agent in environment.agent_iter():
        obs, _, term, trunc, _ = environment.last()
        if term or trunc:
            environment.step(None)
            continue
        environment.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps


def test_pettingzoo_api_test_and_seed_test_pass() -> None:
    api_test(env(), num_cycles=300)
    seed_test(env, num_cycles=300)


def test_a_masked_out_action_is_refused_by_name_and_changes_nothing() -> None:
    e = raw_env()
    e.reset(seed=3)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    before = (e.observe(agent)["observation"].copy(), e.game.output() if e.game else None)
    with pytest.raises(IllegalActionError, match=f"{agent} may not play {bad}"):
        e.step(bad)
    assert e.agent_selection == agent
    assert np.array_equal(e.observe(agent)["observation"], before[0])
    assert e.game is not None and e.game.output() == before[1]


def test_a_seed_deals_the_match_wall_and_a_given_wall_replays_the_same_game() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=7)
    b.reset(options={"wall": shuffled_wall(7, 0)})
    assert a.game is not None and a.game.wall == shuffled_wall(7, 0)
    random_game(a, 1)
    random_game(b, 1)
    assert a.record()["judge"] == b.record()["judge"]
    with pytest.raises(ValueError, match="108 tile codes"):
        b.reset(options={"wall": ["B1"] * 10})


def test_a_game_written_with_write_log_passes_server_verify_and_its_scores_are_the_rewards(
        tmp_path: Path) -> None:
    e = env()
    e.reset(seed=11)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    rng = np.random.default_rng(0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        rewards[agent] += reward
        if term or trunc:
            assert info["scores"] == e.unwrapped.game.scores
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    path = e.unwrapped.write_log(tmp_path / "game.json")
    record = json.loads(path.read_text())
    assert [rewards[f"player_{s}"] for s in range(4)] == record["scores"]
    assert sum(record["scores"]) == 10
    run = subprocess.run([*SERVER, "verify", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0 and "all agree" in run.stdout, run.stdout + run.stderr


def test_a_policy_bot_plays_the_same_game_as_a_process_in_process_and_in_the_env(
        tmp_path: Path) -> None:
    seed = 4
    run = subprocess.run([*SERVER, "match", "--ruleset", "noi2014", "--seed", str(seed), "-d",
                          "--log-dir", str(tmp_path),
                          f"json+keep-running:{sys.executable} {POLICY_BOT} --keep-running",
                          f"json+keep-running:python3 {SAMPLES}/greedy_bot.py --keep-running",
                          f"json:python3 {SAMPLES}/random_bot.py",
                          f"json+keep-running:python3 {SAMPLES}/greedy_bot.py --keep-running"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    (game_file,) = tmp_path.glob("*/games/*/game.json")
    record = json.loads(game_file.read_text())
    entries = [e for e in record["players"][0] if e is not None]
    assert {e["verdict"] for e in entries} == {"OK"} and not record["judge"][-1]["result"][
        "faulted"]
    # in-process: a fresh bot given the same history answers the same
    bot = PolicyBot(seed=0)
    requests = [e["request"] for e in entries]
    responses = [e["response"] for e in entries]
    for i in range(len(entries)):
        assert bot.respond(requests[:i + 1], responses[:i]) == responses[i], requests[i]
    # through the environment: the policy and the sample AIs as actors make the same game,
    # up to the end's target hands (the env answers every seat's nearest target itself)
    e = env()
    e.reset(seed=seed)
    actors = [bot_actor(PolicyBot), bot_actor(greedy_bot), bot_actor(random_bot),
              bot_actor(greedy_bot)]
    for agent in e.agent_iter():
        _, _, term, trunc, _ = e.last()
        e.step(None if term or trunc else actors[int(agent[-1])](e, agent))
    mine = e.unwrapped.record()
    assert mine["judge"][:-1] == record["judge"][:-1]
    ends = [x["result"]["remaining"] for x in (mine["judge"][-1], record["judge"][-1])]
    assert ends[0].keys() == ends[1].keys() and ends[0].get("0") == ends[1].get("0")
    assert [[x and x["response"] for x in seat][:-1] for seat in mine["players"]] == \
        [[x and x["response"] for x in seat][:-1] for seat in record["players"]]
    assert mine["players"][0][-1] == record["players"][0][-1] or \
        mine["players"][0][-1]["response"] == record["players"][0][-1]["response"]
