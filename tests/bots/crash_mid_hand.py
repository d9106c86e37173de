#!/usr/bin/env python3
"""A drawbot that exits (status 1) on its Nth prompt instead of answering it.

    crash_mid_hand.py [N]        (N = 3 by default; a prompt is pick, mout or mjgang)
"""

import sys


def main() -> int:
    crash_at = int(sys.argv[1]) if len(sys.argv) > 1 else 3
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
        if prompts >= crash_at:
            print(f"crashing on prompt {prompts}: {line.strip()}", file=sys.stderr, flush=True)
            return 1
        print(f"out {words[1]}" if words[0] == "pick" else "pass", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
