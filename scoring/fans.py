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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations

from protocol.tiles import (
    DRAGONS,
    N_KINDS,
    WINDS,
    Suit,
    Tile,
    TileError,
    check_copies,
    tile_counts,
)
from scoring.analysis import (
    Block,
    SetKind,
    decompositions,
    is_seven_pairs,
    is_winning,
    is_thirteen_orphans,
    waiting_tiles,
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


def validate(hand: WinningHand) -> None:
    """Raise ``HandError`` for a hand that cannot exist."""
    if len(hand.melds) > 4:
        raise HandError(f"{len(hand.melds)} melds: at most 4")
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        raise HandError(
            f"{len(hand.concealed)} concealed tiles with {len(hand.melds)} meld(s): "
            f"expected {expected} before the winning tile"
        )
    every = [*hand.concealed, hand.win, *(t for m in hand.melds for t in m.tiles)]
    try:
        check_copies(every)
    except TileError as exc:
        raise HandError(str(exc)) from None


# --- fan detectors ----------------------------------------------------------------


def _tile_traits(tiles: Sequence[int], fans: Counter[str]) -> None:
    """Fans that depend only on which tiles the hand holds."""
    kinds = {t for t in tiles}
    suits = {Tile(t).suit for t in kinds}
    honors = Suit.WINDS in suits or Suit.DRAGONS in suits
    numbered = suits - {Suit.WINDS, Suit.DRAGONS}
    if kinds <= _GREEN:
        fans["绿一色"] += 1
    if not numbered:
        fans["字一色"] += 1
    elif all(Tile(t).is_terminal or Tile(t).is_honor for t in kinds):
        fans["混幺九" if honors else "清幺九"] += 1
    if len(numbered) == 1:
        fans["混一色" if honors else "清一色"] += 1
    if len(suits) == 5:
        fans["五门齐"] += 1
    if not honors and not any(Tile(t).is_terminal for t in kinds):
        fans["断幺"] += 1


_GREEN = frozenset({Tile.S2, Tile.S3, Tile.S4, Tile.S6, Tile.S8, Tile.GREEN})


def _chow_pair_fan(a: Tile, b: Tile) -> str | None:
    if a == b:
        return "一般高"
    if a.suit != b.suit and a.rank == b.rank:
        return "喜相逢"
    return None


def _three_chow_fan(a: Tile, b: Tile, c: Tile) -> str | None:
    if a == b == c:
        return "一色三同顺"
    if a.rank == b.rank == c.rank and len({a.suit, b.suit, c.suit}) == 3:
        return "三色三同顺"
    return None


def _chow_fans(chows: Sequence[Tile], fans: Counter[str]) -> None:
    n = len(chows)
    if n == 4 and chows[0] == chows[1] == chows[2] == chows[3]:
        fans["一色四同顺"] += 1
        return
    if n >= 3:
        for trio in combinations(range(n), 3):
            fan = _three_chow_fan(*(chows[i] for i in trio))
            if fan is None:
                continue
            fans[fan] += 1
            rest = [i for i in range(n) if i not in trio]
            if rest:
                extra = [_chow_pair_fan(chows[i], chows[rest[0]]) for i in trio]
                for name in ("一般高", "喜相逢"):
                    if name in extra:
                        fans[name] += 1
                        break
            return
    pairs = [_chow_pair_fan(chows[i], chows[j]) for i, j in combinations(range(n), 2)]
    found = [p for p in pairs if p]
    if not found:
        return
    if n == 4:
        limit = 3 - sum(
            1 for i in range(4)
            if not any(_chow_pair_fan(chows[i], chows[j]) for j in range(4) if j != i)
        )
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
    fans.update(+table)


def _set_fans(blocks: Sequence[Block], pair: Tile, fans: Counter[str]) -> None:
    pungs = [b for b in blocks if b.kind is not SetKind.CHOW]
    chows = sorted(b.tile for b in blocks if b.kind is SetKind.CHOW)
    pung_tiles = {b.tile for b in pungs}
    winds = sum(1 for w in WINDS if w in pung_tiles)
    dragons = sum(1 for d in DRAGONS if d in pung_tiles)
    if winds == 4:
        fans["大四喜"] += 1
    elif winds == 3 and pair in WINDS:
        fans["小四喜"] += 1
    if dragons == 3:
        fans["大三元"] += 1
    elif dragons == 2 and pair in DRAGONS:
        fans["小三元"] += 1
    fans["箭刻"] += dragons
    kongs = [b for b in pungs if b.kind is SetKind.KONG]
    if len(kongs) == 4:
        fans["四杠"] += 1
    elif len(kongs) == 3:
        fans["三杠"] += 1
    for k in kongs:
        fans["暗杠" if k.concealed else "明杠"] += 1
    concealed_pungs = sum(1 for b in pungs if b.concealed)
    if concealed_pungs == 4:
        fans["四暗刻"] += 1
    elif concealed_pungs == 3:
        fans["三暗刻"] += 1
    if len(pungs) == 4:
        fans["碰碰和"] += 1
    suited = [t for t in pung_tiles if not t.is_honor]
    for trio in combinations(suited, 3):
        if len({t.rank for t in trio}) == 1:
            fans["三同刻"] += 1
            break
    if len(chows) == 4 and not pair.is_honor:
        fans["平和"] += 1
    _chow_fans(chows, fans)


def _apply_exclusions(raw: Counter[str]) -> dict[str, int]:
    excluded = {name for present in raw if raw[present] for name in FANS[present].excludes}
    return {name: n for name, n in raw.items() if n and name not in excluded}


def _total(counts: dict[str, int]) -> int:
    return sum(FANS[name].value * n for name, n in counts.items())


# --- scoring --------------------------------------------------------------------


def _readings(hand: WinningHand) -> Iterable[tuple[Counter[str], bool]]:
    """Raw set-fans of every reading, with whether it is a single pair wait.

    The flag is computed lazily by the caller; here it says only whether the
    winning tile completes the pair in this reading.
    """
    counts = tile_counts(hand.concealed)
    counts[hand.win] += 1
    n_melds = len(hand.melds)
    melded = [_meld_block(m) for m in hand.melds]
    for d in decompositions(counts, n_melds):
        places = {i for i, (kind, tile) in enumerate(d.sets)
                  if tile == hand.win or (kind is SetKind.CHOW and 0 < hand.win - tile < 3)}
        options: list[int] = sorted(places) + ([-1] if d.pair == hand.win else [])
        for place in options:
            blocks = list(melded)
            for i, (kind, tile) in enumerate(d.sets):
                # A pung completed by a discard is not concealed.
                concealed = hand.self_drawn or i != place or kind is SetKind.CHOW
                blocks.append(Block(kind, tile, concealed))
            fans: Counter[str] = Counter()
            _set_fans(blocks, d.pair, fans)
            yield fans, place == -1
    if is_seven_pairs(counts, n_melds):
        yield Counter({"七对": 1}), False
    if is_thirteen_orphans(counts, n_melds):
        yield Counter({"十三幺": 1}), False


def _meld_block(meld: Meld) -> Block:
    if meld.kind is MeldKind.CHOW:
        return Block(SetKind.CHOW, meld.tile, False)
    if meld.kind is MeldKind.PUNG:
        return Block(SetKind.PUNG, meld.tile, False)
    return Block(SetKind.KONG, meld.tile, meld.kind is MeldKind.CONCEALED_KONG)


def score(hand: WinningHand) -> FanResult:
    """The fans of the best reading of a winning hand; ``HandError`` otherwise."""
    validate(hand)
    all_tiles = [*hand.concealed, hand.win, *(t for m in hand.melds for t in m.tiles)]
    common: Counter[str] = Counter()
    _tile_traits(all_tiles, common)
    if not any(m.is_exposed for m in hand.melds):
        common["门前清"] += 1
    if hand.self_drawn:
        common["自摸"] += 1
    single_wait: bool | None = None
    best: dict[str, int] | None = None
    best_total = -1
    for raw, pair_wait in _readings(hand):
        raw.update(common)
        if pair_wait:
            if single_wait is None:
                counts = tile_counts(hand.concealed)
                single_wait = waiting_tiles(counts, len(hand.melds)) == [hand.win]
            if single_wait:
                raw["单钓将"] += 1
        final = _apply_exclusions(raw)
        total = _total(final)
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
