#!/usr/bin/env python3
"""Joins, then takes memory until it is stopped.

It writes every page it takes (memory used is what the limit counts, not
address space: ``server.bots.memlimit``), 16 MB at a time with one ``memset`` each;
it passes a 256 MB limit in a few tens of milliseconds.
"""

import sys

from _play import play

hoard: list[bytes] = []


def on_prompt(n: int, line: str, answer: str) -> None:
    while True:
        hoard.append(b"\x01" * (16 << 20))


sys.exit(play(on_prompt))
