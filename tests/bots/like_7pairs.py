#!/usr/bin/env python3
"""Plays with the protocol habits of wx-csy/MahjongAI_7Pairs (see ``cpp_habits.py``):
seven pairs only, ``hu`` or ``pass`` to a discard, ``pass`` to every ``mjgang``."""

import sys

from cpp_habits import Like7Pairs, play

if __name__ == "__main__":
    sys.exit(play(Like7Pairs(0), abort_on_unknown=False, strict_deal=True))
