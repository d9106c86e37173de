#!/usr/bin/env python3
"""The simplest legal Botzone Mahjong bot: random discards, PASS to everything else.

It never claims, never declares a kong and never declares a win, so it can
never be penalised for an illegal answer (WA) or a false win (WH). Read it
first: it shows the whole Botzone protocol in one screen.

How it talks (Botzone's JSON interaction, the default): it reads one line
``{"requests": [...], "responses": [...], "data": ..., ...}`` holding every
request of the game so far (the last one is the current one) and its own
earlier responses, rebuilds its hand from them and prints one line
``{"response": "..."}``. It needs nothing but the standard library, so the same
file can be uploaded to Botzone as it is.

    python3 random_bot.py                 # JSON, restarted every turn (Botzone's default)
    python3 random_bot.py --simple        # simple interaction
    python3 random_bot.py --keep-running  # stay alive between turns (JSON or simple)

``respond(requests, responses)`` is the whole decision, without any I/O.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections.abc import Sequence

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


def my_hand(requests: Sequence[str]) -> list[str]:
    """The tiles in hand, rebuilt from the requests: the deal, plus draws, minus plays.

    The judge announces every move, this seat's own included (``3 p PLAY X``),
    so the requests alone tell the hand. This bot never claims, so the only
    moves that change its hand are its draws and its discards.
    """
    seat = int(requests[0].split()[1])
    hand: list[str] = []
    for request in requests[1:]:
        words = request.split()
        if words[0] == "1":
            # "1 f0 f1 f2 f3 t1 ... t13 flowers...": the 13 tiles follow the 4 counts.
            hand = words[5:18]
        elif words[0] == "2":
            hand.append(words[1])
        elif words[0] == "3" and int(words[1]) == seat and words[2] == "PLAY":
            hand.remove(words[3])
    return hand


def respond(requests: Sequence[str], responses: Sequence[str]) -> str:
    """The answer to ``requests[-1]``, given the whole history of this game."""
    if not requests[-1].startswith("2 "):
        return "PASS"  # INIT, DEAL and every notice: passing is always legal
    hand = my_hand(requests)
    # Seeded from the history, so replaying a game replays the bot too.
    rng = random.Random(zlib.crc32("\n".join(requests).encode()))
    return "PLAY " + rng.choice(hand)


def main(argv: Sequence[str]) -> int:
    simple = "--simple" in argv
    keep_running = "--keep-running" in argv
    requests: list[str] = []
    responses: list[str] = []
    if simple:
        # Line 1: the turn number n; then requests and responses alternating,
        # ending with the current request; then data and globaldata (ignored).
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
        sys.stdin.readline()  # data: read, so that a kept bot does not take it
        sys.stdin.readline()  # globaldata (one line here) for its next request
        requests, responses = lines[0::2], lines[1::2]
    else:
        given = json.loads(sys.stdin.readline())
        requests, responses = list(given["requests"]), list(given["responses"])
    while True:
        answer = respond(requests, responses)
        responses.append(answer)
        if simple:
            print(answer)
        else:
            print(json.dumps({"response": answer}))
        if not keep_running:
            return 0
        print(KEEP_RUNNING, flush=True)
        # Botzone stops the process here and resumes it with the next request
        # only: a raw line in simple mode, a JSON string in JSON mode.
        line = sys.stdin.readline()
        if not line:
            return 0
        requests.append(line.rstrip("\r\n") if simple else next_request(line))


def next_request(line: str) -> str:
    """A keep-running JSON turn: a JSON string, or a whole input object."""
    value = json.loads(line)
    if isinstance(value, dict):
        return str(value["requests"][-1])
    return str(value)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
