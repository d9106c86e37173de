#!/usr/bin/env python3
"""A NOI 2014 bot made the documented way from a policy (``env.policy_bot``): a fixed
linear policy on the default encoder (HU whenever it may), for the tests that play it
as a real bot process and in-process and compare."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import numpy as np

from rulesets.noi2014.env import policy_bot
from rulesets.noi2014.seat_view import HU, N_ACTIONS

WEIGHTS = np.random.default_rng(25).normal(size=(N_ACTIONS, 20 * 27)).astype(np.float32)


def policy(observation: np.ndarray, mask: np.ndarray) -> int:
    if mask[HU]:
        return HU
    scores = WEIGHTS @ observation.ravel()
    scores[mask == 0] = -np.inf
    return int(np.argmax(scores))


PolicyBot = policy_bot(policy)

if __name__ == "__main__":
    sys.exit(PolicyBot.main())
