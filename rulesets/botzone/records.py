"""Botzone game records and match folders, found, read and said in one line.

The bottom of the ruleset's side of the shell: ``play``, ``replay``,
``report``, ``verify`` and ``ruleset`` read records and name results with
these, and this module imports none of them. A record is our ``game.json``
(or its game folder) or a game judged on Botzone (the data files' format);
``game_line`` and ``fault_causes`` say how a game ended (``formats.finish``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesets import botzone_bots
from rulesets.botzone import formats
from server.seam.errors import InputError

NAME = "botzone"
ERRORS_SAID = {"WA": "a wrong answer", "WH": "a wrong HU (not a win of 8 fans)"}


def find_record(path: Path) -> dict[str, Any] | None:
    """The game record in a ``.json`` file or a game folder's ``game.json``; None if there is
    none or the JSON is of another kind. A file that is no JSON at all is bad input."""
    from rulesets.botzone.view import is_botzone_record

    return botzone_bots.read_record(path, is_botzone_record)


def read_record(path: Path) -> dict[str, Any]:
    """A game record: our ``game.json`` (or its folder) or a game judged on Botzone."""
    record = find_record(path)
    if record is None:
        raise InputError(botzone_bots.not_a_record(
            path, "Botzone game record (no judge and players)"))
    return record


def is_match_folder(path: Path) -> bool:
    return botzone_bots.is_match_folder(path, NAME)


def game_line(record: Mapping[str, Any], names: Sequence[str]) -> str:
    display = formats.finish(record)
    scores = record.get("scores")
    action = display.get("action")
    if not display:
        return "not finished"
    tail = f"; scores {' '.join(str(s) for s in scores)}" if scores else ""
    if action == "HUANG":
        return "draw (HUANG)" + tail
    seat = display.get("player")
    who = f"seat {seat} ({names[seat]})" if isinstance(seat, int) and seat < len(names) \
        else f"seat {seat}"
    if action == "HU":
        return f"HU by {who}, {display.get('fanCnt')} fan" + tail
    cause = fault_causes(record).get(seat, "") if isinstance(seat, int) else ""
    return f"{action} by {who}{cause.removeprefix(str(action))}" + tail


def fault_causes(record: Mapping[str, Any]) -> dict[int, str]:
    """The seat whose error or verdict ended the game, and why: ``WA: a wrong answer``,
    or a verdict and the cause kept beside it (``BAD_OUTPUT: output is not JSON...``)."""
    display = formats.finish(record)
    action, seat = display.get("action"), display.get("player")
    if not isinstance(seat, int) or action in (None, "HU", "HUANG"):
        return {}
    said = ERRORS_SAID.get(str(action), "")
    players = record.get("players") or []
    if not said and 0 <= seat < len(players) and players[seat]:
        said = str((players[seat][-1] or {}).get("cause") or "")
    return {seat: f"{action}: {said}" if said else str(action)}
