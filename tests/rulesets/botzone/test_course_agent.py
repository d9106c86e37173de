"""CourseAgent: the course's FeatureAgent interface, and masks that are exactly the judge's.

The property test plays seeded games of both variants through the drop-in
``MahjongGBEnv`` (HU when offered, claims often, else a random action of the mask)
and, at every decision, asks a copy of the judge about every action that could be
legal there, the other seats passing: an offered one must be accepted, any other
refused (WA or WH). The actions left out cannot be said or are refused by rule: a
PLAY of a tile not held, a claim of another tile than the discard, a kong of a tile
not held. ``COURSE_GAMES`` (default 100 per variant) sets the count;
``COURSE_FULL=1`` asks about every action that can be said, at every decision
(``COURSE_GAMES=2000 COURSE_FULL=1`` takes a few minutes).
"""

from __future__ import annotations

import gzip
import json
import os
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import numpy as np
import pytest

from rulesets.botzone.course_agent import CourseAgent
from rulesets.botzone.course_env import MahjongGBEnv
from rulesets.botzone.seat_view import (
    ANGANG,
    BUGANG,
    CHI,
    GANG,
    HU,
    N_TILES,
    PASS,
    PENG,
    PLAY,
    SUIT_ORDER,
    TILE_INDEX,
    TILE_LIST,
    chi_action,
    could_win,
    describe,
)
from tests.datadir import DATA
from tests.rulesets.botzone.test_seat_view import refused

REQUESTS = DATA / "course" / "requests.jsonl.gz"
HUMAN = DATA / "botzone_human" / "games.txt"  # four classic games in the course's format
GAMES = int(os.environ.get("COURSE_GAMES", "100"))
FULL = os.environ.get("COURSE_FULL", "") == "1"


def candidates(agent: CourseAgent, state: str, rng: random.Random | None) -> Iterable[int]:
    """The actions to ask the judge about at this decision: with ``rng``, every one the
    hand makes possible (a PLAY: one held and one not, drawn by ``rng``), else every
    one that could be said at all."""
    view = agent.view
    planes = view.planes
    held = [t for t in range(N_TILES) if planes[t]]
    if rng is None:
        plays = list(range(N_TILES))
    else:
        plays = [rng.choice(held), rng.choice([t for t in range(N_TILES) if t not in held])]
    if state == "discard":  # the discard after my claim
        yield from (PLAY + t for t in plays)
        return
    if state == "draw":
        if rng is None or could_win(planes[:N_TILES], len(view.packs)):
            yield HU
        yield from (PLAY + t for t in plays)
        yield from (ANGANG + t for t in held if rng is None or planes[t] == 4)
        yield from (BUGANG + t for t in held
                    if rng is None or any(p[0] == "PENG" and p[1] == TILE_LIST[t]
                                          for p in view.packs))
        return
    if rng is None:
        yield PASS
    t = TILE_INDEX[view.tile]
    counts = planes[:N_TILES]
    counts[t] += 1
    if rng is None or could_win(counts, len(view.packs)):
        yield HU
    if state == "rob":
        return
    if rng is None or planes[t] >= 2:
        yield PENG + t
    if rng is None or planes[t] >= 3:
        yield GANG + t
    if view.tile[0] in SUIT_ORDER:
        n = int(view.tile[1])
        base = t - n + 1
        for middle in (n - 1, n, n + 1):
            if 2 <= middle <= 8 and (rng is None or all(
                    k == t or planes[k] for k in (base + middle - 2, base + middle - 1,
                                                  base + middle))):
                yield chi_action(SUIT_ORDER.index(view.tile[0]), middle, n)


def response(agent: CourseAgent, action: int, claim: int | None) -> str:
    """Botzone's response for ``action``; a claim with a discard it may make (any tile
    held when the claim itself is refused), a discard after a claim with that claim."""
    view = agent.view
    if claim is not None:
        return view.response(claim, action)
    if CHI <= action < GANG:
        if action in view.legal_actions():
            view.claim(action)
            discard = view.legal_actions()[0]
            view.unclaim()
        else:
            discard = PLAY + next(t for t in range(N_TILES) if view.planes[t])
        return view.response(action, discard)
    return view.response(action)


def check_decision(env: MahjongGBEnv, seat: int, mask: np.ndarray, claim: int | None,
                   rng: random.Random | None) -> int:
    """The mask against the judge at this decision; the number of actions asked."""
    agent = env.agents[seat]
    judge = env.judge
    offered = set(np.flatnonzero(mask).tolist())
    assert offered == set(agent.valid)
    # the agent's hand and walls are the judge's, so what is left out is refused by rule
    hand = Counter(judge._hands[seat])
    if env.state == "draw":
        hand[judge.requests()[seat].split(" ")[1]] += 1
    elif env.state == "discard":  # my claim applied here, not yet by the judge
        meld = agent.view.melds[seat][-1]
        assert meld.tile is not None
        m = TILE_INDEX[meld.tile]
        hand[agent.curTile] += 1
        hand.subtract([meld.tile] * 3 if meld.kind == "PENG" else TILE_LIST[m - 1:m + 2])
    assert agent.hand == sorted(hand.elements(), key=TILE_INDEX.__getitem__)
    walls = [len(w) for w in judge._walls]
    assert agent.tileWall == [walls[(seat + rel) % 4] if env.duplicate else walls[0]
                              for rel in range(4)]
    asked = 0
    for action in candidates(agent, env.state, rng):
        said = response(agent, action, claim)
        assert refused(env.judge, seat, said) == (action not in offered), (
            f"{env.variant} seat {seat} {env.state}: {describe(action)} ({said!r}) "
            f"offered {action in offered}; hand {agent.hand}, walls {agent.tileWall}")
        asked += 1
    return asked


def play_checked(duplicate: bool, seed: int, full: bool = False) -> tuple[str, int]:
    """One seeded game checked at every decision (``full``: on every action that can be
    said): (how it ended, actions asked)."""
    env = MahjongGBEnv({"agent_clz": CourseAgent, "duplicate": duplicate})
    rng = random.Random(seed)
    random.seed(seed)  # the course's env shuffles with the module's generator
    obs = env.reset()
    claims: dict[str, int] = {}
    sample = None if full else random.Random(-seed - 1)
    asked = 0
    done = False
    while not done:
        actions = {}
        for name, o in obs.items():
            seat = env.agent_names.index(name)
            claim = claims.pop(name) if env.state == "discard" else None
            asked += check_decision(env, seat, o["action_mask"], claim, sample)
            legal = np.flatnonzero(o["action_mask"])
            grabs = [a for a in legal if CHI <= a < ANGANG + N_TILES and a >= CHI]
            if HU in legal:
                action = HU
            elif grabs and rng.random() < 0.7:
                action = int(rng.choice(grabs))
            else:
                action = int(rng.choice(legal))
            if CHI <= action < GANG:
                claims[name] = action
            actions[name] = action
        obs, _, done = env.step(actions)
    return str(env.judge.output()["display"]["action"]), asked


def check_many(duplicate: bool, seeds: range, full: bool = False) -> dict[str, int]:
    ends: dict[str, int] = {}
    for seed in seeds:
        end, asked = play_checked(duplicate, seed, full)
        assert asked > 0
        ends[end] = ends.get(end, 0) + 1
    return ends


@pytest.mark.parametrize("duplicate", [True, False], ids=["duplicate", "classic"])
def test_the_course_agents_masks_offer_exactly_what_the_judge_accepts(
        duplicate: bool) -> None:
    ends = check_many(duplicate, range(GAMES), FULL)
    assert set(ends) <= {"HU", "HUANG"}, ends  # never an invalid move
    if GAMES >= 100:
        assert ends.get("HU") and ends.get("HUANG")  # wins and wall ends were reached


# --- the course's interface, on recorded request sequences ------------------------------


def recorded(source: str) -> list[dict[str, Any]]:
    with gzip.open(REQUESTS, "rt", encoding="utf-8") as f:
        games = [json.loads(line) for line in f]
    assert len(games) == 9, "tests/data/course/requests.jsonl.gz is incomplete"
    return [game for game in games if game["source"] == source]


def replay(game: dict[str, Any]) -> list[tuple[CourseAgent, int]]:
    """Each seat's recorded requests through a fresh CourseAgent, its masks checked equal
    to the recorded ones; every (agent, offered action) at every decision."""
    offered = []
    for seat, requests in enumerate(game["seats"]):
        agent = CourseAgent(seat)
        if game["variant"] == "classic":
            agent.set_variant("classic")
        for request, mask, *chosen in requests:
            out = agent.request2obs(request)
            got = None if out is None else np.flatnonzero(out["action_mask"]).tolist()
            assert got == mask, (game["source"], seat, request)
            if out is None:
                continue
            assert out["observation"].shape == (6, 4, 9)
            offered += [(agent, action) for action in (mask or [])]
            if chosen:
                assert agent.response2action(chosen[0]) in mask
                assert agent.action2response(agent.response2action(chosen[0])) == chosen[0]
            for action in mask or []:
                assert agent.response2action(agent.action2response(action)) == action, (
                    describe(action), request)
    return offered


@pytest.mark.parametrize("index", range(3))
def test_fed_the_course_envs_requests_the_agent_masks_and_keeps_what_the_course_agent_does(
        index: int) -> None:
    game = recorded("course env")[index]
    replay(game)
    for seat, final in enumerate(game["final"]):
        agent = CourseAgent(seat)
        for request, *_ in game["seats"][seat]:
            agent.request2obs(request)
        assert agent.hand == final["hand"]
        assert agent.packs == [[tuple(p) for p in packs] for packs in final["packs"]]
        assert agent.history == final["history"]
        assert agent.tileWall == final["tileWall"]
        assert agent.valid == []  # the game is over


@pytest.mark.parametrize("index", range(6))
def test_fed_the_course_bots_requests_unpeng_and_unchi_included_the_agent_masks_as_recorded(
        index: int) -> None:
    game = recorded("course bot")[index]
    said = [request for requests in game["seats"] for request, *_ in requests]
    assert any(" UnPeng" in r for r in said) and any(" UnChi " in r for r in said)
    if game["variant"] == "classic":
        assert any(r.startswith("Player") and " Play H" in r for r in said)
    replay(game)


def test_a_claim_taken_back_leaves_the_agent_as_before_it() -> None:
    agent = CourseAgent(1)
    for request in ["Wind 0", "Deal W1 W2 W3 W5 W5 T1 T2 T3 B7 B8 B9 F1 J1",
                    "Player 0 Draw"]:
        agent.request2obs(request)
    before = agent.request2obs("Player 0 Play W5")
    assert before is not None
    peng = PENG + TILE_INDEX["W5"]
    assert before["action_mask"][peng] == 1
    assert before["action_mask"][CHI:PENG].sum() == 0  # no W3 W4, W4 W6 or W6 W7 held
    after_claim = agent.request2obs("Player 1 Peng")
    assert after_claim is not None and agent.in_claim and agent.hand.count("W5") == 0
    assert agent.packs[0] == [("PENG", "W5", 1)]
    agent.request2obs("Player 1 UnPeng")
    assert not agent.in_claim and agent.to_claim and agent.packs[0] == []
    assert agent.hand.count("W5") == 2
    again = agent.obs
    assert np.array_equal(again, before["observation"].reshape(6, 36))
    # another seat's PENG won: its discard comes, and my hand is as it was
    agent.request2obs("Player 3 Peng")
    agent.request2obs("Player 3 UnPeng")  # said of another seat: its claim is forgotten
    agent.request2obs("Player 2 Peng")
    out = agent.request2obs("Player 2 Play J2")
    assert out is not None and agent.packs[1] == [("PENG", "W5", 2)]
    assert agent.history[3] == ["W5"] and agent.history[1] == ["J2"]


def test_responses_of_the_course_preprocess_give_their_actions() -> None:
    agent = CourseAgent(1)
    for request in ["Wind 0", "Deal W1 W2 W3 W5 W5 T1 T2 T3 B7 B8 B9 F1 J1",
                    "Player 0 Draw", "Player 0 Play W4"]:
        agent.request2obs(request)
    assert agent.response2action("Chi W4 W3") == chi_action(0, 3, 4)
    assert agent.response2action("Chi W3") == chi_action(0, 3, 4)  # the discard's
    assert agent.response2action("Peng W5") == PENG + TILE_INDEX["W5"]
    assert agent.response2action("Peng") == PENG + TILE_INDEX["W4"]
    assert agent.response2action("Gang W5") == GANG + TILE_INDEX["W5"]
    assert agent.response2action("AnGang J1") == ANGANG + TILE_INDEX["J1"]
    assert agent.response2action("BuGang J1") == BUGANG + TILE_INDEX["J1"]
    assert agent.response2action("Hu") == HU and agent.response2action("Pass") == PASS
    agent.request2obs("Player 1 Draw")  # not my draw in this test's words: mine below
    mine = CourseAgent(0)
    for request in ["Wind 0", "Deal W1 W1 W1 W1 W5 T1 T2 T3 B7 B8 B9 F1 J1", "Draw J1"]:
        mine.request2obs(request)
    assert mine.response2action("Gang W1") == ANGANG  # W1 is tile 0
    assert mine.action2response(ANGANG) == "Gang W1"


@pytest.mark.parametrize("text", ["", "Chi", "Chi W9", "Chi W1 T2", "Play X1", "Peng W1 W2",
                                  "Discard W1", "Chi F1 F2"])
def test_a_response_that_is_no_course_response_is_refused_with_its_text(text: str) -> None:
    with pytest.raises(ValueError, match="is no course response"):
        CourseAgent(0).response2action(text)


@pytest.mark.parametrize("request_text", ["Hello", "Player 7 Draw", "Player 1 Dance",
                                          "Deal W1 W2", "Draw X9", "Player 1"])
def test_a_request_the_course_never_sends_is_refused_with_its_text(request_text: str) -> None:
    agent = CourseAgent(0)
    agent.request2obs("Wind 0")
    with pytest.raises(ValueError, match="cannot take the request"):
        agent.request2obs(request_text)


def test_the_agent_has_the_course_agents_tables_and_spaces() -> None:
    assert CourseAgent.OBS_SIZE == 6 and CourseAgent.ACT_SIZE == 235
    assert CourseAgent.OFFSET_OBS == {"SEAT_WIND": 0, "PREVALENT_WIND": 1, "HAND": 2}
    assert CourseAgent.OFFSET_ACT == {"Pass": 0, "Hu": 1, "Play": 2, "Chi": 36, "Peng": 99,
                                      "Gang": 133, "AnGang": 167, "BuGang": 201}
    assert CourseAgent.TILE_LIST[:10] == [*(f"W{n}" for n in range(1, 10)), "T1"]
    assert CourseAgent.TILE_LIST[-7:] == ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    assert all(CourseAgent.OFFSET_TILE[t] == i for i, t in enumerate(CourseAgent.TILE_LIST))
    assert CourseAgent.observation_space["observation"].shape == (6, 4, 9)
    assert CourseAgent.observation_space["action_mask"].shape == (235,)
    assert CourseAgent.action_space.n == 235


def test_the_environment_sets_the_agents_variant_from_the_course_config() -> None:
    classic = MahjongGBEnv({"agent_clz": CourseAgent, "duplicate": False})
    random.seed(3)
    classic.reset()
    assert all(agent.view.variant == "classic" for agent in classic.agents)
    assert CourseAgent.variant == "duplicate"  # the class is left as it was
    duplicate = MahjongGBEnv({"agent_clz": CourseAgent})
    duplicate.reset()
    assert all(agent.view.variant == "duplicate" for agent in duplicate.agents)


def test_the_variant_is_set_before_the_first_request_only() -> None:
    agent = CourseAgent(0)
    agent.request2obs("Wind 1")
    with pytest.raises(ValueError, match="before the first request"):
        agent.set_variant("classic")


class Classic136(CourseAgent):
    """Classic records without flowers: one wall of 136 (what the course's data is)."""

    variant = "classic"
    wall_sizes = (136,)


def test_the_course_preprocess_requests_of_human_records_give_legal_recorded_actions() -> None:
    """Human records fed as the course's ``preprocess.py`` feeds them: every recorded
    action (those an Ignore clause overrode too), said as preprocess says it, is an
    action the agent's mask offers at that point."""
    checked = ignored = 0
    agents: list[CourseAgent] = []
    discard = ""

    def offered(seat: int, response: str) -> None:
        nonlocal checked
        action = agents[seat].response2action(response)
        assert action in agents[seat].valid, (seat, response, agents[seat].hand)
        checked += 1

    for line in HUMAN.read_text(encoding="utf-8").splitlines():
        t = line.split()
        if not t or t[0] in ("Fan", "Score", "Huang"):
            continue
        if t[0] == "Match":
            agents = [Classic136(seat) for seat in range(4)]
            continue
        if t[0] == "Wind":
            for agent in agents:
                agent.request2obs(line)
            continue
        p, kind, tile = int(t[1]), t[2], t[3] if len(t) > 3 else ""
        for k in range(4, len(t) if kind != "Deal" else 4, 5):  # Ignore Player Q KIND T
            q, lost = int(t[k + 2]), t[k + 3]
            ignored += 1
            offered(q, f"Chi {discard} {t[k + 4]}" if lost == "Chi" else
                    "Hu" if lost == "Hu" else f"{lost} {t[k + 4]}")
        said = {"Chi": f"Chi {discard} {tile}", "Hu": "Hu", "Draw": ""}.get(kind,
                                                                          f"{kind} {tile}")
        if kind not in ("Deal", "Draw"):
            offered(p, said)
        if kind == "Deal":
            agents[p].request2obs(" ".join(t[2:]))
        elif kind == "Draw":
            for seat, agent in enumerate(agents):
                agent.request2obs(f"Draw {tile}" if seat == p else f"Player {p} Draw")
        elif kind == "Play":
            discard = tile
            for agent in agents:
                agent.request2obs(f"Player {p} Play {tile}")
        elif kind == "AnGang":
            for seat, agent in enumerate(agents):
                agent.request2obs(f"Player {p} AnGang" + (f" {tile}" if seat == p else ""))
        elif kind != "Hu":
            for agent in agents:
                agent.request2obs(f"Player {p} {kind} {tile}")
    assert checked > 250 and ignored == 2


def test_an_agent_class_may_count_one_wall_of_136_for_records_without_flowers() -> None:
    agent = Classic136(2)
    agent.request2obs("Wind 0")
    agent.request2obs("Deal W1 W2 W3 W5 W5 T1 T2 T3 B7 B8 B9 F1 J1")
    assert agent.tileWall == [136 - 52] * 4
    assert CourseAgent(2).tileWall == [34] * 4  # the default: duplicate, before the deal
