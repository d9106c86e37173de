"""The match's files (``-d``), written as the match goes.

Layout under ``<log-dir>/<match id>/``::

    match.json              seed, options, players and totals; rewritten after each hand
    scoresheet.csv          one row per hand, appended and flushed as each hand ends
    NNN-<game id>/          one folder per hand
        game.log            the original server's text log
        events.jsonl        the deal, every engine event and input, timings and the result
        seatS.transcript    every line to (>) and from (<) seat S, with seconds since start
        seatS.stderr        seat S's stderr, capped
        INCOMPLETE          only in the folder of a hand the match stopped during
                            (Ctrl-C, SIGTERM): why; the folder has nothing else but
                            the seats' stderr

A match killed at any point keeps every hand that had finished.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulesets.default.engine.legacy_log import format_legacy_log
from rulesets.default.engine.record import event_json, input_json, legacy_log
from server.output.paths import write_atomic
from server.seam.contract import distinct_names

SCORESHEET_HEADER = [
    "Round", "Game", "Player0", "Player1", "Player2", "Player3", "Game ID", "Result",
    "Winner", "From", "Fan", "Fines0", "Fines1", "Fines2", "Fines3", "Faults",
]


@dataclass(frozen=True, slots=True)
class ScoreRow:
    round: int  # 1-based across the match (group * 4 + round + 1)
    game: int  # 1..4 within the round
    points: Sequence[int]  # by player, fines included
    game_id: str
    result: str  # tsumo, ron, qgang, draw (or aborted)
    winner: int | None  # player number
    source: int | None  # player number
    fan: int | None
    fines: Sequence[int]  # by player
    faults: Sequence[tuple[int, str]]  # (player, cause)

    def cells(self, names: Sequence[str] | None = None) -> list[str]:
        """The row; with the players' ``names`` (``sheet_names``) the winner, the player
        who paid and each fault are named (``alice: closed-output: exit status 1``, the
        whole cause, on one line); without, by player number (``0:closed-output``)."""
        def opt(v: int | None) -> str:
            if v is None:
                return ""
            return names[v] if names else str(v)

        if names:
            faults = "; ".join(f"{names[p]}: {' '.join(cause.split())}"
                               for p, cause in self.faults)
        else:
            faults = ";".join(f"{p}:{cause.split(':')[0]}" for p, cause in self.faults)
        return [str(self.round), str(self.game), *map(str, self.points), self.game_id,
                self.result, opt(self.winner), opt(self.source),
                "" if self.fan is None else str(self.fan),
                *map(str, self.fines), faults]


sheet_names = distinct_names
"""The players as the scoresheet names them (``distinct_names``)."""


def scoresheet_header(names: Sequence[str] | None = None) -> list[str]:
    """The scoresheet's header: by the players' names (``sheet_names``) when given."""
    if not names:
        return list(SCORESHEET_HEADER)
    return ["Round", "Game", *names, "Game ID", "Result", "Winner", "From", "Fan",
            *(f"Fines {n}" for n in names), "Faults"]


INCOMPLETE = "INCOMPLETE"

def _stopped(how: str) -> str:
    return f"an unfinished hand: the match stopped during it ({how}); only the seats' " \
        "stderr is kept"


STOPPED = _stopped("Ctrl-C, SIGTERM or an error")
KILLED = _stopped("killed?")  # no INCOMPLETE file: nothing runs in a server killed outright


def unfinished(folder: Path) -> str | None:
    """Why ``folder`` holds a hand that never ended, or None if it is not such a folder.

    A folder with the seats' stderr but no events (a server killed outright
    cannot leave an ``INCOMPLETE`` file) is one too.
    """
    try:
        return (folder / INCOMPLETE).read_text(encoding="utf-8").strip() or STOPPED
    except OSError:
        pass
    if not (folder / "events.jsonl").exists() and any(folder.glob("seat*.stderr")):
        return KILLED
    return None


class MatchFiles:
    """Writes one match's folder."""

    def __init__(self, root: Path, names: Sequence[str] | None = None) -> None:
        self.root = root
        self._names = sheet_names(names) if names else None
        self._open_hand: Path | None = None  # made, and its row not yet written
        root.mkdir(parents=True, exist_ok=True)
        self._sheet = (root / "scoresheet.csv").open("w", newline="", encoding="utf-8")
        self._csv = csv.writer(self._sheet)
        self._csv.writerow(scoresheet_header(self._names))
        self._sheet.flush()

    def hand_path(self, number: int, game_id: str) -> Path:
        return self.root / f"{number + 1:03d}-{game_id}"

    def hand_dir(self, number: int, game_id: str) -> Path:
        path = self.hand_path(number, game_id)
        path.mkdir(parents=True, exist_ok=True)
        self._open_hand = path
        return path

    def add_row(self, row: ScoreRow) -> None:
        self._open_hand = None
        self._csv.writerow(row.cells(self._names))
        self._sheet.flush()
        os.fsync(self._sheet.fileno())

    def close(self, totals: Sequence[int]) -> None:
        """The Total row; a hand folder the match stopped during gets ``INCOMPLETE``."""
        if self._open_hand is not None:
            with contextlib.suppress(OSError):  # the match's own error goes on unmasked
                (self._open_hand / INCOMPLETE).write_text(STOPPED + "\n", encoding="utf-8")
            self._open_hand = None
        if self._sheet.closed:
            return
        self._csv.writerow(["Total", "", *map(str, totals)])
        self._sheet.close()

    def write_match(self, summary: dict[str, Any]) -> None:
        write_atomic(self.root / "match.json",
                      json.dumps(summary, indent=2, ensure_ascii=False) + "\n")


def write_hand(folder: Path, header: dict[str, Any], outcome: Any, ais: Sequence[str],
               round_no: int, game_no: int, result_json: dict[str, Any]) -> None:
    """A finished hand's files (the stderr files are already there)."""
    engine = outcome.engine
    if engine.finished:
        text = format_legacy_log(legacy_log(engine, ais, round_no, game_no))
        (folder / "game.log").write_text(text, encoding="utf-8")
    with (folder / "events.jsonl").open("w", encoding="utf-8") as f:
        f.write(json.dumps({"type": "hand", **header}, ensure_ascii=False) + "\n")
        for event in engine.events:
            f.write(json.dumps({"type": "event", **event_json(event)}, ensure_ascii=False)
                    + "\n")
        for item in engine.inputs:
            f.write(json.dumps({"type": "input", **input_json(item)}) + "\n")
        f.write(json.dumps({"type": "result", **result_json}, ensure_ascii=False) + "\n")
    for seat, lines in enumerate(outcome.transcripts):
        with (folder / f"seat{seat}.transcript").open("w", encoding="utf-8") as f:
            for line in lines:
                f.write(f"{line.at:12.6f} {line.direction} {line.text}\n")
