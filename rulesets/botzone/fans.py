"""The judge's fan calculator: PyMahjongGB 1.1.0 with the judge's inputs (SPEC-botzone section 4).

``calculate`` returns what the judge's ``checkHu`` gets from the calculator: the
total F (花牌 included) and the fan list in the calculator's order, or a
negative code (-1 wrong tile count, -2 a fifth copy, -3 not a winning hand)
with an empty list. PyMahjongGB is imported on first use; without it
``CalculatorMissing`` says how to install it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from rulesets.botzone.fan_names import ENGLISH
from rulesets.botzone.tiles import TILE_SET
from server.seam.errors import InputError

INSTALL_HINT = "pip install 'mahjong-match-server[botzone]'"

ERROR_WRONG_TILES_COUNT = -1
ERROR_TILE_COUNT_GREATER_THAN_4 = -2
ERROR_NOT_WIN = -3
_ERRORS = {
    "ERROR_WRONG_TILES_COUNT": ERROR_WRONG_TILES_COUNT,
    "ERROR_TILE_COUNT_GREATER_THAN_4": ERROR_TILE_COUNT_GREATER_THAN_4,
    "ERROR_NOT_WIN": ERROR_NOT_WIN,
}



class CalculatorMissing(InputError):
    """PyMahjongGB, the judge's fan calculator, cannot be imported."""


class Fan(NamedTuple):
    """One line of the judge's fan list: Chinese name, how many times, value of one."""

    name: str
    cnt: int
    value: int


Pack = tuple[str, str, int]
"""A meld as the calculator takes it: ("PENG" | "GANG" | "CHI", tile, offer)."""

_calculator: Callable[..., Any] | None = None


def calculator() -> Callable[..., Any]:
    """PyMahjongGB's ``MahjongFanCalculator``, imported once."""
    global _calculator
    if _calculator is None:
        try:
            from MahjongGB import MahjongFanCalculator
        except ImportError as error:
            raise CalculatorMissing(
                "Botzone's Chinese Standard Mahjong needs the fan calculator PyMahjongGB 1.1.0 "
                f"({error}); install it with: {INSTALL_HINT}"
            ) from None
        _calculator = MahjongFanCalculator
    return _calculator


def english_name(name: str) -> str:
    """The English name of a fan given by its Chinese name (the name itself if unknown)."""
    return ENGLISH.get(name, name)


def calculate(
    packs: Sequence[Pack],
    hand: Sequence[str],
    win_tile: str,
    *,
    flowers: int,
    self_drawn: bool,
    fourth_tile: bool,
    about_kong: bool,
    wall_last: bool,
    seat: int,
    quan: int,
) -> tuple[int, tuple[Fan, ...]]:
    """F and the fan list for a hand the judge hands to ``calculate_fan``, or (code < 0, ())."""
    if win_tile not in TILE_SET or not TILE_SET.issuperset(hand) or any(
        tile not in TILE_SET for _, tile, _ in packs
    ):
        # The judge passes a token it does not know as tile 0, which never completes a
        # hand; such tokens only come from a hand-made walltiles.
        if len(packs) > 4 or not hand or 3 * len(packs) + len(hand) != 13:
            return ERROR_WRONG_TILES_COUNT, ()
        return ERROR_NOT_WIN, ()
    try:
        result = calculator()(
            tuple(packs), tuple(hand), win_tile, flowers, self_drawn, fourth_tile,
            about_kong, wall_last, seat, quan, True,
        )
    except TypeError as error:
        code = _ERRORS.get(str(error))
        if code is None:
            raise
        return code, ()
    fans = tuple(Fan(name, cnt, value) for value, cnt, name, _ in result)
    return sum(fan.value * fan.cnt for fan in fans), fans
