#!/usr/bin/env python3
"""Joins, ignores SIGTERM and sleeps forever: only SIGKILL stops it."""

import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
print("join", flush=True)
while True:
    time.sleep(3600)
