#!/usr/bin/env python3
"""Plays with the protocol habits of sticnarf/mahjong_ai (see ``cpp_habits.py``):
never claims, robs a kong when it can, aborts on any word it does not know
(``mhu`` included) and at the end of its input."""

import sys

from cpp_habits import LikeSticnarf, play

if __name__ == "__main__":
    sys.exit(play(LikeSticnarf(0), abort_on_unknown=True, strict_deal=False, knows_mhu=False))
