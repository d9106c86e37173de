"""PyMahjongGB as an oracle for the fan table of SPEC section 4.

Three parts, used by ``tests/scoring/test_fans_oracle.py`` and ``bench/bench_fans.py``:

* Seeded generators of valid winning hands (never a fifth copy of a kind):
  ``random_hand`` mixes shapes, tile palettes, melds (chi, peng, gang, agang)
  and self-drawn or not; ``TARGETS`` builds hands aimed at each fan of
  ``FAN_TABLE``, and ``HIDDEN_TARGETS`` hands aimed at the GB fans outside the
  table that hide fans inside it.
* ``gb_call``: a hand as the arguments of PyMahjongGB's ``MahjongFanCalculator``.
* ``translate`` and ``judge``: GB's verbose answer read back as the fan
  multiset our table expects, and compared with our scoring.

Theory of the translation. GB scores 81 fans; the table keeps 32 and says that
a GB fan outside the table excludes nothing inside it. GB's answer is read in
four steps:

1. a GB fan of the table counts as itself (matched on GB's English name:
   PyMahjongGB's Chinese names vary by version, its 单钓将 is 独听・单钓);
2. a GB composite counts as its parts (``COMPOSITES``: 不求人 is 门前清 + 自摸,
   双箭刻 is 箭刻 x2, ...);
3. a GB fan outside the table that made GB drop fans of the table gives them
   back (``HIDDEN``; ``_hidden_by_hand`` where the number depends on the hand:
   the 暗杠 under 三杠 and 四杠, the 混一色 under 绿一色 with 发);
4. the table's own exclusions apply to the result.

What GB's answer alone cannot settle is accepted only under a ``Tolerance``,
each caused by a named GB rule. Any other difference is a disagreement.
The GB rules are those of GB's reference calculator, fan_calculator.cpp of
summerinsects/ChineseOfficialMahjongHelper, which PyMahjongGB wraps.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from protocol.tiles import (
    DRAGONS,
    HONOR_TILES,
    SUITED_TILES,
    TERMINALS_AND_HONORS,
    WINDS,
    Tile,
    format_tiles,
    tile_counts,
)
from scoring.analysis import decompositions
from scoring.fans import FAN_TABLE, FANS, FanResult, WinningHand, readings
from scoring.melds import Meld, MeldKind

# --- hands ------------------------------------------------------------------------

SetSpec = tuple[str, int]  # ("chow" by its lowest tile | "pung" | "kong", tile)

ALL: tuple[int, ...] = tuple(range(34))
HONORS: tuple[int, ...] = HONOR_TILES
ORPHANS: tuple[int, ...] = TERMINALS_AND_HONORS
SIMPLES: tuple[int, ...] = tuple(t for t in SUITED_TILES if t.rank not in (1, 9))
TERMINALS: tuple[int, ...] = tuple(t for t in SUITED_TILES if t.rank in (1, 9))
GREEN: tuple[int, ...] = (Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN)
SUITS: tuple[tuple[int, ...], ...] = tuple(SUITED_TILES[i : i + 9] for i in (0, 9, 18))
CHOW_STARTS: tuple[int, ...] = tuple(t for t in range(27) if t % 9 < 7)


def describe(hand: WinningHand) -> str:
    """A hand in wire codes, for failure messages."""
    melds = ", ".join(str(m) for m in hand.melds) or "-"
    how = "self-drawn" if hand.self_drawn else "on a discard"
    return (f"concealed [{format_tiles(sorted(hand.concealed))}] melds [{melds}] "
            f"win {hand.win.code} {how}")


def build(
    rng: random.Random,
    sets: Sequence[SetSpec],
    pair: int,
    *,
    meld_rate: float = 0.3,
    concealed_kong_rate: float = 0.5,
    win: str = "any",
    self_drawn: bool | None = None,
) -> WinningHand | None:
    """Four sets and a pair as a hand, or None if that needs a fifth copy of a kind.

    Kongs are always declared (exposed or concealed); other sets are declared
    with probability ``meld_rate``. ``win`` is ``"any"`` (a random concealed
    tile completes the hand) or ``"pair"`` (the pair does).
    """
    tiles = [pair, pair]
    concealed = [pair, pair]
    melds = []
    for shape, t in sets:
        kind: MeldKind | None
        if shape == "kong":
            kind = MeldKind.CONCEALED_KONG if rng.random() < concealed_kong_rate else MeldKind.KONG
            group = [t] * 4
        elif shape == "chow":
            kind = MeldKind.CHOW if rng.random() < meld_rate else None
            group = [t, t + 1, t + 2]
        else:
            kind = MeldKind.PUNG if rng.random() < meld_rate else None
            group = [t] * 3
        tiles += group
        if kind is None:
            concealed += group
        else:
            melds.append(Meld(kind, Tile(t)))
    if max(tile_counts(tiles)) > 4:
        return None
    winner = pair if win == "pair" else rng.choice(concealed)
    concealed.remove(winner)
    rng.shuffle(melds)
    return WinningHand(tuple(Tile(t) for t in sorted(concealed)), tuple(melds), Tile(winner),
                       rng.random() < 0.5 if self_drawn is None else self_drawn)


def random_set(rng: random.Random, palette: Sequence[int], chow_share: float = 0.5,
               kong_share: float = 0.1) -> SetSpec:
    kinds = set(palette)
    starts = [t for t in CHOW_STARTS if t in kinds and t + 1 in kinds and t + 2 in kinds]
    if starts and rng.random() < chow_share:
        return ("chow", rng.choice(starts))
    return ("kong" if rng.random() < kong_share else "pung", rng.choice(palette))


def _palette(rng: random.Random) -> list[int]:
    """A random tile palette: narrow ones make flushes, simples and the like common."""
    roll = rng.random()
    suit = rng.choice(SUITS)
    if roll < 0.35:
        return [*ALL]
    if roll < 0.45:
        return [*suit]
    if roll < 0.60:
        return [*suit, *HONORS]
    if roll < 0.70:
        return [*suit, *rng.choice([s for s in SUITS if s != suit])]
    if roll < 0.80:
        return [*SIMPLES]
    if roll < 0.85:
        return [*ORPHANS]
    if roll < 0.90:
        return [*HONORS, *rng.sample(SUITED_TILES, 6)]
    if roll < 0.95:
        return [*GREEN]
    rank = rng.randrange(7)  # a few kinds: equal chows, pungs of equal ranks
    return [s[rank + k] for s in SUITS for k in range(3)]


def seven_pairs(rng: random.Random, kinds: Sequence[int] = ALL,
                four_of_a_kind: float = 0.15) -> WinningHand:
    chosen = rng.sample(kinds if len(kinds) >= 7 else ALL, 7)
    if rng.random() < four_of_a_kind:  # four equal tiles count as two pairs
        chosen[6] = chosen[0]
    tiles = [t for t in chosen for _ in range(2)]
    winner = rng.choice(tiles)
    tiles.remove(winner)
    return WinningHand(tuple(Tile(t) for t in sorted(tiles)), (), Tile(winner),
                       rng.random() < 0.5)


def thirteen_orphans(rng: random.Random) -> WinningHand:
    tiles = [*ORPHANS, rng.choice(ORPHANS)]
    winner = rng.choice(tiles)
    tiles.remove(winner)
    return WinningHand(tuple(Tile(t) for t in sorted(tiles)), (), Tile(winner),
                       rng.random() < 0.5)


def random_hand(rng: random.Random) -> WinningHand:
    """A random winning hand: mostly four sets and a pair, some seven pairs and orphans."""
    while True:
        roll = rng.random()
        palette = _palette(rng)
        if roll < 0.01:
            return thirteen_orphans(rng)
        if roll < 0.07:
            return seven_pairs(rng, palette)
        chow_share = rng.choice((0.0, 0.3, 0.6, 0.9))
        kong_share = rng.choice((0.0, 0.0, 0.1, 0.3))
        hand = build(rng, [random_set(rng, palette, chow_share, kong_share) for _ in range(4)],
                     rng.choice(palette), meld_rate=rng.choice((0.0, 0.0, 0.2, 0.5, 0.8, 1.0)),
                     win="pair" if rng.random() < 0.15 else "any")
        if hand is not None:
            return hand


# --- hands aimed at one fan ----------------------------------------------------------

Generator = Callable[[random.Random], "WinningHand | None"]


def _sets(rng: random.Random, fixed: Sequence[SetSpec], pair: int | None = None,
          palette: Sequence[int] = ALL, **options: Any) -> WinningHand | None:
    """The ``fixed`` sets, random ones from ``palette`` up to four, and a pair."""
    sets = [*fixed, *(random_set(rng, palette) for _ in range(4 - len(fixed)))]
    return build(rng, sets, rng.choice(palette) if pair is None else pair, **options)


def _pungs(rng: random.Random, kinds: Sequence[int], **options: Any) -> WinningHand | None:
    """Four pungs (a kong now and then) of different ``kinds`` and a pair of a fifth."""
    chosen = rng.sample(kinds, 5)
    return build(rng, [("kong" if rng.random() < 0.1 else "pung", t) for t in chosen[:4]],
                 chosen[4], **options)


def _honor_fan(rng: random.Random, kinds: Sequence[int]) -> WinningHand | None:
    """Pungs of all ``kinds`` but one, which is the pair (小四喜, 小三元)."""
    chosen = rng.sample(kinds, len(kinds))
    return _sets(rng, [("pung", t) for t in chosen[1:]], chosen[0])


def _same_rank(rng: random.Random, ranks: int, suits: int) -> list[int]:
    rank = rng.randrange(ranks)
    return [s[rank] for s in rng.sample(SUITS, suits)]


def _four_concealed_pungs(rng: random.Random) -> WinningHand | None:
    drawn = rng.random() < 0.5  # on a discard, the pair must complete the hand
    return _pungs(rng, ALL, meld_rate=0.0, self_drawn=drawn, win="any" if drawn else "pair")


def _half_flush(rng: random.Random) -> WinningHand | None:
    return _sets(rng, [("pung", rng.choice(HONORS))], palette=[*rng.choice(SUITS), *HONORS])


def _all_types(rng: random.Random) -> WinningHand | None:
    wind, dragon = rng.choice(WINDS), rng.choice(DRAGONS)
    pung, pair = (wind, dragon) if rng.random() < 0.5 else (dragon, wind)
    return build(rng, [*(random_set(rng, s) for s in SUITS), ("pung", pung)], pair)


def _nine_gates(rng: random.Random) -> WinningHand:
    suit = rng.choice(SUITS)
    tiles = [suit[0]] * 3 + list(suit[1:8]) + [suit[8]] * 3
    return WinningHand(tuple(Tile(t) for t in tiles), (), Tile(rng.choice(suit)),
                       rng.random() < 0.5)


def _shifted_pairs(rng: random.Random) -> WinningHand:
    start = rng.randrange(3)
    tiles = [t for t in rng.choice(SUITS)[start : start + 7] for _ in range(2)]
    winner = rng.choice(tiles)
    tiles.remove(winner)
    return WinningHand(tuple(Tile(t) for t in tiles), (), Tile(winner), rng.random() < 0.5)


def _pure_terminal_chows(rng: random.Random) -> WinningHand | None:
    suit = rng.choice(SUITS)
    return build(rng, [("chow", suit[k]) for k in (0, 0, 6, 6)], suit[4])


def _three_suited_terminal_chows(rng: random.Random) -> WinningHand | None:
    pair_suit, *others = rng.sample(SUITS, 3)
    return build(rng, [("chow", s[k]) for s in others for k in (0, 6)], pair_suit[4])


def _all_five(rng: random.Random) -> WinningHand | None:
    with_five = [("chow", s[k]) for s in SUITS for k in (2, 3, 4)] + [("pung", s[4]) for s in SUITS]
    return build(rng, [rng.choice(with_five) for _ in range(4)], rng.choice(SUITS)[4])


def _four_shifted_pungs(rng: random.Random) -> WinningHand | None:
    suit, rank = rng.choice(SUITS), rng.randrange(6)
    return build(rng, [("pung", suit[rank + k]) for k in range(4)], rng.choice(ALL))


# One generator per fan of the table; the hands usually, not always, score it.
TARGETS: dict[str, Generator] = {
    "大四喜": lambda rng: build(rng, [("pung", w) for w in WINDS], rng.choice(ALL)),
    "大三元": lambda rng: _sets(rng, [("pung", d) for d in DRAGONS]),
    "十三幺": thirteen_orphans,
    "绿一色": lambda rng: _sets(rng, [], palette=GREEN),
    "四杠": lambda rng: build(rng, [("kong", t) for t in rng.sample(ALL, 4)], rng.choice(ALL)),
    "小四喜": lambda rng: _honor_fan(rng, WINDS),
    "小三元": lambda rng: _honor_fan(rng, DRAGONS),
    "字一色": lambda rng: _pungs(rng, HONORS),
    "四暗刻": _four_concealed_pungs,
    "清幺九": lambda rng: _pungs(rng, TERMINALS),
    "一色四同顺": lambda rng: _sets(rng, [("chow", rng.choice(CHOW_STARTS))] * 4),
    "三杠": lambda rng: _sets(rng, [("kong", t) for t in rng.sample(ALL, 3)]),
    "混幺九": lambda rng: _sets(
        rng, [("pung", rng.choice(HONORS)), ("pung", rng.choice(TERMINALS))], palette=ORPHANS),
    "七对": lambda rng: seven_pairs(rng, _palette(rng)),
    "清一色": lambda rng: _sets(rng, [], palette=rng.choice(SUITS)),
    "一色三同顺": lambda rng: _sets(rng, [("chow", rng.choice(CHOW_STARTS))] * 3),
    "三同刻": lambda rng: _sets(rng, [("pung", t) for t in _same_rank(rng, 9, 3)]),
    "三暗刻": lambda rng: _sets(rng, [("pung", t) for t in rng.sample(ALL, 3)], meld_rate=0.0),
    "三色三同顺": lambda rng: _sets(rng, [("chow", t) for t in _same_rank(rng, 7, 3)]),
    "碰碰和": lambda rng: _pungs(rng, ALL),
    "混一色": _half_flush,
    "五门齐": _all_types,
    "门前清": lambda rng: _sets(rng, [], meld_rate=0.0),
    "断幺": lambda rng: _sets(rng, [], palette=SIMPLES),
    "平和": lambda rng: build(rng, [("chow", rng.choice(CHOW_STARTS)) for _ in range(4)],
                            rng.choice(SUITED_TILES)),
    "箭刻": lambda rng: _sets(rng, [("pung", rng.choice(DRAGONS))]),
    "暗杠": lambda rng: _sets(rng, [("kong", rng.choice(ALL))], concealed_kong_rate=1.0),
    "自摸": lambda rng: _sets(rng, [], self_drawn=True),
    "一般高": lambda rng: _sets(rng, [("chow", rng.choice(CHOW_STARTS))] * 2),
    "喜相逢": lambda rng: _sets(rng, [("chow", t) for t in _same_rank(rng, 7, 2)]),
    "明杠": lambda rng: _sets(rng, [("kong", rng.choice(ALL))], concealed_kong_rate=0.0),
    "单钓将": lambda rng: _sets(rng, [], win="pair"),
}
assert list(TARGETS) == [fan.name for fan in FAN_TABLE]

# One generator per GB fan of ``HIDDEN`` (by English name), so that each rule of
# the translation's step 3 is exercised, not only described.
HIDDEN_TARGETS: dict[str, Generator] = {
    "Melded Hand": lambda rng: _sets(rng, [], meld_rate=1.0, concealed_kong_rate=0.0,
                                     self_drawn=False),
    "Four Kongs": TARGETS["四杠"],
    "Nine Gates": _nine_gates,
    "Seven Shifted Pairs": _shifted_pairs,
    "Pure Terminal Chows": _pure_terminal_chows,
    "Three-Suited Terminal Chows": _three_suited_terminal_chows,
    "All Even Pungs": lambda rng: _pungs(rng, [t for t in SUITED_TILES if t.rank % 2 == 0]),
    "Middle Tiles": lambda rng: _sets(rng, [], palette=[s[k] for s in SUITS for k in (3, 4, 5)]),
    "All Five": _all_five,
    "Four Pure Shifted Pungs": _four_shifted_pungs,
}


def hand_from(generator: Generator, rng: random.Random) -> WinningHand:
    """A valid hand from a generator (which gives None when a kind runs out)."""
    while True:
        hand = generator(rng)
        if hand is not None:
            return hand


# --- calling GB -------------------------------------------------------------------

_GB_SUIT = "WTB"  # GB: W characters, T bamboo, B dots (ours: M, S, T)
_GB_HONORS = ("F1", "F2", "F3", "F4", "J1", "J2", "J3")  # E S W N, then 中 发 白

GbAnswer = tuple[tuple[int, int, str, str], ...]  # (points, count, Chinese name, English)


def gb_tile(t: int) -> str:
    return f"{_GB_SUIT[t // 9]}{t % 9 + 1}" if t < 27 else _GB_HONORS[t - 27]


def gb_call(hand: WinningHand) -> dict[str, Any]:
    """Keyword arguments of ``MahjongFanCalculator`` for a hand.

    Melds are claimed with offer 1 (any of 1..3 means exposed); a concealed kong
    has offer 0. No flowers, no 和绝张 / 杠 / 海底 flags, both winds East: the
    resulting 圈风刻 and 门风刻 lie outside our table and are ignored.
    """
    packs = []
    for m in hand.melds:
        if m.kind is MeldKind.CHOW:
            packs.append(("CHI", gb_tile(m.tile + 1), 1))  # GB names a chow by its middle tile
        elif m.kind is MeldKind.PUNG:
            packs.append(("PENG", gb_tile(m.tile), 1))
        else:
            packs.append(("GANG", gb_tile(m.tile), 0 if m.kind is MeldKind.CONCEALED_KONG else 1))
    return {
        "pack": tuple(packs),
        "hand": tuple(gb_tile(t) for t in hand.concealed),
        "winTile": gb_tile(hand.win),
        "flowerCount": 0,
        "isSelfDrawn": hand.self_drawn,
        "is4thTile": False,
        "isAboutKong": False,
        "isWallLast": False,
        "seatWind": 0,
        "prevalentWind": 0,
        "verbose": True,
    }


def gb_fans(hand: WinningHand) -> GbAnswer:
    from MahjongGB import MahjongFanCalculator

    answer: GbAnswer = MahjongFanCalculator(**gb_call(hand))
    return answer


# --- translating GB's answer ---------------------------------------------------------

# Step 1: GB fans that are fans of our table, by GB's English name.
SAME: dict[str, str] = {fan.english: fan.name for fan in FAN_TABLE}

# Step 2: GB composites, as the fans of our table they stand for.
COMPOSITES: dict[str, dict[str, int]] = {
    "Fully Concealed Hand": {"门前清": 1, "自摸": 1},  # 不求人; SPEC: it is 门前清 + 自摸
    "Two Dragons Pungs": {"箭刻": 2},  # 双箭刻 (双箭刻不计箭刻)
    "Two Melded Kongs": {"明杠": 2},  # 双明杠 (双明杠不计明杠)
    "Concealed Kong and Melded Kong": {"明杠": 1, "暗杠": 1},  # 明暗杠, 5 points
    "Two Concealed Kongs": {"暗杠": 2},  # 双暗杠 (双暗杠不计暗杠)
}

# Step 3: GB fans outside our table that made GB drop fans of the table, with the
# GB rule that drops them (fan_calculator.cpp: final_adjust, or the step named).
HIDDEN: dict[str, tuple[dict[str, int], str]] = {
    "Melded Hand": ({"单钓将": 1}, "全求人不计单钓将 (its lone tile is a single wait)"),
    "Four Kongs": ({"单钓将": 1}, "四杠不计单钓将 (its lone tile is a single wait)"),
    "Nine Gates": ({"清一色": 1, "门前清": 1},
                   "九莲宝灯不计清一色、门前清; GB scores it as a special form, but no "
                   "decomposition of it holds two equal chows or three concealed pungs"),
    "Seven Shifted Pairs": ({"七对": 1, "清一色": 1}, "连七对不计七对、清一色、门前清"),
    "Pure Terminal Chows": ({"清一色": 1, "平和": 1, "一般高": 2},
                            "一色双龙会不计七对、清一色、平和、一般高、老少副"),
    "Three-Suited Terminal Chows": ({"平和": 1, "喜相逢": 2},
                                    "三色双龙会不计平和、喜相逢、老少副"),
    "All Even Pungs": ({"碰碰和": 1, "断幺": 1}, "全双刻不计碰碰和、断幺"),
    "Middle Tiles": ({"断幺": 1}, "全中不计断幺"),
    "All Five": ({"断幺": 1}, "全带五不计断幺"),
    "Four Pure Shifted Pungs": ({"碰碰和": 1}, "一色四节高不计碰碰和"),
}


def _hidden_by_hand(english: str, hand: WinningHand) -> dict[str, int]:
    """Fans GB dropped whose number depends on the hand itself."""
    if english in ("Three Kongs", "Four Kongs"):
        # GB's calculate_kongs writes only 三杠 / 四杠 for three or four kongs;
        # SPEC: "each concealed kong also 暗杠".
        n = sum(1 for m in hand.melds if m.kind is MeldKind.CONCEALED_KONG)
        return {"暗杠": n} if n else {}
    if english == "All Green" and Tile.GREEN in (*hand.concealed, hand.win,
                                                 *(m.tile for m in hand.melds)):
        return {"混一色": 1}  # 绿一色不计混一色; SPEC: 绿一色 with 发 is also 混一色
    return {}


class Tolerance(Enum):
    """What GB's answer cannot settle, each caused by a GB rule outside our table."""

    # GB counts one of 边张, 嵌张, 单钓将 only, 边张 first ("当多种可能存在时，只能计其
    # 中一种", adjust_by_waiting_form). When GB reports 边张 or 嵌张 the hand had a
    # single wait, and if the winning tile can also complete the pair our table
    # counts 单钓将 there (边张 and 嵌张 do not exist here). GB's answer does not say
    # which, so 单钓将 may be present or absent.
    EDGE_OR_CLOSED_WAIT_HIDES_SINGLE_WAIT = "边张/嵌张 hide 单钓将"
    # Among all decompositions GB keeps the one with the highest GB total, counting
    # fans outside our table (一色三节高, 一色三步高, 清龙, 一色双龙会, 四归一, 幺九刻,
    # ...; calculate_fan, "找出最大的番的划分方式"); SPEC keeps the highest total of
    # our table. When they differ, GB's answer, translated, must still be exactly
    # the fans we give the reading GB kept, and ours must total at least as much.
    GB_KEEPS_ANOTHER_READING = "GB keeps another decomposition"


@dataclass(frozen=True)
class Expectation:
    fans: Mapping[str, int]  # what our table expects, read from GB's answer
    rules: tuple[str, ...]  # GB fans that steps 2 and 3 translated
    single_wait_optional: bool = False


def translate(answer: GbAnswer, hand: WinningHand) -> Expectation:
    """GB's verbose answer as the fan multiset of our table."""
    fans: Counter[str] = Counter()
    rules = []
    for _, count, _, english in answer:
        if english in SAME:
            fans[SAME[english]] += count
        if english in COMPOSITES:
            fans.update({name: n * count for name, n in COMPOSITES[english].items()})
            rules.append(english)
        # What GB dropped comes back once, however many GB fans dropped it
        # (全中 and 全带五 both drop 断幺; 四杠 and 全求人 both drop 单钓将).
        hidden = {**HIDDEN.get(english, ({}, ""))[0], **_hidden_by_hand(english, hand)}
        for name, n in hidden.items():
            fans[name] = max(fans[name], n)
        if hidden:
            rules.append(english)
    excluded = {x for name in fans for x in FANS[name].excludes}
    kept = {name: n for name, n in fans.items() if n and name not in excluded}
    edge_or_closed = any(english in ("Edge Wait", "Closed Wait") for *_, english in answer)
    return Expectation(kept, tuple(rules), edge_or_closed and "单钓将" not in kept)


def _pair_can_be_winning_tile(hand: WinningHand) -> bool:
    counts = tile_counts(hand.concealed)
    counts[hand.win] += 1
    return any(d.pair == hand.win for d in decompositions(counts, len(hand.melds)))


def _matches(ours: Mapping[str, int], expected: Expectation,
             hand: WinningHand) -> list[Tolerance] | None:
    """None if ``ours`` is not what GB's answer expects; else the tolerances it took."""
    fans = {name: n for name, n in ours.items() if n}
    if fans == expected.fans:
        return []
    if (expected.single_wait_optional and fans.pop("单钓将", 0) == 1
            and fans == expected.fans and _pair_can_be_winning_tile(hand)):
        return [Tolerance.EDGE_OR_CLOSED_WAIT_HIDES_SINGLE_WAIT]
    return None


@dataclass
class Verdict:
    agrees: bool
    expected: Expectation
    tolerances: list[Tolerance] = field(default_factory=list)


def judge(hand: WinningHand, ours: FanResult, answer: GbAnswer) -> Verdict:
    """Whether our result is what GB's answer, translated, says it should be."""
    expected = translate(answer, hand)
    taken = _matches(dict(ours.counts), expected, hand)
    if taken is not None:
        return Verdict(True, expected, taken)
    total = sum(FANS[name].value * n for name, n in expected.fans.items())
    if total <= ours.total:
        for reading in readings(hand):
            taken = _matches(reading, expected, hand)
            if taken is not None:
                return Verdict(True, expected, [*taken, Tolerance.GB_KEEPS_ANOTHER_READING])
    return Verdict(False, expected)


def report(hand: WinningHand, ours: FanResult, answer: GbAnswer, verdict: Verdict) -> str:
    """A disagreement, readably: the hand, our fans, GB's, and what GB's mean here."""
    gb = ", ".join(f"{name} x{n}" if n > 1 else name for _, n, name, _ in answer)
    return (f"{describe(hand)}\n    ours:     {dict(ours.counts)} (total {ours.total})\n"
            f"    GB:       {gb}\n    expected: {dict(verdict.expected.fans)}")
