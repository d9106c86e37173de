#!/usr/bin/env python3
"""Plays like wr786/botzone-CSMahjong (a rule-based C++ Botzone bot); its
behaviour and I/O habits, not its code (its evaluation function is replaced
by a plain shanten count).

Habits copied:

* Simple interaction only, restarted every turn: it reads the turn number,
  then each request (it skips its own earlier responses) and answers with
  ``printf``: the answer and **no newline**, then it exits. No debug, data or
  globaldata lines; no keep-running.
* It keeps a wall count per seat as in the duplicate game (34 tiles, 13 dealt,
  one less per draw of that seat), also in the classic game, where that count
  is wrong.
* On its own draw: ``HU`` if its fan count reaches 8; else ``BUGANG`` of the
  drawn tile, or ``GANG`` of the drawn tile (only that one), if neither its
  own nor the next seat's count is 0 and the kong makes the hand no worse; else
  ``PLAY`` of the tile whose removal leaves the best hand.
* On another seat's ``PLAY``/``PENG``/``CHI``: ``HU`` if the fans reach 8; else
  ``GANG`` (three in hand), ``PENG`` (two in hand) or ``CHI`` (from the seat
  before it only) when that makes the hand strictly better, and only if the
  wall count of the seat after the discarder is not 0 (``GANG`` also needs its
  own); else ``PASS``. On a ``BUGANG`` notice: ``HU`` if it can rob it.
* Its fan count: PyMahjongGB with no flowers, 和绝张 when it knows of no copy
  of the win tile left (its own hand included), the kong flag only when
  robbing a kong, 海底 by its per-seat wall count. It can disagree with the
  judge's count.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Sequence

from MahjongGB import MahjongFanCalculator, MahjongShanten

SUITS = "WBT"
KINDS = [s + str(n) for s in SUITS for n in range(1, 10)] + [
    "F1", "F2", "F3", "F4", "J1", "J2", "J3"]


class State:
    def __init__(self) -> None:
        self.seat = 0
        self.quan = 0
        self.hand: list[str] = []
        self.packs: list[list[object]] = []
        self.left: Counter[str] = Counter({k: 4 for k in KINDS})  # copies it has not seen
        self.walls = [34, 34, 34, 34]
        self.last_tile = ""
        self.last_was_draw = False
        self.actor = 0
        self.kind = 0  # 2 own draw, 32 play, 33 peng, 34 chi, 36 bugang, 3x others

    def read(self, request: str) -> None:
        w = request.split()
        drew, self.last_was_draw = self.last_was_draw, False
        if w[0] == "0":
            self.seat, self.quan, self.kind = int(w[1]), int(w[2]), 0
        elif w[0] == "1":
            self.hand = w[5:18]
            self.left.subtract(self.hand)
            self.walls = [34 - 13] * 4
            self.kind = 1
        elif w[0] == "2":
            self.hand.append(w[1])
            self.left[w[1]] -= 1
            self.walls[self.seat] -= 1
            self.actor, self.kind, self.last_was_draw = self.seat, 2, True
        else:
            self.notice(int(w[1]), w[2], w[3:], drew)

    def notice(self, p: int, op: str, args: list[str], drew: bool) -> None:
        me = p == self.seat
        self.actor = p
        if op == "BUHUA":
            self.kind = 30
        elif op == "DRAW":
            self.walls[p] -= 1
            self.kind, self.last_was_draw = 31, True
        elif op == "PLAY":
            self.played(p, args[0])
            self.kind = 32
        elif op == "PENG":
            tile = self.last_tile
            if me:
                self.hand.remove(tile)
                self.hand.remove(tile)
                self.packs.append(["PENG", tile, 1])
            else:
                self.left[tile] -= 2
            self.played(p, args[0])
            self.kind = 33
        elif op == "CHI":
            middle, claimed = args[0], self.last_tile
            for d in (-1, 0, 1):
                t = middle[0] + str(int(middle[1]) + d)
                if t != claimed:
                    if me:
                        self.hand.remove(t)
                    else:
                        self.left[t] -= 1
            if me:
                self.packs.append(["CHI", middle, 1])
            self.played(p, args[1])
            self.kind = 34
        elif op == "GANG":
            if drew and me:  # its concealed kong is always of the tile just drawn
                tile = self.hand[-1]
                for _ in range(4):
                    self.hand.remove(tile)
                self.packs.append(["GANG", tile, 1])  # it marks every meld as shown
            elif not drew:
                tile = self.last_tile
                if me:
                    for _ in range(3):
                        self.hand.remove(tile)
                    self.packs.append(["GANG", tile, 1])
                else:
                    self.left[tile] -= 3
            self.kind = 35
        elif op == "BUGANG":
            tile = args[0]
            if me:
                self.hand.remove(tile)
                for pack in self.packs:
                    if pack[0] == "PENG" and pack[1] == tile:
                        pack[0] = "GANG"
            else:
                self.left[tile] -= 1
            self.last_tile = tile
            self.kind = 36

    def played(self, p: int, tile: str) -> None:
        if p == self.seat:
            self.hand.remove(tile)
        else:
            self.left[tile] -= 1
        self.last_tile = tile

    def packs_tuple(self) -> tuple[tuple[str, str, int], ...]:
        return tuple((str(k), str(t), int(str(o))) for k, t, o in self.packs)

    def fans(self, hand: Sequence[str], win: str, self_drawn: bool) -> int:
        try:
            result = MahjongFanCalculator(
                self.packs_tuple(), tuple(hand), win, 0, self_drawn, self.left[win] == 0,
                self.kind == 36, self.walls[(self.actor + 1) % 4] == 0, self.seat, self.quan)
        except TypeError:
            return 0
        return sum(v for v, _n in result)


def score(packs: Sequence[tuple[str, str, int]], hand: Sequence[str]) -> float:
    """Its evaluation, higher is better: fewer tiles to ready, then more ways to improve."""
    s = MahjongShanten(tuple(packs), tuple(hand))
    return -10.0 * int(s)


def best_play(packs: Sequence[tuple[str, str, int]], hand: Sequence[str]) -> tuple[float, str]:
    best = (-1e9, hand[0])
    for i, tile in enumerate(hand):
        rest = list(hand[:i]) + list(hand[i + 1:])
        v = score(packs, rest) - (0.5 if tile[0] in SUITS and tile[1] in "3456" else 0)
        if v > best[0]:
            best = (v, tile)
    return best


def respond(requests: Sequence[str]) -> str:
    state = State()
    for request in requests:
        state.read(request)
    packs = state.packs_tuple()
    hand = state.hand
    my_empty = state.walls[state.seat] == 0
    is_last = state.walls[(state.actor + 1) % 4] == 0
    if state.kind == 2:
        drawn = hand[-1]
        if state.fans(hand[:-1], drawn, True) >= 8:
            return "HU"
        now = best_play(packs, hand)
        if not my_empty and not is_last:
            if any(k == "PENG" and t == drawn for k, t, _o in packs):
                rest = list(hand[:-1])
                kong = tuple(p if p[1] != drawn else ("GANG", drawn, p[2]) for p in packs)
                if score(kong, rest) > now[0]:
                    return "BUGANG " + drawn
            if hand.count(drawn) == 4:
                rest = [t for t in hand if t != drawn]
                if score((*packs, ("GANG", drawn, 0)), rest) > now[0]:
                    return "GANG " + drawn
        return "PLAY " + now[1]
    if state.kind in (32, 33, 34) and state.actor != state.seat:
        tile = state.last_tile
        if state.fans(hand, tile, False) >= 8:
            return "HU"
        base = score(packs, hand)
        if not my_empty and not is_last and hand.count(tile) == 3:
            rest = [t for t in hand if t != tile]
            if score((*packs, ("GANG", tile, 1)), rest) > base:
                return "GANG"
        if not is_last and hand.count(tile) == 2:
            rest = list(hand)
            rest.remove(tile)
            rest.remove(tile)
            after, out = best_play((*packs, ("PENG", tile, 1)), rest)
            return f"PENG {out}" if after > base else "PASS"
        if not is_last and (state.actor + 1) % 4 == state.seat and tile[0] in SUITS:
            n = int(tile[1])
            for middle in (n + 1, n, n - 1):  # the order it tries: tile lowest, middle, highest
                if not 2 <= middle <= 8:
                    continue
                need = [tile[0] + str(middle + d) for d in (-1, 0, 1) if middle + d != n]
                if all(t in hand for t in need):
                    rest = list(hand)
                    for t in need:
                        rest.remove(t)
                    after, out = best_play((*packs, ("CHI", tile[0] + str(middle), 1)), rest)
                    return f"CHI {tile[0]}{middle} {out}" if after > base else "PASS"
        return "PASS"
    if state.kind == 36 and state.actor != state.seat:
        return "HU" if state.fans(hand, state.last_tile, False) >= 8 else "PASS"
    return "PASS"


def main() -> int:
    n = int(sys.stdin.readline())
    lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
    sys.stdout.write(respond(lines[0::2]))  # no newline, as its printf
    return 0


if __name__ == "__main__":
    sys.exit(main())
