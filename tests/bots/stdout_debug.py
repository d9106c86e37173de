#!/usr/bin/env python3
"""A Botzone/NOI 2014 bot that prints its debugging text on stdout before its answer
(a common student mistake): every answer is BAD_OUTPUT, and its cause must show it."""

import json
import sys

given = json.loads(sys.stdin.readline())
print(f"debug: {len(given['requests'])} requests so far")
print(json.dumps({"response": "PASS"}))
