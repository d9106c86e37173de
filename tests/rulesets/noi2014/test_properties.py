"""Properties of the NOI 2014 engine over thousands of random games (fixed seeds):
tiles are conserved at every turn, every game ends, a game's points sum to 10, and
the places follow the ranking rules (SPEC-noi2014 §3)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulesets.noi2014.engine import PLAYERS, Game
from rulesets.noi2014.tiles import KINDS, shuffled_wall
from server.seam.contract import Reply
from tests.noi_players import RandomPlayer

GAMES = 1500
EVERY = Counter({kind: 4 for kind in KINDS})


def tiles_now(game: Game) -> Counter[str]:
    tiles = Counter(game.wall[game.head:game.tail]) + Counter(game.pool)
    for seat in range(PLAYERS):
        tiles += game.held(seat)
    return tiles


def check_ranks(game: Game) -> None:
    result = game.result
    assert result is not None
    assert sum(result.points) == pytest.approx(10.0)
    winners, faulted = result.winners, result.faulted
    remaining = sorted(result.remaining)
    assert sorted(winners + faulted + remaining) == [0, 1, 2, 3]
    assert game.left == 0 or len(remaining) <= 1
    for place, seat in enumerate(winners, start=1):
        assert result.places[seat] == place and result.points[seat] == 5 - place
    for seat in faulted:
        assert all(result.places[seat] > result.places[other] for other in winners + remaining)
    turn_of = {f.seat: f.turn for f in game.faults}
    for a in faulted:
        for b in faulted:
            if turn_of[a] > turn_of[b]:
                assert result.places[a] < result.places[b]
            elif turn_of[a] == turn_of[b]:
                assert result.places[a] == result.places[b]

    def key(seat: int) -> tuple[float, float]:
        row = result.remaining[seat]
        dist = float("inf") if row.distance is None else row.distance
        return dist, -(row.chance.value if row.chance else float("-inf"))

    for a in remaining:
        assert result.places[a] > len(winners)
        for b in remaining:
            if key(a) < key(b):
                assert result.places[a] < result.places[b] and \
                    result.points[a] > result.points[b]
            elif key(a) == key(b):
                assert result.places[a] == result.places[b] and \
                    result.points[a] == result.points[b]


def play_checked(seed: int, junk: float) -> Game:
    """A random game, its tiles counted after every turn."""
    rng = random.Random(seed)
    game = Game(shuffled_wall(seed))
    players = [RandomPlayer(rng, junk) for _ in range(PLAYERS)]
    turns = 0
    while not game.finished:
        requests = game.requests()
        assert any(r is not None for r in requests), "a turn that asks nobody"
        replies = [players[s].answer(game, s, r) if r is not None else Reply("OK", None)
                   for s, r in enumerate(requests)]
        game.step(replies)
        assert tiles_now(game) == EVERY
        assert all(n >= 0 for hand in game.hands for n in hand.values())
        turns += 1
        assert turns < 1000, "the game does not end"
    return game


@pytest.mark.parametrize("junk", [0.0, 0.01, 0.1])
def test_random_games_conserve_tiles_end_and_rank_by_the_rules(junk):
    ends: Counter[str] = Counter()
    winners = 0
    for seed in range(GAMES // 3):
        game = play_checked(seed, junk)
        check_ranks(game)
        assert game.result is not None
        ends[game.result.end] += 1
        winners += len(game.winners)
    assert ends["players" if junk else "wall"] > 0


def test_games_of_players_that_keep_useful_tiles_have_several_winners_ranked_in_order():
    several = 0
    for seed in range(500):
        rng = random.Random(seed)
        game = Game(shuffled_wall(10_000 + seed))
        players = [RandomPlayer(rng, 0.002, eager=True) for _ in range(PLAYERS)]
        while not game.finished:
            requests = game.requests()
            game.step([players[s].answer(game, s, r) if r else Reply("OK", None)
                       for s, r in enumerate(requests)])
        assert tiles_now(game) == EVERY
        check_ranks(game)
        several += len(game.winners) >= 2
    assert several >= 20
