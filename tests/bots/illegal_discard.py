#!/usr/bin/env python3
"""A drawbot that, on its first own turn, discards a tile it does not hold."""

import sys

KINDS = [f"{r}{s}" for s in "MST" for r in range(1, 10)] + list("ESWNZFB")


def main() -> int:
    me = -1
    hand: list[str] = []
    cheated = False
    print("join", flush=True)
    while line := sys.stdin.readline():
        words = line.split()
        if not words:
            continue
        if words[0] == "id":
            me = int(words[1])
        elif words[0] == "init":
            hand = words[1:]
        elif words[0] == "pick":
            hand.append(words[1])
            if not cheated:
                cheated = True
                print(f"out {next(k for k in KINDS if k not in hand)}", flush=True)
            else:
                hand.remove(words[1])
                print(f"out {words[1]}", flush=True)
        elif words[0] in ("mout", "mjgang") and int(words[1]) != me:
            print("pass", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
