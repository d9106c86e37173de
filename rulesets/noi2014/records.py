"""NOI 2014 game records and match folders, found, read and said in one line.

The bottom of the ruleset's side of the shell: ``play``, ``replay``,
``report``, ``verify`` and ``ruleset`` read records and name results with
these, and this module imports none of them. ``game_line`` and
``fault_causes`` say how a game ended (``formats.result_of``, the engine's
FAULT events and the verdicts kept beside the seats' answers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesets import botzone_bots
from rulesets.noi2014 import formats
from server.seam.errors import InputError

NAME = "noi2014"
END_SAID = {"wall": "wall empty", "players": "one player left"}


def is_record(data: object) -> bool:
    return isinstance(data, dict) and data.get("ruleset") == NAME and "wall" in data


def find_record(path: Path) -> dict[str, Any] | None:
    """The NOI 2014 game record in a ``.json`` file or a game folder; None if there is
    none or the JSON is of another kind. A ``.json`` file that is no JSON is bad input."""
    return botzone_bots.read_record(path, is_record)


def read_record(path: Path) -> dict[str, Any]:
    record = find_record(path)
    if record is None:
        raise InputError(botzone_bots.not_a_record(path, "NOI 2014 game record"))
    return record


def is_match_folder(path: Path) -> bool:
    return botzone_bots.is_match_folder(path, NAME)


def _who(seat: object, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def game_line(record: Mapping[str, Any], names: Sequence[str]) -> str:
    result = formats.result_of(record)
    if not result:
        return "not finished"
    parts = []
    winners = result.get("winners") or []
    parts.append("HU by " + ", ".join(_who(s, names) for s in winners) if winners
                 else "nobody won")
    parts.append(END_SAID.get(str(result.get("end")), str(result.get("end"))))
    faulted = result.get("faulted") or []
    if faulted:
        causes = fault_causes(record)
        parts.append("faults: " + ", ".join(
            _who(s, names) + (f" {causes[s]}" if s in causes else "") for s in faulted))
    points = " ".join(f"{p:g}" for p in record.get("scores") or [])
    return "; ".join(parts) + f"; points {points}"


def fault_causes(record: Mapping[str, Any]) -> dict[int, str]:
    """Each faulted seat's cause, as the engine said it, and for a verdict that was
    not OK what the bot did (``exited without printing anything``, what it printed
    instead of JSON), which is kept beside the verdict in the seat's answers."""
    causes: dict[int, str] = {}
    players = record.get("players") or []
    for output in record.get("judge") or []:
        for event in output.get("events", []) if isinstance(output, Mapping) else []:
            if isinstance(event, Mapping) and event.get("act") == "FAULT":
                seat = int(event["seat"])
                why = _verdict_cause(players[seat] if 0 <= seat < len(players) else None)
                causes.setdefault(seat, f"({event.get('cause')}{': ' + why if why else ''})")
    return causes


def _verdict_cause(answers: object) -> str:
    """The cause beside a seat's last answer whose verdict was not OK ("" if none)."""
    if not isinstance(answers, list):
        return ""
    for item in reversed(answers):
        if isinstance(item, Mapping) and item.get("verdict") not in (None, "OK"):
            return str(item.get("cause") or "")
    return ""
