#!/usr/bin/env python3
"""Makes added kongs as often as it can, and answers its own ``mjgang`` with a
``pass`` only after it has read the replacement ``pick``: the race a real C++
bot (wx-csy/MahjongAI) loses now and then on a loaded machine, forced every time.

It wins when it can, claims a pung on every discard it holds two of (so that a
third copy in hand, or a fourth drawn later, is an added kong), declares every
added and concealed kong it may, never chows, and otherwise discards a tile it
holds one of. Each forced stray ``pass`` is noted on stderr as ``stray pass
after pick``. ``KongRacer`` is also an in-process bot for ``server simulate``
(``tests.bots.kong_racer:KongRacer``): there it answers its own ``mjgang`` with
``pass`` at once, and the simulator reads that answer after the others', so the
same race happens whenever the kong's owner is the last seat to be heard.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run by path: put the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from protocol.messages import (
    AGang,
    FromAI,
    Gang,
    Hu,
    JGang,
    MalformedLine,
    MJGang,
    Out,
    Pass,
    Peng,
    Pick,
    QGang,
    ToAI,
    format_line,
    parse_to_ai,
)
from protocol.tiles import Tile
from sample_ai.framework import Bot

STRAY_NOTE = "stray pass after pick"


class KongRacer(Bot):
    name = "kong_racer"

    def on_turn(self, drawn: Tile) -> FromAI:
        table = self.table
        if table.can_self_draw_win():
            return Hu()
        if table.added_kongs():
            return JGang(table.added_kongs()[0])
        if table.concealed_kongs():
            return AGang(table.concealed_kongs()[0])
        return Out(self._discard())

    def on_discard_after_claim(self) -> Tile:
        return self._discard()

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        table = self.table
        if table.can_win_with(tile):
            return Hu()
        if table.can_peng(tile):
            return Peng()  # even with three: the third stays in hand for an added kong
        if table.can_gang(tile):
            return Gang()
        return Pass()

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        return QGang() if self.table.can_win_with(tile) else Pass()

    def receive(self, message: ToAI) -> FromAI | None:
        answer = super().receive(message)
        if isinstance(message, MJGang) and message.seat == self.table.seat:
            return Pass()  # no answer is due: the stray line real bots send
        return answer

    def _discard(self) -> Tile:
        """A tile held once and not one of our pungs; the drawn one if it is such."""
        table = self.table
        counts = table.counts()
        pungs = {m.tile for m in table.my_melds}
        singles = [t for t in table.hand if counts[t] == 1 and t not in pungs]
        if table.drawn in singles:
            return table.drawn  # type: ignore[return-value]
        if singles:
            return max(singles, key=lambda t: (t.is_honor, abs(t.rank - 5) if not t.is_honor
                                               else 0))
        keep = [t for t in table.hand if t not in pungs]
        return min(keep or table.hand, key=lambda t: counts[t])


def main() -> int:
    bot = KongRacer(0)
    out = sys.stdout

    def write(line: str) -> None:
        out.write(line + "\n")
        out.flush()

    write("join")
    owe_pass = False  # our own mjgang was read: its stray pass waits for the next line
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = parse_to_ai(line)
        except MalformedLine as exc:
            print(f"ignored: {exc}", file=sys.stderr, flush=True)
            continue
        answer = bot.receive(message)
        if owe_pass:
            owe_pass = False
            write("pass")
            if isinstance(message, Pick):
                print(STRAY_NOTE, file=sys.stderr, flush=True)
        if isinstance(message, MJGang) and message.seat == bot.table.seat:
            owe_pass = True  # answer is Pass(): held back until the pick has been read
        elif answer is not None:
            write(format_line(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
