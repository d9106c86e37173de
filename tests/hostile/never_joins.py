#!/usr/bin/env python3
"""Reads everything and never says a word."""

import sys

for _ in sys.stdin:
    pass
