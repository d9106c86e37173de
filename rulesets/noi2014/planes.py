"""The default encoder's 20 x 27 planes as byte codes, and action masks as bytes.

Pure (no numpy), so that the compiled core (``tools/build_mypyc.py``)
compiles it; ``rulesets.noi2014.encoders.DefaultEncoder`` turns the codes into its
float32 planes with one table look-up (``VALUES``): code ``c`` in 0..4 is ``c / 4``
(a count of 0..4 tiles, and 4 for a plane's 1.0), code ``FIRST_LEFT + n`` is ``n / 56``
(the tiles left in the wall). ``codes`` returns None when a count is outside 0..4 (a
view fed something no game tells), and the encoder then takes its general path.
The same planes as float32 bytes (``count_plane``, the ``*_F32`` constants) are what
``FastTable.planes`` joins, so that the environment's observation is one
``np.frombuffer``.
"""

from __future__ import annotations

import struct
from typing import Final

from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    N_ACTIONS,
    N_KINDS,
    PLAYERS,
    PUNG_DISCARD,
    TARGET,
    WALL_AFTER_DEAL,
    SeatView,
)

PLANES: Final = 20
ONE: Final = 4  # the code of 1.0
FIRST_LEFT: Final = 5  # the code of 0 tiles left in the wall
VALUES = [c / 4 for c in range(ONE + 1)] + [n / WALL_AFTER_DEAL
                                            for n in range(WALL_AFTER_DEAL + 1)]
ONES: Final = bytes([ONE]) * N_KINDS
ZEROS: Final = bytes(N_KINDS)
_SMALL: Final = bytes(range(ONE + 1))
ONE_HOT: Final = [bytes(k) + bytes([ONE]) + bytes(N_KINDS - k - 1) for k in range(N_KINDS)]
LEFT_PLANES: Final = [bytes([FIRST_LEFT + n]) * N_KINDS for n in range(WALL_AFTER_DEAL + 1)]
# planes 11-13 (a draw, a claim, the discard after a pung) by decision (NONE .. TARGET)
DECISION_PLANES: Final = [ZEROS * 3, ONES + ZEROS * 2, ZEROS + ONES + ZEROS, ZEROS * 2 + ONES,
                   ZEROS * 3]


# The same planes as float32 bytes (native order, as numpy's float32 reads them), so that
# the environment's observation is one ``np.frombuffer`` (``FastTable.planes``): each
# code's 4 bytes, three kinds' counts (0..4 each) at once, and the constant planes.
F32: Final = [struct.pack("f", value) for value in VALUES]
_TRIPLES: Final = [F32[a] + F32[b] + F32[c] for a in range(ONE + 1) for b in range(ONE + 1)
                   for c in range(ONE + 1)]
ONES_F32: Final = F32[ONE] * N_KINDS
ZEROS_F32: Final = F32[0] * N_KINDS
ONE_HOT_F32: Final = [ZEROS_F32[:4 * k] + F32[ONE] + ZEROS_F32[4 * k + 4:]
                      for k in range(N_KINDS)]
LEFT_F32: Final = [F32[FIRST_LEFT + n] * N_KINDS for n in range(WALL_AFTER_DEAL + 1)]
DECISION_F32: Final = [ZEROS_F32 * 3, ONES_F32 + ZEROS_F32 * 2, ZEROS_F32 + ONES_F32 + ZEROS_F32,
                       ZEROS_F32 * 2 + ONES_F32, ZEROS_F32 * 3]
# plane 19 by my seat * 5 + (0, or 1 + the discarder relative to me)
SEATS_F32: Final = [b"".join(F32[ONE if k == me or (r and k == 3 + r) else 0]
                             for k in range(N_KINDS)) for me in range(PLAYERS) for r in range(5)]


def count_plane(counts: list[int]) -> bytes:
    """27 counts (each 0..4) as a float32 plane (count / 4)."""
    triples = _TRIPLES
    return b"".join([triples[counts[k] * 25 + counts[k + 1] * 5 + counts[k + 2]]
                     for k in range(0, N_KINDS, 3)])


def float_planes(found: bytes) -> bytearray:
    """Codes (``codes``) as the float32 planes' bytes."""
    return bytearray(b"").join([F32[code] for code in found])


def codes(view: SeatView) -> bytes | None:
    """The default encoding of ``view`` as 540 codes (plane by plane, kind by kind)."""
    decision = view.decision
    me = view.seat if view.seat > 0 else 0
    o1, o2, o3 = (me + 1) % PLAYERS, (me + 2) % PLAYERS, (me + 3) % PLAYERS
    hand, melded, pool = view.hand, view.melded, view.pool
    m0, m1, m2, m3 = melded[me], melded[o1], melded[o2], melded[o3]
    p0, p1, p2, p3 = pool[me], pool[o1], pool[o2], pool[o3]
    left = view.left if view.left > 0 else 0
    try:  # bytes() refuses a count outside 0..255, translate finds one outside 0..4
        counts = b"".join((bytes(hand), bytes(m0), bytes(m1), bytes(m2), bytes(m3),
                           bytes(p0), bytes(p1), bytes(p2), bytes(p3)))
        unseen = bytes([4 - hand[k] - m0[k] - m1[k] - m2[k] - m3[k] - p0[k] - p1[k] - p2[k]
                        - p3[k] for k in range(N_KINDS)])
    except ValueError:
        return None
    if counts.translate(None, _SMALL) or unseen.translate(None, _SMALL) \
            or not 0 <= decision <= TARGET or left > WALL_AFTER_DEAL:
        return None
    tile = view.tile
    told = ONE_HOT[tile] if tile >= 0 and decision in (DRAW, CLAIM, PUNG_DISCARD) else ZEROS
    active = view.active
    seats = bytearray(N_KINDS)
    seats[me] = ONE
    if decision in (CLAIM, PUNG_DISCARD) and view.discarder >= 0:
        seats[4 + (view.discarder - me) % PLAYERS] = ONE
    return b"".join((counts, unseen, told, DECISION_PLANES[decision],
                     LEFT_PLANES[left], ONES if active[me] else ZEROS,
                     ONES if active[o1] else ZEROS, ONES if active[o2] else ZEROS,
                     ONES if active[o3] else ZEROS, seats))


def mask(legal: list[int]) -> bytearray:
    """The action mask of ``legal`` (1 for each of its actions, 0 else), N_ACTIONS bytes."""
    out = bytearray(N_ACTIONS)
    for action in legal:
        out[action] = 1
    return out

