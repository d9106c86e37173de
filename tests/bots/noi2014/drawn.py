#!/usr/bin/env python3
"""A NOI 2014 test bot: plays the tile it drew, passes on everything else, and gives
a target that is one tile from its hand when it can find one (else an invalid one).

``--keep`` asks for keep-running; ``--simple`` talks Botzone's simple interaction;
``--big-data`` leaves 70000 bytes of data (over NOI 2014's 64 KiB); ``--to-eof``
reads its whole input to end of file before it answers, as Botzone's sample bot
does (JSON: ``json.load(sys.stdin)``; simple: all of stdin at once).
"""

import json
import sys
from collections import Counter

KINDS = [f"{s}{n}" for s in "BTW" for n in range(1, 10)]


def sets_only(c):
    i = next((k for k in range(27) if c[k]), -1)
    if i < 0:
        return True
    if c[i] >= 3:
        c[i] -= 3
        ok = sets_only(c)
        c[i] += 3
        if ok:
            return True
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = sets_only(c)
        for k in (i, i + 1, i + 2):
            c[k] += 1
        return ok
    return False


def wins(hand):
    c = [hand[k] for k in KINDS]
    for i in range(27):
        if c[i] >= 2:
            c[i] -= 2
            ok = sets_only(c)
            c[i] += 2
            if ok:
                return True
    return False


def answer(requests):
    hand = Counter()
    for request in requests:
        words = request.split()
        if words[0] == "1":
            hand.update(words[1:])
        # "2 C": it always plays the tile it drew, so its hand stays the one dealt
    last = requests[-1].split()
    if last[0] == "2":
        return f"PLAY {last[1]}"
    if last[0] == "4":
        for kind in KINDS:
            trial = hand + Counter([kind])
            if sum(trial.values()) == 14 and wins(trial) and trial[kind] <= 4:
                return " ".join(sorted(trial.elements(), key=KINDS.index))
        return "B1"
    return "PASS"


def main():
    keep = "--keep" in sys.argv
    simple = "--simple" in sys.argv
    if "--to-eof" in sys.argv:
        if simple:
            lines = sys.stdin.read().split("\n")
            requests = lines[1:2 * int(lines[0]):2]
        else:
            requests = json.load(sys.stdin)["requests"]
    elif simple:
        n = int(sys.stdin.readline())
        requests = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)][0::2]
        sys.stdin.readline()  # data
        sys.stdin.readline()  # globaldata
    else:
        message = json.loads(sys.stdin.readline())
        requests = message["requests"]
    while True:
        response = answer(requests)
        if simple:
            print(response)
        else:
            data = "x" * 70000 if "--big-data" in sys.argv else str(len(requests))
            print(json.dumps({"response": response, "data": data}))
        if not keep:
            return
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<", flush=True)
        line = sys.stdin.readline()
        if not line:
            return
        requests.append(line.rstrip("\n") if simple else json.loads(line))


if __name__ == "__main__":
    main()
