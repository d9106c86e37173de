#!/usr/bin/env python3
"""Joins, then writes one file without end, as a C program would (SIGXFSZ not ignored)."""

import signal
import sys

from _play import play

signal.signal(signal.SIGXFSZ, signal.SIG_DFL)


def on_prompt(n: int, line: str, answer: str) -> None:
    chunk = b"\0" * (1 << 20)
    with open("huge.bin", "wb") as out:
        while True:
            out.write(chunk)
            out.flush()


sys.exit(play(on_prompt))
