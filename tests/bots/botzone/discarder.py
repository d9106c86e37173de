#!/usr/bin/env python3
"""A drawn-tile discarder: ``PLAY X`` to ``2 X``, ``PASS`` otherwise; always legal.

``discarder.py MODE [KEEP]``: MODE is json or simple. KEEP (default 0) is how
many answers it keeps running after (it prints the marker after each); after
that it answers and exits, so the next turn restarts it with the whole history.
Its debug says what it was given: ``n=<requests it has seen> data=<data>
global=<globaldata>``; its data is n, its globaldata counts the games it started.
"""

import sys

from _bz import answer, discard, read_kept, read_turn

mode = sys.argv[1]
keep = int(sys.argv[2]) if len(sys.argv) > 2 else 0
turn = read_turn(mode)
n = len(turn.requests)
games = int(turn.globaldata or 0) + (1 if n == 1 else 0)
answer(mode, discard(turn.requests[-1]), f"n={n} data={turn.data} global={turn.globaldata}",
       str(n), str(games), keep=keep > 0)
answered = 1
while answered <= keep:
    request = read_kept(mode)
    n += 1
    answered += 1
    answer(mode, discard(request), f"n={n} kept", keep=answered <= keep)
