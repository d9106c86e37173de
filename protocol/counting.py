"""Count vectors of tiles: the one helper of ``protocol.tiles`` on the games' hot path.

Kept apart so that the compiled core (``tools/build_mypyc.py``, ``CORES``) compiles it
while ``protocol.tiles`` stays plain (a compiled ``parse_tile`` would check its
argument's type on entry and raise ``TypeError`` where the plain one raises
``TileError``). ``protocol.tiles`` re-exports it: import it from there.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

N_KINDS: Final = 34  # protocol.tiles.N_KINDS (tiles imports this module: no cycle)


def tile_counts(tiles: Iterable[int]) -> list[int]:
    """A 34-slot count vector."""
    counts = [0] * N_KINDS
    for t in tiles:
        counts[t] += 1
    return counts
