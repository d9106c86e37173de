"""The 34 tile kinds and their wire codes.

A tile is a small int (0..33), so hand analysis can index count arrays with it.
Kinds are ordered suit by suit (characters, bamboo, dots), then the winds E S W
N, then the dragons Z F B (中 发 白). The codes are those of SPEC section 1.

Nothing here assumes the default ruleset: other rulesets reuse the kinds and
may spell them differently (see ``TileCodec``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import Final

from protocol.counting import tile_counts as tile_counts  # compiled; re-exported


class Suit(IntEnum):
    CHARACTERS = 0  # 万, code letter M
    BAMBOO = 1  # 索/条, code letter S
    DOTS = 2  # 筒, code letter T
    WINDS = 3
    DRAGONS = 4


class Tile(IntEnum):
    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    S1 = 9
    S2 = 10
    S3 = 11
    S4 = 12
    S5 = 13
    S6 = 14
    S7 = 15
    S8 = 16
    S9 = 17
    T1 = 18
    T2 = 19
    T3 = 20
    T4 = 21
    T5 = 22
    T6 = 23
    T7 = 24
    T8 = 25
    T9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    RED = 31  # 中, code Z
    GREEN = 32  # 发, code F
    WHITE = 33  # 白, code B

    @property
    def suit(self) -> Suit:
        return SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1..9 for suited tiles, 0 for honours."""
        return RANK_OF[self]

    @property
    def is_honor(self) -> bool:
        return self >= Tile.EAST

    @property
    def is_terminal(self) -> bool:
        return RANK_OF[self] in (1, 9)

    @property
    def code(self) -> str:
        return CODES[self]

    def __str__(self) -> str:
        return CODES[self]


N_KINDS: Final = 34
ALL_TILES: tuple[Tile, ...] = tuple(Tile)
SUITED_TILES: tuple[Tile, ...] = ALL_TILES[:27]
HONOR_TILES: tuple[Tile, ...] = ALL_TILES[27:]
WINDS: tuple[Tile, ...] = ALL_TILES[27:31]
DRAGONS: tuple[Tile, ...] = ALL_TILES[31:]
TERMINALS_AND_HONORS: tuple[Tile, ...] = tuple(
    t for t in ALL_TILES if t >= Tile.EAST or t % 9 in (0, 8)
)
SUIT_OF: tuple[Suit, ...] = tuple(
    Suit(min(i // 9, 3)) if i < 31 else Suit.DRAGONS for i in range(N_KINDS)
)
RANK_OF: tuple[int, ...] = tuple(i % 9 + 1 if i < 27 else 0 for i in range(N_KINDS))
COPIES: Final = 4


class TileError(ValueError):
    """A tile code that names no tile, or a tile list that breaks a count rule."""


@dataclass(frozen=True)
class TileCodec:
    """Spells the 34 kinds: three suit letters and seven honour codes."""

    suit_letters: str = "MST"
    honor_codes: tuple[str, ...] = ("E", "S", "W", "N", "Z", "F", "B")

    def codes(self) -> tuple[str, ...]:
        suited = tuple(f"{r}{s}" for s in self.suit_letters for r in range(1, 10))
        return suited + self.honor_codes

    def parse(self, code: str) -> Tile:
        """The tile ``code`` names in this spelling; ``TileError`` for anything else."""
        try:
            return _codec_table(self)[code]
        except (KeyError, TypeError):
            letters = ", ".join(f"1{s}..9{s}" for s in self.suit_letters)
            raise TileError(
                f"unknown tile {code!r} (expected {letters}, {' '.join(self.honor_codes)})"
            ) from None

    def code(self, tile: int) -> str:
        """How this spelling writes ``tile``."""
        return _codec_codes(self)[tile]


@lru_cache(maxsize=16)
def _codec_codes(codec: TileCodec) -> tuple[str, ...]:
    return codec.codes()


@lru_cache(maxsize=16)
def _codec_table(codec: TileCodec) -> dict[str, Tile]:
    return {code: Tile(i) for i, code in enumerate(_codec_codes(codec))}


DEFAULT_CODEC = TileCodec()
CODES: tuple[str, ...] = DEFAULT_CODEC.codes()
_BY_CODE: dict[str, Tile] = {code: Tile(i) for i, code in enumerate(CODES)}


def parse_tile(code: str) -> Tile:
    """The tile a wire code names; ``TileError`` for anything else."""
    try:
        return _BY_CODE[code]
    except (KeyError, TypeError):
        raise TileError(
            f"unknown tile {code!r} (expected 1M..9M, 1S..9S, 1T..9T, E S W N Z F B)"
        ) from None


def parse_tiles(text: str | Iterable[str]) -> list[Tile]:
    """Tiles from a blank-separated string or an iterable of codes."""
    items = text.split() if isinstance(text, str) else list(text)
    return [parse_tile(code) for code in items]


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(CODES[t] for t in tiles)


def check_copies(tiles: Sequence[int]) -> None:
    """Raise ``TileError`` if any kind appears more than four times."""
    counts = tile_counts(tiles)
    over = [CODES[i] for i, c in enumerate(counts) if c > COPIES]
    if over:
        raise TileError(f"more than {COPIES} copies of {', '.join(over)}")


def full_set() -> list[Tile]:
    """The 136 tiles, four of each kind, in kind order."""
    return [t for t in ALL_TILES for _ in range(COPIES)]
