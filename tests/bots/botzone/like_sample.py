#!/usr/bin/env python3
"""Plays like Botzone's official sample bot (ailab-pku/Chinese-Standard-Mahjong,
``sample-bot-Botzone/sample.cpp``); its behaviour, not its code.

Habits copied:

* It keeps its hand as the deal's 13 tiles, plus each ``2 X`` draw, minus the
  tile named in its own answer to that draw; it never claims, never declares a
  kong or a win: ``PLAY`` of a random tile in hand on its draw, ``PASS`` to
  everything else (the first two turns included).
* The "random" tile comes from a generator that starts afresh every run (the
  C++ bot never seeds ``rand``), so the same history gives the same answer.
* JSON interaction (the default, ``SIMPLEIO 0``): it reads its input to end of
  file (jsoncpp's ``cin >> value`` does: here ``json.load(sys.stdin)``), so it
  answers only once its input is closed, as Botzone closes a restarted bot's
  input. It prints its answer the way jsoncpp's ``operator<<`` does, an
  indented object over several lines (``{\\n\\t"response" : "PLAY W1"\\n}\\n``).
  Simple interaction (``--simple``, ``SIMPLEIO 1``): it reads the turn number
  and the history line by line, and prints the answer line only.
* It reads the history only from the requests and its own responses; it
  ignores ``data``/``globaldata`` and prints neither.
* It exits after answering: it never asks to keep running.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Sequence


def respond(requests: Sequence[str], responses: Sequence[str]) -> str:
    turn = len(responses)
    if turn < 2:
        return "PASS"
    hand = requests[1].split()[5:18]
    for i in range(2, turn):
        if requests[i].startswith("2 "):
            hand.append(requests[i].split()[1])
            hand.remove(responses[i].split()[1])
    if not requests[turn].startswith("2 "):
        return "PASS"
    hand.append(requests[turn].split()[1])
    random.Random(1).shuffle(hand)
    return "PLAY " + hand[-1]


def styled(answer: str) -> str:
    """The answer as jsoncpp's StyledStreamWriter prints ``{"response": answer}``."""
    return "{\n\t\"response\" : " + json.dumps(answer) + "\n}\n"


def main(argv: Sequence[str]) -> int:
    if "--simple" in argv:
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
        requests, responses = lines[0::2], lines[1::2]
        print(respond(requests, responses), flush=True)
        return 0
    given = json.load(sys.stdin)  # to end of file
    sys.stdout.write(styled(respond(given["requests"], given["responses"])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
