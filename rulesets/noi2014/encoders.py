"""Observation encoders of the NOI 2014 training environment.

An encoder is any object with ``shape: tuple[int, ...]`` and
``encode(view: SeatView) -> numpy.ndarray`` (float32, of that shape). It reads
only the seat's view (``rulesets.noi2014.seat_view.SeatView``), which holds
what the seat's bot was told, so the same encoder gives the same observation in
the environment and in a real match (``env.policy_bot``). Plug in your own with
``raw_env(encoder=MyEncoder())`` and ``policy_bot(policy, encoder=MyEncoder())``.

``DefaultEncoder``: 20 planes of 27 columns, one column per tile kind in
``KINDS`` order (B1..B9, T1..T9, W1..W9); "seat r" is relative: 0 is me, 1 the
next seat in turn order (the one that plays after me), 2 the one opposite, 3
the one before me. Counts are divided by 4.

| plane | what |
|---|---|
| 0 | my concealed tiles (counts / 4) |
| 1-4 | the melded tiles (pungs 3, kongs 4) of seat r = 0..3 (counts / 4) |
| 5-8 | the discards of seat r = 0..3 still on the table (claimed ones are in melds) |
| 9 | tiles I have not seen: 4 minus mine, all melds and the table (counts / 4) |
| 10 | the tile of this decision: the one drawn, or the discard claimed |
| 11 | 1 everywhere at a draw (``2 C``) |
| 12 | 1 everywhere at a claim on a discard (``3 P PLAY X``) |
| 13 | 1 everywhere at the discard after my pung |
| 14 | tiles left in the wall / 56, everywhere |
| 15-18 | 1 everywhere while seat r = 0..3 is still in the game (winners leave) |
| 19 | columns 0-3: my seat (0 = East, the dealer); column 4 + r: the discarder is r |

There are no honours, flowers or winds in this game: the seat (plane 19) is the
only wind there is.
"""

from __future__ import annotations

from typing import Protocol

import numpy as np
import numpy.typing as npt

from rulesets.noi2014.planes import VALUES, codes
from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    N_KINDS,
    PLAYERS,
    PUNG_DISCARD,
    WALL_AFTER_DEAL,
    SeatView,
)

CODE_VALUES = np.array(VALUES, dtype=np.float32)

Observation = npt.NDArray[np.float32]


class Encoder(Protocol):
    """What ``raw_env(encoder=...)`` and ``policy_bot(..., encoder=...)`` accept."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    def encode(self, view: SeatView) -> Observation: ...


class DefaultEncoder:
    """The documented default: 20 x 27 planes (see the module docstring)."""

    PLANES = 20
    shape: tuple[int, ...] = (PLANES, N_KINDS)

    def encode(self, view: SeatView) -> Observation:
        found = codes(view)
        if found is not None:  # one look-up of the planes' byte codes
            return CODE_VALUES.take(np.frombuffer(found, dtype=np.uint8)).reshape(self.shape)
        return self.encode_general(view)

    def encode_general(self, view: SeatView) -> Observation:
        """``encode`` computed plane by plane (any view, even one no game makes)."""
        decision = view.decision
        out = np.zeros(self.shape, dtype=np.float32)
        me = max(view.seat, 0)
        order = [(me + r) % PLAYERS for r in range(PLAYERS)]
        rows = view.hand + view.melded[order[0]] + view.melded[order[1]] + \
            view.melded[order[2]] + view.melded[order[3]] + view.pool[order[0]] + \
            view.pool[order[1]] + view.pool[order[2]] + view.pool[order[3]]
        try:  # counts are 0..4: bytes is the fastest way in
            out[:9] = np.frombuffer(bytes(rows), dtype=np.uint8).reshape(9, N_KINDS)
        except ValueError:
            out[:9] = np.array(rows, dtype=np.float32).reshape(9, N_KINDS)
        out[9] = 4.0 - out[:9].sum(axis=0)  # mine, every meld, the table
        out[:10] *= 0.25
        for r, seat in enumerate(order):
            if view.active[seat]:
                out[15 + r] = 1.0
        if view.tile >= 0 and decision in (DRAW, CLAIM, PUNG_DISCARD):
            out[10, view.tile] = 1.0
        if decision == DRAW:
            out[11] = 1.0
        elif decision == CLAIM:
            out[12] = 1.0
        elif decision == PUNG_DISCARD:
            out[13] = 1.0
        out[14] = max(view.left, 0) / WALL_AFTER_DEAL
        out[19, me] = 1.0
        if decision in (CLAIM, PUNG_DISCARD) and view.discarder >= 0:
            out[19, 4 + (view.discarder - me) % PLAYERS] = 1.0
        return out
