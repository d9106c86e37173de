"""Seeded deals and the duplicate match plan (SPEC section 2).

The golden values pin the generator: a change of hash, counter format, word
order, shuffle or first-actor draw changes every recorded match's deals, and
must be a deliberate, documented break.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from protocol.tiles import format_tiles, full_set, parse_tiles
from rulesets.default.engine.rng import (
    GROUP_ORDERS,
    SeedStream,
    deal,
    group_seed,
    match_plan,
    seating,
    wall_from_hands_and_draws,
)

# --- the generator -------------------------------------------------------------------


def test_the_stream_is_sha256_of_label_and_counter_read_as_big_endian_words() -> None:
    stream = SeedStream("test")
    words = [stream.next_u64() for _ in range(5)]
    block0 = hashlib.sha256(b"test:0").digest()
    block1 = hashlib.sha256(b"test:1").digest()
    expected = [int.from_bytes(block0[i : i + 8], "big") for i in (0, 8, 16, 24)]
    expected.append(int.from_bytes(block1[:8], "big"))
    assert words == expected


def test_golden_group_seeds() -> None:
    assert group_seed(1, 0) == 1048033984024825393
    assert group_seed(1, 1) == 9021351107937602414
    assert group_seed(0, 0) == 6128149608904668396


@pytest.mark.parametrize(("index", "first", "front", "back"), [
    (0, 3, "8S 2S 3T 9S 5T 4T 4S N Z 9T 9S 6M", "E 3S F 4S"),
    (1, 3, "5S 7M 5M 7S 1T 6S Z 6T 1T W E W", "1M 1S 8T 4T"),
    (2, 1, "S 4M 2M 1M 8S 6T 9S 1M 4T 9M 2S 4M", "2M 1S 9M 4T"),
    (3, 2, "9S 3T 8M 2S F 9M 7M F 6S 7S 3S 1T", "9T 4T 2M 1M"),
])
def test_golden_deals_of_match_seed_1_group_0(index: int, first: int, front: str,
                                              back: str) -> None:
    d = deal(group_seed(1, 0), index)
    assert d.first == first
    assert format_tiles(d.wall[:12]) == front
    assert format_tiles(d.wall[-4:]) == back


def test_below_stays_in_range_and_refuses_an_empty_range() -> None:
    stream = SeedStream("range")
    values = [stream.below(3) for _ in range(3000)]
    assert set(values) == {0, 1, 2}
    assert all(800 < n < 1200 for n in Counter(values).values())
    with pytest.raises(ValueError):
        stream.below(0)


# --- deals ---------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_deals() -> None:
    for seed in (0, 1, 2**62 + 7):
        for index in range(4):
            assert deal(seed, index) == deal(seed, index)


def test_different_seeds_and_different_indices_give_different_deals() -> None:
    walls = {deal(seed, index).wall for seed in range(20) for index in range(4)}
    assert len(walls) == 80
    assert group_seed(1, 0) != group_seed(2, 0)
    assert len({group_seed(7, g) for g in range(6)}) == 6


def test_each_wall_is_a_permutation_of_the_136_tiles() -> None:
    tiles = sorted(full_set())
    for seed in range(50):
        for index in range(4):
            d = deal(seed, index)
            assert len(d.wall) == 136
            assert sorted(d.wall) == tiles


def test_every_seat_is_the_first_actor_about_equally_often() -> None:
    firsts = Counter(deal(seed, 0).first for seed in range(800))
    assert set(firsts) == {0, 1, 2, 3}
    assert all(150 < n < 250 for n in firsts.values())


def test_a_wall_can_be_built_from_hands_and_draws() -> None:
    hands = [parse_tiles(" ".join(["1M"] * 4 + ["2M"] * 4 + ["3M"] * 4 + ["4M"]))] * 4
    draws = parse_tiles("E S")
    wall = wall_from_hands_and_draws(hands, draws)
    assert wall[:13] == tuple(hands[0]) and wall[52:] == tuple(draws)


# --- the match plan ------------------------------------------------------------------


def test_the_group_orders_are_the_six_cyclic_orders_of_the_spec() -> None:
    spec = "1234, 1324, 1342, 1423, 1432, 1243"
    assert tuple(tuple(int(c) - 1 for c in order)
                                 for order in spec.split(", ")) == GROUP_ORDERS


def test_the_match_plan_has_96_hands_in_group_round_deal_order() -> None:
    plan = list(match_plan(5))
    assert len(plan) == 96
    assert [p.number for p in plan] == list(range(96))
    assert [(p.group, p.round, p.deal_index) for p in plan] == [
        (g, r, k) for g in range(6) for r in range(4) for k in range(4)]
    assert all(p.seed == group_seed(5, p.group) for p in plan)


def test_round_r_of_a_group_seats_order_rotated_by_r() -> None:
    for p in match_plan(5):
        order = GROUP_ORDERS[p.group]
        assert p.seats == tuple(order[(s + p.round) % 4] for s in range(4))
        assert p.seats == seating(p.group, p.round)
    assert seating(0, 0) == (0, 1, 2, 3)
    assert seating(0, 1) == (1, 2, 3, 0)
    assert seating(1, 3) == (3, 0, 2, 1)


def test_every_player_sits_in_every_seat_once_per_deal_within_a_group() -> None:
    plan = list(match_plan(5))
    for g in range(6):
        for k in range(4):
            hands = [p for p in plan if p.group == g and p.deal_index == k]
            assert len(hands) == 4
            for seat in range(4):
                assert sorted(p.seats[seat] for p in hands) == [0, 1, 2, 3]


def test_the_four_deals_of_a_group_are_shared_by_its_four_rounds() -> None:
    plan = list(match_plan(11))
    for g in range(6):
        by_round = {r: [deal(p.seed, p.deal_index) for p in plan
                        if p.group == g and p.round == r] for r in range(4)}
        assert by_round[0] == by_round[1] == by_round[2] == by_round[3]
        assert len({d.wall for d in by_round[0]}) == 4
    walls = {deal(p.seed, p.deal_index).wall for p in plan}
    assert len(walls) == 24  # six groups of four distinct deals


def test_fewer_groups_play_a_prefix_of_the_full_plan() -> None:
    assert list(match_plan(3, groups=2)) == list(match_plan(3))[:32]
