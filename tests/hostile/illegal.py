#!/usr/bin/env python3
"""Makes an illegal move: illegal.py discard|claim|win

discard: discards a tile it does not hold; claim: claims a pung of every discard;
win: declares a win on every prompt.
"""

import sys

from _play import answer_to, say

kind = sys.argv[1] if len(sys.argv) > 1 else "discard"
me = -1
say("join")
while line := sys.stdin.readline():
    words = line.split()
    if not words:
        continue
    if words[0] == "id":
        me = int(words[1])
    answer = answer_to(words, me)
    if answer is None:
        continue
    if kind == "win":
        answer = "hu"
    elif kind == "discard" and words[0] == "pick":
        answer = "out 9M" if words[1] != "9M" else "out 1M"
    elif kind == "claim" and answer == "pass":
        answer = "peng"
    say(answer)
