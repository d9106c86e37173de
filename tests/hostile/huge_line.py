#!/usr/bin/env python3
"""Joins, then answers its first prompt with 100 MB and no newline."""

import sys

from _play import play


def on_prompt(n: int, line: str, answer: str) -> None:
    chunk = b"x" * (1 << 20)
    for _ in range(100):
        sys.stdout.buffer.write(chunk)
    sys.stdout.flush()


sys.exit(play(on_prompt))
