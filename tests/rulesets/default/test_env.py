"""The default ruleset's PettingZoo environment, its policy bot and its bot actors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from protocol.messages import Out
from rulesets.default.actions import (
    ANSWERS,
    HU,
    N_ACTIONS,
    PASS,
    QGANG,
    action_of,
    answer_of,
    chi_index,
    describe,
)
from rulesets.default.engine.rng import deal
from rulesets.default.env import IllegalActionError, bot_actor, env, raw_env
from tests.rulesets.default.mask_check import play_checked

ROOT = Path(__file__).resolve().parents[3]
# Random games whose every mask is put to the engine in the suite (bench/check_env_masks.py
# runs thousands): about 0.2 s of CPU each.
MASK_GAMES = 30


def play_random(e: object, seed: int) -> list[int]:
    """Play one hand with random legal actions; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, _, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)  # type: ignore[attr-defined]
        assert agent in e.possible_agents  # type: ignore[attr-defined]
    return taken


def test_every_action_maps_to_its_answer_and_back() -> None:
    assert [action_of(ANSWERS[a]) for a in range(N_ACTIONS)] == list(range(N_ACTIONS))
    assert describe(0) == "out 1M" and describe(HU) == "hu" and describe(QGANG) == "qgang"
    assert describe(chi_index(20)) == "chi 3T"
    with pytest.raises(ValueError, match="no chow starts at 8M"):
        chi_index(7)
    with pytest.raises(ValueError, match=r"not in 0\.\.127"):
        answer_of(128)


def test_pettingzoo_api_test_passes() -> None:
    api_test(env(), num_cycles=300)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(env, num_cycles=300)


def test_masks_allow_exactly_what_the_engine_accepts() -> None:
    stats = play_checked(MASK_GAMES, seed=1)
    assert stats.decisions > 50 * MASK_GAMES
    # The games met claims and passes, not only discards.
    assert {"out", "pass", "chi", "peng"} <= set(stats.kinds)
    assert stats.only_pass > 0


def test_same_seed_same_deal_as_simulate_and_same_game() -> None:
    e = raw_env()
    e.reset(seed=7)
    assert e.hand is not None and e.hand.wall == deal(7, 0).wall
    e.reset()
    assert e.hand is not None and e.hand.wall == deal(7, 1).wall
    e2 = env()
    e2.reset(seed=11)
    again = env()
    again.reset(seed=11)
    first = play_random(e2, 3)
    assert first and first == play_random(again, 3)


def test_a_given_wall_is_played() -> None:
    dealt = deal(5, 2)
    e = raw_env()
    e.reset(options={"wall": [t.code for t in dealt.wall], "first": dealt.first})
    assert e.hand is not None and e.hand.wall == dealt.wall and e.hand.first == dealt.first
    with pytest.raises(ValueError, match="needs a 'first'"):
        e.reset(options={"wall": [t.code for t in dealt.wall]})
    with pytest.raises(ValueError, match="holds 135 tiles"):
        e.reset(options={"wall": [t.code for t in dealt.wall[1:]], "first": 0})
    with pytest.raises(ValueError, match=r"wall tile 0 \('X'\) is not a tile"):
        e.reset(options={"wall": ["X", *[t.code for t in dealt.wall[1:]]], "first": 0})


def test_a_masked_out_action_is_refused_and_nothing_changes() -> None:
    e = raw_env()
    e.reset(seed=2)
    agent = e.agent_selection
    before = (len(e.hand.inputs), e.observe(agent)["observation"].tobytes())  # type: ignore[union-attr]
    mask = e.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match=f"{agent}: action {illegal} "):
        e.step(illegal)
    assert (len(e.hand.inputs), e.observe(agent)["observation"].tobytes()) == before  # type: ignore[union-attr]
    assert e.agent_selection == agent


def test_only_real_choices_are_asked() -> None:
    e = raw_env()
    e.reset(seed=4)
    while not all(e.terminations.values()):
        mask = e.observe(e.agent_selection)["action_mask"]
        assert mask.sum() >= 1 and not (mask.sum() == 1 and mask[PASS])
        # Other agents are not asked: their masks are empty.
        assert all(not e.observe(a)["action_mask"].any() for a in e.agents
                   if a != e.agent_selection)
        e.step(int(np.flatnonzero(mask)[-1]))  # claims and wins when it can


def test_rewards_are_the_scores_and_write_log_passes_server_verify(tmp_path: Path) -> None:
    # Seeds whose hand ends in a win with the "last legal action" player (claims, wins).
    for seed in range(40):
        e = env()
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            totals[agent] += reward
            if term or trunc:
                final_info = info
                e.step(None)
                continue
            e.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if final_info["result"] != "draw":
            break
    else:
        pytest.fail("no win in 40 hands")
    folder = e.unwrapped.write_log(tmp_path / "hand")
    done = subprocess.run([sys.executable, "-m", "server.cli", "verify", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    result = next(r for r in rows if r["type"] == "result")
    assert result["deltas"] == [totals[a] for a in e.possible_agents] == final_info["scores"]
    assert any(totals.values())
    assert (folder / "game.log").read_text().splitlines()[-1].startswith("score ")


def test_view_follows_the_engine_hand() -> None:
    e = raw_env()
    e.reset(seed=9)
    rng = np.random.default_rng(0)
    while not all(e.terminations.values()):
        for seat, view in enumerate(e.views):
            assert e.hand is not None
            assert view.counts == [e.hand.hands[seat].count(t) for t in range(34)]
            assert view.rivers[seat] == e.hand.rivers[seat]
            assert view.wall_left == e.hand.wall_left
        mask = e.observe(e.agent_selection)["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))


def test_observation_planes() -> None:
    e = raw_env()
    e.reset(seed=0)
    agent = e.agent_selection
    seat = e.agent_name_mapping[agent]
    obs = e.observe(agent)["observation"]
    assert obs.shape == (31, 34) and obs.dtype == np.float32
    assert e.hand is not None
    hand = e.hand.hands[seat]
    assert [int(obs[0, t]) for t in range(34)] == [int(t in hand) for t in range(34)]
    assert obs[4].sum() == 1 and obs[19].all()  # the drawn tile, own turn
    assert obs[26, 0] == pytest.approx(e.hand.wall_left / 84)
    assert obs[27 + (seat - e.hand.first) % 4].all()
    assert Out(hand[-1]) in [ANSWERS[a] for a in np.flatnonzero(e.observe(agent)["action_mask"])]


# --- the policy bot and the bot actors -------------------------------------------------------

POLICY = "tests/bots/linear_policy.py"
# The players of the match and of its in-process replay: the programs, and the same bots
# built in-process (a bot program plays with seed 0 when not given one).
MATCH_PLAYERS = (POLICY, "sample_ai/random_bot.py", "sample_ai/greedy.py", POLICY)
IN_PROCESS = (f"{POLICY}:PolicyBot", "random", "greedy", f"{POLICY}:PolicyBot")
MATCH_HANDS = 4  # real processes: four starts a hand


def _answers_by_seat(inputs: list[tuple[int, str]]) -> list[list[str]]:
    """Each seat's answers in order (the order between seats in a claim window is the
    order the answers arrived in, which real processes do not fix)."""
    by_seat: list[list[str]] = [[], [], [], []]
    for seat, line in inputs:
        by_seat[seat].append(line)
    return by_seat


async def test_policy_bot_plays_a_real_match_with_the_answers_it_gives_in_process(
        tmp_path: Path) -> None:
    """The first hands of a match (``run_match``, what ``server match`` runs, with its
    ``hands`` option), each bot a real process; then each hand again in-process."""
    from protocol.messages import format_line
    from protocol.tiles import parse_tile
    from rulesets.default.engine.hand import Hand
    from rulesets.default.engine.simulate import play_hand, resolve_bot
    from rulesets.default.match import MatchConfig, Player, run_match

    players = tuple(Player(p, (sys.executable, str(ROOT / p))) for p in MATCH_PLAYERS)
    match = tmp_path / "match"
    result = await run_match(MatchConfig(players, seed=3, groups=1, log_root=match,
                                         hands=MATCH_HANDS))
    assert result.completed and len(result.hands) == MATCH_HANDS
    assert not any(h.faults for h in result.hands)
    factories = [resolve_bot(spec) for spec in IN_PROCESS]
    claims = 0
    for folder in sorted(p for p in match.iterdir() if p.is_dir()):
        rows = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
        header = rows[0]
        players = [s["player"] for s in header["seats"]]
        bots = [factories[p](0) for p in players]
        played = play_hand(Hand([parse_tile(t) for t in header["wall"]], header["first"]), bots)
        assert not any(played.illegal) and not any(getattr(b, "fallbacks", 0) for b in bots)
        recorded = [(r["seat"], r["line"]) for r in rows if r["type"] == "input"]
        ours = [(i.seat, format_line(i.message)) for i in played.hand.inputs
                if i.message is not None]
        assert _answers_by_seat(ours) == _answers_by_seat(recorded), folder.name
        events = [{k: v for k, v in r.items() if k != "type"} for r in rows
                  if r["type"] == "event"]
        assert len(events) == len(played.hand.events)
        claims += sum(line.split()[0] in ("peng", "chi", "gang", "hu")
                      for seat, line in recorded if players[seat] in (0, 3))
    assert claims > 0  # the policy bots did more than discard


def test_policy_bot_plays_in_server_simulate() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "simulate", "--bots",
         ",".join(IN_PROCESS), "--hands", "8", "--seed", "1", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    summary = json.loads(done.stdout)
    assert summary["hands"] == 8
    assert [p["illegal"] for p in summary["players"]] == [0, 0, 0, 0]


def test_bot_actors_replay_server_simulate_hand_for_hand() -> None:
    from rulesets.default.engine.simulate import play_hands, resolve_bot

    specs = ["greedy", "random", f"{POLICY}:PolicyBot", "greedy"]
    actors = [bot_actor(spec) for spec in specs]
    e = raw_env()
    simulated = play_hands([resolve_bot(s) for s in specs], 21, range(3))
    for h, (played, _) in enumerate(simulated):
        if h == 0:
            e.reset(seed=21)
        else:
            e.reset()
        while not all(e.terminations.values()):
            agent = e.agent_selection
            seat = e.agent_name_mapping[agent]
            e.step(actors[(seat + h) % 4](e, agent))  # simulate's seating: player (s + h) % 4
        assert e.hand is not None
        assert e.hand.events == played.hand.events
        assert [e.rewards[a] for a in e.possible_agents] == list(played.result.deltas)


def test_write_log_refuses_a_file_name_and_says_to_give_a_folder(tmp_path: Path) -> None:
    e = raw_env()
    e.reset(seed=3)
    with pytest.raises(ValueError, match=r"hand folder.*not a file.*'game'"):
        e.write_log(tmp_path / "game.json")
    assert not (tmp_path / "game.json").exists()
    (tmp_path / "taken.txt").write_text("x")
    with pytest.raises(ValueError, match="not a file"):
        e.write_log(tmp_path / "taken.txt")
    assert (e.write_log(tmp_path / "run.v2") / "events.jsonl").is_file()
