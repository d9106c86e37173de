#!/usr/bin/env python3
"""Joins, then reads and never answers."""

import sys

print("join", flush=True)
for _ in sys.stdin:
    pass
