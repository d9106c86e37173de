"""Hand-made Botzone walls and a default player for the judge's tests.

``wall`` arranges a legal tile set so that the deal gives each seat the
hand asked for and the draws come in the order asked for; ``play`` answers a
turn's requests as the default test bot does (discard the drawn tile, PASS
everything else) except for the answers a test scripts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from rulesets.botzone.judge import Judge, Reply
from rulesets.botzone.tiles import is_flower, standard_tiles

Draw = tuple[int, str]  # (seat, tile) in the order the seats draw


def _filler(variant: str, used: Sequence[str]) -> list[str]:
    rest = Counter(standard_tiles(variant))
    # duplicate has no flowers: a scripted one is an extra token
    rest.subtract(tile for tile in used if variant == "classic" or not is_flower(tile))
    short = sorted(tile for tile, count in rest.items() if count < 0)
    if short:
        raise ValueError(f"more than the set holds of {short}")
    # flowers first: drawn last, so unscripted draws are playing tiles as long as possible
    return sorted(rest.elements(), key=lambda tile: (not is_flower(tile), tile))


def wall(
    variant: str,
    hands: Sequence[Sequence[str]],
    draws: Sequence[Draw] = (),
    *,
    spare: int | None = None,
) -> str:
    """A walltiles string dealing ``hands`` (flowers included) and then ``draws``.

    ``spare`` caps the unscripted tiles kept: classic, in the one wall; duplicate,
    in each seat's wall (all four walls get the size of the longest scripted one).
    """
    if variant == "classic":
        order = [tile for hand in hands for tile in hand] + [tile for _, tile in draws]
        filler = _filler(variant, order)
        if spare is not None:
            filler = filler[len(filler) - spare:] if spare else []
        return " ".join(filler + order[::-1])
    scripts = [list(hands[seat]) + [tile for s, tile in draws if s == seat] for seat in range(4)]
    filler = _filler(variant, [tile for script in scripts for tile in script])
    size = 34 if spare is None else max(map(len, scripts)) + spare
    segments = []
    for script in scripts:
        need = size - len(script)
        assert need >= 0 and len(filler) >= need, "scripted walls do not fit"
        segments.append(filler[:need] + script[::-1])
        del filler[:need]
    return " ".join(tile for segment in segments for tile in segment)


def judge(variant: str, walltiles: str, quan: int = 0) -> Judge:
    return Judge(variant, {"srand": 1, "quan": quan, "walltiles": walltiles})


def replies(
    game: Judge, answers: Mapping[int, str | None] | None = None,
    verdicts: Mapping[int, str] | None = None,
) -> list[Reply]:
    answers = answers or {}
    verdicts = verdicts or {}
    out = []
    for seat, request in enumerate(game.requests()):
        if seat in answers:
            response = answers[seat]
        elif request.startswith("2 "):
            response = "PLAY " + request[2:]
        else:
            response = "PASS"
        verdict = verdicts.get(seat, "OK")
        out.append(Reply(verdict, response if verdict == "OK" else None))
    return out


def play(
    game: Judge, answers: Mapping[int, str | None] | None = None,
    verdicts: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """One turn: the scripted answers, the default test bot's for the other seats."""
    return game.step(replies(game, answers, verdicts))


def play_until(game: Judge, action: str, player: int | None = None, limit: int = 400) -> None:
    """Default turns until the current display shows ``action`` (by ``player``)."""
    for _ in range(limit):
        display = game.output()["display"]
        if display.get("action") == action and player in (None, display.get("player")):
            return
        assert not game.finished, game.output()
        play(game)
    raise AssertionError(f"no {action} within {limit} turns")
