"""The nearest target hand's search (``rulesets.noi2014.nearest``): a valid target that
keeps as many of the hand's tiles as any, ties told apart by the chance estimate.

The search against the search it replaced is checked game by game by
``bench/same_results_noi2014.py`` and ``bench/exactness.py noi2014`` (every target is in
the records); here, its optimality against a brute force where one is cheap: a seat
with two or three melds needs only one or two sets and a pair."""

from __future__ import annotations

import itertools
import random

from rulesets.noi2014 import nearest as search
from rulesets.noi2014.hands import wins_list
from rulesets.noi2014.nearest import nearest
from rulesets.noi2014.tiles import KINDS

N = len(KINDS)
SETS = [[3 if k == kind else 0 for k in range(N)] for kind in range(N)] + \
    [[1 if start <= k < start + 3 else 0 for k in range(N)]
     for start in range(N) if start % 9 <= 6]


def _counts(codes: str) -> list[int]:
    counts = [0] * N
    for code in codes.split():
        counts[KINDS.index(code)] += 1
    return counts


def _most_kept(hand: list[int], caps: list[int], sets: int) -> int:
    """The most of ``hand`` any valid target keeps, by trying every target."""
    best = -1
    for chosen in itertools.combinations_with_replacement(range(len(SETS)), sets):
        base = [sum(SETS[s][k] for s in chosen) for k in range(N)]
        for pair in range(N):
            target = list(base)
            target[pair] += 2
            if all(target[k] <= caps[k] for k in range(N)):
                best = max(best, sum(min(target[k], hand[k]) for k in range(N)))
    return best


def test_a_hand_one_tile_from_a_win_targets_that_win() -> None:
    hand = _counts("B1 B2 B3 B4 B5 B6 T2 T3 T4 W7 W7 W7 W9")
    pick = nearest(hand, [4] * N, 4, [0] * N)
    assert pick == _counts("B1 B2 B3 B4 B5 B6 T2 T3 T4 W7 W7 W7 W9 W9")


def test_of_equally_near_targets_the_one_whose_needed_tile_was_seen_last_wins() -> None:
    hand = _counts("B1 B2 B3 T4 T5 T6 W1 W2 W3 B7 B7 T9 T9")  # a pung of B7 or of T9
    late = [0] * N
    late[KINDS.index("B7")], late[KINDS.index("T9")] = 5, 20
    pick = nearest(hand, [4] * N, 4, late)
    assert (pick[KINDS.index("B7")], pick[KINDS.index("T9")]) == (2, 3)
    late[KINDS.index("B7")], late[KINDS.index("T9")] = 20, 5
    pick = nearest(hand, [4] * N, 4, late)
    assert (pick[KINDS.index("B7")], pick[KINDS.index("T9")]) == (3, 2)


def test_targets_are_winning_hands_within_the_tiles_left_that_keep_the_most() -> None:
    rng = random.Random(7)
    for _ in range(12):
        melds = rng.choice([2, 3])
        caps = [4] * N
        for kind in rng.sample(range(N), melds):
            caps[kind] = rng.choice([0, 1])  # a kong, or a pung (one copy left)
        tiles = [k for k in range(N) for _ in range(caps[k])]
        hand = [0] * N
        for k in rng.sample(tiles, 13 - 3 * melds):
            hand[k] += 1
        late = [rng.randrange(40) for _ in range(N)]
        pick = nearest(hand, caps, 4 - melds, late)
        assert wins_list(pick, melds)
        assert all(pick[k] <= caps[k] for k in range(N))
        assert sum(min(pick[k], hand[k]) for k in range(N)) == _most_kept(hand, caps,
                                                                           4 - melds)


def test_the_cache_changes_no_answer_and_holds_no_count_a_hand_cannot_hold() -> None:
    hand = _counts("B1 B1 B4 B7 T2 T3 T9 W1 W5 W5 W6 W8 W9")
    late = list(range(N))
    first = nearest(hand, [4] * N, 4, late)
    search._cache.clear()
    assert nearest(hand, [4] * N, 4, late) == first == nearest(hand, [4] * N, 4, late)
    odd = list(hand)
    odd[0] = 5  # no game holds five B1: answered, not cached
    before = len(search._cache)
    nearest(odd, [4] * N, 4, late)
    assert len(search._cache) == before
