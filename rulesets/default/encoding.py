"""Observation encoders of the default ruleset: a seat's view as a numpy array.

An encoder is any object with ``shape: tuple[int, ...]`` and
``encode(view: SeatView) -> numpy.ndarray`` (float32, of that shape); it may say
the bounds of its values as ``low`` and ``high`` (floats; unbounded if absent).
``raw_env(encoder=...)`` and ``policy_bot(policy, encoder=...)`` take one.

``DefaultEncoder`` gives 31 planes of the 34 tile kinds (shape ``(31, 34)``),
every value in [0, 1]. Seats are relative: seat ``+k`` is the seat ``k`` places
after this one (``+0`` is this seat, ``+1`` plays next). The default ruleset has
no flowers, no prevailing wind and no seat winds (SPEC section 1): what it has
instead is the seat's place in the turn order from the first actor.

======  ==================================================================
plane   what it holds (per tile kind, unless "constant")
======  ==================================================================
0..3    own concealed hand: holds at least 1, 2, 3, 4 of the kind
4       the tile just drawn (one-hot; own turn only)
5..8    tiles shown in the melds of seat +0..+3, count / 4 (own concealed
        kongs included; others' concealed kongs show no tile)
9..12   discards still lying in front of seat +0..+3, count / 4 (a claimed
        discard leaves its owner's river)
13..16  constant: concealed kongs of seat +0..+3 (others' hidden tiles), / 4
17      unseen copies (4 - own hand - every shown meld and discard) / 4
18      the tile asked about: the discard one may claim, or the added kong
        one may rob (one-hot)
19..22  constant: the prompt is own turn, discard after own claim, claim on a
        discard, rob an added kong (one-hot; all 0 when not asked)
23..25  constant: the tile asked about comes from seat +1, +2, +3
26      constant: tiles left in the wall / 84
27..30  constant: this seat's place after the first actor, (seat - first) mod
        4 = 0, 1, 2, 3 (one-hot)
======  ==================================================================
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from rulesets.default.seat_view import GRID_ROWS, SeatView

N_KINDS = 34
N_PLANES = 31
Array = npt.NDArray[np.float32]


class Encoder(Protocol):
    """What ``raw_env`` and ``policy_bot`` need of an encoder."""

    shape: tuple[int, ...]

    def encode(self, view: SeatView) -> Array: ...


_SHAPE = (N_PLANES, N_KINDS)
_FLOAT32 = np.dtype(np.float32)


assert GRID_ROWS == N_PLANES


class DefaultEncoder:
    """The documented default observation: 31 planes x 34 kinds (module docstring)."""

    shape: tuple[int, ...] = (N_PLANES, N_KINDS)
    low = 0.0
    high = 1.0

    def encode(self, view: SeatView) -> Array:
        # The view keeps the planes as float32 bytes (``SeatView.planes``): one copy.
        out: Array = np.ndarray(_SHAPE, _FLOAT32, view.planes()).copy()
        return out
