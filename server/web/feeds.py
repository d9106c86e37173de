"""A served folder's state, followed from its files: the tables' live feeds and the
standings.

``Watch(folder).poll()`` reads what was appended to each table's ``live.jsonl`` since the
last poll (a last line without its newline is left for the next poll: it is being
written) and whether ``standings.json`` (a tournament) or the match's standings changed;
it returns the events to push to the page (``record``, ``standings``, ``snapshot`` when a
feed was rewritten from its start). ``snapshot()``, ``tables_in_play()`` and
``standings()`` are what the page and ``/api/*`` show. The feed's format is the live
helper's (``server.output.live``); pictures never hold a concealed tile, but an ``end``
record shows every hand: of a sealed table (``server.web.folders``: listed in its run's
``sealed.json``, or in play) only its number, result and scores are told, and when it is
sealed no longer a new snapshot tells the rest.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.output.live import parse_records, read_lines
from server.web.folders import (
    FEED,
    MATCH,
    SEALED,
    STALE_SECONDS,
    STANDINGS,
    TABLES,
    Kind,
    folder_sealed,
    kind_of,
    sealed_end,
    sealed_fault,
    sealed_names,
    sub_folders,
)
from server.web.tokens import TokenError, tournament_meta

Event = tuple[str, Any]  # (SSE event name, JSON data)

REPORT = "report.html"  # a match's report, where ``server report`` was asked to write it
_STEP = re.compile(rb'^\{\s*"type"\s*:\s*"step"')  # a picture that a later one replaces
# The settings a page may show (standings.json's settings also hold the bots' folder).
SHOWN_SETTINGS = ("ruleset", "variant", "format", "rounds", "groups", "hands", "walls",
                  "orders", "seed")


@dataclass
class Feed:
    """One table's live feed and what it has told so far."""

    key: str  # the table's folder relative to the served folder ("" for the folder itself)
    path: Path
    offset: int = 0
    table: dict[str, Any] = field(default_factory=dict)
    starts: dict[int, dict[str, Any]] = field(default_factory=dict)  # n -> start, no picture
    ends: dict[int, dict[str, Any]] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)
    picture: dict[str, Any] | None = None
    n: int | None = None  # the hand or game in play
    done: bool = False
    mtime: float = 0.0

    def read(self) -> tuple[list[dict[str, Any]], bool]:
        """The whole records appended since the last read (only the last of a run of
        pictures), and whether the file was rewritten from its start (state reset)."""
        try:
            stat = self.path.stat()
        except OSError:
            return [], False
        reset = stat.st_size < self.offset
        if reset:  # rewritten from its start (a table played again): forget it all
            self.offset, self.table, self.starts, self.ends = 0, {}, {}, {}
            self.faults, self.picture, self.n, self.done = [], None, None, False
        self.mtime = stat.st_mtime
        if stat.st_size == self.offset:
            return [], reset
        try:
            lines, self.offset = read_lines(self.path, self.offset)
        except OSError:
            return [], reset
        last_step = max((i for i, line in enumerate(lines) if _STEP.match(line)), default=-1)
        # Of a run of pictures only the last is parsed: a later picture replaces it.
        records = parse_records(line for i, line in enumerate(lines)
                                if i == last_step or not _STEP.match(line))
        for record in records:
            self.apply(record)
        return records, reset

    def apply(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "table":
            self.table = record
        elif kind == "start":
            n = int(record.get("n", 0))
            self.n = n
            self.starts[n] = {k: v for k, v in record.items() if k != "picture"}
            self.picture = record.get("picture")
        elif kind == "step":
            self.picture = record.get("picture")
        elif kind == "fault":
            self.faults.append(record)
        elif kind == "end":
            n = int(record.get("n", 0))
            self.ends[n] = record
        elif kind == "done":
            self.done = True
            self.n = None

    def in_play(self, now: float) -> bool:
        return not self.done and now - self.mtime <= STALE_SECONDS

    def title(self) -> str:
        return str(self.table.get("title") or self.key or "the match")

    def hands(self, sealed: bool = False) -> list[dict[str, Any]]:
        """The finished hands or games: number, title, seats, result, text, page (of a
        sealed table: no text, no page)."""
        rows = []
        for n in sorted(self.ends):
            end, start = self.ends[n], self.starts.get(n, {})
            if sealed:
                end = sealed_end(end)
            rows.append({"n": n, "title": start.get("title", f"#{n}"),
                         "seats": start.get("seats"), "result": end.get("result"),
                         "text": end.get("text"), "scores": end.get("scores"),
                         "page": end.get("page")})
        return rows

    def summary(self) -> dict[str, Any]:
        """The table as the page and /api/tables show it."""
        start = self.starts.get(self.n, {}) if self.n is not None else {}
        return {"key": self.key, "title": self.title(), "ruleset": self.table.get("ruleset"),
                "unit": self.table.get("unit", "hand"), "players": self.table.get("players"),
                "planned": self.table.get("planned"), "n": self.n,
                "hand_title": start.get("title"), "seats": start.get("seats"),
                "played": len(self.ends), "done": self.done, "picture": self.picture}

    def fault_rows(self, sealed: bool = False) -> list[dict[str, Any]]:
        """The faults as the page lists them (of a sealed table: nothing a bot wrote)."""
        return [fault_row(self, sealed_fault(f) if sealed else f) for f in self.faults]


def fault_row(feed: Feed, record: dict[str, Any]) -> dict[str, Any]:
    """A fault as the feed of faults shows it; its stderr file's path relative to the
    served folder."""
    stderr_file = record.get("stderr_file")
    if stderr_file:
        stderr_file = f"{feed.key}/{stderr_file}" if feed.key else str(stderr_file)
    return {"table": feed.key, "table_title": feed.title(), "n": record.get("n"),
            "seat": record.get("seat"), "name": record.get("name"),
            "cause": record.get("cause"), "stderr": record.get("stderr"),
            "stderr_file": stderr_file, "sealed": bool(record.get("sealed"))}


class Watch:
    """A served folder (a tournament, a match, or empty so far) followed by polling."""

    def __init__(self, folder: Path, root: Path | None = None) -> None:
        self.folder = folder
        self.root = root or folder  # the served folder, whose runs' sealed.json count too
        self.feeds: dict[str, Feed] = {}
        self._sealed: set[str] = set()  # the feeds' keys sealed at the last poll
        self._standings_seen: object = None
        self._standings: dict[str, Any] = {}

    def _feed_paths(self) -> dict[str, Path]:
        paths: dict[str, Path] = {}
        if (self.folder / FEED).is_file():
            paths[""] = self.folder / FEED
        tables = self.folder / TABLES
        if tables.is_dir():
            for feed in sorted(tables.glob(f"*/{FEED}")):
                paths[f"{TABLES}/{feed.parent.name}"] = feed
        return paths

    def poll(self) -> list[Event]:
        """Read what the files say now; the events that tell it."""
        events: list[Event] = []
        for key, path in self._feed_paths().items():
            self.feeds.setdefault(key, Feed(key, path))
        reset = False
        read: list[tuple[str, Feed, dict[str, Any]]] = []
        for key, feed in self.feeds.items():
            records, was_reset = feed.read()
            reset = reset or was_reset
            read += [(key, feed, record) for record in records]
        sealed = self.sealed_keys()
        unsealed = bool(self._sealed - sealed)  # their hands may be told now: a snapshot
        self._sealed = sealed
        ended = False
        for key, feed, record in read:
            kind = record.get("type")
            if kind == "fault":
                shown = sealed_fault(record) if key in sealed else record
                events.append(("record", {"table": key, **shown,
                                          "row": fault_row(feed, shown)}))
            elif kind == "end" and key in sealed:
                events.append(("record", {"table": key, **sealed_end(record)}))
            else:
                events.append(("record", {"table": key, **record}))
            ended = ended or kind in ("end", "done")
        seen = self._standings_signature()
        if seen != self._standings_seen or ended:
            standings = self._read_standings()
            # unreadable (being rewritten): keep what was shown, read again next poll
            self._standings_seen = seen if standings is not None else None
            if standings is not None and standings != self._standings:
                self._standings = standings
                events.append(("standings", standings))
        if reset:
            return [("snapshot", self.snapshot())]
        if unsealed:
            events.append(("snapshot", self.snapshot()))
        return events

    def sealed_keys(self) -> set[str]:
        """The feeds whose tables are sealed now (``server.web.folders``)."""
        if folder_sealed(self.root, self.folder):
            return set(self.feeds)
        now = time.time()
        names = sealed_names(self.folder) if (self.folder / SEALED).exists() else frozenset()
        return {key for key, feed in self.feeds.items()
                if feed.in_play(now) or names is None
                or (key.startswith(TABLES + "/") and key[len(TABLES) + 1:] in names)}

    def _standings_signature(self) -> object:
        out: list[tuple[int, int] | None] = []
        for name in (STANDINGS, MATCH):
            try:
                stat = (self.folder / name).stat()
                out.append((stat.st_mtime_ns, stat.st_size))
            except OSError:
                out.append(None)
        return tuple(out)

    def standings(self) -> dict[str, Any]:
        return self._standings

    def tables_in_play(self) -> list[dict[str, Any]]:
        now = time.time()
        return [f.summary() for f in self.feeds.values() if f.in_play(now)]

    def snapshot(self) -> dict[str, Any]:
        """Everything the live page shows, for a page that has just connected."""
        now = time.time()
        sealed = self.sealed_keys()
        self._sealed = sealed
        faults = [row for feed in self.feeds.values()
                  for row in feed.fault_rows(feed.key in sealed)]
        finished = [{**{k: v for k, v in f.summary().items() if k != "picture"},
                     "in_play": f.in_play(now), "hands": f.hands(f.key in sealed)}
                    for f in self.feeds.values()]
        return {"kind": kind_of(self.folder), "standings": self._standings,
                "tables": self.tables_in_play(), "feeds": finished, "faults": faults,
                "at": now}

    def _read_standings(self) -> dict[str, Any] | None:
        kind = kind_of(self.folder)
        if kind == "tournament":
            return self._tournament_standings()
        if kind == "match":
            return self._match_standings()
        return {"kind": kind, "standings": [], "over": False}

    def _tournament_standings(self) -> dict[str, Any] | None:
        data = read_json(self.folder / STANDINGS)
        if data is None and (self.folder / STANDINGS).exists():
            return None  # caught half written
        if not isinstance(data, dict):
            return {"kind": "tournament", "standings": [], "reports": [], "settings": {},
                    "over": False}
        settings = data.get("settings") or {}
        reports = [{"round": t.get("round"), "table": t.get("table"),
                    "players": t.get("players"), "report": t.get("report")}
                   for t in data.get("tables") or [] if isinstance(t, dict)]
        now = time.time()
        playing = any(f.in_play(now) for f in self.feeds.values())
        return {"kind": "tournament", "standings": data.get("standings") or [],
                "reports": reports,
                "settings": {k: settings[k] for k in SHOWN_SETTINGS if k in settings},
                "over": not playing and tournament_complete(settings, reports)}

    def _match_standings(self) -> dict[str, Any] | None:
        feed = self.feeds.get("")
        data = read_json(self.folder / MATCH)
        if data is None and (self.folder / MATCH).exists() and not (feed and feed.in_play(
                time.time())):
            return None  # caught half written
        if feed is not None and (feed.in_play(time.time()) or not isinstance(data, dict)):
            return {"kind": "match", "standings": rows_from_feed(feed), "source": FEED,
                    "unit": feed.table.get("unit", "hand"), "over": feed.done}
        if not isinstance(data, dict):
            return {"kind": "match", "standings": [], "source": None, "over": False}
        rows, unit = rows_from_match(data)
        over = bool(data.get("completed") or data.get("interrupted") or data.get("standings")
                    or (feed is not None and feed.done))
        report = REPORT if (self.folder / REPORT).is_file() else None
        return {"kind": "match", "standings": rows, "source": MATCH, "unit": unit,
                "over": over, "report": report}


def folder_title(folder: Path) -> str:
    """The title a run was given (``--title``: a tournament's stored setting, a match's
    match.json), else the folder's name."""
    kind = kind_of(folder)
    given: Any = None
    if kind == "tournament":
        try:
            given = (tournament_meta(folder) or {}).get("title")
        except TokenError:  # the file is being made (no settings yet), or is not ours
            given = None
    elif kind == "match":
        data = read_json(folder / MATCH)
        given = data.get("title") if isinstance(data, dict) else None
    return str(given) if given else folder.name


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def tournament_complete(settings: dict[str, Any], reports: list[dict[str, Any]]) -> bool:
    """Every round played: the last round has as many finished tables as the first."""
    try:
        rounds = int(settings.get("rounds") or 0)
    except ValueError:
        return False
    done = [r.get("round") for r in reports if r.get("report")]
    if not done or rounds <= 0:
        return False
    last = max(int(r) for r in done if r is not None)
    return last >= rounds and done.count(last) >= done.count(1)


def rows_from_feed(feed: Feed) -> list[dict[str, Any]]:
    """A match's running totals from its feed's end records: points by name, hands or
    games played, wins (the top score of a hand when above 0) and faults."""
    totals: dict[str, dict[str, Any]] = {}
    unit = "games" if feed.table.get("unit") == "game" else "hands"
    for name in feed.table.get("players") or []:
        totals[str(name)] = {"bot": str(name), unit: 0, "points": 0, "wins": 0, "faults": 0}
    for n, end in sorted(feed.ends.items()):
        seats = feed.starts.get(n, {}).get("seats") or []
        scores = end.get("scores") or []
        top = max(scores, default=0)
        for seat, name in enumerate(seats):
            row = totals.setdefault(str(name), {"bot": str(name), unit: 0, "points": 0,
                                                "wins": 0, "faults": 0})
            score = scores[seat] if seat < len(scores) else 0
            row[unit] += 1
            row["points"] += score
            row["wins"] += int(score == top and score > 0 and scores.count(top) == 1)
    for fault in feed.faults:
        name = str(fault.get("name"))
        if name in totals:
            totals[name]["faults"] += 1
    rows = sorted(totals.values(), key=lambda r: -r["points"])
    return ranked(rows)


def ranked(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in order of points with their rank, equal points sharing one."""
    out: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        rank = out[-1]["rank"] if out and out[-1]["points"] == row["points"] else i + 1
        out.append({"rank": rank, **row})
    return out


def rows_from_match(data: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
    """A finished (or stopped) match's standings from its match.json: the default
    ruleset's players and totals, or a turn-based ruleset's standings."""
    players = [p for p in data.get("players") or [] if isinstance(p, dict)]
    if isinstance(data.get("standings"), list):
        stats = {p.get("name"): p.get("stats") for p in players}
        rows = [{"rank": r.get("place"), "bot": r.get("name"), "games": r.get("games"),
                 "points": r.get("points"), "score": r.get("score"), "wins": r.get("wins"),
                 "penalties": r.get("penalties"), "stats": stats.get(r.get("name"))}
                for r in data["standings"] if isinstance(r, dict)]
        return rows, "game"
    if players and "total" in players[0]:
        order = [i for i in data.get("ranking") or [] if isinstance(i, int)
                 and 0 <= i < len(players)] or list(range(len(players)))
        rows = [{"bot": players[i].get("name"), "hands": data.get("hands_played"),
                 "points": players[i].get("total"), "wins": players[i].get("wins"),
                 "fines": players[i].get("fines"), "faults": players[i].get("faults"),
                 "bot_errors": players[i].get("bot_errors"),
                 "stats": players[i].get("stats")} for i in order]
        return ranked(sorted(rows, key=lambda r: -(r["points"] or 0))), "hand"
    return [], "game"


def folder_index(folder: Path) -> dict[str, Any]:
    """A folder of several: each tournament and match in it."""
    return {"kind": "several", "folders": [{"name": name, "kind": kind, "url": f"{name}/"}
                                           for name, kind in sub_folders(folder)]}


def kind_and_index(folder: Path) -> tuple[Kind, dict[str, Any] | None]:
    kind = kind_of(folder)
    return kind, folder_index(folder) if kind == "several" else None
