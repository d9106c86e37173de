"""Play a tournament: tables in parallel in one trio run, each a ``run_match``.

At most ``jobs`` tables play at once (a ``CapacityLimiter``). Every table plays
with host-stall allowances on (``TableOptions.host_stalls``), so a table slowed
by its neighbours does not cost its bots fines. A finished table is stored at
once; a table that did not finish leaves nothing in the store, and its log
folder is replaced when it is played again on ``--resume``.

Remote entries (``tcp:NAME``) share one listener (``server.bots.remote``) for the
whole run, opened before the first table and closed after the last: each
table's launcher takes its remote seats from it. A remote bot is one client,
which plays one hand at a time, so a table waits until every remote entry it
seats is free (a lock per name, taken in name order so two tables cannot hold
one each). Swiss rounds seat each bot once anyway; round-robin tables of later
rounds and a gauntlet's tables, which may seat the same bot, then wait.

Persons (``web:NAME``, ``server.bots.person``) are played from a page: one
``PersonSeats`` for the whole run, its pages served (``seat_pages``, given by the
command line: the web is above this layer) before the first table and closed
after the last, each link said once ("persons"). A person is at one table at a
time (a lock, as for a remote bot) and their page follows them from table to
table; a table with a person plays in this trio run, never elsewhere (a
``TableCarrier``), since the page's clicks come to this process. A person has
the clock of the tournament's ``PersonOptions`` (``--clock``) in place of a
bot's, and the first hand of their first table waits for their page to open, ten
of their moves at most (``PersonOptions.page_wait``); an absent person's seat then
times out as a silent bot's, and later tables do not wait again.

Hand-ins. When a table starts (its turn under ``jobs`` come), BOTS is read
again (``TournamentConfig.bots``, stored in meta as ``bots``) and each
player of the table plays with its entry's command there: a player who
changed its command, or replaced its program's file, plays the new program
from that table on. The program is pinned for the whole table
(``server.tournament.programs``) and recorded with the table's results
(``Store.programs``) and in its folder (``programs.json``). BOTS that cannot
be read (a file being edited, gone) leaves every bot its last command, with
one warning; a bot that is no longer there keeps its last command; a new name
is ignored (nobody joins a tournament once it runs); a remote bot's command
stays ``tcp:NAME``, a person's ``web:NAME``. Fill-ins are the house's and never change. A student's
upload through the page that passed check-bot (``OUT/handins/<name>/current.json``,
``server.tournament.uploads``) is taken over BOTS's command for that entry, and
the console says it came through the page.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Protocol

import structlog
import trio

from server.bots.person import PersonOptions, PersonSeats, links
from server.bots.remote import RemoteOptions, RemoteSeats, open_remote_seats
from server.bots.seats import Sandbox, TableOptions
from server.seam.contract import FaultNote
from server.seam.errors import InputError, reason
from server.seam.registry import DEFAULT, load
from server.tournament.entries import EntriesError, fill_in, load_entries
from server.tournament.exports import Portable
from server.tournament.programs import Program, command_digest, pin
from server.tournament.schedule import (
    TablePlan,
    fill_ins,
    gauntlet,
    round_robin,
    swiss_round,
)
from server.tournament.sealed import sealed_tables, table_name, write_sealed
from server.tournament.standings import seating_points, wins_by_entry
from server.tournament.store import Entry, ProgramRow, Store
from server.tournament.tables import TableJob, TableOutcome, play_table
from server.tournament.uploads import PageHandIn, current_command

# Tables in parallel per CPU core by default: see bench/README.md, "Tournaments".
JOBS_PER_CORE = 1


def rules_meta(options: TableOptions, sandbox: Sandbox) -> dict[str, str]:
    """The rules every table plays by, as stored (a resumed tournament keeps them)."""
    limits = sandbox.limits
    return {"hard_limit": str(options.hard_limit), "join_limit": str(options.join_limit),
            "sandbox": sandbox.kind, "mem_limit": str(limits.memory_mb or 0),
            "cpu_limit": str(limits.cpu_seconds or 0), "file_limit": str(limits.file_mb or 0)}


def default_jobs() -> int:
    return max(1, JOBS_PER_CORE * (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                                   else os.cpu_count() or 1))


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    entries: tuple[Entry, ...]  # the field, fill-ins not included
    format: str  # swiss, round-robin, gauntlet
    seed: int
    rounds: int
    out: Path
    groups: int = 1
    hands: int | None = None  # fewer hands per table than the groups give (quick tournaments)
    jobs: int = 1
    hero: int = 0  # gauntlet
    options: TableOptions = field(default_factory=lambda: TableOptions(host_stalls=True))
    remote: RemoteOptions | None = None  # where remote entries connect, and their tokens
    persons: PersonOptions | None = None  # the persons' tokens, clock and pages' bind
    sandbox: Sandbox = field(default_factory=Sandbox)  # how bot processes run
    ruleset: str = DEFAULT  # a name in server.seam.registry: it plays the tables
    settings: Mapping[str, str] = field(default_factory=dict)  # the ruleset's own, stored
    bots: Path | None = None  # BOTS (absolute), read again when each table starts (hand-ins)
    title: str = ""  # --title: the pages' title (empty: the output folder's name)

    def meta(self) -> dict[str, str]:
        ruleset = {} if self.ruleset == DEFAULT else {"ruleset": self.ruleset, **self.settings}
        bots = {} if self.bots is None else {"bots": str(self.bots)}
        return {"format": self.format, "seed": str(self.seed), "rounds": str(self.rounds),
                "groups": str(self.groups), "hands": str(self.hands or ""),
                "hero": str(self.hero if self.format == "gauntlet" else ""),
                **rules_meta(self.options, self.sandbox), **ruleset, **bots,
                **({"title": self.title} if self.title else {})}

    def fill_in_count(self) -> int:
        n = len(self.entries)
        return -(n - 1) % 3 if self.format == "gauntlet" else fill_ins(n)

    def all_entries(self) -> list[Entry]:
        return [*self.entries,
                *(fill_in(k, self.ruleset) for k in range(self.fill_in_count()))]

    def hands_per_table(self) -> int:
        """Hands (or another ruleset's games) a table plays."""
        if self.ruleset != DEFAULT:
            return load(self.ruleset).games_per_table(self.settings)
        return min(16 * self.groups, self.hands or 16 * self.groups)


@dataclass(slots=True)
class Progress:
    """What the console shows: counts across all tables."""

    tables_total: int = 0
    tables_done: int = 0
    hands_total: int = 0
    hands_done: int = 0
    running: dict[tuple[int, int], int] = field(default_factory=dict)  # table -> hands done
    round: int = 0
    stalls: int = 0
    faults: int = 0


# ("listening" | "persons" | "round" | "hand" | "table", plan): "listening" once the
# remote entries' listener is open (``Runner.remote.addresses`` says where), "persons"
# once the persons' pages are served (``Runner.person_links``).
Listener = Callable[[str, TablePlan | None], None]
# Told of every fault, as its hand ends (the console prints a line per fault).
FaultListener = Callable[[TablePlan, FaultNote], None]
# Told of hand-ins and of BOTS that cannot be read: (text, whether it is a warning).
NoticeListener = Callable[[str, bool], None]
PROGRAMS_FILE = "programs.json"  # in a table's folder: what each player played it with


# Serves the pages of a tournament's person seats while the block runs; the base URL
# (``server.web.seat_page.serve_person_seats``).
SeatPages = Callable[[PersonSeats], AbstractAsyncContextManager[str]]


class TableCarrier(Protocol):
    """Plays tables somewhere else than in this trio run (a Ray cluster:
    ``server.tournament.cluster``): the table's log folder comes back to ``root``."""

    async def play(self, job: TableJob, root: Path) -> TableOutcome: ...


def table_dir(out: Path, plan: TablePlan) -> Path:
    return out / "matches" / table_name(plan)


class Runner:
    def __init__(self, config: TournamentConfig, store: Store,
                 listener: Listener | None = None) -> None:
        self.config = config
        self.store = store
        self.entries = config.all_entries()
        self.listener = listener
        self.fault_listener: FaultListener | None = None
        self.notice_listener: NoticeListener | None = None
        # Awaited after each table is stored, outside its slot (the reports' rewrite).
        self.after_table: Callable[[], Awaitable[None]] | None = None
        self.rules = load(config.ruleset)
        self.commands = {i: e.command for i, e in enumerate(self.entries)}  # the latest good
        self.stored = dict(self.commands)  # as the store has them
        self.known: dict[int, tuple[tuple[str, ...], str]] = {}  # last played: command, hash
        self.pinned: dict[int, Program] = {}  # the last program pinned in this run
        self.uploads: dict[int, Path] = {}  # the folder of a hand-in through the page
        self.said: set[str] = set()  # warnings given (each once)
        self.progress = Progress()
        self.log = structlog.get_logger().bind(tournament=str(config.out))
        names = sorted(n for e in self.entries if (n := e.remote) is not None)
        if names and config.remote is None:
            raise ValueError(f"remote entries {', '.join(names)} need a listener")
        persons = sorted(n for e in self.entries if (n := e.person) is not None)
        if persons and config.persons is None:
            raise ValueError(f"persons {', '.join(persons)} need their tokens")
        # A remote bot, or a person, plays one table at once: a lock by its command word.
        self.busy = {f"{kind}{name}": trio.Lock() for kind, group in
                     (("tcp:", names), ("web:", persons)) for name in group}
        self.remote: RemoteSeats | None = None  # the listener, while the tournament runs
        self.persons: PersonSeats | None = None  # the persons' seats, while it runs
        self.seat_pages: SeatPages | None = None  # how their pages are served
        self.person_links: list[tuple[str, str]] = []  # (name, link), once served
        self.tables: TableCarrier | None = None  # where tables play; None: here
        self.jobs = config.jobs  # tables at once (on a cluster: as many as it has room for)
        self.node = socket.gethostname()  # what the store calls this machine
        self.portable = Portable(config.out.resolve(), config.bots)

    def _tell(self, what: str, plan: TablePlan | None = None) -> None:
        if self.listener is not None:
            self.listener(what, plan)

    def notice(self, text: str, warning: bool = False, once: str | None = None) -> None:
        """A line for the console (and the log); with ``once``, only the first time."""
        if once is not None:
            if once in self.said:
                return
            self.said.add(once)
        if warning:
            self.log.warning("bots_warning", said=text)
        else:
            self.log.info("hand_in", said=text)
        if self.notice_listener is not None:
            self.notice_listener(text, warning)

    def _read_bots(self) -> list[Entry] | str:
        """BOTS as it is now, or why it cannot be read (runs in a worker thread)."""
        assert self.config.bots is not None
        try:
            return load_entries(self.config.bots, self.config.ruleset)
        except (EntriesError, InputError, OSError) as exc:
            return reason(exc)

    def _take_hand_ins(self, found: list[Entry] | str, players: Sequence[int]) -> None:
        """The latest good command of each of ``players`` from BOTS as read (``found``)."""
        path = self.config.bots
        if isinstance(found, str):
            self.notice(f"cannot read BOTS now: {found}; every bot plays on with its last "
                         "program", warning=True, once="unreadable")
            return
        if "unreadable" in self.said:
            self.said.discard("unreadable")
            self.notice(f"{path}: read again; hand-ins are taken")
        now = {e.name: e for e in found}
        names = {e.name for e in self.entries}
        for name in sorted(set(now) - names):
            self.notice(f"{path}: bot {name!r} ignored: nobody joins a tournament once it "
                         "runs", warning=True, once=f"new {name}")
        for i in players:
            entry = self.entries[i]
            if entry.fill_in:
                continue
            current = now.get(entry.name)
            if current is None:
                self.notice(f"{path}: bot {entry.name!r} is not there: it plays on with its "
                             "last program", warning=True, once=f"gone {entry.name}")
                continue
            self.said.discard(f"gone {entry.name}")
            if current.command == self.commands[i]:
                continue
            if entry.remote is not None or current.remote is not None:
                self.notice(f"{path}: bot {entry.name!r}: a remote bot stays a remote bot "
                             f"with its NAME ({' '.join(self.commands[i])}); its new command "
                             "is ignored", warning=True,
                             once=f"remote {entry.name} {current.command}")
                continue
            if entry.person is not None or current.person is not None:
                self.notice(f"{path}: bot {entry.name!r}: a person stays a person with "
                             f"their NAME ({' '.join(self.commands[i])}); the new command "
                             "is ignored", warning=True,
                             once=f"person {entry.name} {current.command}")
                continue
            self.commands[i] = current.command

    def _read_uploads(self, players: Sequence[int]) -> dict[int, PageHandIn | str]:
        """Each of ``players``' upload that passed check-bot on the page, or why it cannot
        be used (``server.tournament.uploads``); runs in a worker thread."""
        found: dict[int, PageHandIn | str] = {}
        for i in players:
            entry = self.entries[i]
            if entry.fill_in or entry.remote is not None or entry.person is not None:
                continue
            got = current_command(self.config.out, entry.name)
            if got is not None:
                found[i] = got
        return found

    def _take_uploads(self, found: dict[int, PageHandIn | str]) -> dict[int, int]:
        """Take the uploads found over the entries' commands in BOTS (their prefix, such
        as Botzone's ``json:``, kept); which players play one: its upload number."""
        taken: dict[int, int] = {}
        for i, got in found.items():
            entry = self.entries[i]
            if isinstance(got, str):
                self.notice(f"{entry.name}'s hand-in through the page cannot be used "
                            f"({got}): it plays on with its last program", warning=True,
                            once=f"page {entry.name} {got}")
                continue
            prefix = self.rules.split_command(entry.command)[0]
            self.commands[i] = self.rules.join_command(prefix, got.argv)
            self.uploads[i] = got.folder
            taken[i] = got.n
        return taken

    def _pin(self, command: tuple[str, ...], folder: Path | None = None) -> Program | str:
        """The program pinned (runs in a worker thread), or why it cannot be."""
        try:
            return pin(command, self.rules, self.config.out, folder)
        except OSError as exc:
            return reason(exc)

    async def _programs(self, plan: TablePlan, root: Path) -> list[Program]:
        """Each player's program for this table: the latest hand-in, pinned; the console
        is told of every new one, and ``programs.json`` in the table's folder keeps them."""
        if self.config.bots is not None:
            found = await trio.to_thread.run_sync(self._read_bots)
            self._take_hand_ins(found, plan.players)
        page = self._take_uploads(await trio.to_thread.run_sync(self._read_uploads,
                                                                plan.players))
        commands = [self.commands[i] for i in plan.players]
        pinned = [await trio.to_thread.run_sync(self._pin, c, self.uploads.get(i))
                  for i, c in zip(plan.players, commands, strict=True)]
        programs: list[Program] = []
        for i, command, got in zip(plan.players, commands, pinned, strict=True):
            name = self.entries[i].name
            if not isinstance(got, str) and (gone := self._gone(i, command)):
                got = f"{', '.join(gone)}: no such file"
            if isinstance(got, str):
                last = self.pinned.get(i)
                self.notice(f"{name}'s program cannot be copied for table {table_name(plan)} "
                             f"({got}): " + ("it plays on with its last program"
                                             if last else "it runs where it is"), warning=True)
                got = last or Program(command, command, command_digest(command))
                command = got.command
            self.pinned[i] = got
            programs.append(got)
            if command != self.stored[i]:
                self.store.set_command(i, command)
                self.stored[i] = command
            before = self.known.get(i)
            self.known[i] = (command, got.hash)
            if before is None or before == (command, got.hash):
                continue
            what = f"handed in a new program ({got.short})" if before[1] != got.hash \
                else f"changed its command (the same program, {got.short})"
            if i in page:
                what += f" through the page (upload {page[i]})"
            self.notice(f"{name} {what}: plays from table {table_name(plan)}")
        write_programs(root, [self.entries[i].name for i in plan.players], programs,
                       self._shown)
        return programs

    def _shown(self, command: Sequence[str]) -> list[str]:
        """``command`` as the table's files name it: every path of the machine made
        relative to the output folder or BOTS's, else its file name (``exports.Portable``)."""
        return self.portable.command(command, self.rules)

    def _gone(self, i: int, command: tuple[str, ...]) -> list[str]:
        """The files entry ``i``'s command named and pinned last time that are not there
        now (a file being replaced: deleted, not yet written again)."""
        last = self.pinned.get(i)
        if last is None or last.command != command:
            return []
        words = self.rules.split_command(command)[1]
        return [w for w in words if w in last.files and not Path(w).is_file()]

    def _program_rows(self, plan: TablePlan, programs: Sequence[Program]) -> list[ProgramRow]:
        return [ProgramRow(plan.round, plan.table, k, e, p.command, p.hash)
                for k, (e, p) in enumerate(zip(plan.players, programs, strict=True))]

    def schedule_known(self) -> None:
        """Store every table that can be known now (every round but Swiss's later ones)."""
        c, n = self.config, len(self.config.entries)
        if c.format == "round-robin":
            self.store.schedule(round_robin(n, c.seed, c.rounds))
        elif c.format == "gauntlet":
            self.store.schedule(gauntlet(n, c.seed, c.rounds, c.hero))
        elif c.format == "swiss" and self.store.rounds_scheduled() == 0:
            self.store.schedule(swiss_round(n, c.seed, 1, {}, self.rules.swiss_tiebreak))

    def seal(self) -> list[str]:
        """Write ``sealed.json``: every table of a round with a table still to play
        (``server.tournament.sealed``); the tables it lists."""
        done = {(p.round, p.table) for p in self.store.plans("done")}
        tables = sealed_tables(self.store.plans(), done)
        write_sealed(self.config.out, tables)
        return tables

    def _total_tables(self) -> int:
        c = self.config
        if c.format == "swiss":
            return c.rounds * ((len(c.entries) + c.fill_in_count()) // 4)
        return len(self.store.plans())

    async def run(self) -> None:
        """Play every table not yet stored; with remote entries, listen for them meanwhile.

        A port that cannot be listened on is a ``RemoteSetupError``, raised
        before anything is stored.
        """
        remote = self.config.remote
        async with AsyncExitStack() as stack:
            if remote is not None and any(e.remote is not None for e in self.entries):
                self.remote = await stack.enter_async_context(open_remote_seats(
                    remote.host, remote.port, remote.tokens, log=self.log))
                stack.callback(setattr, self, "remote", None)
                self._tell("listening")
            persons = self.config.persons
            if persons is not None and any(e.person is not None for e in self.entries):
                if self.seat_pages is None:
                    raise ValueError("persons play from pages, and nothing serves them")
                board, after_timeout = self.rules.person_board(self.config.settings)
                seats = PersonSeats(persons, board, after_timeout=after_timeout)
                seats.over_note = "The tournament is over. Thank you for playing."
                base = await stack.enter_async_context(self.seat_pages(seats))
                self.persons = seats
                stack.callback(setattr, self, "persons", None)
                self.person_links = list(links(base, persons))
                self._tell("persons")
            await self._run()

    async def _run(self) -> None:
        c = self.config
        self.store.initialise(c.meta(), self.entries)
        for row in self.store.programs():  # the last program each bot played
            self.known[row.entry] = (row.command, row.hash)
        self.schedule_known()
        p = self.progress
        p.tables_total = self._total_tables()
        p.tables_done = len(self.store.plans("done"))
        p.hands_total = p.tables_total * c.hands_per_table()
        p.hands_done = p.tables_done * c.hands_per_table()
        limiter = trio.CapacityLimiter(max(1, self.jobs))
        self.seal()  # before any table starts
        if c.format != "swiss":
            await self._play(self.store.plans("scheduled"), limiter)
            self.seal()
            return
        for r in range(1, c.rounds + 1):
            if r > self.store.rounds_scheduled():
                done = self.store.table_results()
                n = len(c.entries)
                points, totals = seating_points(self.rules.ranking, done,
                                                self.store.hand_rows(), n)
                self.store.schedule(swiss_round(n, c.seed, r, points,
                                                self.rules.swiss_tiebreak,
                                                wins_by_entry(done, n), totals))
                self.seal()  # the new round's tables, before any of them starts
            p.round = r
            self._tell("round")
            await self._play([t for t in self.store.plans("scheduled") if t.round == r], limiter)
        self.seal()

    async def _play(self, plans: list[TablePlan], limiter: trio.CapacityLimiter) -> None:
        async with trio.open_nursery() as nursery:
            for plan in plans:
                nursery.start_soon(self._table, plan, limiter)

    async def _table(self, plan: TablePlan, limiter: trio.CapacityLimiter) -> None:
        async with AsyncExitStack() as stack:
            for word in sorted({w for e in plan.players
                                if (w := self.entries[e].command[0]) in self.busy}):
                await stack.enter_async_context(self.busy[word])
            await stack.enter_async_context(limiter)
            c = self.config
            root = table_dir(c.out, plan)
            if root.exists():  # left by a run that was stopped: the table is played again whole
                shutil.rmtree(root)
            root.parent.mkdir(parents=True, exist_ok=True)
            self.store.started(plan, root)
            programs = await self._programs(plan, root)
            job = TableJob(plan, tuple(self.entries[e].name for e in plan.players),
                           tuple(p.run for p in programs), c.ruleset, dict(c.settings),
                           c.groups, c.hands, c.options, c.sandbox,
                           tuple(tuple(self._shown(p.run)) for p in programs))
            key = (plan.round, plan.table)
            self.progress.running[key] = 0
            try:
                here = any(self.entries[e].person is not None for e in plan.players)
                if self.tables is None or here:  # a person's clicks come to this process
                    outcome = await play_table(job, root, partial(self.hand_done, plan),
                                               self.remote, self.persons)
                    outcome.node = self.node
                else:
                    outcome = await self.tables.play(job, root)
                    # The hands whose news did not come while it played.
                    self.progress.hands_done += len({r.hand for r in outcome.hands}) \
                        - self.progress.running.get(key, 0)
            finally:
                self.progress.running.pop(key, None)
            self.store.finish(plan, outcome.results, outcome.hands, outcome.kinds,
                              self._program_rows(plan, programs), outcome.node)
            self.seal()
            self.progress.tables_done += 1
            self._tell("table", plan)
        if self.after_table is not None:
            await self.after_table()

    def hand_done(self, plan: TablePlan, stalls: int, faults: Sequence[FaultNote],
                   hands: int = 1) -> None:
        """A hand (or game) of ``plan`` ended, with its host stalls and its faults
        (``hands`` 0: news of faults that came after the table's end)."""
        p = self.progress
        key = (plan.round, plan.table)
        p.running[key] = p.running.get(key, 0) + hands
        p.hands_done += hands
        p.stalls += stalls
        p.faults += len(faults)
        if self.fault_listener is not None:
            for note in faults:
                self.fault_listener(plan, note)
        self._tell("hand", plan)

    def hands_lost(self, plan: TablePlan) -> None:
        """A table's hands told so far do not count: it is played again from its start."""
        p = self.progress
        p.hands_done -= p.running.get((plan.round, plan.table), 0)
        p.running[(plan.round, plan.table)] = 0


def write_programs(root: Path, names: Sequence[str], programs: Sequence[Program],
                   shown: Callable[[Sequence[str]], list[str]] = list) -> None:
    """``programs.json`` in a table's folder: each player's program, as it played, its
    paths as ``shown`` gives them (the runner's: none of the machine)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / PROGRAMS_FILE).write_text(json.dumps(
        [{"player": k, "name": name, "command": shown(p.command), "hash": p.hash,
          "run": shown(p.run), "files": shown(p.files)}
         for k, (name, p) in enumerate(zip(names, programs, strict=True))],
        ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
