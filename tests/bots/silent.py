#!/usr/bin/env python3
"""Joins, then reads every line and never answers (nor exits before its input ends)."""

import sys

print("join", flush=True)
while sys.stdin.readline():
    pass
