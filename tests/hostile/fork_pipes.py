#!/usr/bin/env python3
"""Joins, forks a child that keeps the pipes open and sleeps, and exits."""

import os
import sys
import time

print("join", flush=True)
if os.fork() == 0:
    while True:
        time.sleep(3600)
sys.exit(0)
