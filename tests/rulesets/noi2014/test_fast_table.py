"""The NOI 2014 fast table against the reference (``table.Table``: the engine and the seat
views on text), played side by side through the environment: at every decision the same
seats decide with the same legal actions and the deciding seat's observation codes are
its view's (and its float32 planes, ``FastTable.planes``, the default encoder's values of
them); at the end every seat's codes and planes and the whole result are the engine's.

A greedy policy (win, claim and kong when it can, discard the loneliest tile) makes wins,
self-drawn and on discards, and games that end because players left, as well as the
random games' empty wall. ``python -m tests.rulesets.noi2014.test_fast_table N`` checks N
games of each kind."""

from __future__ import annotations

import random
import sys

import numpy as np

from rulesets.noi2014.encoders import CODE_VALUES
from rulesets.noi2014.env import raw_env
from rulesets.noi2014.planes import codes
from rulesets.noi2014.seat_view import GANG, HU, N_KINDS, PASS

GAMES = 10


def _floats(found: bytes | None) -> bytes | None:
    """The default encoder's float32 values of codes, as bytes."""
    return None if found is None else \
        CODE_VALUES.take(np.frombuffer(found, dtype=np.uint8)).tobytes()


def _planes(found: bytearray | None) -> bytes | None:
    return None if found is None else bytes(found)


def _greedy(hand: list[int], legal: list[int], rng: random.Random) -> int:
    if HU in legal:
        return HU
    claims = [a for a in legal if a >= GANG and a != PASS]
    if claims and rng.random() < 0.9:
        return rng.choice(claims)
    if PASS in legal:
        return PASS

    def lonely(action: int) -> tuple[int, float]:
        k = action % N_KINDS
        near = sum(hand[j] for j in (k - 2, k - 1, k + 1, k + 2)
                   if 0 <= j < N_KINDS and j // 9 == k // 9)
        return 3 * hand[k] + near, rng.random()

    return min(legal, key=lonely)


def play_side_by_side(games: int, greedy: bool, seed: int = 0) -> tuple[int, int, int]:
    """``games`` games; (decisions, winners, games ended by players leaving)."""
    rng = random.Random(seed)
    env = raw_env()
    decisions = winners = left = 0
    for number in range(games):
        env.reset(seed=seed * 100_000 + number)
        while not all(env.terminations.values()):
            fast, table = env._fast, env.table
            assert fast is not None and table is not None
            seat = fast.queue[0]
            assert table.queue == fast.queue and table.legal == fast.legal
            assert codes(table.views[seat]) == fast.codes(seat)
            assert _planes(fast.planes(seat)) == _floats(fast.codes(seat))
            legal = env.legal_actions()
            action = _greedy(fast.hands[seat], legal, rng) if greedy else rng.choice(legal)
            env.step(action)
            decisions += 1
        fast, table = env._fast, env.table
        assert fast is not None and table is not None and fast.result is not None
        assert all(codes(table.views[s]) == fast.codes(s) for s in range(4))
        assert all(_planes(fast.planes(s)) == _floats(fast.codes(s)) for s in range(4))
        assert table.game.result == fast.result
        winners += len(fast.result.winners)
        left += fast.result.end == "players"
    return decisions, winners, left


def test_random_games_are_the_reference_games_decision_by_decision() -> None:
    decisions, _, _ = play_side_by_side(GAMES, greedy=False)
    assert decisions > 40 * GAMES


def test_greedy_games_with_wins_are_the_reference_games_to_the_last_observation() -> None:
    decisions, winners, left = play_side_by_side(GAMES, greedy=True, seed=3)
    assert decisions > 20 * GAMES and winners > GAMES and left > 0


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    for greedy in (False, True):
        found = play_side_by_side(count, greedy=greedy, seed=1)
        print(f"{count} {'greedy' if greedy else 'random'} games: decisions, winners, "
              f"ended by players leaving: {found}")
