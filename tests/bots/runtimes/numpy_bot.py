#!/usr/bin/env python3
"""A Python bot that imports numpy first (its start is what is tested), then plays the
drawbot's legal line protocol: join, discard what it draws, pass every claim."""

import sys
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "hostile"))
from _play import play

numpy.zeros(1000).sum()
sys.exit(play())
