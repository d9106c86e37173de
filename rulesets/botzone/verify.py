"""``server verify`` for Botzone games: re-judge each game from its log.

A game is re-judged from its settled initdata and the recorded verdicts and
responses (``judge.rejudge``); every turn's requests to every seat, the
judge's whole output (``display`` included) and the final scores must equal
what was recorded. A game judged on Botzone (the data files' format) is
checked the same way. For a match folder, the scoresheet's rows and the
standings in ``match.json`` are recomputed from the games too.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulesets.botzone import formats
from rulesets.botzone.records import is_match_folder, read_record
from server.seam.contract import VerifyReport
from server.seam.errors import InputError


def _short(value: object, limit: int = 300) -> str:
    from server.turns.verify import short

    return short(value, limit)


def verify_record(record: Mapping[str, Any], label: str, report: VerifyReport) -> None:
    from rulesets.botzone.judge import rejudge

    recorded: list[Any] = list(record.get("judge") or [])
    players: list[list[Any]] = list(record.get("players") or [])
    report.checked.append(label)
    if not recorded or recorded[-1].get("command") != "finish":
        report.notes.append(f"{label}: the game did not finish ({len(recorded)} turn(s) "
                            "recorded); checked as far as it went")
    try:
        outputs = rejudge(record)
    except InputError:  # the calculator is missing: nothing can be checked
        raise
    except Exception as exc:  # a record the judge cannot even start from is a disagreement
        report.problems.append(f"{label}: cannot be re-judged: {exc}")
        return
    for k, expected in enumerate(outputs[:len(recorded)]):
        content = expected.get("content", {})
        for seat, turns in enumerate(players):
            if k < len(turns) and turns[k] is not None and expected.get("command") == "request" \
                    and turns[k].get("request") != content.get(str(seat)):
                report.problems.append(
                    f"{label}: turn {k}, seat {seat}: recorded request "
                    f"{turns[k].get('request')!r}, the judge sends {content.get(str(seat))!r}")
                return
        if recorded[k] != expected:
            report.problems.append(f"{label}: turn {k}: the judge's output differs: recorded "
                                   f"{_short(recorded[k])}, re-judged {_short(expected)}")
            return
    if len(outputs) < len(recorded):
        report.problems.append(f"{label}: the judge finishes after {len(outputs)} turn(s), "
                               f"the record goes on to {len(recorded)}")
        return
    if len(outputs) > len(recorded) and recorded and recorded[-1].get("command") == "finish":
        report.problems.append(f"{label}: recorded {len(recorded)} turn(s), re-judged "
                               f"{len(outputs)}")
        return
    final = outputs[-1]
    if final.get("command") == "finish" and len(outputs) == len(recorded):
        scores = [final["content"][str(s)] for s in range(4)]
        if record.get("scores") is not None and list(record["scores"]) != scores:
            report.problems.append(f"{label}: scores recorded {record['scores']}, "
                                   f"re-judged {scores}")


def verify_path(path: Path) -> VerifyReport:
    from server.turns.verify import verify_path as verify_turn_path

    return verify_turn_path(path, "Botzone", is_match_folder, read_record, verify_record,
                            formats.standings)
