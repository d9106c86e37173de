"""Winning hands, target hands, distance and chance value (SPEC-noi2014 §2, §5).

* A hand wins when its melds (pungs and kongs) plus its concealed tiles make
  4 sets (runs of one suit, or three of a kind) and one pair: the concealed
  tiles are 14 - 3 x melds and split into the sets still missing and a pair.
* A target hand is what a remaining player answers at the end: its melds in
  lower case, exactly as melded, and the concealed tiles it wanted in upper
  case. ``check_target`` reads it and says whether it is valid, and why not.
* Distance: |target - current| + |current - target|, as multisets of tiles.
* Chance value: every discard at positions 1, 2, ...; every tile in a hand or
  a meld at the end at one common position after the last discard; for each
  kind the player still needs, the position of its last copy; the smallest of
  these. A kind that appears nowhere in that sequence (all its copies left in
  the wall, which happens only when the game ended with the wall not empty)
  counts as position 0.

Pure: no trio.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rulesets.noi2014.tiles import COPIES, KINDS, is_tile, sorted_tiles

SETS = 4


def _counts(tiles: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(int(tiles.get(kind, 0)) for kind in KINDS)


@lru_cache(maxsize=65536)
def _sets_only(counts: tuple[int, ...]) -> bool:
    """Whether these tiles split wholly into runs and three-of-a-kinds."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return True
    if counts[i] >= 3:
        rest = list(counts)
        rest[i] -= 3
        if _sets_only(tuple(rest)):
            return True
    if i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        rest = list(counts)
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        if _sets_only(tuple(rest)):
            return True
    return False


def is_winning(concealed: Mapping[str, int], melds: int) -> bool:
    """Whether ``concealed`` tiles with ``melds`` pungs/kongs make 4 sets and a pair."""
    return wins(_counts(concealed), melds)


def wins(counts: Sequence[int], melds: int) -> bool:
    """``is_winning`` of concealed tiles given as 27 counts in ``KINDS`` order."""
    return wins_list(list(counts), melds)


def wins_list(counts: list[int], melds: int) -> bool:
    """``wins`` of a list (the fast path the environment and the seat views take). Sets
    keep each suit's count a multiple of 3, so the pair is in the one suit left at 2 and
    each suit is split on its own (the answer for a suit is cached by its counts)."""
    if melds > SETS:
        return False
    total = 0
    pairs = 0
    for base in (0, 9, 18):
        size = 0
        for k in range(base, base + 9):
            size += counts[k]
        total += size
        rest = size % 3
        if rest == 1:
            return False
        if rest == 2:
            pairs += 1
    if total != 3 * (SETS - melds) + 2 or pairs != 1:
        return False
    return _suit_splits(counts, 0) and _suit_splits(counts, 9) and _suit_splits(counts, 18)


_SUITS_MAX = 1 << 16
_suits: dict[int, bool] = {}  # a suit's counts (base 5) -> whether they split


def _suit_splits(counts: list[int], base: int) -> bool:
    """Whether the suit at ``base`` splits into sets (and the pair, if its size is 2 more
    than a multiple of 3)."""
    key = 0
    for k in range(base, base + 9):
        count = counts[k]
        if count < 0 or count > 4:  # no hand holds these: not cached
            key = -1
            break
        key = key * 5 + count
    found = _suits.get(key) if key >= 0 else None
    if found is not None:
        return found
    suit = tuple(counts[base:base + 9])
    splits = _sets_only(suit) if sum(suit) % 3 == 0 else _pair_and_sets(suit)
    if key >= 0:
        if len(_suits) >= _SUITS_MAX:
            _suits.clear()
        _suits[key] = splits
    return splits


@lru_cache(maxsize=65536)
def _pair_and_sets(suit: tuple[int, ...]) -> bool:
    """Whether one suit's tiles split into a pair and sets."""
    for i, c in enumerate(suit):
        if c >= 2:
            rest = list(suit)
            rest[i] -= 2
            if _sets_only(tuple(rest)):
                return True
    return False


@dataclass(frozen=True, slots=True)
class TargetCheck:
    """A target hand read: valid or not (and why), its tiles upper-cased."""

    valid: bool
    reason: str  # "" when valid
    concealed: Counter[str]  # the upper-case part
    melded: Counter[str]  # the lower-case part, upper-cased

    @property
    def tiles(self) -> Counter[str]:
        return self.concealed + self.melded


def check_target(text: str | None, melded: Mapping[str, int], melds: int) -> TargetCheck:
    """A remaining player's answer to ``4`` against its melds (their tiles, and how many
    pungs and kongs)."""

    def invalid(why: str, concealed: Counter[str] | None = None,
                lower: Counter[str] | None = None) -> TargetCheck:
        return TargetCheck(False, why, concealed or Counter(), lower or Counter())

    if text is None:
        return invalid("no target (no answer in time, or no valid output)")
    words = text.strip().removesuffix("\r").strip().split(" ")
    if words == [""]:
        return invalid("an empty target")
    concealed: Counter[str] = Counter()
    lower: Counter[str] = Counter()
    for word in words:
        if word == "":
            return invalid("tiles must be separated by single spaces")
        if is_tile(word):
            concealed[word] += 1
        elif word.islower() and is_tile(word.upper()):
            lower[word.upper()] += 1
        else:
            return invalid(f"{word[:12]!r} is not a tile code (B1..W9, b1..w9 for melds)")
    if lower != Counter(dict(melded)):
        want = " ".join(t.lower() for t in sorted_tiles(Counter(dict(melded)).elements())) \
            or "none"
        return invalid(f"the lower-case tiles are not its melds ({want})", concealed, lower)
    whole = concealed + lower
    over = [kind for kind in sorted_tiles(whole) if whole[kind] > COPIES]
    if over:
        return invalid(f"{whole[over[0]]} of {over[0]}: a kind has only 4 tiles", concealed,
                       lower)
    if not is_winning(concealed, melds):
        return invalid("not a winning hand (4 sets and a pair)", concealed, lower)
    return TargetCheck(True, "", concealed, lower)


def distance(target: Counter[str], current: Counter[str]) -> int:
    """The tiles in which target and current differ, counted both ways."""
    return sum((target - current).values()) + sum((current - target).values())


def needed(target: Counter[str], current: Counter[str]) -> Counter[str]:
    return target - current


@dataclass(frozen=True, slots=True)
class Chance:
    """A chance value and the positions that gave it: each needed kind's last position."""

    value: int
    last: dict[str, int]  # needed kind -> position of its last copy (0: nowhere)


def last_positions(discards: Sequence[str], held: Iterable[str]) -> dict[str, int]:
    """Each kind's last position in the sequence: discards at 1, 2, ...; every held tile
    (hands and melds at the end) at one position after the last discard."""
    last: dict[str, int] = {}
    for position, tile in enumerate(discards, start=1):
        last[tile] = position
    end = len(discards) + 1
    for tile in held:
        last[tile] = end
    return last


def chance_value(need: Counter[str], last: Mapping[str, int]) -> Chance:
    kinds = {kind: last.get(kind, 0) for kind in sorted_tiles(need) if need[kind] > 0}
    value = min(kinds.values()) if kinds else max(last.values(), default=0)
    return Chance(value, kinds)
