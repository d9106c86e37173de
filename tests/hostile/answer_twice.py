#!/usr/bin/env python3
"""Answers every prompt twice."""

import sys

from _play import play, say


def on_prompt(n: int, line: str, answer: str) -> None:
    say(answer)


sys.exit(play(on_prompt))
