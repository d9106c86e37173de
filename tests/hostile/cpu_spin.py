#!/usr/bin/env python3
"""Joins, then spins the CPU on its first prompt until the CPU limit stops it."""

import sys

from _play import play


def on_prompt(n: int, line: str, answer: str) -> None:
    while True:
        n += 1


sys.exit(play(on_prompt))
