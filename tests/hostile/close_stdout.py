#!/usr/bin/env python3
"""Joins, closes its stdout and keeps running."""

import os
import time

print("join", flush=True)
os.close(1)
while True:
    time.sleep(3600)
