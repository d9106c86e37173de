#!/usr/bin/env python3
"""A bot that reads its whole input to end of file before it answers, as Botzone's
sample bot does (jsoncpp's ``cin >> value``): ``to_eof.py MODE`` (json or simple).

JSON: ``json.load(sys.stdin)``, which returns only at end of file. Simple: all of
stdin read at once, the globaldata running "to end of input". It answers as the
discarder does (``PLAY X`` to ``2 X``, ``PASS`` otherwise), its debug says which
turn and data it got, its data counts its turns, and it exits: it never asks to
keep running. With the keep-running setting on, its input stays open and it never
answers.
"""

import json
import sys

from _bz import discard

mode = sys.argv[1]
if mode == "json":
    message = json.load(sys.stdin)
    requests, data = message["requests"], message["data"]
else:
    lines = sys.stdin.read().split("\n")
    n = int(lines[0])
    requests, data = lines[1:2 * n:2], lines[2 * n]
n = len(requests)
response = discard(requests[-1])
debug = f"n={n} data={data} eof"
if mode == "json":
    print(json.dumps({"response": response, "debug": debug, "data": str(n)}))
else:
    print(response, debug, str(n), sep="\n")
