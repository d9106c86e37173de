#!/usr/bin/env python3
"""A policy turned into a bot in the one documented step: a fixed random linear policy.

The policy scores each of the 128 actions as a fixed random linear function of
the default encoding and plays the best legal one: deterministic, cheap, and it
claims, kongs and wins when its weights say so, so it exercises every kind of
answer. ``tests/bots/linear_policy.py:PolicyBot`` in-process, or run it as a program.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run by path: the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np
import numpy.typing as npt

from rulesets.default.env import policy_bot

WEIGHTS = np.random.default_rng(25).standard_normal((128, 31 * 34)).astype(np.float32)


def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    scores = WEIGHTS @ observation.ravel()
    scores[mask == 0] = -np.inf
    return int(np.argmax(scores))


PolicyBot = policy_bot(policy)

if __name__ == "__main__":
    sys.exit(PolicyBot.main())
