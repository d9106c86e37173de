"""THUPC 2021 tiles: the 34 kinds spelt with P for dots, and three special tiles.

A wall tile is an int: ``protocol.tiles.Tile`` values 0..33 for the normal
kinds, then ``Special`` 34..36. Normal tiles therefore index the core's 34-slot
count vectors directly, and special ones never reach them.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from protocol.tiles import COPIES, N_KINDS, Tile, TileCodec, TileError

# Characters M, bamboo S, dots P; honours as in the default spelling (Z F B = 中 发 白).
THUPC_CODEC = TileCodec(suit_letters="MSP")


class Special(IntEnum):
    PASS = 34
    REVERSE = 35
    DOUBLE = 36


N_WALL_KINDS = N_KINDS + len(Special)
WALL_SIZE = N_WALL_KINDS * COPIES  # 148

# The discard order among tiles that leave the same distance, most eager first.
DISCARD_PRIORITY: tuple[int, ...] = (
    Special.PASS, Special.REVERSE, Special.DOUBLE,
    Tile.RED, Tile.GREEN, Tile.WHITE, Tile.NORTH, Tile.WEST, Tile.SOUTH, Tile.EAST,
    *range(Tile.S9, Tile.S1 - 1, -1),
    *range(Tile.T9, Tile.T1 - 1, -1),
    *range(Tile.M9, Tile.M1 - 1, -1),
)


class WallError(ValueError):
    """Input that is not a THUPC wall: a bad tile, or the wrong number of tiles."""


def is_special(tile: int) -> bool:
    return tile >= N_KINDS


def parse_tile(code: str) -> int:
    """The wall tile a THUPC code names; ``TileError`` for anything else."""
    if code in Special.__members__:
        return Special[code]
    try:
        return THUPC_CODEC.parse(code)
    except TileError:
        raise TileError(f"unknown tile {code!r} (expected 1M..9M, 1P..9P, 1S..9S, "
                        "E S W N B F Z, PASS REVERSE DOUBLE)") from None


def tile_code(tile: int) -> str:
    return Special(tile).name if is_special(tile) else THUPC_CODEC.code(tile)


def parse_wall(text: str | Iterable[str]) -> list[int]:
    """The 148 tiles of a wall, front first: codes separated by blanks, one a line
    in the contest's files.

    Raises ``WallError`` naming the line of an unknown tile, the number of
    tiles when it is not 148, or the kinds present more than four times.
    """
    lines = text.splitlines() if isinstance(text, str) else list(text)
    wall: list[int] = []
    for number, line in enumerate(lines, 1):
        for code in line.split():
            try:
                wall.append(parse_tile(code))
            except TileError as exc:
                raise WallError(f"line {number}: {exc}") from None
    if len(wall) != WALL_SIZE:
        raise WallError(f"expected {WALL_SIZE} tiles (4 of each of {N_WALL_KINDS} kinds), "
                        f"got {len(wall)}")
    counts = [0] * N_WALL_KINDS
    for tile in wall:
        counts[tile] += 1
    if max(counts) > COPIES:
        over = ", ".join(f"{tile_code(t)} ({n})" for t, n in enumerate(counts) if n > COPIES)
        short = ", ".join(f"{tile_code(t)} ({n})" for t, n in enumerate(counts) if n < COPIES)
        raise WallError(f"more than {COPIES} copies of {over}; too few of {short}")
    return wall
