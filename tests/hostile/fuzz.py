#!/usr/bin/env python3
"""Answers with random lines from the protocol's vocabulary and from garbage.

    fuzz.py [SEED]   mostly plays the drawbot's legal answer, sometimes noise instead
"""

import random
import sys

from _fuzz import answers, random_line
from _play import answer_to

rng = random.Random(sys.argv[1] if len(sys.argv) > 1 else None)
out = sys.stdout.buffer
me = -1
out.write(b"join\n" if rng.random() < 0.97 else random_line(rng))
out.flush()
while line := sys.stdin.readline():
    words = line.split()
    if not words:
        continue
    if words[0] == "id":
        me = int(words[1])
    legal = answer_to(words, me)
    if legal is None and rng.random() > 0.05:
        continue
    for text in answers(rng, legal):
        out.write(text)
    out.flush()
