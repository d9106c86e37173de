"""The fan table of SPEC section 4, as data, and the scoring of a winning hand.

Theory of operation: a winning hand is read every way it can be (each
decomposition into sets and a pair, seven pairs, thirteen orphans, and within
each, every set the winning tile could have completed). For each reading the
detectors below count the raw fans; then every fan present removes the fans its
table entry excludes; the reading with the highest total wins. Only the
exclusions written in ``FAN_TABLE`` apply (SPEC: a GB fan outside the table
excludes nothing here).

Chows combine under GB's rules for combining sets (套算一次, 不得相同), in the
form GB's reference calculator uses: a four-chow fan takes all four chows; a
three-chow fan takes three and lets the fourth chow combine once; otherwise
pairs of chows each give a fan, at most two among three chows and at most three
among four (one fewer for each chow that combines with none), trimming the
most repeated fan first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from operator import itemgetter

from protocol.tiles import (
    CODES,
    COPIES,
    DRAGONS,
    N_KINDS,
    RANK_OF,
    SUIT_OF,
    TERMINALS_AND_HONORS,
    WINDS,
    Tile,
    tile_counts,
)
from scoring.analysis import (
    SetKind,
    is_only_wait_as_pair,
    is_seven_pairs,
    is_thirteen_orphans,
    is_winning,
    raw_decompositions,
)
from scoring.melds import Meld, MeldKind


@dataclass(frozen=True, slots=True)
class Fan:
    name: str  # the Chinese name, as on the wire and in logs
    english: str
    value: int
    excludes: tuple[str, ...] = ()
    each: bool = False  # counts once per occurrence


FAN_TABLE: tuple[Fan, ...] = (
    Fan("大四喜", "Big Four Winds", 88, ("碰碰和",)),
    Fan("大三元", "Big Three Dragons", 88, ("箭刻",)),
    Fan("十三幺", "Thirteen Orphans", 88, ("五门齐", "单钓将", "门前清", "混幺九")),
    Fan("绿一色", "All Green", 88),
    Fan("四杠", "Four Kongs", 88, ("碰碰和", "三杠", "明杠")),
    Fan("小四喜", "Little Four Winds", 64),
    Fan("小三元", "Little Three Dragons", 64, ("箭刻",)),
    Fan("字一色", "All Honors", 64, ("碰碰和",)),
    Fan("四暗刻", "Four Concealed Pungs", 64, ("门前清", "碰碰和")),
    Fan("清幺九", "All Terminals", 64, ("碰碰和",)),
    Fan("一色四同顺", "Quadruple Chow", 48, ("一色三同顺", "一般高")),
    Fan("三杠", "Three Kongs", 32, ("明杠",)),
    Fan("混幺九", "All Terminals and Honors", 32, ("碰碰和",)),
    Fan("七对", "Seven Pairs", 24, ("门前清", "单钓将")),
    Fan("清一色", "Full Flush", 24),
    Fan("一色三同顺", "Pure Triple Chow", 24, ("一般高",)),
    Fan("三同刻", "Triple Pung", 16),
    Fan("三暗刻", "Three Concealed Pungs", 16),
    Fan("三色三同顺", "Mixed Triple Chow", 8, ("喜相逢",)),
    Fan("碰碰和", "All Pungs", 6),
    Fan("混一色", "Half Flush", 6),
    Fan("五门齐", "All Types", 6),
    Fan("门前清", "Concealed Hand", 2),
    Fan("断幺", "All Simples", 2),
    Fan("平和", "All Chows", 2),
    Fan("箭刻", "Dragon Pung", 2, each=True),
    Fan("暗杠", "Concealed Kong", 2, each=True),
    Fan("自摸", "Self-Drawn", 1),
    Fan("一般高", "Pure Double Chow", 1, each=True),
    Fan("喜相逢", "Mixed Double Chow", 1, each=True),
    Fan("明杠", "Melded Kong", 1, each=True),
    Fan("单钓将", "Single Wait", 1),
)
FANS: dict[str, Fan] = {fan.name: fan for fan in FAN_TABLE}
_ORDER: dict[str, int] = {fan.name: i for i, fan in enumerate(FAN_TABLE)}


class HandError(ValueError):
    """A hand that cannot be scored: impossible tiles, or not a winning hand."""


@dataclass(frozen=True, slots=True)
class WinningHand:
    """What scoring needs: the concealed tiles before the win, the melds, the win."""

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    win: Tile
    self_drawn: bool


@dataclass(frozen=True, slots=True)
class FanResult:
    fans: tuple[tuple[str, int], ...]  # (name, points) in table order; "each" fans summed
    total: int
    counts: tuple[tuple[str, int], ...]  # (name, occurrences)

    def as_dict(self) -> dict[str, int]:
        return dict(self.fans)


# --- validation -----------------------------------------------------------------


def _with_melds(counts: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """``counts`` plus the tiles of ``melds``."""
    total = list(counts)
    for m in melds:
        if m.kind is _CHOW_MELD:
            total[m.tile] += 1
            total[m.tile + 1] += 1
            total[m.tile + 2] += 1
        else:
            total[m.tile] += 3 if m.kind is _PUNG_MELD else 4
    return total


def validate(hand: WinningHand) -> None:
    """Raise ``HandError`` for a hand that cannot exist."""
    _checked_counts(hand)


# --- fan detectors ----------------------------------------------------------------
#
# Detectors work on plain ints (tile kinds 0..33, see protocol.tiles) and add to
# a dict of raw counts: scoring reads many hands a second.

_GREEN = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})
_WINDS = frozenset(WINDS)
_DRAGONS = frozenset(DRAGONS)
_HONOR = tuple(t >= Tile.EAST for t in range(N_KINDS))
_SUIT = tuple(int(SUIT_OF[t]) for t in range(N_KINDS))
_CHOW = int(SetKind.CHOW)
_CHOW_MELD, _PUNG_MELD, _CONCEALED_KONG = MeldKind.CHOW, MeldKind.PUNG, MeldKind.CONCEALED_KONG
_ORPHAN_COUNTS = itemgetter(*TERMINALS_AND_HONORS)
_GREEN_COUNTS = itemgetter(*_GREEN)
_SUIT_SLICES = tuple(slice(base, base + 9) for base in (0, 9, 18))
_WIND_SLICE = slice(int(Tile.EAST), int(Tile.RED))
_DRAGON_SLICE = slice(int(Tile.RED), N_KINDS)


def _add(fans: dict[str, int], name: str, n: int = 1) -> None:
    fans[name] = fans.get(name, 0) + n


def _tile_traits(counts: Sequence[int], fans: dict[str, int]) -> None:
    """Fans that depend only on which tiles the hand holds (``counts``: every tile)."""
    total = sum(counts)
    characters, bamboo, dots = _SUIT_SLICES
    numbered = any(counts[characters]) + any(counts[bamboo]) + any(counts[dots])
    winds = any(counts[_WIND_SLICE])
    dragons = any(counts[_DRAGON_SLICE])
    orphans = sum(_ORPHAN_COUNTS(counts))
    if sum(_GREEN_COUNTS(counts)) == total:
        fans["绿一色"] = 1
    if not numbered:
        fans["字一色"] = 1
    elif orphans == total:
        fans["混幺九" if winds or dragons else "清幺九"] = 1
    if numbered == 1:
        fans["混一色" if winds or dragons else "清一色"] = 1
    if numbered == 3 and winds and dragons:
        fans["五门齐"] = 1
    if not orphans:
        fans["断幺"] = 1


def _chow_pair_fan(a: int, b: int) -> str | None:
    """The fan two chows (by lowest tile) make together, if any."""
    if a == b:
        return "一般高"
    if RANK_OF[a] == RANK_OF[b]:  # equal ranks of two different tiles: two suits
        return "喜相逢"
    return None


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    if a == b == c:
        return "一色三同顺"
    if RANK_OF[a] == RANK_OF[b] == RANK_OF[c] and len({_SUIT[a], _SUIT[b], _SUIT[c]}) == 3:
        return "三色三同顺"
    return None


@lru_cache(maxsize=1 << 14)
def _chow_fans(chows: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Fans among a reading's chows (lowest tiles, sorted), as (name, count) pairs."""
    n = len(chows)
    if n < 2:
        return ()
    if n == 4 and chows[0] == chows[1] == chows[2] == chows[3]:
        return (("一色四同顺", 1),)
    if n >= 3:
        for trio in combinations(range(n), 3):
            fan = _three_chow_fan(*(chows[i] for i in trio))
            if fan is None:
                continue
            rest = [i for i in range(n) if i not in trio]
            if rest:
                extra = [_chow_pair_fan(chows[i], chows[rest[0]]) for i in trio]
                for name in ("一般高", "喜相逢"):
                    if name in extra:
                        return ((fan, 1), (name, 1))
            return ((fan, 1),)
    pairs = [(i, j, _chow_pair_fan(chows[i], chows[j])) for i, j in combinations(range(n), 2)]
    found = [fan for _, _, fan in pairs if fan]
    if not found:
        return ()
    if n == 4:
        linked = {k for i, j, fan in pairs if fan for k in (i, j)}
        limit = 3 - (4 - len(linked))
    elif n == 3:
        limit = 2
    else:
        limit = 1
    table = Counter(found)
    total = len(found)
    # Trim repeats first, from the cheapest-to-lose end of GB's order.
    for keep in (1, 0):
        for name in ("喜相逢", "一般高"):
            while table[name] > keep and total > limit:
                table[name] -= 1
                total -= 1
    return tuple((name, count) for name, count in table.items() if count)


# A pung or kong in a reading: (tile, is a kong, concealed).
_Pung = tuple[int, bool, bool]


def _pung_fans(pungs: Sequence[_Pung], pair: int, fans: dict[str, int]) -> None:
    pung_tiles = {t for t, _, _ in pungs}
    winds = len(pung_tiles & _WINDS)
    dragons = len(pung_tiles & _DRAGONS)
    if winds == 4:
        fans["大四喜"] = 1
    elif winds == 3 and pair in _WINDS:
        fans["小四喜"] = 1
    if dragons == 3:
        fans["大三元"] = 1
    elif dragons == 2 and pair in _DRAGONS:
        fans["小三元"] = 1
    if dragons:
        fans["箭刻"] = dragons
    kongs = [concealed for _, kong, concealed in pungs if kong]
    if len(kongs) == 4:
        fans["四杠"] = 1
    elif len(kongs) == 3:
        fans["三杠"] = 1
    for concealed in kongs:
        _add(fans, "暗杠" if concealed else "明杠")
    concealed_pungs = sum(1 for _, _, concealed in pungs if concealed)
    if concealed_pungs == 4:
        fans["四暗刻"] = 1
    elif concealed_pungs == 3:
        fans["三暗刻"] = 1
    if len(pungs) == 4:
        fans["碰碰和"] = 1
    if len(pungs) >= 3:
        ranks = [RANK_OF[t] for t in pung_tiles if not _HONOR[t]]
        if any(ranks.count(r) == 3 for r in ranks):
            fans["三同刻"] = 1


def _set_fans(chows: tuple[int, ...], pungs: Sequence[_Pung], pair: int) -> dict[str, int]:
    """Raw fans of one reading: its chows (lowest tiles, sorted), pungs and pair."""
    fans: dict[str, int] = {}
    if pungs:
        _pung_fans(pungs, pair, fans)
    if chows:
        if len(chows) == 4 and not _HONOR[pair]:
            fans["平和"] = 1
        fans.update(_chow_fans(chows))
    return fans


def _apply_exclusions(raw: dict[str, int]) -> dict[str, int]:
    excluded: set[str] = set()
    for present in raw:
        excluded.update(FANS[present].excludes)
    if not excluded.intersection(raw):
        return raw
    return {name: n for name, n in raw.items() if name not in excluded}


# --- scoring --------------------------------------------------------------------


def _readings(hand: WinningHand, counts: Sequence[int]) -> list[tuple[dict[str, int], bool]]:
    """Raw set-fans of every reading, with whether the winning tile completes the pair.

    ``counts`` are the concealed tiles with the winning tile. Within one
    decomposition, where the winning tile goes matters only when it completes a
    pung on a discard (the pung is then exposed) or the pair (a possible 单钓将);
    the chows alone are the same whatever the place, so they are read once.
    """
    win = hand.win
    melded_chows = [m.tile for m in hand.melds if m.kind is _CHOW_MELD]
    melded_pungs = [(m.tile, m.kind is not _PUNG_MELD, m.kind is _CONCEALED_KONG)
                    for m in hand.melds if m.kind is not _CHOW_MELD]
    found: list[tuple[dict[str, int], bool]] = []
    for sets, pair in raw_decompositions(counts, len(hand.melds)):
        chow_list: list[int] = [*melded_chows]
        pungs: list[_Pung] = [*melded_pungs]
        in_chow = in_pung = False
        for kind, tile in sets:
            if kind == _CHOW:
                chow_list.append(tile)
                in_chow = in_chow or 0 <= win - tile < 3
            else:
                pungs.append((tile, False, True))
                in_pung = in_pung or tile == win
        chow_list.sort()
        chows = tuple(chow_list)
        concealed = _set_fans(chows, pungs, pair)
        if in_pung and not hand.self_drawn:
            # A pung completed by a discard is not concealed.
            exposed = [(t, kong, hidden and t != win) for t, kong, hidden in pungs]
            found.append((_set_fans(chows, exposed, pair), False))
        if in_chow or (in_pung and hand.self_drawn):
            found.append((concealed, False))
        if pair == win:
            found.append((dict(concealed) if found and found[-1][0] is concealed else concealed,
                          True))
    if not hand.melds:
        if is_seven_pairs(counts):
            found.append(({"七对": 1}, False))
        if is_thirteen_orphans(counts):
            found.append(({"十三幺": 1}, False))
    return found


def _checked_counts(hand: WinningHand) -> tuple[list[int], list[int]]:
    """Counts of a hand that ``validate`` accepts: concealed with the winning tile, and all."""
    if len(hand.melds) > 4:
        raise HandError(f"{len(hand.melds)} melds: at most 4")
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        raise HandError(
            f"{len(hand.concealed)} concealed tiles with {len(hand.melds)} meld(s): "
            f"expected {expected} before the winning tile"
        )
    counts = tile_counts(hand.concealed)
    counts[hand.win] += 1
    all_counts = _with_melds(counts, hand.melds)
    if max(all_counts) > COPIES:
        over = ", ".join(CODES[t] for t, n in enumerate(all_counts) if n > COPIES)
        raise HandError(f"more than {COPIES} copies of {over}")
    return counts, all_counts


def _final_readings(hand: WinningHand) -> list[dict[str, int]]:
    """Every reading's fans, after exclusions (see ``readings``)."""
    counts, all_counts = _checked_counts(hand)
    common: dict[str, int] = {}
    _tile_traits(all_counts, common)
    if all(m.kind is _CONCEALED_KONG for m in hand.melds):
        common["门前清"] = 1
    if hand.self_drawn:
        common["自摸"] = 1
    single_wait: bool | None = None
    found = []
    for raw, pair_wait in _readings(hand, counts):
        raw.update(common)  # no set fan shares a name with these
        if pair_wait:
            if single_wait is None:
                counts[hand.win] -= 1
                single_wait = is_only_wait_as_pair(counts, hand.win, len(hand.melds))
                counts[hand.win] += 1
            if single_wait:
                raw["单钓将"] = 1
        found.append(_apply_exclusions(raw))
    return found


def readings(hand: WinningHand) -> Iterator[dict[str, int]]:
    """The fans of every reading of a winning hand, after exclusions; ``score`` keeps the best."""
    return iter(_final_readings(hand))


def score(hand: WinningHand) -> FanResult:
    """The fans of the best reading of a winning hand; ``HandError`` otherwise."""
    best: dict[str, int] | None = None
    best_total = -1
    for final in _final_readings(hand):
        total = sum(FANS[name].value * n for name, n in final.items())
        if total > best_total:
            best, best_total = final, total
    if best is None:
        raise HandError("not a winning hand")
    ordered = sorted(best.items(), key=lambda item: _ORDER[item[0]])
    return FanResult(
        fans=tuple((name, FANS[name].value * n) for name, n in ordered),
        total=best_total,
        counts=tuple(ordered),
    )


def score_tiles(
    concealed: Sequence[Tile], melds: Sequence[Meld], win: Tile, self_drawn: bool
) -> FanResult:
    return score(WinningHand(tuple(concealed), tuple(melds), win, self_drawn))


def can_win(concealed: Sequence[Tile], melds: Sequence[Meld], win: Tile) -> bool:
    """Whether ``concealed + win`` completes a winning hand (no fan minimum)."""
    counts = tile_counts(concealed)
    counts[win] += 1
    return is_winning(counts, len(melds))


assert len(FAN_TABLE) == 32 and all(n in FANS for f in FAN_TABLE for n in f.excludes)
assert N_KINDS == 34
