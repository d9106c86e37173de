"""One SQLite file per tournament: its settings, schedule, and every finished table.

A table's result (its ``results`` rows, its ``hands`` rows, the program each
player played it with, and its status) is written in one transaction the
moment its match ends, so a tournament killed at any point holds only whole
tables; ``--resume`` plays the rest. The schema (see docs/reference/formats.md,
"The tournament store") is meant to be queried without the server:

    meta(key, value)                       format, seed, rounds, groups, hands, bots, ...
                                           bots: the BOTS file or folder, re-read for
                                           hand-ins (absent in files of older versions);
                                           title: --title, the pages' (absent: none given)
    entries(id, name, command, fill_in)    command: JSON, the latest handed in
    tables(round, tbl, seed, players, status, log_dir, started_at, finished_at, node)
                                           players: JSON list of entry ids, P0..P3
                                           status: 'scheduled' or 'done'
                                           node: where it was played (this machine's
                                           host name, or a Ray node: host/node id)
    results(round, tbl, player, entry, points, fines, faults, wins, draws, stalls, hands)
    hands(round, tbl, hand, grp, deal, seat, entry, points, fines, faulted, stalls,
          won, drawn, result, errors)
                                           errors: decisions the bot's own framework
                                           answered for (protocol.bot_errors); 0 in
                                           tables played by older versions
    programs(round, tbl, player, entry, command, hash)
                                           what each player played the table with:
                                           command as handed in (JSON), hash
                                           sha256:<hex> (``server.tournament.programs``)
    replays(round, tbl, attempt, node, reason, at)
                                           a table whose node died under it (a Ray
                                           cluster), played again from its start:
                                           one row per lost attempt (1, 2, ...)

Points are whole numbers in most rulesets and stored as SQLite integers; NOI
2014's averaged ties (2.5) are stored as reals in the same columns, and read
back as they were. ``programs`` and ``replays`` are created in older files
when they are resumed, and ``tables.node`` added; their tables played before
have no rows there, and no node.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from server.bots.person import person_name
from server.bots.remote import remote_name
from server.seam.errors import InputError, reason
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
    started_at REAL, finished_at REAL, node TEXT, PRIMARY KEY (round, tbl));
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
    errors INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (round, tbl, hand, seat));
CREATE TABLE IF NOT EXISTS programs (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, player INTEGER NOT NULL,
    entry INTEGER NOT NULL REFERENCES entries(id), command TEXT NOT NULL,
    hash TEXT NOT NULL, PRIMARY KEY (round, tbl, player));
CREATE TABLE IF NOT EXISTS replays (
    round INTEGER NOT NULL, tbl INTEGER NOT NULL, attempt INTEGER NOT NULL,
    node TEXT NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL,
    PRIMARY KEY (round, tbl, attempt));
"""

# Settings a resume may change: stored anew (BOTS given again, or from elsewhere).
CHANGEABLE = ("bots", "title")


def _names(entries: Sequence[Entry]) -> str:
    return ", ".join(e.name for e in entries if not e.fill_in) or "none"


def _four(players: list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = players
    return a, b, c, d


class StoreError(InputError):
    """A tournament file that does not match what was asked (resume with other bots...)."""


@dataclass(frozen=True, slots=True)
class Entry:
    name: str
    command: tuple[str, ...]  # argv; a remote entry's is the one word tcp:NAME, a
    # person's web:NAME
    fill_in: bool = False

    @property
    def remote(self) -> str | None:
        """NAME when the entry is a remote seat (``tcp:NAME``), None for a program."""
        return remote_name(self.command[0]) if len(self.command) == 1 else None

    @property
    def person(self) -> str | None:
        """NAME when the entry is a person's seat (``web:NAME``), None for a program."""
        return person_name(self.command[0]) if len(self.command) == 1 else None


@dataclass(frozen=True, slots=True)
class PlayerResult:
    entry: int
    points: float  # an int unless the ruleset's points are not whole (NOI 2014: 2.5)
    fines: int
    faults: int
    wins: int
    draws: int
    stalls: int
    hands: int


@dataclass(frozen=True, slots=True)
class ProgramRow:
    """The program one player played one table with."""

    round: int
    table: int
    player: int  # in the table
    entry: int
    command: tuple[str, ...]  # as handed in
    hash: str  # sha256:<hex>


class Store:
    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None)  # explicit transactions
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
            if "node" not in columns:  # a file of an older version
                self.db.execute("ALTER TABLE tables ADD COLUMN node TEXT")
            columns = {row[1] for row in self.db.execute("PRAGMA table_info(hands)")}
            if "errors" not in columns:
                self.db.execute("ALTER TABLE hands ADD COLUMN errors INTEGER NOT NULL DEFAULT 0")
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: not a tournament's file ({reason(exc)})") from None

    def close(self) -> None:
        self.db.close()

    # --- settings and entries ----------------------------------------------------------

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta").fetchall())

    def initialise(self, meta: dict[str, str], entries: Sequence[Entry]) -> None:
        """Record the settings and entries of a new tournament, or check them on resume.

        On resume the field must be the same bots in the same order; a bot's command
        may differ (a hand-in while the tournament was stopped) and is stored anew,
        as is the BOTS path (``CHANGEABLE``).
        """
        stored = self.meta()
        if stored:
            for key in meta:
                if key in CHANGEABLE or (key in RULE_KEYS and key not in stored):
                    continue  # rules stored before they were: the defaults it was played by
                if stored.get(key) != meta.get(key):
                    raise StoreError(f"{self.path}: {key} is {stored.get(key)!r}, "
                                     f"not {meta.get(key)!r}")
            old = self.entries()
            if [e.name for e in old] != [e.name for e in entries]:
                raise StoreError(
                    f"{self.path}: the stored bots differ from these: the field is "
                    f"{_names(old)}, and BOTS has {_names(entries)} (a bot may hand in a "
                    "new program or command; the field and its order stay)")
            with self.db:
                self.db.execute("BEGIN")
                self.db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                    [(k, meta[k]) for k in CHANGEABLE if k in meta])
                self.db.executemany("UPDATE entries SET command = ? WHERE id = ?",
                                    [(json.dumps(list(e.command)), i)
                                     for i, (e, was) in enumerate(zip(entries, old, strict=True))
                                     if e.command != was.command])
            return
        with self.db:
            self.db.execute("BEGIN")
            self.db.executemany("INSERT INTO meta VALUES (?, ?)",
                                [*meta.items(), ("schema", SCHEMA_VERSION)])
            self.db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?)",
                                [(i, e.name, json.dumps(list(e.command)), int(e.fill_in))
                                 for i, e in enumerate(entries)])

    def set_command(self, entry: int, command: Sequence[str]) -> None:
        """A hand-in: the entry's command from now on."""
        self.db.execute("UPDATE entries SET command = ? WHERE id = ?",
                        (json.dumps(list(command)), entry))

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
               hands: Sequence[HandRow], results: Sequence[str],
               programs: Sequence[ProgramRow] = (), node: str | None = None) -> None:
        """Store a finished table in one transaction; ``results`` names each hand row's
        result, ``programs`` what each player played it with, ``node`` where it was played.
        A table already done is left as it is: no table is counted twice."""
        with self.db:
            self.db.execute("BEGIN")
            status = self.db.execute("SELECT status FROM tables WHERE round = ? AND tbl = ?",
                                     (plan.round, plan.table)).fetchone()
            if status is not None and status[0] == "done":
                return
            self.db.executemany(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(plan.round, plan.table, i, p.entry, p.points, p.fines, p.faults, p.wins,
                  p.draws, p.stalls, p.hands) for i, p in enumerate(players)])
            self.db.executemany(
                "INSERT OR REPLACE INTO hands (round, tbl, hand, grp, deal, seat, entry, "
                "points, fines, faulted, stalls, won, drawn, result, errors) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(h.round, h.table, h.hand, h.group, h.deal, h.seat, h.entry, h.points, h.fines,
                  int(h.faulted), h.stalls, int(h.won), int(h.drawn), res, h.errors)
                 for h, res in zip(hands, results, strict=True)])
            self.db.executemany(
                "INSERT OR REPLACE INTO programs VALUES (?, ?, ?, ?, ?, ?)",
                [(p.round, p.table, p.player, p.entry, json.dumps(list(p.command)), p.hash)
                 for p in programs])
            self.db.execute("UPDATE tables SET status = 'done', finished_at = ?, node = ? "
                            "WHERE round = ? AND tbl = ?",
                            (time.time(), node, plan.round, plan.table))

    def replayed(self, plan: TablePlan, node: str, why: str) -> int:
        """A lost attempt at ``plan`` (its node died): recorded; its number (1, 2, ...)."""
        with self.db:
            self.db.execute("BEGIN")
            attempt = int(self.db.execute(
                "SELECT COALESCE(MAX(attempt), 0) + 1 FROM replays WHERE round = ? AND tbl = ?",
                (plan.round, plan.table)).fetchone()[0])
            self.db.execute("INSERT INTO replays VALUES (?, ?, ?, ?, ?, ?)",
                            (plan.round, plan.table, attempt, node, why, time.time()))
        return attempt

    def replays(self) -> list[tuple[int, int, int, str, str]]:
        """Every lost attempt: (round, table, attempt, node, reason), in table order."""
        return [(r, t, a, n, why) for r, t, a, n, why in self.db.execute(
            "SELECT round, tbl, attempt, node, reason FROM replays ORDER BY round, tbl, attempt")]

    def nodes(self) -> list[tuple[str, int, int]]:
        """Per node that played finished tables: (node, tables, host stalls), by node."""
        return [(n or "", int(k), int(st)) for n, k, st in self.db.execute(
            "SELECT t.node, COUNT(DISTINCT t.round * 100000 + t.tbl), "
            "COALESCE(SUM(h.stalls), 0) FROM tables t "
            "LEFT JOIN hands h ON h.round = t.round AND h.tbl = t.tbl "
            "WHERE t.status = 'done' GROUP BY t.node ORDER BY t.node")]

    def table_results(self) -> list[TableResult]:
        out: dict[tuple[int, int], list[tuple[int, int, float, int]]] = {}
        for r, t, player, entry, pts, wins in self.db.execute(
                "SELECT r.round, r.tbl, r.player, r.entry, r.points, r.wins FROM results r "
                "JOIN tables t ON t.round = r.round AND t.tbl = r.tbl "
                "WHERE t.status = 'done' ORDER BY r.round, r.tbl, r.player"):
            out.setdefault((r, t), []).append((player, entry, pts, wins))
        return [TableResult(r, t, tuple(row[1] for row in rows), tuple(row[2] for row in rows),
                            tuple(row[3] for row in rows))
                for (r, t), rows in out.items()]

    def programs(self) -> list[ProgramRow]:
        """What each player played each finished table with, in table order."""
        return [ProgramRow(r, t, p, e, tuple(json.loads(c)), h)
                for r, t, p, e, c, h in self.db.execute(
                    "SELECT p.round, p.tbl, p.player, p.entry, p.command, p.hash FROM programs p "
                    "JOIN tables t ON t.round = p.round AND t.tbl = p.tbl "
                    "WHERE t.status = 'done' ORDER BY p.round, p.tbl, p.player")]

    def hand_rows(self) -> list[HandRow]:
        return [HandRow(r, t, h, g, d, s, e, p, f, bool(fa), st, bool(w), bool(dr), er)
                for r, t, h, g, d, s, e, p, f, fa, st, w, dr, er in self.db.execute(
                    "SELECT h.round, h.tbl, h.hand, h.grp, h.deal, h.seat, h.entry, h.points, "
                    "h.fines, h.faulted, h.stalls, h.won, h.drawn, h.errors FROM hands h "
                    "JOIN tables t ON t.round = h.round AND t.tbl = h.tbl "
                    "WHERE t.status = 'done' ORDER BY h.round, h.tbl, h.hand, h.seat")]

    def hand_results(self) -> list[tuple[HandRow, str]]:
        """Every hand (game) row of the finished tables with its result, in play order."""
        return [(HandRow(r, t, h, g, d, s, e, p, f, bool(fa), st, bool(w), bool(dr), er), res)
                for r, t, h, g, d, s, e, p, f, fa, st, w, dr, res, er in self.db.execute(
                    "SELECT h.round, h.tbl, h.hand, h.grp, h.deal, h.seat, h.entry, h.points, "
                    "h.fines, h.faulted, h.stalls, h.won, h.drawn, h.result, h.errors "
                    "FROM hands h "
                    "JOIN tables t ON t.round = h.round AND t.tbl = h.tbl "
                    "WHERE t.status = 'done' ORDER BY h.round, h.tbl, h.hand, h.seat")]

    def host_stalls(self) -> int:
        return int(self.db.execute("SELECT COALESCE(SUM(stalls), 0) FROM hands").fetchone()[0])
