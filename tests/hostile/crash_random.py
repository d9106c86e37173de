#!/usr/bin/env python3
"""Plays legally, then crashes (an uncaught exception) on a random early prompt."""

import random
import sys

from _play import play

crash_at = random.Random(sys.argv[1] if len(sys.argv) > 1 else None).randint(1, 12)


def on_prompt(n: int, line: str, answer: str) -> None:
    if n >= crash_at:
        raise RuntimeError(f"crash on prompt {n}: {line}")


sys.exit(play(on_prompt))
