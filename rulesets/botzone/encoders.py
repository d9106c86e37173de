"""Observation encoders of the Botzone Mahjong environment: a seat's view as numpy arrays.

An encoder is any object with ``shape: tuple[int, ...]`` and
``encode(view: SeatView) -> numpy.ndarray`` (float32, of that shape); plug your
own into ``raw_env(encoder=...)`` and ``policy_bot(policy, encoder=...)``.

``DefaultEncoder``, shape (11, 34): columns are the 34 tiles in the course's
order (W1-9, T1-9, B1-9, F1-4, J1-3); rows, seats counted from me (0 = me,
1 = the next seat, who plays after me, ...):

    0       my concealed hand, count of each tile (0-4; the drawn tile included)
    1-4     discards of seat me+k, count of each tile (claimed ones included)
    5-8     melds of seat me+k, count of each tile they show (a chow counts each of
            its three tiles; another seat's concealed kong is not shown here)
    9       the tile of the decision, one-hot: my drawn tile, the discard I may claim,
            the tile added to a kong I may rob (all zero when there is none)
    10      scalars: [0:4] my seat wind one-hot, [4:8] prevailing wind one-hot,
            [8:12] flowers of seat me+k, [12:16] tiles left in the wall seat me+k
            draws from (classic: the one wall, four times), [16:20] concealed kongs of
            seat me+k (tiles unknown), [20:24] the decision one-hot (my draw, a discard
            to claim, an added kong to rob, my discard after my PENG/CHI), [24] my draw
            is the replacement after my own kong

The view keeps exactly these rows as a bytearray as it goes, so encoding is one
copy. ``CourseFeatures``: the PKU course's ``FeatureAgent`` observation, shape
(6, 4, 9): plane 0 my seat wind, plane 1 the prevailing wind (a one at its F tile),
planes 2-5 the hand (plane 2 + k is one where I hold more than k of a tile); the
36 slots of a plane are W1-9, T1-9, B1-9, F1-4, J1-3 and two unused.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from rulesets.botzone.seat_view import N_ROWS, N_TILES, SeatView


class Encoder(Protocol):
    """What ``raw_env(encoder=...)`` takes."""

    shape: tuple[int, ...]

    def encode(self, view: SeatView) -> np.ndarray: ...


_FLOAT32 = np.dtype(np.float32)
_SHAPE = (N_ROWS, N_TILES)


class DefaultEncoder:
    """The documented default observation, (11, 34) float32 (module docstring)."""

    shape: tuple[int, ...] = (N_ROWS, N_TILES)

    def encode(self, view: SeatView) -> np.ndarray:
        return np.array(view.planes, _FLOAT32).reshape(_SHAPE)


_LEVELS = np.arange(4, dtype=np.uint8).reshape(4, 1)


class CourseFeatures:
    """The PKU course feature agent's observation, (6, 4, 9) float32 (module docstring)."""

    shape: tuple[int, ...] = (6, 4, 9)

    def encode(self, view: SeatView) -> np.ndarray:
        out = np.zeros((6, 36), dtype=np.float32)
        out[0, 27 + view.seat] = 1
        out[1, 27 + view.quan] = 1
        hand = np.frombuffer(view.planes, dtype=np.uint8, count=N_TILES)
        out[2:6, :N_TILES] = hand > _LEVELS
        return out.reshape(6, 4, 9)
