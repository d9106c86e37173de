#!/usr/bin/env python3
"""A policy bot for the tests, made by the documented one step: HU when legal, else the
last legal action (so it claims, kongs and discards after its claims)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import numpy as np

from rulesets.botzone.env import policy_bot


def last_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return 1 if mask[1] else int(np.flatnonzero(mask)[-1])


PolicyBot = policy_bot(last_legal)

if __name__ == "__main__":
    sys.exit(PolicyBot.main())
