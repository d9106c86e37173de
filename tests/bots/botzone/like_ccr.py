#!/usr/bin/env python3
"""Plays like the random bot of ccr-cheng/botzone-mahjong-environment (Python,
JSON interaction, written for the 136-tile 复式 deal); its behaviour, not its
code.

Habits copied:

* JSON interaction, one line in and ``{"response": ...}`` out, restarted every
  turn; no keep-running, no data, no debug. ``PASS`` on the first two turns.
* Its hand is every token of request 1 after the four flower counts, so in the
  classic game the flowers dealt to **any** seat land in its hand. It knows
  no ``BUHUA``: a flower notice crashes it (an unknown action). With flowers in
  its hand the fan calculator rejects the hand with an error other than "not a
  win" and it crashes at its first fan check: the first discard by another
  seat, or its own draw (``c18_real_random_bot_re.json``).
* Each seat's wall starts at 21 tiles and loses one per draw of that seat.
* On its own draw: ``HU`` if its fan count reaches 8; else ``GANG`` of the
  drawn tile if it holds three more, or ``BUGANG`` of it onto its pung, if
  neither its own nor the next seat's wall count is 0; else ``PLAY`` of a
  random single (honors first), or of a random pair tile if it has no single.
* On another seat's discard (also after ``PENG``/``CHI``) and on a ``BUGANG``:
  ``HU`` if its fans reach 8; then (not on ``BUGANG``) ``GANG`` with three in
  hand and both wall counts non-zero; ``PENG`` with two in hand; ``CHI`` from the
  seat before it (a random one of its chows). It never looks at the wall
  before ``PENG``/``CHI``, so it can claim when the judge forbids it (WA).
* Its fan count: PyMahjongGB with no flowers, 和绝张 only when it has seen all
  four copies, 海底 when the wall of the seat after **itself** is empty.
* "Random" is seeded from its input line, so a game replays exactly.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from typing import Any

from MahjongGB import MahjongFanCalculator

ACTIONS = {"PASS", "DRAW", "PLAY", "CHI", "PENG", "GANG", "BUGANG", "HU"}  # no BUHUA
KINDS = [s + str(n) for s in "WBT" for n in range(1, 10)] + [
    "F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def observe(given: dict[str, Any]) -> dict[str, Any] | None:
    requests = given["requests"]
    if len(requests) <= 2:
        return None
    obs: dict[str, Any] = {
        "me": int(requests[0].split()[1]), "quan": int(requests[0].split()[2]),
        "tiles": requests[1].split()[5:], "walls": [21] * 4, "melds": [],
        "seen": Counter(), "last_player": None, "last_tile": None, "last_op": None,
        "history": [],
    }
    me = obs["me"]
    for request in requests[2:]:
        w = request.split()
        if w[0] == "2":
            obs["tiles"].append(w[1])
            obs["walls"][me] -= 1
            obs.update(last_player=me, last_op="DRAW", last_tile=w[1])
            obs["history"].append(("DRAW", me))
            continue
        p, op = int(w[1]), w[2]
        if op not in ACTIONS:
            raise KeyError(op)  # its action table has no BUHUA
        last_player, last_op, last_tile = obs["last_player"], obs["last_op"], obs["last_tile"]
        obs.update(last_player=p, last_op=op)
        obs["history"].append((op, p))
        if len(w) == 3:
            if op == "GANG":
                concealed = last_op == "DRAW"
                if not concealed:
                    obs["seen"][last_tile] = 4
                if p == me:
                    for _ in range(4 if concealed else 3):
                        obs["tiles"].remove(last_tile)
                    obs["melds"].append(("GANG", last_tile, 0 if concealed else
                                         (last_player - me) % 4))
            else:
                obs["walls"][p] -= 1
            obs["last_tile"] = None
            continue
        tile = w[-1]
        obs["seen"][tile] += 1
        obs["last_tile"] = tile
        if p == me:
            obs["tiles"].remove(tile)
        if op == "BUGANG" and p == me:
            obs["melds"] = [("GANG", t, o) if k == "PENG" and t == tile else (k, t, o)
                            for k, t, o in obs["melds"]]
        elif op == "CHI":
            middle = w[3]
            for d in (-1, 0, 1):
                t = middle[0] + str(int(middle[1]) + d)
                if t != last_tile:
                    obs["seen"][t] += 1
                    if p == me:
                        obs["tiles"].remove(t)
            if p == me:
                obs["melds"].append(("CHI", middle, int(last_tile[1]) - int(middle[1]) + 2))
        elif op == "PENG":
            obs["seen"][last_tile] += 2
            if p == me:
                obs["tiles"].remove(last_tile)
                obs["tiles"].remove(last_tile)
                obs["melds"].append(("PENG", last_tile, (last_player - me) % 4))
    if obs["last_op"] == "DRAW" and obs["last_player"] == me:
        obs["tiles"].remove(obs["last_tile"])
    return obs


def fans(obs: dict[str, Any]) -> int:
    me, win = obs["me"], obs["last_tile"]
    self_drawn = obs["last_op"] == "DRAW"
    kong = obs["last_op"] == "BUGANG" or (
        len(obs["history"]) >= 2 and obs["history"][-2] == ("GANG", me))
    try:
        result = MahjongFanCalculator(
            tuple(obs["melds"]), tuple(obs["tiles"]), win, 0, self_drawn,
            obs["seen"][win] == 4, kong, obs["walls"][(me + 1) % 4] == 0, me, obs["quan"])
    except TypeError as error:
        if str(error) == "ERROR_NOT_WIN":
            return -1
        raise  # e.g. flowers in its hand: the bot dies here
    return sum(v for v, _n in result)


def choose(rng: random.Random, tiles: list[str]) -> str:
    count = Counter(tiles)
    singles = [t for t, n in count.items() if n == 1]
    if not singles:
        return str(rng.choice([t for t, n in count.items() if n == 2]))
    honors = [t for t in singles if t[0] in "FJ"]
    return str(rng.choice(honors or singles))


def respond(given: dict[str, Any], rng: random.Random) -> str:
    obs = observe(given)
    if obs is None:
        return "PASS"
    me, tile, op = obs["me"], str(obs["last_tile"]), obs["last_op"]
    walls_ok = obs["walls"][me] > 0 and obs["walls"][(me + 1) % 4] > 0
    if op == "DRAW":
        if obs["last_player"] != me:
            return "PASS"
        if fans(obs) >= 8:
            return "HU"
        if walls_ok and obs["tiles"].count(tile) == 3:
            return "GANG " + tile
        if walls_ok and any(k == "PENG" and t == tile for k, t, _o in obs["melds"]):
            return "BUGANG " + tile
        return "PLAY " + choose(rng, [*obs["tiles"], tile])
    if op == "GANG" or obs["last_player"] == me:
        return "PASS"
    if fans(obs) >= 8:
        return "HU"
    if op == "BUGANG":
        return "PASS"
    tiles = list(obs["tiles"])
    if walls_ok and tiles.count(tile) == 3:
        return "GANG"
    if tiles.count(tile) == 2:
        tiles.remove(tile)
        tiles.remove(tile)
        return "PENG " + choose(rng, tiles)
    if (obs["last_player"] - me) % 4 == 3 and tile[0] in "WBT":
        n = int(tile[1])
        chows = [tile[0] + str(m) for m in (n - 1, n, n + 1) if 2 <= m <= 8
                 and all(tile[0] + str(m + d) in tiles for d in (-1, 0, 1) if m + d != n)]
        if chows:
            middle = rng.choice(chows)
            for d in (-1, 0, 1):
                if int(middle[1]) + d != n:
                    tiles.remove(middle[0] + str(int(middle[1]) + d))
            return f"CHI {middle} {choose(rng, tiles)}"
    return "PASS"


def main() -> int:
    line = input()
    answer = respond(json.loads(line), random.Random(line))
    print(json.dumps({"response": answer}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
