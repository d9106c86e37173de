"""One SQLite file per tournament: its settings, schedule, and every finished table.

A table's result (its ``results`` rows, its ``hands`` rows and its status) is
written in one transaction the moment its match ends, so a tournament killed
at any point holds only whole tables; ``--resume`` plays the rest. The schema
(see the README, "Tournaments") is meant to be queried without the server:

    meta(key, value)                       format, seed, rounds, groups, hands, ...
    entries(id, name, command, fill_in)    command: JSON argv
    tables(round, tbl, seed, players, status, log_dir, started_at, finished_at)
                                           players: JSON list of entry ids, P0..P3
                                           status: 'scheduled' or 'done'
    results(round, tbl, player, entry, points, fines, faults, wins, draws, stalls, hands)
    hands(round, tbl, hand, grp, deal, seat, entry, points, fines, faulted, stalls,
          won, drawn, result)
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from server.errors import InputError, reason
from server.remote import remote_name
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow, TableResult

# The rules stored with the settings (``runner.rules_meta``): the deadlines,
# the sandbox and the bots' resource limits.
RULE_KEYS = ("hard_limit", "join_limit", "sandbox", "mem_limit", "cpu_limit", "file_limit")

SCHEMA_VERSION = "1"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, command TEXT NOT NULL,
    fill_in INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS tables (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, seed INTEGER NOT NULL,
    players TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'scheduled', log_dir TEXT,
    started_at REAL, finished_at REAL, PRIMARY KEY (round, tbl));
CREATE TABLE IF NOT EXISTS results (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, player INTEGER NOT NULL,
    entry INTEGER NOT NULL REFERENCES entries(id), points INTEGER NOT NULL,
    fines INTEGER NOT NULL, faults INTEGER NOT NULL, wins INTEGER NOT NULL,
    draws INTEGER NOT NULL, stalls INTEGER NOT NULL, hands INTEGER NOT NULL,
    PRIMARY KEY (round, tbl, player));
CREATE TABLE IF NOT EXISTS hands (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, hand INTEGER NOT NULL,
    grp INTEGER NOT NULL, deal INTEGER NOT NULL, seat INTEGER NOT NULL,
    entry INTEGER NOT NULL REFERENCES entries(id), points INTEGER NOT NULL,
    fines INTEGER NOT NULL, faulted INTEGER NOT NULL, stalls INTEGER NOT NULL,
    won INTEGER NOT NULL, drawn INTEGER NOT NULL, result TEXT NOT NULL,
    PRIMARY KEY (round, tbl, hand, seat));
"""


def _four(players: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = players
    return a, b, c, d


class StoreError(InputError):
    """A tournament file that does not match what was asked (resume with other bots...)."""


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    command: tuple[str, ...]  # argv; a remote entry's is the one word tcp:NAME
    fill_in: bool = False

    @property
    def remote(self) -> str | None:
        """NAME when the entry is a remote seat (``tcp:NAME``), None for a program."""
        return remote_name(self.command[0]) if len(self.command) == 1 else None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    entry: int
    points: int
    fines: int
    faults: int
    wins: int
    draws: int
    stalls: int
    hands: int


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None)  # explicit transactions
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: not a tournament's file ({reason(exc)})") from None

    def close(self) -> None:
        self.db.close()

    # --- settings and entries ----------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta").fetchall())

    def initialise(self, meta: dict[str, str], entries: Sequence[Entry]) -> None:
        """Record the settings and entries of a new tournament, or check them on resume."""
        stored = self.meta()
        if stored:
            for key in meta:
                if key in RULE_KEYS and key not in stored:
                    continue  # stored before the rules were: the defaults it was played by
                if stored.get(key) != meta.get(key):
                    raise StoreError(f"{self.path}: {key} is {stored.get(key)!r}, "
                                     f"not {meta.get(key)!r}")
            if [(e.name, e.command) for e in self.entries()] != \
                    [(e.name, e.command) for e in entries]:
                raise StoreError(f"{self.path}: the stored bots differ from these")
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO meta VALUES (?, ?)",
                                [*meta.items(), ("schema", SCHEMA_VERSION)])
            self.db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?)",
                                [(i, e.name, json.dumps(list(e.command)), int(e.fill_in))
                                 for i, e in enumerate(entries)])

    def entries(self) -> list[Entry]:
        return [Entry(name, tuple(json.loads(cmd)), bool(fill))
                for name, cmd, fill in self.db.execute(
                    "SELECT name, command, fill_in FROM entries ORDER BY id")]

    # --- schedule ------------------------------------------------------------------------

    def schedule(self, plans: Iterable[TablePlan]) -> None:
        """Add tables not yet in the schedule (an existing one is left as it is)."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR IGNORE INTO tables (round, tbl, seed, players) VALUES (?, ?, ?, ?)",
                [(p.round, p.table, p.seed, json.dumps(list(p.players))) for p in plans])

    def plans(self, status: str | None = None) -> list[TablePlan]:
        sql = "SELECT round, tbl, seed, players FROM tables"
        args: tuple[str, ...] = ()
        if status is not None:
            sql += " WHERE status = ?"
            args = (status,)
        return [TablePlan(r, t, _four(json.loads(p)), s)
                for r, t, s, p in self.db.execute(sql + " ORDER BY round, tbl", args)]

    def rounds_scheduled(self) -> int:
        return int(self.db.execute("SELECT COALESCE(MAX(round), 0) FROM tables").fetchone()[0])

    def started(self, plan: TablePlan, log_dir: Path) -> None:
        self.db.execute("UPDATE tables SET log_dir = ?, started_at = ? WHERE round = ? AND tbl = ?",
                        (str(log_dir), time.time(), plan.round, plan.table))

    def log_dir(self, round_: int, table: int) -> Path | None:
        row = self.db.execute("SELECT log_dir FROM tables WHERE round = ? AND tbl = ?",
                              (round_, table)).fetchone()
        return Path(row[0]) if row and row[0] else None

    # --- results ---------------------------------------------------------------------------

    def finish(self, plan: TablePlan, players: Sequence[PlayerResult],
               hands: Sequence[HandRow], results: Sequence[str]) -> None:
        """Store a finished table in one transaction; ``results`` names each hand row's result."""
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(plan.round, plan.table, i, p.entry, p.points, p.fines, p.faults, p.wins,
                  p.draws, p.stalls, p.hands) for i, p in enumerate(players)])
            self.db.executemany(
                "INSERT OR REPLACE INTO hands VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(h.round, h.table, h.hand, h.group, h.deal, h.seat, h.entry, h.points, h.fines,
                  int(h.faulted), h.stalls, int(h.won), int(h.drawn), res)
                 for h, res in zip(hands, results, strict=True)])
            self.db.execute("UPDATE tables SET status = 'done', finished_at = ? "
                            "WHERE round = ? AND tbl = ?", (time.time(), plan.round, plan.table))

    def table_results(self) -> list[TableResult]:
        out: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        for r, t, player, entry, pts in self.db.execute(
                "SELECT r.round, r.tbl, r.player, r.entry, r.points FROM results r "
                "JOIN tables t ON t.round = r.round AND t.tbl = r.tbl "
                "WHERE t.status = 'done' ORDER BY r.round, r.tbl, r.player"):
            out.setdefault((r, t), []).append((player, entry, pts))
        return [TableResult(r, t, tuple(e for _, e, _ in rows), tuple(p for _, _, p in rows))
                for (r, t), rows in out.items()]

    def hand_rows(self) -> list[HandRow]:
        return [HandRow(r, t, h, g, d, s, e, p, f, bool(fa), st, bool(w), bool(dr))
                for r, t, h, g, d, s, e, p, f, fa, st, w, dr in self.db.execute(
                    "SELECT h.round, h.tbl, h.hand, h.grp, h.deal, h.seat, h.entry, h.points, "
                    "h.fines, h.faulted, h.stalls, h.won, h.drawn FROM hands h "
                    "JOIN tables t ON t.round = h.round AND t.tbl = h.tbl "
                    "WHERE t.status = 'done' ORDER BY h.round, h.tbl, h.hand, h.seat")]

    def host_stalls(self) -> int:
        return int(self.db.execute("SELECT COALESCE(SUM(stalls), 0) FROM hands").fetchone()[0])
