"""The NOI 2014 seat view against the engine: over random games played through the
environment, at every decision the mask allows exactly the actions the engine accepts
(each action's composed response tried on a copy of the game, the other seats passing),
the view's tiles are the engine's, and every target it answers at the end is valid.

``GAMES`` random games here; ``python -m tests.rulesets.noi2014.test_seat_view N``
checks N (the report's thousands)."""

from __future__ import annotations

import random
import sys
from collections import Counter

from rulesets.noi2014.engine import Game
from rulesets.noi2014.env import raw_env
from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    N_ACTIONS,
    N_KINDS,
    PENG,
    PLAY,
    PUNG_DISCARD,
    SeatView,
    response_of,
)
from rulesets.noi2014.tiles import KINDS
from server.seam.contract import Reply

GAMES = 12  # in the suite (about 0.2 s a game); the script form checks thousands


def accepted(game: Game, seat: int, response: str) -> bool:
    """Whether the engine takes ``response`` from ``seat`` now (the others pass)."""
    copy = game.copy()
    replies = [Reply("OK", response if s == seat else (None if r is None else "PASS"))
               for s, r in enumerate(copy.requests())]
    out = copy.step(replies)
    return not any(e["act"] == "FAULT" and e["seat"] == seat for e in out["events"])


def check_decision(env: raw_env) -> int:
    """Every action at the selected agent's decision; the number of responses tried."""
    game = env.game
    assert game is not None
    agent = env.agent_selection
    seat = int(agent[-1])
    view = env.views[seat]
    legal = set(env.legal_actions())
    assert Counter({KINDS[k]: n for k, n in enumerate(view.hand) if n}) == +game.hands[seat]
    tried = 0
    for action in range(N_ACTIONS):
        if view.decision == PUNG_DISCARD:
            if not PLAY <= action < PLAY + N_KINDS:
                assert action not in legal
                continue
            responses = [response_of(PENG, action)]
        elif action == PENG:  # a pung composed with every discard after it
            after = list(view.hand)
            after[view.tile] -= 2
            responses = [response_of(PENG, k) for k in range(N_KINDS)
                         if action not in legal or after[k] > 0]
            if action in legal:
                assert all(accepted(game, seat, r) for r in responses)
                bad = [response_of(PENG, k) for k in range(N_KINDS) if after[k] <= 0]
                assert not any(accepted(game, seat, r) for r in bad)
                tried += len(responses) + len(bad)
                continue
        else:
            responses = [response_of(action)]
        for response in responses:
            tried += 1
            assert accepted(game, seat, response) == (action in legal), \
                (agent, view.decision, response, sorted(legal))
    return tried


def play_and_check(games: int, seed: int = 0) -> tuple[int, int, int]:
    """``games`` random games (uniform over the legal actions); decisions, responses tried,
    targets checked."""
    rng = random.Random(seed)
    env = raw_env()
    decisions = tried = targets = 0
    for number in range(games):
        env.reset(seed=seed * 100_000 + number)
        while not all(env.terminations.values()):
            tried += check_decision(env)
            decisions += 1
            env.step(rng.choice(env.legal_actions()))
        result = env.game.result if env.game is not None else None
        assert result is not None
        for row in result.remaining.values():
            assert row.valid, row.reason
            targets += 1
    return decisions, tried, targets


def test_the_mask_is_exactly_what_the_engine_accepts_at_every_decision() -> None:
    decisions, tried, targets = play_and_check(GAMES)
    assert decisions > 40 * GAMES and tried > 50 * decisions and targets > GAMES


def test_the_view_follows_its_own_claim_only_when_no_win_beat_it() -> None:
    view = SeatView()
    for request in ["0 2", "1 B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T2 T3"]:
        view.see(request)
    view.see("3 1 PLAY B1")
    assert view.decision == CLAIM and PENG in view.legal()
    view.choose_pung()
    assert view.decision == PUNG_DISCARD and PLAY + KINDS.index("T3") in view.legal()
    view.did("3 1 PLAY B1", "PENG T3")
    view.see("3 0 HU B1")  # a nearer win took the tile: the pung was not made
    assert view.hand[0] == 2 and view.melds == [] and view.winners == [0]
    view.see("3 3 PLAY B1")
    view.did("3 3 PLAY B1", "PENG T3")
    view.see("3 3 PLAY W5")  # anything else: it was made, T3 discarded
    assert view.melds == [("PENG", 0)] and view.hand[0] == 0 and view.hand[KINDS.index("T3")] == 0
    assert view.pool[2][KINDS.index("T3")] == 1 and view.pool[3][0] == 0


def test_a_draw_offers_discards_kongs_and_a_win_the_engine_takes() -> None:
    view = SeatView()
    for request in ["0 0", "1 B1 B1 B1 B2 B3 B4 B5 B6 B7 B8 B9 T1 T1"]:
        view.see(request)
    view.see("2 B1")
    assert view.decision == DRAW
    legal = view.legal()
    assert PLAY in legal and 27 + 0 in legal and 54 in legal  # discard B1, kong B1, HU
    assert view.target().split()[:3] == ["B1", "B1", "B1"]


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    decisions, tried, targets = play_and_check(count, seed=1)
    print(f"{count} games: decisions {decisions}, responses tried {tried}, targets {targets}")
