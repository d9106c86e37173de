#!/usr/bin/env python3
"""Plays legally, and also answers lines that were no prompt to it."""

import sys

from _play import answer_to, say

me = -1
say("join")
while line := sys.stdin.readline():
    words = line.split()
    if not words:
        continue
    if words[0] == "id":
        me = int(words[1])
    answer = answer_to(words, me)
    say(answer if answer is not None else "pass")
