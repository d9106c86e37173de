"""The protocol habits of the three public C++ bots written for the original server.

Read from their sources (wx-csy/MahjongAI, wx-csy/MahjongAI_7Pairs,
sticnarf/mahjong_ai) and reimplemented here, none of their code copied; the
decisions are simple legal ones on top of ``sample_ai.framework``, the habits
are theirs:

* they read whitespace-separated words, as C++ ``cin >> word`` does, not lines,
  and take each keyword's arguments by count (``ARITY``);
* ``like_mahjongai.py`` (wx-csy/MahjongAI): skips a word it does not know;
  expects ``id``, ``first``, ``init`` in that order (an ``assert``); answers
  every ``mjgang``, its own included, with ``pass`` (or ``qgang``), at once;
  claims pungs, exposed kongs and chows, and declares kongs of the tile it just
  drew; writes its diagnostics to a file in its working folder; stops at ``mhu``;
* ``like_7pairs.py`` (wx-csy/MahjongAI_7Pairs): plays seven pairs only; answers
  a discard with ``hu`` or ``pass`` and every ``mjgang`` with ``pass`` (it never
  robs a kong); never claims or declares a kong; writes nothing on stderr;
  skips unknown words; stops at ``mhu``;
* ``like_sticnarf.py`` (sticnarf/mahjong_ai): passes every discard (it does not
  even win on one), discards the lowest tile in its own order (characters,
  dots, bamboo, honours), wins on its draw, robs a kong when it can; aborts
  (``std::bad_function_call``, SIGABRT) on any word it does not know, ``mhu``
  included, and at the end of its input.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

if __package__ in (None, ""):  # imported by a script run by path: the repository root
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from protocol.messages import (
    AGang,
    Chi,
    FromAI,
    Gang,
    Hu,
    JGang,
    MHu,
    MJGang,
    Out,
    Pass,
    Peng,
    QGang,
    ToAI,
    format_line,
    parse_to_ai,
)
from protocol.tiles import Tile
from sample_ai.framework import Bot

# How many words follow each keyword the server sends after the deal.
ARITY = {"pick": 1, "mpick": 1, "mout": 2, "mpeng": 2, "mchi": 2, "mgang": 2, "magang": 1,
         "mjgang": 2, "mfail": 0, "mhu": 3}
DEAL = (("id", 1), ("first", 1), ("init", 13))  # read first, word by word, in this order


def _words(stream: TextIO) -> Iterator[str]:
    for line in stream:
        yield from line.split()


def _abort(what: str) -> None:
    """Die as a C++ program does on an uncaught exception."""
    sys.stdout.flush()
    print(f"terminate called after throwing an instance of '{what}'", file=sys.stderr,
          flush=True)
    os.abort()


def play(bot: Bot, *, abort_on_unknown: bool, strict_deal: bool, knows_mhu: bool = True,
         log: TextIO | None = None, stdin: TextIO | None = None,
         stdout: TextIO | None = None) -> int:
    """Write ``join``, then read words and answer as the C++ bots do."""
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout

    def write(line: str) -> None:
        sink.write(line + "\n")  # endl: written and flushed at once
        sink.flush()

    def take(n: int) -> list[str]:
        return [next(words, "") for _ in range(n)]

    write("join")
    words = _words(source)
    messages: list[ToAI] = []
    for keyword, arity in DEAL:  # ``cin >> str >> id`` and so on, whatever the words are
        word, *args = take(1 + arity)
        if strict_deal and word != keyword:
            _abort(f"assertion: str == \"{keyword}\"")  # its assert(str == "id"), ...
        messages.append(parse_to_ai(" ".join([keyword, *args])))
    known = dict(ARITY) if knows_mhu else {k: v for k, v in ARITY.items() if k != "mhu"}
    for word in words:
        arity = known.get(word)
        if arity is None:
            if abort_on_unknown:
                _abort("std::bad_function_call")  # its table of handlers has no such entry
            continue  # matches none of its ifs: the next word is read as a keyword
        args = take(arity)
        if "" in args:
            break  # the input ended inside a message
        messages.append(parse_to_ai(" ".join([word, *args])))
        for message in messages:
            if isinstance(message, MHu):
                return 0  # it leaves its loop at the end of the hand
            answer = bot.receive(message)
            if log is not None:
                shown = format_line(answer) if answer is not None else "-"
                log.write(f"{format_line(message)} -> {shown} | hand "
                          f"{' '.join(t.code for t in sorted(bot.table.hand))}\n")
                log.flush()
            if answer is not None:
                write(format_line(answer))
        messages.clear()
    if abort_on_unknown:
        _abort("std::bad_function_call")  # at the end of input it calls the handler of ""
    return 0


def _singles_first(bot: Bot) -> Tile:
    """A tile held once, honours and terminals first; else any tile (a simple discard)."""
    table = bot.table
    counts = table.counts()
    singles = [t for t in table.hand if counts[t] == 1]
    pool = singles or table.hand
    return max(pool, key=lambda t: (t.is_honor, 0 if t.is_honor else abs(t.rank - 5),
                                    -table.unseen(t)))


class LikeMahjongAI(Bot):
    """wx-csy/MahjongAI's habits: claims and kongs on the tile at hand, and a ``pass``
    to every ``mjgang``, its own included."""

    name = "like_mahjongai"

    def on_turn(self, drawn: Tile) -> FromAI:
        table = self.table
        if table.can_self_draw_win():
            return Hu()
        if drawn in table.added_kongs():  # only the tile it just drew
            return JGang(drawn)
        if drawn in table.concealed_kongs():
            return AGang(drawn)
        return Out(_singles_first(self))

    def on_discard_after_claim(self) -> Tile:
        return _singles_first(self)

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        table = self.table
        if table.can_win_with(tile):
            return Hu()
        if table.can_gang(tile):
            return Gang()
        if table.can_peng(tile):
            return Peng()
        counts = table.counts()
        for low in table.chi_options(seat, tile):
            run = [Tile(low + i) for i in range(3) if low + i != tile]
            if all(counts[t] == 1 for t in run):  # two loose tiles made a set
                return Chi(low)
        return Pass()

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        return QGang() if self.table.can_win_with(tile) else Pass()

    def receive(self, message: ToAI) -> FromAI | None:
        answer = super().receive(message)
        if isinstance(message, MJGang) and message.seat == self.table.seat:
            return Pass()  # its own added kong too: nobody asked
        return answer


class Like7Pairs(Bot):
    """wx-csy/MahjongAI_7Pairs's habits: seven pairs, never a claim but ``hu``,
    ``pass`` to every ``mjgang``."""

    name = "like_7pairs"

    def on_turn(self, drawn: Tile) -> FromAI:
        table = self.table
        if table.can_self_draw_win():
            return Hu()
        counts = table.counts()
        odd = [t for t in table.hand if counts[t] % 2] or table.hand
        # The single with the fewest copies left to pair it; then the one farthest from 5.
        return Out(min(odd, key=lambda t: (table.unseen(t),
                                           -(4 if t.is_honor else abs(t.rank - 5)))))

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        return Hu() if self.table.can_win_with(tile) else Pass()

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        return Pass()  # it never robs a kong


# sticnarf/mahjong_ai numbers tiles characters, dots, bamboo, then E S W N Z F B.
_STICNARF_ORDER = {t: (0 if t.code.endswith("M") else 1 if t.code.endswith("T") else
                       2 if t.code.endswith("S") and len(t.code) == 2 else 3, int(t))
                   for t in Tile}


class LikeSticnarf(Bot):
    """sticnarf/mahjong_ai's habits: no claim at all, its lowest tile out, ``qgang``
    when it can."""

    name = "like_sticnarf"

    def on_turn(self, drawn: Tile) -> FromAI:
        table = self.table
        if table.can_self_draw_win():
            return Hu()
        return Out(min(table.hand, key=_STICNARF_ORDER.__getitem__))

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        return Pass()  # even a winning discard

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        return QGang() if self.table.can_win_with(tile) else Pass()


def open_log(name: str) -> TextIO | None:
    """A diagnostics file in the working folder, as ``freopen(..., stderr)``; None if
    it cannot be written (the C++ bot then logs nothing and plays on)."""
    try:
        return open(name, "w", encoding="ascii")
    except OSError:
        return None
