"""The fan table of SPEC section 4, hand by hand.

Each case is (description, concealed tiles before the win, melds, winning tile,
self-drawn, expected fans as {name: occurrences}). The expected fans are the
whole answer: a fan missing from the dict must not be scored.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable
from itertools import combinations

import pytest

import scoring.fans as fans_module
from protocol.tiles import Tile, parse_tile, parse_tiles, tile_counts
from scoring.analysis import SetKind, decompositions, waiting_tiles
from scoring.fans import FAN_TABLE, FANS, HandError, WinningHand, can_win, score, score_tiles
from scoring.melds import Meld, MeldKind, parse_meld


def hand(concealed: str, melds: str, win: str, self_drawn: bool) -> WinningHand:
    return WinningHand(
        tuple(parse_tiles(concealed)),
        tuple(parse_meld(m) for m in melds.split(",") if m.strip()),
        parse_tile(win),
        self_drawn,
    )


RON, TSUMO = False, True

# fmt: off
CASES: list[tuple[str, str, str, str, bool, dict[str, int]]] = [
    # --- one case per fan of the table ------------------------------------------------
    ("大四喜: four wind pungs (not 碰碰和)",
     "N N N 5M", "peng E, peng S, peng W", "5M", RON,
     {"大四喜": 1, "混一色": 1, "单钓将": 1}),
    ("大三元: three dragon pungs (not 箭刻)",
     "B B 2M 3M 4M 9S 9S", "peng Z, peng F", "B", RON,
     {"大三元": 1}),
    ("十三幺 on a thirteen-sided wait (not 五门齐, 门前清, 混幺九)",
     "1M 9M 1S 9S 1T 9T E S W N Z F B", "", "1M", RON,
     {"十三幺": 1}),
    ("十三幺 on a single wait (not 单钓将), self-drawn",
     "1M 1M 9M 1S 9S 1T 9T E S W N Z F", "", "B", TSUMO,
     {"十三幺": 1, "自摸": 1}),
    ("绿一色 with F: also 混一色",
     "2S 2S 3S 3S 4S 4S 6S 6S 6S 8S 8S F F", "", "F", RON,
     {"绿一色": 1, "混一色": 1, "箭刻": 1, "门前清": 1, "一般高": 1}),
    ("绿一色 without F: also 清一色 (and 断幺)",
     "2S 3S 4S 8S 8S 8S 3S", "chi 2S, peng 6S", "3S", RON,
     {"绿一色": 1, "清一色": 1, "断幺": 1, "一般高": 1, "单钓将": 1}),
    ("四杠: two exposed, two concealed (not 碰碰和, 三杠, 明杠; 暗杠 each)",
     "Z", "gang 1M, gang E, agang 5T, agang 9S", "Z", RON,
     {"四杠": 1, "暗杠": 2, "五门齐": 1, "单钓将": 1}),
    ("小四喜: three wind pungs and a wind pair",
     "W W W N N 2M 3M", "peng E, peng S", "4M", RON,
     {"小四喜": 1, "混一色": 1}),
    ("小三元: two dragon pungs and a dragon pair (not 箭刻)",
     "B B 5M 6M 7M 7T 8T", "peng Z, peng F", "9T", RON,
     {"小三元": 1}),
    ("字一色: honours only (not 碰碰和)",
     "S S S N N F F", "peng E, peng Z", "F", RON,
     {"字一色": 1, "箭刻": 2}),
    ("四暗刻 on a pair wait (not 门前清, 碰碰和)",
     "1M 1M 1M 5S 5S 5S 9T 9T 9T E E E 7M", "", "7M", RON,
     {"四暗刻": 1, "单钓将": 1}),
    ("四暗刻 self-drawn on two pairs",
     "1M 1M 1M 5S 5S 5S 9T 9T 9T E E 7M 7M", "", "E", TSUMO,
     {"四暗刻": 1, "自摸": 1}),
    ("清幺九: terminals only (not 碰碰和)",
     "1T 1T 1T 9M 9M 9T 9T", "peng 1M, peng 9S", "9T", RON,
     {"清幺九": 1}),
    ("一色四同顺 (not 一色三同顺, 一般高)",
     "2M 3M 4M 2M 3M 4M 9T", "chi 2M, chi 2M", "9T", RON,
     {"一色四同顺": 1, "平和": 1, "单钓将": 1}),
    ("三杠 with an exposed, an added and a concealed kong (not 明杠; 暗杠 each)",
     "2T 3T 4T 8M", "gang 3M, gang 7S, agang W", "8M", RON,
     {"三杠": 1, "暗杠": 1, "单钓将": 1}),
    ("混幺九: terminals and honours (not 碰碰和)",
     "9S 9S 9S 1T 1T Z Z", "peng 1M, peng E", "Z", RON,
     {"混幺九": 1, "箭刻": 1, "五门齐": 1}),
    ("七对 on a single wait (not 门前清, 单钓将)",
     "1M 1M 3M 3M 5S 5S 7S 7S 2T 2T E E Z", "", "Z", RON,
     {"七对": 1, "五门齐": 1}),
    ("清一色: one suit, no honours",
     "7S 8S 9S 2S 2S 6S 6S", "chi 1S, chi 4S", "2S", RON,
     {"清一色": 1}),
    ("一色三同顺 beats three concealed pungs (not 一般高)",
     "3T 4T 5T 3T 4T 5T 3T 4T 5T 7M 8M 1S 1S", "", "9M", RON,
     {"一色三同顺": 1, "平和": 1, "门前清": 1}),
    ("三同刻: 5M 5S 5T pungs",
     "5T 5T 5T 2M 3M 4M 8S", "peng 5M, peng 5S", "8S", RON,
     {"三同刻": 1, "断幺": 1, "单钓将": 1}),
    ("三暗刻",
     "2M 2M 2M 6S 6S 6S 8T 8T 8T 3M 4M 7S 7S", "", "5M", RON,
     {"三暗刻": 1, "门前清": 1, "断幺": 1}),
    ("三色三同顺 (not 喜相逢)",
     "4S 5S 6S 4T 5T 6T 7M 8M 2T 2T", "chi 4M", "9M", RON,
     {"三色三同顺": 1, "平和": 1}),
    ("碰碰和",
     "4S 4S 4S 9M 9M E E", "peng 2M, peng 7T", "E", RON,
     {"碰碰和": 1}),
    ("混一色",
     "1T 2T 3T 5T 6T 7T 9T 9T 9T N N B B", "", "B", RON,
     {"混一色": 1, "箭刻": 1, "门前清": 1}),
    ("五门齐",
     "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z", "", "Z", RON,
     {"五门齐": 1, "门前清": 1, "单钓将": 1}),
    ("门前清 on a discard",
     "1M 2M 3M 6S 7S 8S 3T 4T 9T 9T 9T E E", "", "5T", RON,
     {"门前清": 1}),
    ("门前清 counts on a self-draw too",
     "1M 2M 3M 6S 7S 8S 3T 4T 9T 9T 9T E E", "", "5T", TSUMO,
     {"门前清": 1, "自摸": 1}),
    ("门前清 with a concealed kong",
     "1M 2M 3M 6S 7S 8S 3T 4T E E", "agang 9T", "5T", TSUMO,
     {"门前清": 1, "暗杠": 1, "自摸": 1}),
    ("断幺",
     "5S 6S 7S 3T 4T 6T 7T 8T 8M 8M", "chi 2M", "2T", RON,
     {"断幺": 1, "平和": 1, "喜相逢": 1}),
    ("平和: four chows and a suited pair",
     "1M 2M 3M 4M 5M 6M 7S 8S 9S 3T 4T 9T 9T", "", "2T", RON,
     {"平和": 1, "门前清": 1}),
    ("no 平和 with an honour pair",
     "1M 2M 3M 4M 5M 6M 7S 8S 9S 3T 4T E E", "", "2T", RON,
     {"门前清": 1}),
    ("箭刻 each",
     "F F F 2M 3M 4M 6S 7S 9T 9T", "peng Z", "8S", RON,
     {"箭刻": 2}),
    ("暗杠 each",
     "2S 3S 4S 6T 7T 8T 9M", "agang 5M, agang E", "9M", RON,
     {"暗杠": 2, "门前清": 1, "单钓将": 1}),
    ("自摸",
     "4S 5S 6S 7T 8T 9T E E 2M 3M", "chi 1M", "4M", TSUMO,
     {"自摸": 1}),
    ("一般高",
     "3S 4S 5S 1M 2M 3M 7T 8T E E", "chi 3S", "9T", RON,
     {"一般高": 1}),
    ("喜相逢",
     "2T 3T 4T 6S 7S 8S 1S 1S N N", "chi 2M", "N", RON,
     {"喜相逢": 1}),
    ("明杠",
     "1M 2M 3M 4T 5T 6T 9T 9T E E", "gang 8S", "9T", RON,
     {"明杠": 1}),
    ("明杠 each: an exposed and an added kong",
     "1M 2M 3M 9T 9T E E", "gang 8S, gang 5M", "9T", RON,
     {"明杠": 2}),
    ("单钓将",
     "7T 8T 9T W", "chi 1M, peng 9S, chi 4T", "W", RON,
     {"单钓将": 1}),

    # --- several decompositions: the best one counts ---------------------------------
    ("111222333M as chows (一色三同顺) beats as pungs (三暗刻)",
     "1M 1M 1M 2M 2M 2M 3M 3M 3M 5S 6S 9T 9T", "", "7S", RON,
     {"一色三同顺": 1, "平和": 1, "门前清": 1}),
    ("111222333M as pungs (四暗刻) beats as chows",
     "1M 1M 1M 2M 2M 2M 3M 3M 3M 9T 9T 9T 5S", "", "5S", RON,
     {"四暗刻": 1, "单钓将": 1}),
    ("七对 beats a regular reading of the same tiles",
     "1M 1M 2M 2M 3M 3M 5S 5S 6S 6S 7S 7S 9T", "", "9T", RON,
     {"七对": 1}),
    ("seven pairs with four equal tiles (two pairs)",
     "2M 2M 2M 2M 4S 4S 6S 6S 8T 8T 3T 3T 5M", "", "5M", TSUMO,
     {"七对": 1, "断幺": 1, "自摸": 1}),

    # --- concealed pungs: a pung completed by a discard is not concealed ---------------
    ("四暗刻 shape won on a discard into a pung: only 三暗刻",
     "1M 1M 1M 5S 5S 5S 9T 9T 9T E E 7M 7M", "", "E", RON,
     {"三暗刻": 1, "碰碰和": 1, "门前清": 1}),
    ("third pung completed by a discard: no 三暗刻",
     "2M 2M 2M 6S 6S 6S 8T 8T 3M 4M 5M 5T 5T", "", "8T", RON,
     {"门前清": 1, "断幺": 1}),
    ("third pung completed by a self-draw: 三暗刻",
     "2M 2M 2M 6S 6S 6S 8T 8T 3M 4M 5M 5T 5T", "", "8T", TSUMO,
     {"三暗刻": 1, "门前清": 1, "断幺": 1, "自摸": 1}),
    ("a discard that can sit in a chow keeps the pung concealed",
     "5M 5M 5M 6M 7M 2S 2S 2S 9T 9T 9T E E", "", "5M", RON,
     {"三暗刻": 1, "门前清": 1}),

    # --- 单钓将 only on a single pair wait ---------------------------------------------
    ("pair wait that also waits on another tile: no 单钓将 (and no minimum fan)",
     "1M 2M 3M 4M", "chi 5S, peng 9T, chi 2T", "4M", RON,
     {}),
    ("single closed wait, not a pair: no 单钓将",
     "1M 3M E E", "chi 5S, peng 9T, chi 2T", "2M", RON,
     {}),
    ("single wait that the pair can take (7889 + 8): 单钓将",
     "7T 8T 8T 9T", "peng 9T, chi 6M, peng 2S", "8T", RON,
     {"单钓将": 1}),

    # --- 一般高 / 喜相逢 each, under GB's rules for combining sets ------------------------
    ("two 一般高 (123M 123M 456S 456S)",
     "1M 2M 3M 4S 5S 6S 9T", "chi 1M, chi 4S", "9T", RON,
     {"一般高": 2, "平和": 1, "单钓将": 1}),
    ("234M 234M 234S 234S: three pair fans at most, 一般高 x2 + 喜相逢",
     "2M 3M 4M 2S 3S 4S 5T", "chi 2M, chi 2S", "5T", RON,
     {"一般高": 2, "喜相逢": 1, "断幺": 1, "平和": 1, "单钓将": 1}),
    ("three chows 123M 123M 123S: 一般高 + 喜相逢, not 喜相逢 twice",
     "1M 2M 3M 7T 7T E E", "chi 1M, chi 1S", "E", RON,
     {"一般高": 1, "喜相逢": 1}),
    ("a fourth chow that combines with none adds nothing",
     "1M 2M 3M 7T 8T 9T E", "chi 1M, chi 1S", "E", RON,
     {"一般高": 1, "喜相逢": 1, "单钓将": 1}),
    ("一色三同顺 and a fourth chow combining once (喜相逢)",
     "1M 2M 3M 5T", "chi 1M, chi 1M, chi 1S", "5T", RON,
     {"一色三同顺": 1, "喜相逢": 1, "平和": 1, "单钓将": 1}),
    ("三色三同顺 and a fourth chow combining once (一般高)",
     "1M 2M 3M 5T", "chi 1M, chi 1S, chi 1T", "5T", RON,
     {"三色三同顺": 1, "一般高": 1, "平和": 1, "单钓将": 1}),
]
# fmt: on
CASE_IDS = [c[0] for c in CASES]
BY_ID = {c[0]: c for c in CASES}


def case_hand(case_id: str) -> WinningHand:
    _, concealed, melds, win, self_drawn, _ = BY_ID[case_id]
    return hand(concealed, melds, win, self_drawn)


def score_case(case_id: str) -> dict[str, int]:
    return dict(score(case_hand(case_id)).counts)


@pytest.mark.parametrize(("concealed", "melds", "win", "self_drawn", "expected"),
                         [c[1:] for c in CASES], ids=CASE_IDS)
def test_fans_of_known_hands(concealed, melds, win, self_drawn, expected):
    result = score(hand(concealed, melds, win, self_drawn))
    assert dict(result.counts) == expected
    assert result.total == sum(FANS[name].value * n for name, n in expected.items())
    assert result.as_dict() == {name: FANS[name].value * n for name, n in expected.items()}


def test_every_fan_of_the_table_has_a_case():
    scored = {name for case in CASES for name in case[5]}
    assert scored == {fan.name for fan in FAN_TABLE}


def test_fans_come_in_table_order():
    result = score(hand("S S S N N F F", "peng E, peng Z", "F", RON))
    order = [fan.name for fan in FAN_TABLE]
    names = [name for name, _ in result.fans]
    assert names == sorted(names, key=order.index)


# --- the table itself ------------------------------------------------------------------

# SPEC section 4, copied: name -> (value, exclusions, counts each).
SPEC_TABLE = {
    "大四喜": (88, {"碰碰和"}, False),
    "大三元": (88, {"箭刻"}, False),
    "十三幺": (88, {"五门齐", "单钓将", "门前清", "混幺九"}, False),
    "绿一色": (88, set(), False),
    "四杠": (88, {"碰碰和", "三杠", "明杠"}, False),
    "小四喜": (64, set(), False),
    "小三元": (64, {"箭刻"}, False),
    "字一色": (64, {"碰碰和"}, False),
    "四暗刻": (64, {"门前清", "碰碰和"}, False),
    "清幺九": (64, {"碰碰和"}, False),
    "一色四同顺": (48, {"一色三同顺", "一般高"}, False),
    "三杠": (32, {"明杠"}, False),
    "混幺九": (32, {"碰碰和"}, False),
    "七对": (24, {"门前清", "单钓将"}, False),
    "清一色": (24, set(), False),
    "一色三同顺": (24, {"一般高"}, False),
    "三同刻": (16, set(), False),
    "三暗刻": (16, set(), False),
    "三色三同顺": (8, {"喜相逢"}, False),
    "碰碰和": (6, set(), False),
    "混一色": (6, set(), False),
    "五门齐": (6, set(), False),
    "门前清": (2, set(), False),
    "断幺": (2, set(), False),
    "平和": (2, set(), False),
    "箭刻": (2, set(), True),
    "暗杠": (2, set(), True),
    "自摸": (1, set(), False),
    "一般高": (1, set(), True),
    "喜相逢": (1, set(), True),
    "明杠": (1, set(), True),
    "单钓将": (1, set(), False),
}


def test_fan_table_is_the_spec_table():
    assert len(FAN_TABLE) == 32
    assert {f.name: (f.value, set(f.excludes), f.each) for f in FAN_TABLE} == SPEC_TABLE


# Whether a hand holds the pattern of a fan, read off its decompositions, for the
# exclusions that the detectors apply themselves (GB's rules for combining chows
# never raise a lesser chow fan beside a greater one; four kongs are not three).


def chow_readings(h: WinningHand) -> list[list[Tile]]:
    """The chows (melded and concealed) of each decomposition of a hand."""
    c = tile_counts(h.concealed)
    c[h.win] += 1
    melded = [m.tile for m in h.melds if m.kind is MeldKind.CHOW]
    return [sorted(melded + [t for kind, t in d.sets if kind is SetKind.CHOW])
            for d in decompositions(c, len(h.melds))]


def has_equal_chows(n: int) -> Callable[[WinningHand], bool]:
    def check(h: WinningHand) -> bool:
        return any(max(Counter(r).values(), default=0) >= n for r in chow_readings(h))
    return check


def has_mixed_double_chow(h: WinningHand) -> bool:
    return any(a.rank == b.rank and a.suit != b.suit
               for r in chow_readings(h) for a, b in combinations(r, 2))


def has_three_kongs(h: WinningHand) -> bool:
    return sum(m.is_kong for m in h.melds) >= 3


def waits_on_the_win_alone(h: WinningHand) -> bool:
    return waiting_tiles(tile_counts(h.concealed), len(h.melds)) == [h.win]


# (excluding fan, excluded fan, a case whose hand has the first and would otherwise
# score the second, how "would otherwise" is shown): None loosens the table entry
# and expects the excluded fan back; a predicate checks the hand holds its pattern.
EXCLUSIONS: list[tuple[str, str, str, Callable[[WinningHand], bool] | None]] = [
    ("大四喜", "碰碰和", "大四喜: four wind pungs (not 碰碰和)", None),
    ("大三元", "箭刻", "大三元: three dragon pungs (not 箭刻)", None),
    ("十三幺", "五门齐", "十三幺 on a thirteen-sided wait (not 五门齐, 门前清, 混幺九)", None),
    ("十三幺", "门前清", "十三幺 on a thirteen-sided wait (not 五门齐, 门前清, 混幺九)", None),
    ("十三幺", "混幺九", "十三幺 on a thirteen-sided wait (not 五门齐, 门前清, 混幺九)", None),
    # Thirteen orphans is never read as a pair wait, so 单钓将 cannot arise; the
    # hand waits on one tile alone (what GB, and the original, call a single wait).
    ("十三幺", "单钓将", "十三幺 on a single wait (not 单钓将), self-drawn",
     waits_on_the_win_alone),
    ("四杠", "碰碰和", "四杠: two exposed, two concealed (not 碰碰和, 三杠, 明杠; 暗杠 each)",
     None),
    ("四杠", "三杠", "四杠: two exposed, two concealed (not 碰碰和, 三杠, 明杠; 暗杠 each)",
     has_three_kongs),
    ("四杠", "明杠", "四杠: two exposed, two concealed (not 碰碰和, 三杠, 明杠; 暗杠 each)", None),
    ("小三元", "箭刻", "小三元: two dragon pungs and a dragon pair (not 箭刻)", None),
    ("字一色", "碰碰和", "字一色: honours only (not 碰碰和)", None),
    ("四暗刻", "门前清", "四暗刻 on a pair wait (not 门前清, 碰碰和)", None),
    ("四暗刻", "碰碰和", "四暗刻 on a pair wait (not 门前清, 碰碰和)", None),
    ("清幺九", "碰碰和", "清幺九: terminals only (not 碰碰和)", None),
    ("一色四同顺", "一色三同顺", "一色四同顺 (not 一色三同顺, 一般高)", has_equal_chows(3)),
    ("一色四同顺", "一般高", "一色四同顺 (not 一色三同顺, 一般高)", has_equal_chows(2)),
    ("三杠", "明杠",
     "三杠 with an exposed, an added and a concealed kong (not 明杠; 暗杠 each)", None),
    ("混幺九", "碰碰和", "混幺九: terminals and honours (not 碰碰和)", None),
    ("七对", "门前清", "七对 on a single wait (not 门前清, 单钓将)", None),
    # Seven pairs is never read as a pair wait either; its win completes a pair
    # and is the hand's only wait, which is SPEC's 单钓将.
    ("七对", "单钓将", "七对 on a single wait (not 门前清, 单钓将)", waits_on_the_win_alone),
    ("一色三同顺", "一般高", "一色三同顺 beats three concealed pungs (not 一般高)",
     has_equal_chows(2)),
    ("三色三同顺", "喜相逢", "三色三同顺 (not 喜相逢)", has_mixed_double_chow),
]


def test_every_exclusion_of_the_spec_has_a_case():
    listed = {(excluder, excluded) for excluder, excluded, _, _ in EXCLUSIONS}
    assert listed == {(name, x) for name, (_, excl, _) in SPEC_TABLE.items() for x in excl}


@pytest.mark.parametrize(("excluder", "excluded", "case_id", "pattern"), EXCLUSIONS,
                         ids=[f"{a} excludes {b}" for a, b, _, _ in EXCLUSIONS])
def test_exclusion_removes_a_fan_the_hand_would_otherwise_score(
    excluder, excluded, case_id, pattern, monkeypatch
):
    scored = score_case(case_id)
    assert excluder in scored and excluded not in scored
    if pattern is not None:
        assert pattern(case_hand(case_id))
        return
    loosened = dataclasses.replace(
        FANS[excluder], excludes=tuple(x for x in FANS[excluder].excludes if x != excluded)
    )
    monkeypatch.setitem(fans_module.FANS, excluder, loosened)
    assert excluded in score_case(case_id)


# --- invalid hands ---------------------------------------------------------------------

INVALID = [
    ("five of a kind in the hand",
     "1M 1M 1M 1M 2M 3M 4S 5S 6S 7T 8T 9T E", "", "1M", "more than 4 copies of 1M"),
    ("five of a kind across a meld",
     "1M 1M 2M 3M 4S 5S 6S 7T 8T E", "peng 1M", "E", "more than 4 copies of 1M"),
    ("twelve concealed tiles and no meld",
     "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E", "", "Z", "12 concealed tiles with 0 meld(s)"),
    ("fourteen concealed tiles",
     "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z Z", "", "Z", "expected 13"),
    ("too many tiles for the melds",
     "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z", "peng B", "Z", "expected 10"),
    ("five melds",
     "E", "chi 1M, chi 1M, chi 1M, chi 1M, peng Z", "E", "5 melds: at most 4"),
    ("not a winning hand",
     "1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N", "", "Z", "not a winning hand"),
    ("ready, but not on this tile",
     "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z", "", "F", "not a winning hand"),
]


@pytest.mark.parametrize(("concealed", "melds", "win", "message"), [c[1:] for c in INVALID],
                         ids=[c[0] for c in INVALID])
def test_invalid_hand_raises_hand_error_with_a_clear_message(concealed, melds, win, message):
    with pytest.raises(HandError, match=re.escape(message)):
        score(hand(concealed, melds, win, RON))


def test_a_chow_meld_must_fit_in_its_suit():
    with pytest.raises(ValueError, match="no chow starts at 8M"):
        parse_meld("chi 8M")
    with pytest.raises(ValueError, match="no chow starts at E"):
        Meld(MeldKind.CHOW, Tile.EAST)


def test_score_tiles_and_can_win_agree_with_score():
    concealed = parse_tiles("7T 8T 9T W")
    melds = [parse_meld("chi 1M"), parse_meld("peng 9S"), parse_meld("chi 4T")]
    assert score_tiles(concealed, melds, Tile.WEST, False).as_dict() == {"单钓将": 1}
    assert can_win(concealed, melds, Tile.WEST)
    assert not can_win(concealed, melds, Tile.EAST)
