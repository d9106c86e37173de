#!/usr/bin/env python3
"""A strong greedy bot: always one step closer to a winning hand.

Shanten is the number of tiles a hand is away from being ready to win (0 =
ready, -1 = won), counting the regular shape, seven pairs and thirteen orphans
(``scoring.analysis.shanten``). The bot:

* wins whenever it can (on its draw, on a discard, by robbing a kong);
* discards the tile that leaves the lowest shanten; among those, the one that
  leaves the most useful tiles still unseen (a tile is useful when drawing it
  lowers the shanten; it counts 4 minus the copies this seat can see); then
  honours before terminals before middle tiles; then at random (seeded);
* calls chi or peng when the call, with its best discard, lowers the shanten;
  calls an exposed kong when it does not raise the shanten (the set stays a
  set and the kong brings an extra draw);
* declares concealed and added kongs when they do not raise the shanten.

It ignores fans, safety and what the other seats are collecting: the next
step for a student is to add those.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run by path: put the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol.messages import AGang, Chi, FromAI, Gang, Hu, JGang, Out, Pass, Peng, QGang
from protocol.tiles import N_KINDS, TERMINALS_AND_HONORS, Tile
from sample_ai.framework import Bot, run_stdio
from scoring.analysis import shanten, shanten_variants, thirteen_orphans_shanten

_ORPHANS = frozenset(TERMINALS_AND_HONORS)
# How much a lone tile is worth keeping when all else is equal: honours go
# first, then terminals, then 2 and 8, then the middle tiles.
_KEEP = tuple(0 if t >= 27 else 1 if t % 9 in (0, 8) else 2 if t % 9 in (1, 7) else 3
              for t in range(N_KINDS))
# Claim kinds in order of preference when they are otherwise equal.
_PREFER_GANG, _PREFER_PENG, _PREFER_CHI = 0, 1, 2


def _candidates(counts: list[int], n_melds: int, current: int) -> list[int]:
    """Tiles whose draw could lower the shanten below ``current``.

    A tile far from every held tile extends neither a set nor a pair, so only
    held tiles and their suit neighbours (two either side) count; the other
    terminals and honours only when thirteen orphans is the shape at
    ``current`` (one orphan lowers that shape by one at most).
    """
    near: set[int] = set()
    for t in range(N_KINDS):
        if not counts[t]:
            continue
        near.add(t)
        if t < 27:
            base, rank = t - t % 9, t % 9
            near.update(base + r for r in range(max(0, rank - 2), min(8, rank + 2) + 1))
    if thirteen_orphans_shanten(counts, n_melds) <= current:
        near.update(_ORPHANS)
    return sorted(near)


def useful_tiles(counts: list[int], n_melds: int, unseen: list[int],
                 current: int | None = None) -> int:
    """Unseen copies of the tiles that lower the shanten of a ``3k + 1`` hand."""
    now = shanten(counts, n_melds) if current is None else current
    draws = [u for u in _candidates(counts, n_melds, now) if unseen[u]]
    after = shanten_variants(counts, n_melds, draws, 1)
    return sum(unseen[u] for u, s in zip(draws, after, strict=True) if s < now)


class GreedyBot(Bot):
    """Minimises shanten, then maximises useful unseen tiles."""

    name = "greedy"

    # --- decisions ---------------------------------------------------------------

    def on_turn(self, drawn: Tile) -> FromAI:
        table = self.table
        if table.can_self_draw_win():
            return Hu()
        counts = table.counts()
        n = len(table.my_melds)
        tile, best = self.best_discard(counts, n)
        for kong in table.concealed_kongs():
            counts[kong] -= 4
            after = shanten(counts, n + 1)
            counts[kong] += 4
            if after <= best:
                return AGang(kong)
        for kong in table.added_kongs():
            counts[kong] -= 1
            after = shanten(counts, n)
            counts[kong] += 1
            if after <= best:
                return JGang(kong)
        return Out(tile)

    def on_discard_after_claim(self) -> Tile:
        return self.best_discard(self.table.counts(), len(self.table.my_melds))[0]

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        table = self.table
        if table.can_win_with(tile):
            return Hu()
        counts = table.counts()
        n = len(table.my_melds)
        now = shanten(counts, n)
        unseen = table.unseen_counts()
        # (shanten after the call, -useful tiles, preference, answer)
        options: list[tuple[int, int, int, FromAI]] = []
        if table.can_gang(tile):
            counts[tile] -= 3
            after = shanten(counts, n + 1)
            if after <= now:
                useful = useful_tiles(counts, n + 1, unseen, after)
                options.append((after, -useful, _PREFER_GANG, Gang()))
            counts[tile] += 3
        if table.can_peng(tile):
            counts[tile] -= 2
            after, useful = self._after_call(counts, n + 1, unseen)
            if after < now:
                options.append((after, -useful, _PREFER_PENG, Peng()))
            counts[tile] += 2
        for low in table.chi_options(seat, tile):
            used = [Tile(low + i) for i in range(3) if low + i != tile]
            for t in used:
                counts[t] -= 1
            after, useful = self._after_call(counts, n + 1, unseen)
            if after < now:
                options.append((after, -useful, _PREFER_CHI, Chi(low)))
            for t in used:
                counts[t] += 1
        if not options:
            return Pass()
        return min(options, key=lambda o: o[:3])[3]

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        return QGang() if self.table.can_win_with(tile) else Pass()

    # --- evaluation ----------------------------------------------------------------

    def best_discard(self, counts: list[int], n_melds: int) -> tuple[Tile, int]:
        """The discard to make from a ``3k + 2`` hand, and the shanten it leaves."""
        unseen = self.table.unseen_counts()
        ranked = self.rank_discards(counts, n_melds, unseen)
        top = ranked[0][:3]
        ties = sorted(t for *key, t in ranked if tuple(key) == top)
        return Tile(self.rng.choice(ties)), top[0]

    def rank_discards(self, counts: list[int], n_melds: int,
                      unseen: list[int]) -> list[tuple[int, int, int, int]]:
        """(shanten left, -useful tiles, keep value, tile), best first.

        Useful tiles are counted only for the discards that reach the lowest
        shanten: they are the only ones that can be chosen.
        """
        held = [t for t in range(N_KINDS) if counts[t]]
        after = dict(zip(held, shanten_variants(counts, n_melds, held, -1), strict=True))
        best = min(after.values())
        ranked = []
        for t, s in after.items():
            useful = 0
            if s == best:
                counts[t] -= 1
                useful = useful_tiles(counts, n_melds, unseen, s)
                counts[t] += 1
            ranked.append((s, -useful, _KEEP[t], t))
        ranked.sort()
        return ranked

    def _after_call(self, counts: list[int], n_melds: int,
                    unseen: list[int]) -> tuple[int, int]:
        """Shanten and useful tiles after a call's best discard."""
        ranked = self.rank_discards(counts, n_melds, unseen)
        s, neg_useful, _, _ = ranked[0]
        return s, -neg_useful


if __name__ == "__main__":
    sys.exit(run_stdio(GreedyBot))
