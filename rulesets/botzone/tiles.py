"""Botzone's tile codes, walls and initdata (SPEC-botzone section 1).

A wall is a list of tokens that is drawn from its end. Botzone's judge settles
its ``initdata`` once: an integer ``srand`` (else the current time), ``quan``
0-3 (else ``rand() % 4``) and ``walltiles`` (else the standard tiles shuffled
by libstdc++'s ``random_shuffle`` over glibc's ``rand``). ``GlibcRandom`` and
``random_shuffle`` reproduce both bit for bit, so a wall seen on Botzone can be
rebuilt from its ``srand`` alone.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

VARIANTS = ("classic", "duplicate")
"""classic: judge 77978ab, 144 tiles, one wall; duplicate: judge e326914, 136 tiles, four walls."""

SUITED = tuple(f"{suit}{n}" for suit in "WBT" for n in range(1, 10))
WINDS = ("F1", "F2", "F3", "F4")
DRAGONS = ("J1", "J2", "J3")
FLOWERS = tuple(f"H{n}" for n in range(1, 9))
TILES = SUITED + WINDS + DRAGONS
"""The 34 kinds of playing tile, the codes the fan calculator knows."""
TILE_SET = frozenset(TILES)

_INT_MIN, _INT_MAX = -(2**31), 2**31 - 1
_STANDARD_DUPLICATE = tuple(
    [f"{suit}{n}" for n in range(1, 10) for _ in range(4) for suit in "WBT"]
    + [tile for tile in WINDS + DRAGONS for _ in range(4)])
_STANDARD_CLASSIC = _STANDARD_DUPLICATE + FLOWERS  # (made once: a game's wall is a copy)


def is_flower(token: str) -> bool:
    """Any token starting with H is a flower, as the judge tests it (one byte)."""
    return token.startswith("H")


def standard_tiles(variant: str) -> list[str]:
    """The judge's unshuffled list: k = 1..9 four times (Wk, Bk, Tk); winds; dragons; flowers."""
    check_variant(variant)
    return list(_STANDARD_CLASSIC if variant == "classic" else _STANDARD_DUPLICATE)


def check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"unknown Botzone variant {variant!r} (known: {', '.join(VARIANTS)})")


class GlibcRandom:
    """glibc's ``srand``/``rand`` with its default TYPE_3 additive feedback generator."""

    def __init__(self, seed: int) -> None:
        seed &= 0xFFFFFFFF
        word = seed - 2**32 if seed >= 2**31 else seed  # glibc keeps the seed in an int32_t
        if word == 0:
            word = 1
        state = [word]
        for _ in range(30):
            # word = 16807 * word % 2147483647 with C's truncating division (Schrage)
            hi = -(-word // 127773) if word < 0 else word // 127773
            lo = word - hi * 127773
            word = 16807 * lo - 2836 * hi
            if word < 0:
                word += 2147483647
            state.append(word)
        state += state[:3]
        for i in range(34, 344):
            state.append((state[i - 31] + state[i - 3]) & 0xFFFFFFFF)
        # only the last 34 values feed later ones: kept as a ring, _at the oldest
        self._state = state[-34:]
        self._at = 0

    def rand(self) -> int:
        # r[i] = r[i - 31] + r[i - 3]: in the ring of the last 34, r[i - 31] is 3 past the
        # oldest and r[i - 3] 31 past it; r[i] takes the oldest's place
        state = self._state
        at = self._at
        value = (state[at - 31] + state[at - 3]) & 0xFFFFFFFF
        state[at] = value
        self._at = at + 1 if at < 33 else 0
        return value >> 1


T = TypeVar("T")


def random_shuffle(items: list[T], rng: GlibcRandom) -> None:
    """libstdc++'s ``std::random_shuffle``: for i = 1..n-1 swap i with rand() % (i + 1)."""
    for i in range(1, len(items)):
        j = rng.rand() % (i + 1)
        if i != j:
            items[i], items[j] = items[j], items[i]


def json_int(value: object) -> int | None:
    """``value`` as jsoncpp's ``isInt()``/``asInt()`` read it, or None when it is no int."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if _INT_MIN <= value <= _INT_MAX else None
    if isinstance(value, float) and value.is_integer() and _INT_MIN <= value <= _INT_MAX:
        return int(value)
    return None


@dataclass(frozen=True)
class Settled:
    """A game's settled initdata, and what the judge's INIT display shows of it."""

    srand: int  # as the judge prints it: an unsigned 32-bit number
    quan: int
    walltiles: str
    strlen: int  # byte length of the walltiles given, 0 when generated

    def initdata(self) -> dict[str, object]:
        return {"quan": self.quan, "srand": self.srand, "walltiles": self.walltiles}

    def tokens(self) -> list[str]:
        return self.walltiles.split(" ")


def settle(variant: str, initdata: object, now: int) -> Settled:
    """Settle ``initdata`` as the judge does; ``now`` is the Unix time used for a missing srand."""
    check_variant(variant)
    fields: Mapping[str, object] = initdata if isinstance(initdata, Mapping) else {}
    seed = json_int(fields.get("srand"))
    srand = (now if seed is None else seed) & 0xFFFFFFFF
    rng = None  # made only when something is drawn from it (the same draws, in order)
    quan = json_int(fields.get("quan"))
    if quan is None or not 0 <= quan <= 3:
        rng = GlibcRandom(srand)
        quan = rng.rand() % 4
    given = fields.get("walltiles")
    text = given if isinstance(given, str) else ""
    strlen = len(text.encode("utf-8", "surrogatepass"))
    if not text:
        wall = standard_tiles(variant)
        random_shuffle(wall, rng if rng is not None else GlibcRandom(srand))
        text = " ".join(wall)
    return Settled(srand=srand, quan=quan, walltiles=text, strlen=strlen)


def split_walls(variant: str, tokens: Sequence[str]) -> list[list[str]]:
    """The walls seats draw from: classic one shared wall; duplicate seat i's ⌊n/4⌋ tokens."""
    check_variant(variant)
    if variant == "classic":
        return [list(tokens)]
    size = len(tokens) // 4
    return [list(tokens[size * i:size * (i + 1)]) for i in range(4)]
