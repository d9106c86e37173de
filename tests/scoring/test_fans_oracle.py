"""Our fan table against PyMahjongGB, the GB oracle of SPEC section 4.

Over 20,000 seeded winning hands (random ones, ones aimed at each of the 32
fans, and ones aimed at the GB fans outside the table that hide fans inside
it), GB's answer, translated by ``tests/gb_oracle.py``, must be exactly our
fans, or differ only under one of its named tolerances. Any other difference
fails, with the hand. Every multiset of four chows is also compared on a
single decomposition, for GB's rules for combining sets.

PyMahjongGB is one of the test extras, so these tests always run.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

import pytest

from protocol.tiles import Tile, tile_counts
from scoring.fans import FAN_TABLE, WinningHand, score
from scoring.melds import Meld, MeldKind
from tests.gb_oracle import (
    CHOW_STARTS,
    HIDDEN,
    HIDDEN_TARGETS,
    TARGETS,
    Tolerance,
    gb_fans,
    hand_from,
    judge,
    random_hand,
    report,
)

SEED = 2024
RANDOM_HANDS = 13_000
PER_TARGET = 200  # x 32 fans of the table
PER_HIDDEN_TARGET = 100  # x 10 GB fans outside it
SHOWN = 20  # disagreements printed in full


@dataclass
class Run:
    hands: int = 0
    disagreements: list[str] = field(default_factory=list)
    hits: Counter[str] = field(default_factory=Counter)  # our fans, once per hand
    own_hits: Counter[str] = field(default_factory=Counter)  # a target's hands with its fan
    tolerances: Counter[Tolerance] = field(default_factory=Counter)
    translations: Counter[str] = field(default_factory=Counter)  # GB composites, hidden


@pytest.fixture(scope="module")
def run() -> Run:
    """Every hand scored by us and by GB, once for all the tests below."""
    result = Run()

    def compare(hand_label: str, hand: WinningHand) -> None:
        ours = score(hand)
        answer = gb_fans(hand)
        verdict = judge(hand, ours, answer)
        result.hands += 1
        result.hits.update(name for name, _ in ours.counts)
        if hand_label in dict(ours.counts) or hand_label in {e for *_, e in answer}:
            result.own_hits[hand_label] += 1
        result.tolerances.update(verdict.tolerances)
        result.translations.update(verdict.expected.rules)
        if not verdict.agrees:
            result.disagreements.append(f"[{hand_label}] {report(hand, ours, answer, verdict)}")

    rng = random.Random(f"{SEED}:random")
    for _ in range(RANDOM_HANDS):
        compare("random", random_hand(rng))
    for fan, generate in TARGETS.items():
        rng = random.Random(f"{SEED}:{fan}")
        for _ in range(PER_TARGET):
            compare(fan, hand_from(generate, rng))
    for english, generate in HIDDEN_TARGETS.items():
        rng = random.Random(f"{SEED}:{english}")
        for _ in range(PER_HIDDEN_TARGET):
            compare(english, hand_from(generate, rng))
    print(f"\n{result.hands} hands, {len(result.disagreements)} unexplained disagreements")
    print("fans hit:", ", ".join(f"{fan.name} {result.hits[fan.name]}" for fan in FAN_TABLE))
    print("tolerances:", {t.name: n for t, n in result.tolerances.items()})
    print("GB fans translated:", dict(result.translations))
    return result


def test_gb_and_our_table_agree_on_every_hand(run: Run) -> None:
    shown = "\n".join(run.disagreements[:SHOWN])
    assert not run.disagreements, (
        f"{len(run.disagreements)} of {run.hands} hands disagree with GB, translated "
        f"(first {min(SHOWN, len(run.disagreements))}):\n{shown}")


def test_at_least_20000_hands_are_compared(run: Run) -> None:
    assert run.hands >= 20_000


def test_every_fan_of_the_table_is_scored_somewhere(run: Run) -> None:
    missing = [fan.name for fan in FAN_TABLE if not run.hits[fan.name]]
    assert not missing


def test_each_generator_hits_the_fan_it_aims_at(run: Run) -> None:
    """Most of a target's hands score its fan (GB's, for the GB fans outside the table)."""
    aims = [(label, PER_TARGET) for label in TARGETS]
    aims += [(label, PER_HIDDEN_TARGET) for label in HIDDEN_TARGETS]
    weak = {label: run.own_hits[label] for label, n in aims if run.own_hits[label] < n // 2}
    assert not weak


def test_every_translation_rule_is_exercised(run: Run) -> None:
    """Each GB fan the translation gives fans back for occurred at least once."""
    assert not [english for english in HIDDEN if not run.translations[english]]


def test_every_four_chows_combine_as_in_gb() -> None:
    """一般高, 喜相逢 and the three-chow fans, for every multiset of four chows.

    Three chows are melded and the fourth is concealed with the pair, so both
    sides read one decomposition: GB's rules for combining sets (and its fans
    outside the table, 连六, 老少副, 清龙, 花龙, 三步高, which take part in them)
    are compared without the tolerance for another decomposition.
    """
    disagreements = []
    compared = 0
    for chows in combinations_with_replacement(CHOW_STARTS, 4):
        for pair, self_drawn in ((Tile.EAST, True), (Tile.M5, False)):
            tiles = [t + k for t in chows for k in range(3)] + [pair, pair]
            if max(tile_counts(tiles)) > 4:
                continue
            first = chows[0]
            hand = WinningHand((Tile(first), Tile(first + 1), Tile(first + 2), pair),
                               tuple(Meld(MeldKind.CHOW, Tile(t)) for t in chows[1:]), pair,
                               self_drawn)
            ours, answer = score(hand), gb_fans(hand)
            verdict = judge(hand, ours, answer)
            compared += 1
            if not verdict.agrees or Tolerance.GB_KEEPS_ANOTHER_READING in verdict.tolerances:
                disagreements.append(report(hand, ours, answer, verdict))
    assert compared > 20_000
    assert not disagreements, "\n".join(disagreements[:SHOWN])
