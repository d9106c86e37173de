#!/usr/bin/env python3
"""Discards the tile it draws and passes every claim: legal, instant, never wins.

Four of these always play a hand to the end of the wall (a draw), so the
result of a hand depends on nothing but the deal.

    drawbot.py [--flush all|join|none] [--debug]

A student's two commonest mistakes, on demand: ``--flush join`` flushes only its
``join`` and ``--flush none`` nothing (its lines then reach the server when it
exits, unless ``PYTHONUNBUFFERED`` is set); ``--debug`` prints a debug line on
stdout before each discard.
"""

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flush", choices=("all", "join", "none"), default="all")
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args(argv)
    flush = args.flush == "all"
    me = -1
    print("join", flush=args.flush != "none")
    while line := sys.stdin.readline():
        words = line.split()
        if not words:
            continue
        if words[0] == "id":
            me = int(words[1])
        elif words[0] == "pick":
            if args.debug:
                print(f"DEBUG drew {words[1]}", flush=flush)
            print(f"out {words[1]}", flush=flush)
        elif words[0] in ("mout", "mjgang") and int(words[1]) != me:
            print("pass", flush=flush)
    return 0


if __name__ == "__main__":
    sys.exit(main())
