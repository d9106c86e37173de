"""The trained policy's network in numpy: what the bot plays, without torch.

``train.py`` trains sb3-contrib's MaskablePPO (an MLP policy: tanh hidden layers, then
one linear layer to the 235 action logits) and writes the policy's layers with
``save`` (``policy.npz``: ``w0, b0, w1, b1, ...``, the last pair the logits, float16).
``best_action`` is the policy's deterministic choice, as ``model.predict(obs,
action_masks=mask, deterministic=True)``: the most probable action the mask allows;
the value network is not kept (the bot does not need it).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

Params = list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]


def save(layers: Params, path: Path) -> None:
    arrays: dict[str, Any] = {}
    for k, (w, b) in enumerate(layers):
        arrays[f"w{k}"] = w.astype(np.float16)
        arrays[f"b{k}"] = b.astype(np.float16)
    with path.open("wb") as out:
        np.savez_compressed(out, **arrays)


def load(path: Path) -> Params:
    with np.load(path) as saved:
        count = sum(1 for name in saved.files if name.startswith("w"))
        return [(saved[f"w{k}"].astype(np.float32), saved[f"b{k}"].astype(np.float32))
                for k in range(count)]


def logits(layers: Params, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The action logits of inputs ``x`` (torch's Linear: ``x @ w.T + b``)."""
    for w, b in layers[:-1]:
        x = np.tanh(x @ w.T + b)
    w, b = layers[-1]
    out: npt.NDArray[np.float32] = x @ w.T + b
    return out


def best_action(layers: Params, x: npt.NDArray[np.float32], mask: npt.NDArray[Any]) -> int:
    """The legal action of highest logit."""
    scores = logits(layers, x).astype(np.float64)
    scores[np.asarray(mask) == 0] = -np.inf
    return int(np.argmax(scores))
