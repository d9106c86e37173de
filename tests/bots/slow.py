#!/usr/bin/env python3
"""A drawbot that sleeps before its own-turn discards (1.2 s by default).

    slow.py [--delay SECONDS] [--turns N]

sleeps on its first N turns (every turn by default); claims are passed at once.
"""

import argparse
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay", type=float, default=1.2)
    parser.add_argument("--turns", type=int, default=-1, help="slow turns; -1: all")
    args = parser.parse_args()
    me = -1
    turns = 0
    print("join", flush=True)
    while line := sys.stdin.readline():
        words = line.split()
        if not words:
            continue
        if words[0] == "id":
            me = int(words[1])
        elif words[0] == "pick":
            turns += 1
            if args.turns < 0 or turns <= args.turns:
                time.sleep(args.delay)
            print(f"out {words[1]}", flush=True)
        elif words[0] in ("mout", "mjgang") and int(words[1]) != me:
            print("pass", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
