#!/usr/bin/env python3
"""Joins, then takes memory until it is stopped.

It asks for address space, which is what the memory limit counts (RLIMIT_AS),
in blocks it never writes to (``bytes(n)`` is calloc'd: fresh zero pages): it
reaches its limit within milliseconds whatever the machine's load. A hog that
wrote to every page (``bytearray``) needed over 1.5 s, three at once on two
busy cores, and was sometimes faulted ``hard-limit`` instead.
"""

import sys

from _play import play

hoard: list[bytes] = []


def on_prompt(n: int, line: str, answer: str) -> None:
    while True:
        hoard.append(bytes(16 << 20))


sys.exit(play(on_prompt))
