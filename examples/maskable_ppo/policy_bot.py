#!/usr/bin/env python3
"""The policy MaskablePPO trained, as a Botzone Mahjong bot (duplicate variant).

``policy(observation, mask)`` plays the policy's most probable legal action (``net.py``,
numpy: no torch needed to play) on the env's default encoding, scaled as in training
(``adapter.features``); ``policy_bot`` (``rulesets.botzone.env``) turns it into a bot
class. The layers are ``policy.npz`` beside this file, or the file named by the
environment variable ``MASKABLE_PPO_POLICY`` (what ``train.py --policy`` wrote; an
absolute path, as a match starts its bots in a folder of their own):

* in-process: ``server compare --ruleset botzone --variant duplicate
  examples/maskable_ppo/policy_bot.py:PolicyBot random --opponents random,random,random``
* as a program: ``python3 examples/maskable_ppo/policy_bot.py`` (a bot command of
  ``server match --ruleset botzone --variant duplicate``; ``--simple``,
  ``--keep-running`` as the sample AIs).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run by path: the repository root on the import path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import numpy as np
import numpy.typing as npt

from examples.maskable_ppo import net
from examples.maskable_ppo.adapter import VARIANT, features
from rulesets.botzone.env import policy_bot

POLICY = Path(os.environ.get("MASKABLE_PPO_POLICY")
              or Path(__file__).resolve().parent / "policy.npz")
try:
    LAYERS = net.load(POLICY)
except (OSError, ValueError, KeyError) as error:  # missing, or not net.py's npz
    sys.exit(f"policy_bot.py: cannot read the policy {POLICY} ({error}); "
             "train.py --policy writes one")


def policy(observation: npt.NDArray[np.float32], mask: npt.NDArray[Any]) -> int:
    return net.best_action(LAYERS, features(observation), mask)


PolicyBot = policy_bot(policy, variant=VARIANT)

if __name__ == "__main__":
    sys.exit(PolicyBot.main())
