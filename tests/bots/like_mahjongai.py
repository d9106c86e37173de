#!/usr/bin/env python3
"""Plays with the protocol habits of wx-csy/MahjongAI (see ``cpp_habits.py``): a
``pass`` to every ``mjgang``, its own included; claims and kongs; diagnostics in
``like_mahjongai.log`` in its working folder, nothing on stderr."""

import sys

from cpp_habits import LikeMahjongAI, open_log, play

if __name__ == "__main__":
    sys.exit(play(LikeMahjongAI(0), abort_on_unknown=False, strict_deal=True,
                  log=open_log("like_mahjongai.log")))
