#!/usr/bin/env python3
"""The "hello world" of Mahjong bots: legal, simple, and easy to beat.

It discards a random tile, wins whenever it can (on its own draw, on a
discard, by robbing a kong) and never claims anything else. Read it first:
every other bot is this file with smarter answers.

Run it against the server as a program::

    server sample_ai/random_bot.py sample_ai/random_bot.py sample_ai/greedy.py \\
        sample_ai/greedy.py -v

or load it in-process as ``sample_ai.random_bot:RandomBot``.
"""

from __future__ import annotations

import sys
from pathlib import Path

# When this file is run by path (``./sample_ai/random_bot.py``), Python only
# puts ``sample_ai/`` on the import path. The bot needs the repository root to
# import ``protocol``, ``scoring`` and ``sample_ai``, so add it here.
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol.messages import FromAI, Hu, Out, Pass, QGang
from protocol.tiles import Tile
from sample_ai.framework import Bot, run_stdio


class RandomBot(Bot):
    """Discards at random; wins when it can; never calls chi, peng or gang."""

    name = "random"

    # The framework calls one of the four ``on_...`` methods whenever the
    # server asks this seat something, and sends back what the method returns.
    # ``self.table`` is what the seat knows (its hand, its seat number, every
    # discard and meld on the table) and ``self.rng`` is a random generator
    # seeded by the simulator, so a game can be replayed exactly.

    def on_turn(self, drawn: Tile) -> FromAI:
        """We just drew ``drawn`` (it is already in ``self.table.hand``)."""
        # A self-drawn win pays the most: take it whenever it is there.
        if self.table.can_self_draw_win():
            return Hu()
        # Otherwise throw away any tile we hold. ``sorted`` first, so the choice
        # depends only on the seed, not on the order the tiles arrived in.
        return Out(self.rng.choice(sorted(self.table.hand)))

    def on_discard_after_claim(self) -> Tile:
        """Only called after our own pung or chow, which this bot never makes."""
        return self.rng.choice(sorted(self.table.hand))

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        """Seat ``seat`` discarded ``tile``: win on it if we can, else let it go."""
        if self.table.can_win_with(tile):
            return Hu()
        return Pass()

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        """Seat ``seat`` is adding ``tile`` to its pung: rob it if it wins for us."""
        if self.table.can_win_with(tile):
            return QGang()
        return Pass()


if __name__ == "__main__":
    # As a program: write ``join``, then answer the server line by line until
    # it closes our input.
    sys.exit(run_stdio(RandomBot))
