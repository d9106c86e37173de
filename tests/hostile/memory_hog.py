#!/usr/bin/env python3
"""Joins, then allocates memory until it is stopped."""

import sys

from _play import play

hoard: list[bytearray] = []


def on_prompt(n: int, line: str, answer: str) -> None:
    while True:
        hoard.append(bytearray(16 << 20))


sys.exit(play(on_prompt))
