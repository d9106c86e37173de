"""``server verify`` for NOI 2014 games: re-run each game from its log.

A game is re-run from its wall and the recorded verdicts and responses
(``formats.rejudge``); every request each seat was sent, every output of the
engine (the events of each turn), the result (places, targets, distances,
chance values, points) and the scores must equal what was recorded. For a
match folder the scoresheet and the standings are recomputed from the games too
(``server.turns.verify``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulesets.noi2014 import formats
from rulesets.noi2014.records import is_match_folder, read_record
from server.seam.contract import VerifyReport


def _short(value: object) -> str:
    from server.turns.verify import short

    return short(value)


def verify_record(record: Mapping[str, Any], label: str, report: VerifyReport) -> None:
    recorded: list[Any] = list(record.get("judge") or [])
    players: list[list[Any]] = list(record.get("players") or [])
    report.checked.append(label)
    finished = bool(recorded) and isinstance(recorded[-1], Mapping) and "result" in recorded[-1]
    if not finished:
        report.notes.append(f"{label}: the game did not finish ({len(recorded)} turn(s) "
                            "recorded); checked as far as it went")
    try:
        outputs, requests = formats.rejudge(record) if finished else _partial(record)
    except (ValueError, KeyError, TypeError) as exc:
        report.problems.append(f"{label}: cannot be re-run: {exc}")
        return
    for turn, asked in enumerate(requests[:max(0, len(recorded) - 1)]):
        for seat, request in enumerate(asked):
            entries = players[seat] if seat < len(players) else []
            entry = entries[turn] if turn < len(entries) else None
            got = entry.get("request") if isinstance(entry, Mapping) else None
            if got != request:
                report.problems.append(f"{label}: turn {turn + 1}, seat {seat}: recorded "
                                       f"request {got!r}, the engine sends {request!r}")
                return
    for turn, (mine, again) in enumerate(zip(recorded, outputs, strict=False)):
        if mine != again:
            report.problems.append(f"{label}: turn {turn}: the engine's output differs: "
                                   f"recorded {_short(mine)}, re-run {_short(again)}")
            return
    if finished and len(outputs) != len(recorded):
        report.problems.append(f"{label}: recorded {len(recorded)} output(s), re-run "
                               f"{len(outputs)}")
        return
    if finished:
        scores = outputs[-1]["result"]["points"]
        if record.get("scores") is None or [float(s) for s in record["scores"]] != scores:
            report.problems.append(f"{label}: scores recorded {record.get('scores')}, "
                                   f"re-run {scores}")


def _partial(record: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[list[str | None]]]:
    """An unfinished game re-run as far as its record goes."""
    from rulesets.noi2014.engine import Game
    from server.seam.contract import Reply

    game = Game(formats.wall_of({"wall": record["wall"]}))
    outputs = [game.output()]
    requests: list[list[str | None]] = []
    players = record.get("players") or []
    for turn in range(len(record.get("judge") or []) - 1):
        asked = game.requests()
        requests.append(list(asked))
        replies = []
        for seat, request in enumerate(asked):
            entry = players[seat][turn] if request is not None and seat < len(players) \
                and turn < len(players[seat]) else None
            replies.append(Reply(str(entry.get("verdict", "OK")), entry.get("response"))
                           if isinstance(entry, Mapping) else Reply("OK", None))
        outputs.append(game.step(replies))
    return outputs, requests


def verify_path(path: Path) -> VerifyReport:
    from server.turns.verify import verify_path as verify_turn_path

    return verify_turn_path(path, "NOI 2014", is_match_folder, read_record, verify_record,
                            formats.standings)
