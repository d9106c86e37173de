#!/usr/bin/env python3
"""A drawbot that answers its Nth prompt (the first by default) with a line of garbage.

    garbage.py [N]
"""

import sys

GARBAGE = "hello, I am not a Mahjong message"


def main() -> int:
    garbage_at = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    me = -1
    prompts = 0
    print("join", flush=True)
    while line := sys.stdin.readline():
        words = line.split()
        if not words:
            continue
        if words[0] == "id":
            me = int(words[1])
            continue
        if words[0] != "pick" and not (words[0] in ("mout", "mjgang") and int(words[1]) != me):
            continue
        prompts += 1
        if prompts == garbage_at:
            print(GARBAGE, flush=True)
        else:
            print(f"out {words[1]}" if words[0] == "pick" else "pass", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
