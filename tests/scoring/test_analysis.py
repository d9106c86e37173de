"""Hand analysis: decompositions, winning shapes, waits and shanten."""

from __future__ import annotations

import random

import pytest

from protocol.tiles import ALL_TILES, Tile, parse_tile, parse_tiles, tile_counts
from scoring.analysis import (
    Decomposition,
    SetKind,
    decompositions,
    is_regular_win,
    is_seven_pairs,
    is_thirteen_orphans,
    is_winning,
    regular_shanten,
    seven_pairs_shanten,
    shanten,
    thirteen_orphans_shanten,
    wait_kinds,
    waiting_tiles,
)

CHOW, PUNG = SetKind.CHOW, SetKind.PUNG


def counts(text: str) -> list[int]:
    return tile_counts(parse_tiles(text))


def readable(d: Decomposition) -> tuple[list[str], str]:
    """A decomposition as sorted strings: 'chow 1M', 'pung E'; and the pair."""
    return sorted(f"{kind.name.lower()} {tile.code}" for kind, tile in d.sets), d.pair.code


def tiles(text: str) -> list[Tile]:
    return [parse_tile(code) for code in text.split()]


# --- decompositions -----------------------------------------------------------------


def test_a_plain_hand_has_one_decomposition():
    ds = decompositions(counts("1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z"))
    assert [readable(d) for d in ds] == [
        (["chow 1M", "chow 4S", "chow 7T", "pung E"], "Z"),
    ]


def test_three_equal_chows_are_also_three_pungs():
    ds = decompositions(counts("1M 1M 1M 2M 2M 2M 3M 3M 3M 5S 6S 7S 9T 9T"))
    assert sorted(readable(d) for d in ds) == [
        (["chow 1M", "chow 1M", "chow 1M", "chow 5S"], "9T"),
        (["chow 5S", "pung 1M", "pung 2M", "pung 3M"], "9T"),
    ]


def test_the_pair_can_move_between_decompositions():
    ds = decompositions(counts("1M 1M 2M 2M 3M 3M 4M 4M 5S 6S 7S E E E"))
    assert sorted(readable(d) for d in ds) == [
        (["chow 1M", "chow 1M", "chow 5S", "pung E"], "4M"),
        (["chow 2M", "chow 2M", "chow 5S", "pung E"], "1M"),
    ]


def test_decompositions_count_declared_sets():
    # Two melds declared: the concealed part needs two sets and a pair.
    ds = decompositions(counts("2T 3T 4T 6T 6T 6T 8S 8S"), n_melds=2)
    assert [readable(d) for d in ds] == [(["chow 2T", "pung 6T"], "8S")]
    assert decompositions(counts("2T 3T 4T 6T 6T 6T 8S 8S"), n_melds=0) == []


def test_no_decomposition_for_a_wrong_tile_count():
    assert decompositions(counts("1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z")) == []
    assert decompositions(counts("1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z Z")) == []


def test_honours_never_form_chows():
    assert decompositions(counts("E S W 1M 2M 3M 4S 5S 6S 7T 8T 9T Z Z")) == []
    assert decompositions(counts("Z F B 1M 2M 3M 4S 5S 6S 7T 8T 9T E E")) == []


def test_four_honours_are_not_a_concealed_set():
    assert decompositions(counts("E E E E 1M 2M 3M 4S 5S 6S 7T 8T 9T Z")) == []


def test_chows_do_not_wrap_between_suits():
    assert not is_winning(counts("8M 9M 1S 2M 3M 4M 4S 5S 6S 7T 8T 9T E E"))


# --- winning shapes -----------------------------------------------------------------


def test_seven_pairs_wins():
    c = counts("1M 1M 3M 3M 5S 5S 7S 7S 2T 2T E E Z Z")
    assert is_seven_pairs(c) and is_winning(c) and not is_regular_win(c)


def test_four_equal_tiles_count_as_two_pairs():
    c = counts("2M 2M 2M 2M 4S 4S 6S 6S 8T 8T 3T 3T 5M 5M")
    assert is_seven_pairs(c)
    assert is_winning(c)


def test_seven_pairs_needs_a_concealed_hand():
    c = counts("1M 1M 3M 3M 5S 5S 7S 7S 2T 2T E")
    assert not is_seven_pairs(c, n_melds=1)


def test_thirteen_orphans_wins_with_any_one_pair():
    for extra in ("1M", "9T", "E", "B"):
        c = counts(f"1M 9M 1S 9S 1T 9T E S W N Z F B {extra}")
        assert is_thirteen_orphans(c) and is_winning(c), extra


def test_thirteen_orphans_needs_all_thirteen_kinds():
    c = counts("1M 9M 1S 9S 1T 9T E S W N Z F F F")  # no B
    assert not is_thirteen_orphans(c)
    assert not is_thirteen_orphans(counts("1M 9M 1S 9S 1T 9T E S W N Z F B 5M"))
    assert not is_winning(counts("1M 9M 1S 9S 1T 9T E S W N Z F B 5M"))


def test_thirteen_orphans_needs_a_concealed_hand():
    c = counts("1M 9M 1S 9S 1T 9T E S W N Z")
    assert not is_thirteen_orphans(c, n_melds=1)


# --- waits --------------------------------------------------------------------------

WAITS = [
    ("nine gates wait on all nine", "1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M", 0,
     "1M 2M 3M 4M 5M 6M 7M 8M 9M"),
    ("thirteen orphans, thirteen-sided", "1M 9M 1S 9S 1T 9T E S W N Z F B", 0,
     "1M 9M 1S 9S 1T 9T E S W N Z F B"),
    ("thirteen orphans with a pair, single", "1M 1M 9M 1S 9S 1T 9T E S W N Z F", 0, "B"),
    ("two-sided", "2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z", 0, "1M 4M"),
    ("closed (kanchan)", "1M 3M 4S 5S 6S 7T 8T 9T E E E Z Z", 0, "2M"),
    ("edge (penchan)", "1M 2M 4S 5S 6S 7T 8T 9T E E E Z Z", 0, "3M"),
    ("two pairs (shanpon)", "1M 1M 4S 5S 6S 7T 8T 9T E E E Z Z", 0, "1M Z"),
    ("pair wait", "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z", 0, "Z"),
    ("pair or edge of a run", "1M 2M 3M 4M 4S 5S 6S 7T 8T 9T E E E", 0, "1M 4M"),
    ("seven pairs, single", "1M 1M 3M 3M 5S 5S 7S 7S 2T 2T E E Z", 0, "Z"),
    ("with declared sets", "7T 8T 8T 9T", 3, "8T"),
    ("single tile left", "W", 4, "W"),
]


@pytest.mark.parametrize(("hand", "n_melds", "waits"), [w[1:] for w in WAITS],
                         ids=[w[0] for w in WAITS])
def test_waiting_tiles_of_known_hands(hand, n_melds, waits):
    assert waiting_tiles(counts(hand), n_melds) == tiles(waits)


def test_a_kind_held_four_times_is_still_listed_as_a_wait():
    # 1111M 23M...: the shape waits on 1M and 4M although no 1M can come.
    assert waiting_tiles(counts("1M 1M 1M 1M 2M 3M 4S 5S 6S 7T 8T 9T E")) == tiles("E")
    assert Tile.M1 in waiting_tiles(counts("1M 1M 1M 2M 3M 4S 5S 6S 7T 8T 9T E E"))


def test_a_hand_that_is_not_ready_waits_on_nothing():
    assert waiting_tiles(counts("1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N")) == []


@pytest.mark.parametrize(("hand", "n_melds"), [w[1:3] for w in WAITS], ids=[w[0] for w in WAITS])
def test_a_tile_is_a_wait_exactly_when_it_completes_the_hand(hand, n_melds):
    c = counts(hand)
    waits = waiting_tiles(c, n_melds)
    for tile in ALL_TILES:
        c[tile] += 1
        assert is_winning(c, n_melds) == (tile in waits), tile.code
        c[tile] -= 1


def test_counts_no_real_hand_has_still_give_the_tiles_that_complete_the_hand():
    # A suit holding five of a kind is read without the cached suit keys: its waits
    # must still be exactly the tiles that complete the hand.
    rng = random.Random(3)
    checked = 0
    while checked < 60:
        n_melds = rng.choice([0, 1, 2])
        c = [0] * 34
        while sum(c) < 13 - 3 * n_melds:
            c[rng.randrange(34) if rng.random() < 0.7 else rng.choice([0, 1, 2, 9, 27])] += 1
        if max(c) < 5:
            continue
        checked += 1
        waits = wait_kinds(c, n_melds)
        assert waits == wait_kinds(tuple(c), n_melds)
        for t in range(34):
            c[t] += 1
            assert is_winning(c, n_melds) == (t in waits), (c, t)
            c[t] -= 1


# --- shanten ------------------------------------------------------------------------

# (name, tiles, declared sets, regular, seven pairs, thirteen orphans, overall)
SHANTEN = [
    ("complete regular", "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z", 0, -1, 4, 8, -1),
    ("complete seven pairs", "1M 1M 3M 3M 5S 5S 7S 7S 2T 2T E E Z Z", 0, 3, -1, 9, -1),
    ("complete thirteen orphans", "1M 9M 1S 9S 1T 9T E S W N Z F B B", 0, 7, 5, -1, -1),
    ("ready, regular", "1M 2M 3M 4M 5M 6M 7S 8S 9S 2T 3T 5T 5T", 0, 0, 5, 11, 0),
    ("one away, regular", "1M 2M 3M 4M 5M 6M 7S 8S 9S 2T 3T 5T 6T", 0, 1, 6, 11, 1),
    ("nine gates", "1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M", 0, 0, 4, 10, 0),
    ("ready, seven pairs", "1M 1M 5S 5S 9T 9T E E Z Z F F 3M", 0, 3, 0, 7, 0),
    ("one away, thirteen orphans", "1M 9M 1S 9S 1T 9T E S W N Z F 5M", 0, 8, 6, 1, 1),
    ("knitted junk", "1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N", 0, 8, 6, 6, 6),
    ("scattered", "1M 2M 5M 8M 2S 6S 9S 3T 7T E S Z B", 0, 7, 6, 7, 6),
    ("with declared sets", "7T 8T 8T 9T", 3, 0, 99, 99, 0),
    ("declared sets, complete", "7T 8T 9T 9T 9T", 3, -1, 99, 99, -1),
]


@pytest.mark.parametrize(("hand", "n_melds", "regular", "pairs", "orphans", "overall"),
                         [s[1:] for s in SHANTEN], ids=[s[0] for s in SHANTEN])
def test_shanten_of_known_hands(hand, n_melds, regular, pairs, orphans, overall):
    c = counts(hand)
    assert regular_shanten(c, n_melds) == regular
    assert seven_pairs_shanten(c, n_melds) == pairs
    assert thirteen_orphans_shanten(c, n_melds) == orphans
    assert shanten(c, n_melds) == overall


def test_shanten_is_minus_one_exactly_for_winning_hands():
    for hand in (
        "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z",
        "2M 2M 2M 2M 4S 4S 6S 6S 8T 8T 3T 3T 5M 5M",
        "1M 9M 1S 9S 1T 9T E S W N Z F B 1M",
        "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z F",
    ):
        c = counts(hand)
        assert (shanten(c) == -1) == is_winning(c), hand


def test_shanten_zero_means_some_tile_completes_the_hand():
    for _, hand, n_melds, *_ in SHANTEN:
        c = counts(hand)
        if sum(c) % 3 == 1:
            assert (shanten(c, n_melds) == 0) == bool(waiting_tiles(c, n_melds)), hand
