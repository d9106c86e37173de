"""The policy network of the example, in numpy: masked log-probabilities of 128 actions.

The input is the default encoding (``rulesets.default.encoding``: 31 planes x 34
tile kinds). Two parts add up to the 128 logits:

* a tile scorer shared by every tile kind: the 31 planes of a kind and of its
  two neighbours on each side in its suit (zeros past the suit's ends, and for
  the honours, which have no neighbours) make 155 inputs, a hidden layer of
  ``tile_hidden`` ReLUs and three outputs, the logits of ``out``, ``agang`` and
  ``jgang`` of that kind (actions 0..101). Learnt once, it applies to every
  kind, so a few thousand hands teach it what makes a tile worth keeping;
* an MLP over all 1,054 inputs (``hidden`` ReLUs) giving a logit to every
  action: the claims (``hu``, ``pass``, ``peng``, ``gang``, ``chi``) and a
  correction to the tile scores.

Actions the mask forbids get no probability. The weights are saved as float16 in
a compressed ``.npz`` (small enough to commit) and computed in float32.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

N_PLANES, N_KINDS = 31, 34
N_INPUTS = N_PLANES * N_KINDS
N_ACTIONS = 128
N_TILE_ACTIONS = 3  # out, agang, jgang: actions 34 * j + kind
REACH = 2  # neighbours each side in the tile scorer's window
WINDOW = 2 * REACH + 1
N_PATCH = N_PLANES * WINDOW
NAMES = ("w1", "b1", "w2", "b2", "v1", "c1", "v2", "c2")
MASKED = np.float32(-1e9)  # the logit of a forbidden action: its exp() is 0

Params = dict[str, npt.NDArray[np.float32]]
Floats = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


def _window_columns() -> npt.NDArray[np.intp]:
    """For each kind, the columns of its window: neighbours in its suit, else column 34
    (a column of zeros appended to the planes)."""
    cols = np.full((N_KINDS, WINDOW), N_KINDS, dtype=np.intp)
    for kind in range(N_KINDS):
        for j, d in enumerate(range(-REACH, REACH + 1)):
            other = kind + d
            if kind < 27 and 0 <= other < 27 and other // 9 == kind // 9:
                cols[kind, j] = other
            elif d == 0:
                cols[kind, j] = kind
    return cols


COLUMNS = _window_columns()


def patches(x: Floats) -> Floats:
    """Each kind's window of planes: (batch, 1054) -> (batch, 34, 155)."""
    planes = x.reshape(-1, N_PLANES, N_KINDS)
    padded = np.concatenate([planes, np.zeros_like(planes[:, :, :1])], axis=2)
    windows = padded[:, :, COLUMNS]  # (batch, planes, kinds, window)
    return np.ascontiguousarray(windows.transpose(0, 2, 1, 3)).reshape(-1, N_KINDS, N_PATCH)


def init(hidden: int, tile_hidden: int, seed: int) -> Params:
    """Fresh weights (He-scaled normal hidden layers, small output layers)."""
    rng = np.random.default_rng(seed)

    def normal(shape: tuple[int, int], scale: float) -> Floats:
        return (rng.standard_normal(shape) * scale).astype(np.float32)

    return {
        "w1": normal((N_INPUTS, hidden), np.sqrt(2.0 / N_INPUTS)),
        "b1": np.zeros(hidden, np.float32),
        "w2": normal((hidden, N_ACTIONS), 0.01),
        "b2": np.zeros(N_ACTIONS, np.float32),
        "v1": normal((N_PATCH, tile_hidden), np.sqrt(2.0 / N_PATCH)),
        "c1": np.zeros(tile_hidden, np.float32),
        "v2": normal((tile_hidden, N_TILE_ACTIONS), 0.01),
        "c2": np.zeros(N_TILE_ACTIONS, np.float32),
    }


class Pass:
    """One forward pass over a batch, keeping what ``backward`` needs."""

    def __init__(self, params: Params, x: Floats, mask: Mask) -> None:
        self.x = x
        self.hidden = np.maximum(x @ params["w1"] + params["b1"], 0.0)
        self.patches = patches(x)
        self.tile_hidden = np.maximum(self.patches @ params["v1"] + params["c1"], 0.0)
        tile = self.tile_hidden @ params["v2"] + params["c2"]  # (batch, 34, 3)
        logits = self.hidden @ params["w2"] + params["b2"]
        logits[:, :N_TILE_ACTIONS * N_KINDS] += tile.transpose(0, 2, 1).reshape(len(x), -1)
        logits = np.where(mask, logits, MASKED)
        logits -= logits.max(axis=1, keepdims=True)
        self.logp: Floats = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))

    def backward(self, params: Params, dlogits: Floats) -> Params:
        """The gradients of a loss whose gradient with respect to the logits is
        ``dlogits`` (batch, 128)."""
        n = len(dlogits)
        dhidden = (dlogits @ params["w2"].T) * (self.hidden > 0)
        by_kind = dlogits[:, :N_TILE_ACTIONS * N_KINDS].reshape(n, N_TILE_ACTIONS, N_KINDS)
        dtile = by_kind.transpose(0, 2, 1).reshape(-1, N_TILE_ACTIONS)  # (batch * 34, 3)
        tile_hidden = self.tile_hidden.reshape(-1, self.tile_hidden.shape[-1])
        dtile_hidden = (dtile @ params["v2"].T) * (tile_hidden > 0)
        flat_patches = self.patches.reshape(-1, N_PATCH)
        return {
            "w1": self.x.T @ dhidden, "b1": dhidden.sum(axis=0),
            "w2": self.hidden.T @ dlogits, "b2": dlogits.sum(axis=0),
            "v1": flat_patches.T @ dtile_hidden, "c1": dtile_hidden.sum(axis=0),
            "v2": tile_hidden.T @ dtile, "c2": dtile.sum(axis=0),
        }


def best_action(params: Params, observation: Floats, mask: npt.NDArray[np.int8]) -> int:
    """The most probable legal action for one observation (how the bot plays)."""
    logp = Pass(params, observation.reshape(1, -1), mask.reshape(1, -1) != 0).logp[0]
    return int(np.argmax(np.where(mask != 0, logp, -np.inf)))


def save(params: Params, path: str | Path) -> None:
    """Write the weights as float16 into a compressed ``.npz``."""
    halves: dict[str, Any] = {k: params[k].astype(np.float16) for k in NAMES}
    np.savez_compressed(path, **halves)


def load(path: str | Path) -> Params:
    """Read weights written by ``save`` (as float32), checking their shapes."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"no weights at {path}: run "
                                "examples/imitate_then_reinforce/train.py to write them")
    with np.load(path) as data:
        missing = [k for k in NAMES if k not in data]
        if missing:
            raise ValueError(f"{path}: not weights of this example (no {', '.join(missing)})")
        params = {k: data[k].astype(np.float32) for k in NAMES}
    hidden, tile_hidden = params["b1"].shape[0], params["c1"].shape[0]
    want = {"w1": (N_INPUTS, hidden), "b1": (hidden,), "w2": (hidden, N_ACTIONS),
            "b2": (N_ACTIONS,), "v1": (N_PATCH, tile_hidden), "c1": (tile_hidden,),
            "v2": (tile_hidden, N_TILE_ACTIONS), "c2": (N_TILE_ACTIONS,)}
    for k, shape in want.items():
        if params[k].shape != shape:
            raise ValueError(f"{path}: {k} has shape {params[k].shape}, not {shape}")
    return params
