"""Declared sets: chows, pungs and kongs a player has laid down."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from protocol.tiles import ALL_TILES, Tile, TileError, parse_tile


class MeldKind(Enum):
    CHOW = "chi"
    PUNG = "peng"
    KONG = "gang"  # exposed or added: shown, scores 明杠
    CONCEALED_KONG = "agang"  # scores 暗杠, keeps the hand concealed

    @property
    def size(self) -> int:
        return 4 if self in (MeldKind.KONG, MeldKind.CONCEALED_KONG) else 3


@dataclass(frozen=True, slots=True)
class Meld:
    kind: MeldKind
    tile: Tile  # the lowest tile for a chow

    def __post_init__(self) -> None:
        if self.kind is MeldKind.CHOW and (self.tile >= 27 or self.tile % 9 > 6):  # rank 8, 9
            raise TileError(f"no chow starts at {self.tile.code}")

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind is MeldKind.CHOW:
            return (self.tile, ALL_TILES[self.tile + 1], ALL_TILES[self.tile + 2])
        return (self.tile,) * self.kind.size

    @property
    def is_kong(self) -> bool:
        return self.kind in (MeldKind.KONG, MeldKind.CONCEALED_KONG)

    @property
    def is_exposed(self) -> bool:
        """Whether the meld breaks a concealed hand (门前清)."""
        return self.kind is not MeldKind.CONCEALED_KONG

    def __str__(self) -> str:
        return f"{self.kind.value} {self.tile.code}"


def parse_meld(text: str) -> Meld:
    """``"chi 3M"``, ``"peng E"``, ``"gang 5T"`` or ``"agang Z"``."""
    parts = text.split()
    if len(parts) != 2:
        raise TileError(f"meld {text!r} should be a kind and a tile, like 'peng E'")
    try:
        kind = MeldKind(parts[0].lower())
    except ValueError:
        raise TileError(f"unknown meld kind {parts[0]!r} (chi, peng, gang or agang)") from None
    return Meld(kind, parse_tile(parts[1]))
