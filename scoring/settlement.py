"""Settlement (SPEC section 5): who pays whom after a hand, and fines apart (section 6)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from enum import Enum

BASE = 4
SEATS = 4


class WinKind(Enum):
    SELF_DRAWN = "tsumo"
    DISCARD = "ron"
    ROBBED_KONG = "qgang"


def settle(winner: int | None, kind: WinKind | None, fan_total: int,
           payer: int | None = None) -> list[int]:
    """Point changes per seat for a hand's result; all zeros for a draw.

    Self-drawn: each other seat pays BASE + F. On a discard or a robbed kong the
    discarder (kong owner) pays BASE + F and the other two pay BASE each.
    """
    deltas = [0] * SEATS
    if winner is None or kind is None:
        return deltas
    full = BASE + fan_total
    for seat in range(SEATS):
        if seat == winner:
            continue
        pay = full if kind is WinKind.SELF_DRAWN or seat == payer else BASE
        deltas[seat] -= pay
        deltas[winner] += pay
    if kind is not WinKind.SELF_DRAWN and (payer is None or payer == winner):
        raise ValueError("a win on a discard needs a payer other than the winner")
    return deltas


def apply_fines(deltas: Sequence[int], fines: Sequence[int]) -> list[int]:
    """Points after fines: fines are deducted and paid to nobody."""
    return [d - f for d, f in zip(deltas, fines, strict=True)]


def fine_for(elapsed_ms: float, limit_ms: int) -> int:
    """1 point per 100 ms over the limit, rounded (SPEC section 6).

    The time is first rounded to the microsecond, as it is logged, so that a
    difference of two clock readings such as 1049.9999999999998 ms counts as
    the 1050 ms it is, and the fine can be recomputed from the logged time.
    """
    elapsed = round(elapsed_ms, 3)
    if elapsed < limit_ms + 50:
        return 0
    return math.floor((elapsed - limit_ms + 50) / 100)
