#!/usr/bin/env python3
"""Plays one seat of a game judged on Botzone again, answer for answer.

``recorded.py GAME.json SEAT [MODE [KEEP]]``: on judge turn k it answers what
that seat answered on turn k of GAME. A turn whose recorded verdict was TLE
makes it sleep (the server's limit must end it); RE makes it exit with an
error. Fed the game's initdata, four of these must make the server give every
request, display and score of the recorded game again.
"""

import json
import sys
import time

from _bz import answer, read_kept, read_turn

with open(sys.argv[1], encoding="utf-8") as file:
    game = json.load(file)
turns = game["players"][int(sys.argv[2])]
mode = sys.argv[3] if len(sys.argv) > 3 else "json"
keep = len(sys.argv) > 4 and sys.argv[4] == "keep"


def play(k: int, request: str) -> str:
    recorded = turns[k]
    if recorded["request"] != request:
        sys.exit(f"turn {k}: asked {request!r}, recorded {recorded['request']!r}")
    if recorded["verdict"] == "TLE":
        time.sleep(60)
    if recorded["verdict"] != "OK":
        sys.exit(f"turn {k}: recorded verdict {recorded['verdict']}")
    return recorded["response"]


turn = read_turn(mode)
k = len(turn.requests) - 1
answer(mode, play(k, turn.requests[-1]), keep=keep)
while keep:
    k += 1
    answer(mode, play(k, read_kept(mode)), keep=True)
