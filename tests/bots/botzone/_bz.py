"""Botzone I/O for the test bots: read a turn, answer it, keep running (SPEC-botzone §7)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


@dataclass
class Turn:
    requests: list[str]
    responses: list[str]
    data: str
    globaldata: str


def read_turn(mode: str) -> Turn:
    """A restarted bot's input: the whole history (stdin stays open: read lines only)."""
    if mode == "json":
        message = json.loads(sys.stdin.readline())
        return Turn(message["requests"], message["responses"], message["data"],
                    message.get("globaldata", ""))  # NOI 2014's input has none
    n = int(sys.stdin.readline())
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
    data = sys.stdin.readline().rstrip("\n")
    globaldata = sys.stdin.readline().rstrip("\n")
    return Turn(lines[0::2], lines[1::2], data, globaldata)


def read_kept(mode: str) -> str:
    """A kept bot's next request (JSON: a JSON string); exit at the end of input."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line) if mode == "json" else line.rstrip("\n")


def answer(mode: str, response: str, debug: str = "", data: str = "", globaldata: str = "",
           keep: bool = False, flush: bool = True) -> None:
    if mode == "json":
        print(json.dumps({"response": response, "debug": debug, "data": data,
                          "globaldata": globaldata}))
    else:
        print(response, debug, data, globaldata, sep="\n")
    if keep:
        print(MARKER)
    if flush:  # without it (and PYTHONUNBUFFERED unset) the answer waits in the buffer
        sys.stdout.flush()


def discard(request: str) -> str:
    """Always legal: play the tile just drawn, pass on everything else."""
    words = request.split()
    return f"PLAY {words[1]}" if len(words) == 2 and words[0] == "2" else "PASS"
