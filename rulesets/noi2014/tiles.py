"""The 108 tiles of NOI 2014 (SPEC-noi2014 §1) and the wall a seed shuffles.

A tile is its code, letter then digit: ``B1``..``B9`` (dots), ``T1``..``T9``
(bamboo), ``W1``..``W9`` (characters). Upper case everywhere except in a
target hand, where a melded pung's or kong's tiles are written in lower case.

The wall is the 108 tiles in code order, shuffled by Python's
``random.Random`` seeded with a 64-bit number derived from the game's seed
(SHA-256), so a seed gives the same wall on every machine and every Python 3.

Pure: no trio.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Iterable

SUITS = "BTW"
KINDS: tuple[str, ...] = tuple(f"{suit}{n}" for suit in SUITS for n in range(1, 10))
COPIES = 4
WALL_SIZE = len(KINDS) * COPIES  # 108
_INDEX = {kind: i for i, kind in enumerate(KINDS)}


def is_tile(code: str) -> bool:
    """An upper-case tile code."""
    return code in _INDEX


def sort_key(code: str) -> int:
    return _INDEX[code.upper()]


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=sort_key)


def counter(tiles: Iterable[str]) -> Counter[str]:
    return Counter(tiles)


def wall_seed(seed: int, game: int = 0) -> int:
    """The shuffle's seed for wall ``game`` (0-based) of a match seed."""
    digest = hashlib.sha256(f"noi2014:{seed}:{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def shuffled_wall(seed: int, game: int = 0) -> list[str]:
    """The 108 tiles in the order they are dealt and drawn from the front."""
    wall = [kind for kind in KINDS for _ in range(COPIES)]
    random.Random(wall_seed(seed, game)).shuffle(wall)
    return wall


def check_wall(wall: Iterable[object]) -> list[str]:
    """A wall given in a log or by a user: 108 codes, 4 of each kind. Raises ValueError."""
    tiles = list(wall)
    if len(tiles) != WALL_SIZE or not all(isinstance(t, str) and is_tile(t) for t in tiles):
        raise ValueError(f"a wall is {WALL_SIZE} tile codes (B1..W9)")
    codes = [str(t) for t in tiles]
    counts = Counter(codes)
    if any(counts[kind] != COPIES for kind in KINDS):
        raise ValueError("a wall holds 4 of each of the 27 kinds")
    return codes
