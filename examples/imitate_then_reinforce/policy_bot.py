#!/usr/bin/env python3
"""The trained policy as a bot of the default ruleset: the one documented step.

``policy(observation, mask)`` plays the most probable legal action of the
network in ``net.py`` with the committed weights (``weights.npz`` beside this file),
or those of the file named by the environment variable ``POLICY_WEIGHTS`` (what
``train.py --out FILE`` wrote); ``policy_bot`` turns it into a bot class, on the
default encoding:

* in-process: ``server simulate --bots
  examples/imitate_then_reinforce/policy_bot.py:PolicyBot,random,random,random``
* as a program: ``python3 examples/imitate_then_reinforce/policy_bot.py`` (a bot
  command of ``server match``; ``env POLICY_WEIGHTS=my_weights.npz python3 ...``
  plays your own weights).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

if __package__ in (None, ""):  # run by path: the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np
import numpy.typing as npt

from examples.imitate_then_reinforce import net
from rulesets.default.env import policy_bot

COMMITTED = Path(__file__).resolve().parent / "weights.npz"
WEIGHTS = Path(os.environ.get("POLICY_WEIGHTS") or COMMITTED)
if not WEIGHTS.is_file():
    raise SystemExit(f"policy_bot: no weights file {str(WEIGHTS)!r} (POLICY_WEIGHTS names "
                     f"the file train.py --out wrote; unset, the committed weights.npz)")
PARAMS = net.load(WEIGHTS)


def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[np.int8]) -> int:
    return net.best_action(PARAMS, observation, mask)


PolicyBot = policy_bot(policy)

if __name__ == "__main__":
    sys.exit(PolicyBot.main())
