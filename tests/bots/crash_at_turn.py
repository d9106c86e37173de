#!/usr/bin/env python3
"""A bot on Botzone's JSON protocol (Botzone, NOI 2014) that crashes at its Nth request:
``crash_at_turn.py N``. Restarted every turn with the whole history, it plays the tile
it drew (``2 X``: ``PLAY X``) and passes on everything else until the request count
reaches N; then it says so on stderr and exits with status 1."""

import json
import sys

crash_at = int(sys.argv[1]) if len(sys.argv) > 1 else 3
requests = json.loads(sys.stdin.readline())["requests"]
if len(requests) >= crash_at:
    print(f"crashing at request {len(requests)}: {requests[-1]}", file=sys.stderr, flush=True)
    sys.exit(1)
words = str(requests[-1]).split()
print(json.dumps({"response": f"PLAY {words[1]}" if len(words) == 2 and words[0] == "2"
                  else "PASS"}), flush=True)
