"""The live feed of a table in play: ``live.jsonl`` in the table's folder, and its reader.

A table (a tournament's ``matches/rRR-tTT/``, a match's folder) appends one JSON
object per line as it plays: ``table`` (who plays, what is planned), then for each
hand or game ``start``, a ``step`` after every move, ``fault`` for a bot that
failed, ``end`` (the result, the scores, the hands revealed), and ``done`` when the
table is over. Each line is written with one ``write`` of the whole line, unbuffered
(no fsync: the feed is for watching, the logs are the record), so a reader sees whole
lines and at most one partial last line, which it leaves for later.

A picture (``start`` and ``step``) is ruleset-neutral::

    {"seats": [{"name", "wind", "concealed": 13, "melds": [{"kind", "tiles", "from"}],
                "discards": [...], "flowers": [...], "score": None}, ...],
     "turn": 0, "last": {"seat", "text", "tile"}, "wall": 53, "wind": "E"}

``concealed`` is a count: a hand in play never shows its concealed tiles (a bot that
can read the folder learns nothing from the feed); the ``end`` record shows them.
Tiles are in Botzone's notation (W1..W9, B1..B9, T1..T9, F1..F4, J1..J3, H1..H8,
``??`` face down). The feed's format for scripts is in docs/reference/formats.md ("The live feed").

Writing costs a table's clock nothing: the producers write after an answer has been
stamped and before the next prompt is written, and a write is one system call.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import structlog

FEED_FILE = "live.jsonl"
STDERR_EXCERPT = 2048  # bytes of a faulting bot's stderr the feed keeps (its end)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))  # made once


def excerpt(tail: bytes | None, limit: int = STDERR_EXCERPT) -> str:
    """The last ``limit`` bytes of a bot's stderr as text (undecodable bytes replaced)."""
    if not tail:
        return ""
    return tail[-limit:].decode("utf-8", errors="replace")


class LiveFeed:
    """Appends a table's records to ``path`` (a ``server.seam.contract.LiveSink``).

    ``report``: the table's report page relative to the folder the web serves, without
    ``.html`` (``matches/r01-t02``); a hand's page is named from it. None: no page.
    A feed that cannot be written (a full disk) says so once in the log and stops:
    the table plays on.
    """

    def __init__(self, path: Path, report: str | None = None) -> None:
        self.path = path
        self.report = report
        self._file: Any = None
        self._broken = False

    def _write(self, record: Mapping[str, Any]) -> None:
        if self._broken:
            return
        line = _ENCODER.encode(record) + "\n"
        try:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = open(self.path, "ab", buffering=0)  # noqa: SIM115 (kept open)
            self._file.write(line.encode("utf-8"))
        except OSError as exc:
            self._broken = True
            structlog.get_logger().warning("live_feed_failed", path=str(self.path),
                                           error=str(exc))

    def table(self, title: str, ruleset: str, unit: str, players: Sequence[str],
              planned: int) -> None:
        self._write({"type": "table", "title": title, "ruleset": ruleset, "unit": unit,
                     "players": list(players), "planned": planned,
                     "at": round(time.time(), 3)})

    def start(self, n: int, id: str, title: str, seats: Sequence[str],
              picture: Mapping[str, Any]) -> None:
        self._write({"type": "start", "n": n, "id": id, "title": title, "seats": list(seats),
                     "picture": picture})

    def step(self, n: int, picture: Mapping[str, Any]) -> None:
        self._write({"type": "step", "n": n, "picture": picture})

    def fault(self, n: int, seat: int, name: str, cause: str, stderr: bytes | None,
              stderr_file: str | None) -> None:
        self._write({"type": "fault", "n": n, "seat": seat, "name": name, "cause": cause,
                     "stderr": excerpt(stderr), "stderr_file": stderr_file})

    def end(self, n: int, result: str, text: str, scores: Sequence[float],
            hands: Sequence[Sequence[str]], page: str | None,
            kongs: Sequence[Sequence[str]] = ()) -> None:
        self._write({"type": "end", "n": n, "result": result, "text": text,
                     "scores": [int(s) if float(s).is_integer() else s for s in scores],
                     "hands": [list(h) for h in hands],
                     "kongs": [list(k) for k in kongs] or [[] for _ in hands],
                     "page": None if page is None or self.report is None
                     else self.report + page})

    def done(self) -> None:
        self._write({"type": "done", "at": round(time.time(), 3)})
        self.close()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_lines(path: Path, offset: int = 0) -> tuple[list[bytes], int]:
    """The whole lines of the feed at ``path`` from byte ``offset`` on, and the offset
    after the last of them (give it back to read what comes next). A last line without
    its newline is being written: it is left for the next call. No file yet: nothing."""
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return [], offset
    end = data.rfind(b"\n") + 1
    return data[:end].splitlines(), offset + end


def parse_records(lines: Iterable[bytes]) -> list[dict[str, Any]]:
    """The records of a feed's lines; a line that is not a JSON object (a feed cut by a
    crash) is skipped."""
    records = []
    for line in lines:
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


def read_new(path: Path, offset: int = 0) -> tuple[list[dict[str, Any]], int]:
    """The records of the feed at ``path`` from byte ``offset`` on, and the offset after
    the last whole line read (``read_lines``, ``parse_records``)."""
    lines, offset = read_lines(path, offset)
    return parse_records(lines), offset


def read_feed(path: Path) -> list[dict[str, Any]]:
    """Every whole record of the feed at ``path`` (a trailing partial line ignored)."""
    return read_new(path)[0]


def feed_path(folder: Path) -> Path:
    """Where the table whose folder is ``folder`` writes its feed."""
    return folder / FEED_FILE
