#!/usr/bin/env python3
"""Joins, then answers with invalid UTF-8 and control bytes."""

import sys

from _play import play


def on_prompt(n: int, line: str, answer: str) -> None:
    sys.stdout.buffer.write(b"\xff\xfe\x00\x1b[2J\x07" + answer.encode() + b"\xc3\n")
    sys.stdout.flush()


sys.exit(play(on_prompt))
