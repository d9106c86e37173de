"""Botzone's judge under random play: legal-ish moves mixed with garbage and bad verdicts.

Whatever the bots answer, the judge never raises, every game ends, the scores
sum to zero, and no tile is made or lost on the way.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.botzone.judge import Judge, Reply
from rulesets.botzone.tiles import TILES

GARBAGE = ["", " ", "PASS ", "pass", "HU ", "PLAY", "PLAY W0", "GANG", "GANG X1", "PENG",
           "CHI W2", "CHI W1 W1", "BUGANG", "BUGANG F1", "PLAY W1 W2", "\u4e2d", "PASS\n"]
MAX_TURNS = 2000


def _discard(rng: random.Random, full: list[str]) -> str:
    """Mostly a tile with no neighbour, so that hands sometimes come together."""
    def alone(tile: str) -> bool:
        if full.count(tile) > 1:
            return False
        if tile[0] not in "WBT":
            return True
        return not any(f"{tile[0]}{int(tile[1]) + d}" in full for d in (-2, -1, 1, 2))

    lonely = [tile for tile in full if alone(tile)]
    return rng.choice(lonely if lonely and rng.random() < 0.9 else full)


def _chows(hand: list[str], discard: str) -> list[str]:
    """The valid chows of ``discard`` with ``hand``, each with a tile left to play."""
    if discard[0] not in "WBT":
        return []
    options = []
    for middle in range(int(discard[1]) - 1, int(discard[1]) + 2):
        if not 2 <= middle <= 8:
            continue
        rest = [*hand, discard]
        run = [f"{discard[0]}{middle + step}" for step in (-1, 0, 1)]
        if all(tile in rest for tile in run):
            for tile in run:
                rest.remove(tile)
            options.append(f"CHI {run[1]} {rest[0]}")
    return options


def _reply(rng: random.Random, game: Judge, seat: int, request: str, garbage: float,
           claim: float) -> Reply:
    if rng.random() < garbage / 4:
        return Reply(rng.choice(["TLE", "RE", "MLE"]), None)
    if rng.random() < garbage:
        return Reply("OK", rng.choice([*GARBAGE, rng.choice(TILES), f"PLAY {rng.choice(TILES)}"]))
    hand = game._hands[seat]
    words = request.split()
    can_hu = game.output()["display"]["canHu"][seat]
    if can_hu - len(game._flowers[seat]) >= 8 and rng.random() < 0.9:
        return Reply("OK", "HU")
    if words[0] == "2":
        full = [*hand, words[1]]
        options = [f"GANG {tile}" for tile in set(full) if full.count(tile) == 4]
        options += [f"BUGANG {meld.tile}" for meld in game._melds[seat]
                    if meld.kind == "PENG" and meld.tile in full]
        if rng.random() < 0.002:
            options.append("HU")
        if options and rng.random() < claim:
            return Reply("OK", rng.choice(options))
        return Reply("OK", f"PLAY {_discard(rng, full)}")
    if words[0] == "3" and words[2] in ("PLAY", "PENG", "CHI") and int(words[1]) != seat:
        discard = words[-1]
        rest = list(hand)
        options = []
        if rest.count(discard) >= 2:
            for _ in range(2):
                rest.remove(discard)
            options.append(f"PENG {rng.choice(rest)}")
        if hand.count(discard) >= 3:
            options.append("GANG")
        if (int(words[1]) + 1) % 4 == seat:
            options += _chows(hand, discard)
            if rng.random() < 0.05:
                options.append(f"CHI {discard} {rng.choice(hand)}")
        if rng.random() < 0.005:
            options.append("HU")
        if options and rng.random() < claim:
            return Reply("OK", rng.choice(options))
    if words[0] == "3" and words[2] == "BUGANG" and int(words[1]) != seat and rng.random() < 0.1:
        return Reply("OK", "HU")
    return Reply("OK", "PASS")


def _meld_tiles(game: Judge) -> list[str]:
    tiles: list[str] = []
    for melds in game._melds:
        for meld in melds:
            if meld.kind == "CHI":
                tiles += [meld.tile[0] + str(int(meld.tile[1]) + step) for step in (-1, 0, 1)]
            else:
                tiles += [meld.tile] * (4 if meld.kind == "GANG" else 3)
    return tiles


def _tiles_in_play(game: Judge, pile: list[str]) -> Counter[str]:
    held = [tile for wall in game._walls for tile in wall]
    held += [tile for hand in game._hands for tile in hand]
    held += [tile for flowers in game._flowers for tile in flowers]
    held += _meld_tiles(game) + pile
    if 0 <= game._stage < 4 and game._last_op == "DRAW":
        held.append(game._last_tile)  # drawn, not yet in the hand
    return Counter(held)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(["classic", "duplicate"]),
    garbage=st.sampled_from([0.0, 0.0005, 0.003, 0.02, 0.2]),
    claim=st.sampled_from([0.0, 0.3, 0.9]),
)
def test_random_play_always_ends_with_zero_sum_scores_and_conserved_tiles(
    seed: int, variant: str, garbage: float, claim: float,
) -> None:
    rng = random.Random(seed)
    game = Judge(variant, {"srand": seed})
    everything = Counter(game.initdata["walltiles"].split(" "))
    pile: list[str] = []
    previous: dict[str, Any] = game.output()["display"]
    for _ in range(MAX_TURNS):
        requests = game.requests()
        assert len(requests) == 4
        out = game.step([_reply(rng, game, seat, requests[seat], garbage, claim)
                         for seat in range(4)])
        json.dumps(out)
        display = out["display"]
        assert len(display["canHu"]) == 4
        assert all(isinstance(value, int) for value in display["canHu"])
        if game.finished:
            break
        action = display["action"]
        if action in ("PENG", "CHI") or (
            action == "GANG" and previous["action"] in ("PLAY", "PENG", "CHI")
        ):
            pile.remove(previous["tile"])  # the claimed discard
        if action in ("PLAY", "PENG", "CHI"):
            pile.append(display["tile"])
        assert _tiles_in_play(game, pile) == everything
        previous = display
    assert game.finished, "the game did not end"
    assert game.requests() == []
    assert game.scores is not None
    assert sum(game.scores) == 0
    assert game.output()["command"] == "finish"
    assert game.output()["content"] == {str(seat): game.scores[seat] for seat in range(4)}
