#!/usr/bin/env python3
"""Plays legally while a thread floods stderr as fast as it can."""

import sys
import threading

from _play import play


def flood() -> None:
    line = b"noise " * 1000 + b"\n"
    while True:
        sys.stderr.buffer.write(line)


threading.Thread(target=flood, daemon=True).start()
sys.exit(play())
