"""``server verify`` of a turn-based ruleset's match folder: every game re-run by the
ruleset, then the scoresheet and the standings recomputed from the games.

The ruleset gives how a game record is read and checked (``verify_record``) and
its standings; the folder's layout is the shell's (``server.turns.match``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from server.seam.contract import GamePlan, StandingRow, VerifyReport
from server.seam.errors import InputError
from server.turns.match import (
    GAME_FILE,
    GAMES,
    MATCH_FILE,
    SCORESHEET,
    TurnPlayer,
    player_scores,
    standings_json,
)

RecordChecker = Callable[[Mapping[str, Any], str, VerifyReport], None]
Standings = Callable[[Sequence[GamePlan], Sequence[Mapping[str, Any]], int], list[StandingRow]]


def short(value: object, limit: int = 300) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "…"


def verify_path(path: Path, what: str, is_match: Callable[[Path], bool],
                load: Callable[[Path], dict[str, Any]], verify_record: RecordChecker,
                standings: Standings) -> VerifyReport:
    """A turn-based ruleset's match folder, game folder or record, checked; ``what``
    names the ruleset's logs when ``path`` is none of them (an InputError)."""
    report = VerifyReport()
    if path.is_dir() and is_match(path):
        verify_match(path, report, load, verify_record, standings)
    elif path.is_dir() and (path / GAME_FILE).exists():
        verify_record(load(path / GAME_FILE), str(path), report)
    elif path.is_file():
        verify_record(load(path), str(path), report)
    else:
        raise InputError(f"{path}: not a {what} match folder or game record")
    return report


def verify_match(root: Path, report: VerifyReport, load: Callable[[Path], dict[str, Any]],
                 verify_record: RecordChecker, standings: Standings) -> None:
    meta = json.loads((root / MATCH_FILE).read_text(encoding="utf-8"))
    plans = [GamePlan(p["number"], p["group"], tuple(p["order"]), p["setup"], p["label"])
             for p in meta.get("plan", [])]
    records: list[dict[str, Any]] = []
    for plan in plans:
        path = root / GAMES / f"{plan.number:03d}" / GAME_FILE
        if not path.exists():
            break
        record = load(path)
        verify_record(record, f"{path.relative_to(root)}", report)
        records.append(record)
    if len(records) < len(plans):
        report.notes.append(f"{root}: {len(records)} of {len(plans)} game(s) were played")
    sheet = root / SCORESHEET
    if sheet.exists():
        with sheet.open(encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))[1:]
        for number, (row, plan, record) in enumerate(zip(rows, plans, records, strict=False),
                                                     start=2):
            expected = [str(s) for s in player_scores(plan, record)]
            if row[3:] != expected:
                report.problems.append(f"{SCORESHEET}:{number}: scores {row[3:]}, the games "
                                       f"say {expected}")
        if len(rows) != len(records):
            report.problems.append(f"{SCORESHEET}: {len(rows)} row(s) for {len(records)} "
                                   "game(s)")
    if meta.get("completed"):
        players = [TurnPlayer(p["name"], p.get("spec", "")) for p in meta["players"]]
        again = standings_json(standings(plans[:len(records)], records, len(players)), players)
        if again != meta.get("standings"):
            report.problems.append(f"{MATCH_FILE}: standings {short(meta.get('standings'))}"
                                   f", recomputed {short(again)}")
        report.checked.append(MATCH_FILE)
