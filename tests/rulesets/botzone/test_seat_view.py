"""The seat view's legal actions are exactly what the judge accepts (the property test of
the Botzone training environment), and its codec and bookkeeping on recorded games.

``check_game`` plays one game through the environment (HU when legal, else a random
legal action, so that claims and wins are common) and, at every decision, steps a copy
of the judge with the composed response of every one of the 235 actions, the other
seats passing: an action the mask allows must be accepted, one it forbids refused (WA
or WH). ``GAMES`` games per variant run here; ``bench/check_env_botzone.py`` runs
thousands.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from rulesets.botzone.env import raw_env
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import (
    AFTER_CLAIM,
    CHI,
    GANG,
    HU,
    N_ACTIONS,
    PENG,
    PLAY,
    TILE_LIST,
    SeatView,
    action_of,
    could_win,
    describe,
)
from server.seam.contract import Reply
from tests.datadir import botzone_games

GAMES = 6
"""Games per variant checked on all 235 actions at every decision (about 0.25 s each)."""
SAMPLED_GAMES = 60
"""Games per variant checked on every allowed action and FORBIDDEN_SAMPLE forbidden ones
at every decision (about 50 ms each)."""
FORBIDDEN_SAMPLE = 4


def refused(judge: Judge, seat: int, response: str) -> bool:
    """Whether the judge refuses ``response`` from ``seat`` (others passing) now."""
    twin = judge.copy()
    replies = [Reply("OK", "PASS")] * 4
    replies[seat] = Reply("OK", response)
    output = twin.step(replies)
    display = output["display"]
    return output["command"] == "finish" and display.get("player") == seat and \
        display.get("action") in ("WA", "WH")


def compose(view: SeatView, action: int) -> str:
    """The response of ``action``; a claim's discard: a legal one if the claim is legal,
    else any tile held."""
    if not CHI <= action < GANG:
        return view.response(action)
    if action in view.legal_actions():
        view.claim(action)
        discard = view.legal_actions()[0]
        view.unclaim()
    else:
        discard = PLAY + next(t for t in range(34) if view.planes[t])
    return view.response(action, discard)


def check_decision(env: raw_env, agent: str, sample: random.Random | None = None) -> int:
    """Every action at this decision (with ``sample``: every allowed one and
    FORBIDDEN_SAMPLE forbidden ones drawn by it); the number of actions checked."""
    seat = int(agent[-1])
    view = env.view(agent)
    judge = env.judge
    assert judge is not None
    legal = set(view.legal_actions())
    if view.kind == AFTER_CLAIM:
        claim = env._choices[seat]
        actions: Sequence[int] = range(PLAY, CHI)
        if sample is not None:
            actions = sorted(legal | set(sample.sample(range(PLAY, CHI), FORBIDDEN_SAMPLE)))
        for action in actions:
            assert refused(judge, seat, view.response(claim, action)) == (
                action not in legal), (describe(claim), describe(action), view.hand)
        return len(actions)
    every: Sequence[int] = range(N_ACTIONS)
    if sample is not None:
        every = sorted(legal | set(sample.sample(range(N_ACTIONS), FORBIDDEN_SAMPLE)))
    for action in every:
        try:
            response = compose(view, action)
        except ValueError:  # a claim of another tile than the discard: no response says it
            assert action not in legal, describe(action)
            continue
        assert refused(judge, seat, response) == (action not in legal), (
            f"{describe(action)} ({response!r}): mask {action in legal}; hand {view.hand}")
    return len(every)


def check_game(variant: str, seed: int, sampled: bool = False
               ) -> tuple[int, int, dict[str, Any]]:
    """One game checked decision by decision: (decisions, actions checked, final info)."""
    env = raw_env(variant=variant)
    env.reset(seed=seed)
    rng = random.Random(seed)
    sample = random.Random(-seed - 1) if sampled else None
    decisions = checked = 0
    info: dict[str, Any] = {}
    for agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        checked += check_decision(env, agent, sample)
        decisions += 1
        legal = np.flatnonzero(obs["action_mask"])
        if HU in legal:
            action = HU
        else:
            claims = [a for a in legal if CHI <= a < PENG + 34 or GANG <= a < GANG + 34]
            action = int(rng.choice(claims)) if claims and rng.random() < 0.7 \
                else int(rng.choice(legal))
        env.step(action)
    return decisions, checked, info


@pytest.mark.parametrize("variant", ["duplicate", "classic"])
def test_the_mask_allows_exactly_what_the_judge_accepts(variant: str) -> None:
    ends: dict[str, int] = {}
    for seed in range(GAMES):
        decisions, _, info = check_game(variant, seed)
        assert decisions > 0
        ends[info["end"]] = ends.get(info["end"], 0) + 1
    assert set(ends) <= {"HU", "HUANG"}


@pytest.mark.parametrize("variant", ["duplicate", "classic"])
def test_over_many_games_the_mask_allows_what_the_judge_accepts_and_refuses_a_sample(
        variant: str) -> None:
    ends: dict[str, int] = {}
    for seed in range(GAMES, GAMES + SAMPLED_GAMES):
        _, _, info = check_game(variant, seed, sampled=True)
        ends[info["end"]] = ends.get(info["end"], 0) + 1
    assert set(ends) == {"HU", "HUANG"}  # wins were reached and checked too


def test_every_recorded_response_of_the_reference_games_is_legal_exactly_when_judged_so(
) -> None:
    for path in botzone_games():
        record = json.loads(path.read_text(encoding="utf-8"))
        judge = Judge(record["variant"], record["initdata"])
        views = [SeatView(record["variant"], [len(w) for w in judge._walls])
                 for _ in range(4)]
        players = record["players"]
        for turn in range(len(players[0])):
            last = record["judge"][turn + 1]
            display = last["display"]
            for seat in range(4):
                entry = players[seat][turn]
                view = views[seat]
                view.update(entry["request"])
                if entry["verdict"] != "OK":
                    continue
                bad = last["command"] == "finish" and display.get("player") == seat and \
                    display.get("action") in ("WA", "WH")
                try:
                    action, _ = action_of(entry["response"], view)
                except ValueError:
                    assert bad, (path.name, turn, seat, entry)
                    continue
                assert (action in view.legal_actions()) != bad or (
                    # a claim's discard or a wall-end check decided it, not the claim
                    bad and CHI <= action < GANG + 34), (path.name, turn, seat, entry)
            for seat in range(4):
                if players[seat][turn]["response"] is not None:
                    views[seat].respond(players[seat][turn]["response"])


def test_a_view_follows_its_hand_melds_and_walls_through_a_claim() -> None:
    view = SeatView("duplicate")
    view.update("0 1 2")
    view.update("1 0 0 0 0 W1 W2 W3 W5 W5 T1 T2 T3 B7 B8 F1 J1 J1")
    assert view.walls == [21, 21, 21, 21]
    view.update("3 0 DRAW")
    view.update("3 0 PLAY W4")
    legal = view.legal_actions()
    assert [describe(a) for a in legal] == ["PASS", "CHI W3 (claimed W4)",
                                           "CHI W4 (claimed W4)"]
    view.claim(legal[1])
    assert view.kind == AFTER_CLAIM and view.hand.count("W3") == 0
    assert view.response(legal[1], PLAY + TILE_LIST.index("F1")) == "CHI W3 F1"
    view.respond("CHI W3 F1")
    view.update("3 1 CHI W3 F1")
    assert view.hand == ["W1", "W5", "W5", "T1", "T2", "T3", "B7", "B8", "J1", "J1"]
    assert view.melds[1][0].kind == "CHI" and view.melds[1][0].source == 0
    assert view.discards[1] == ["F1"] and view.walls == [20, 21, 21, 21]
    view.update("3 2 DRAW")
    view.update("3 2 PLAY J1")
    assert [describe(a) for a in view.legal_actions()] == ["PASS", "PENG J1"]
    view.claim(PENG + TILE_LIST.index("J1"))
    view.update("3 3 PENG W1")  # another seat's claim won: mine is taken back
    assert view.hand.count("J1") == 2 and len(view.melds[1]) == 1


def test_the_shape_filter_lets_through_every_winning_shape() -> None:
    def counts(tiles: str) -> bytearray:
        out = bytearray(34)
        for tile in tiles.split():
            out[TILE_LIST.index(tile)] += 1
        return out
    assert could_win(counts("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 J2 J2"), 0)
    assert could_win(counts("W1 W1 W2 W2 T3 T3 T4 T4 B9 B9 F1 F1 J3 J3"), 0)  # seven pairs
    assert could_win(counts("W1 W9 T1 T9 B1 B9 F1 F2 F3 F4 J1 J2 J3 J3"), 0)  # orphans
    assert could_win(counts("W1 W4 W7 T2 T5 T8 B3 B6 F1 F2 F3 F4 J1 J2"), 0)  # knitted
    assert could_win(counts("W1 W4 W7 T2 T5 T8 B3 B6 B9 J1 J1 J1 F2 F2"), 0)  # 组合龙
    assert could_win(counts("W1 W4 W7 T2 T5 T8 B3 B6 B9 F2 F2"), 1)
    assert not could_win(counts("W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T1 T1 J2 J3"), 0)
    assert not could_win(counts("W1 W2 W4 W5 W5"), 3)
