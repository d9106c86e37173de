"""Play a tournament: tables in parallel in one trio run, each a ``run_match``.

At most ``jobs`` tables play at once (a ``CapacityLimiter``). Every table plays
with host-stall allowances on (``TableOptions.host_stalls``), so a table slowed
by its neighbours does not cost its bots fines. A finished table is stored at
once; a table that did not finish leaves nothing in the store, and its log
folder is replaced when it is played again on ``--resume``.

Remote entries (``tcp:NAME``) share one listener (``server.remote``) for the
whole run, opened before the first table and closed after the last: each
table's launcher takes its remote seats from it. A remote bot is one client,
which plays one hand at a time, so a table waits until every remote entry it
seats is free (a lock per name, taken in name order so two tables cannot hold
one each). Swiss rounds seat each bot once anyway; round-robin tables of later
rounds and a gauntlet's tables, which may seat the same bot, then wait.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path

import structlog
import trio

from rulesets.registry import DEFAULT, load
from rulesets.seam import TableRequest
from server.bots import Peer
from server.match import HandSummary, MatchConfig, MatchResult, Player, run_match
from server.remote import RemoteOptions, RemoteSeats, open_remote_seats
from server.seats import Launcher, ProcessLauncher, Sandbox, SeatRequest
from server.table import TableOptions
from server.tournament.entries import fill_in
from server.tournament.schedule import (
    TablePlan,
    fill_ins,
    gauntlet,
    round_robin,
    swiss_round,
)
from server.tournament.standings import HandRow, points_by_entry
from server.tournament.store import Entry, PlayerResult, Store

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
    sandbox: Sandbox = field(default_factory=Sandbox)  # how bot processes run
    ruleset: str = DEFAULT  # the default's tables are this runner's own; others' play_table
    settings: Mapping[str, str] = field(default_factory=dict)  # the ruleset's own, stored

    def meta(self) -> dict[str, str]:
        ruleset = {} if self.ruleset == DEFAULT else {"ruleset": self.ruleset, **self.settings}
        return {"format": self.format, "seed": str(self.seed), "rounds": str(self.rounds),
                "groups": str(self.groups), "hands": str(self.hands or ""),
                "hero": str(self.hero if self.format == "gauntlet" else ""),
                **rules_meta(self.options, self.sandbox), **ruleset}

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


class TableLauncher:
    """Each table's launcher: its own bot processes, and the tournament's remote seats.

    Processes are the table's own (their working folders are named by hand and
    seat, so two tables must not share a ``ProcessLauncher``); remote seats come
    from the one listener of the tournament, and neither start nor sweep
    processes. Tables start and stop bots at the same time freely: a stopping
    bot's sweep spares the bots other tables are starting (``server.bots``).
    """

    def __init__(self, inner: Launcher | None = None,
                 remote: RemoteSeats | None = None) -> None:
        self.inner = inner or ProcessLauncher()
        self.remote = remote

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        peer = self.remote.peer(request) if self.remote is not None else None
        if peer is not None:
            return peer
        return await self.inner.open(request, nursery)


# ("listening" | "round" | "hand" | "table", plan): "listening" once the remote
# entries' listener is open (``Runner.remote.addresses`` says where).
Listener = Callable[[str, TablePlan | None], None]
# Told of every hand that had a fault, as it ends (the console prints a line per fault).
FaultListener = Callable[[TablePlan, HandSummary], None]


def table_dir(out: Path, plan: TablePlan) -> Path:
    return out / "matches" / f"r{plan.round:02d}-t{plan.table:02d}"


class Runner:
    def __init__(self, config: TournamentConfig, store: Store,
                 listener: Listener | None = None) -> None:
        self.config = config
        self.store = store
        self.entries = config.all_entries()
        self.listener = listener
        self.fault_listener: FaultListener | None = None
        self.progress = Progress()
        self.log = structlog.get_logger().bind(tournament=str(config.out))
        names = sorted(n for e in self.entries if (n := e.remote) is not None)
        if names and config.remote is None:
            raise ValueError(f"remote entries {', '.join(names)} need a listener")
        self.busy = {name: trio.Lock() for name in names}  # a remote bot plays one table at once
        self.remote: RemoteSeats | None = None  # the listener, while the tournament runs

    def _tell(self, what: str, plan: TablePlan | None = None) -> None:
        if self.listener is not None:
            self.listener(what, plan)

    def schedule_known(self) -> None:
        """Store every table that can be known now (every round but Swiss's later ones)."""
        c, n = self.config, len(self.config.entries)
        if c.format == "round-robin":
            self.store.schedule(round_robin(n, c.seed, c.rounds))
        elif c.format == "gauntlet":
            self.store.schedule(gauntlet(n, c.seed, c.rounds, c.hero))
        elif c.format == "swiss" and self.store.rounds_scheduled() == 0:
            self.store.schedule(swiss_round(n, c.seed, 1, {}))

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
        if remote is None or not self.busy:
            await self._run()
            return
        async with open_remote_seats(remote.host, remote.port, remote.tokens,
                                     log=self.log) as seats:
            self.remote = seats
            self._tell("listening")
            try:
                await self._run()
            finally:
                self.remote = None

    async def _run(self) -> None:
        c = self.config
        self.store.initialise(c.meta(), self.entries)
        self.schedule_known()
        p = self.progress
        p.tables_total = self._total_tables()
        p.tables_done = len(self.store.plans("done"))
        p.hands_total = p.tables_total * c.hands_per_table()
        p.hands_done = p.tables_done * c.hands_per_table()
        limiter = trio.CapacityLimiter(max(1, c.jobs))
        if c.format != "swiss":
            await self._play(self.store.plans("scheduled"), limiter)
            return
        for r in range(1, c.rounds + 1):
            if r > self.store.rounds_scheduled():
                points = points_by_entry(self.store.table_results(), len(c.entries))
                self.store.schedule(swiss_round(len(c.entries), c.seed, r, points))
            p.round = r
            self._tell("round")
            await self._play([t for t in self.store.plans("scheduled") if t.round == r], limiter)

    async def _play(self, plans: list[TablePlan], limiter: trio.CapacityLimiter) -> None:
        async with trio.open_nursery() as nursery:
            for plan in plans:
                nursery.start_soon(self._table, plan, limiter)

    async def _table(self, plan: TablePlan, limiter: trio.CapacityLimiter) -> None:
        async with AsyncExitStack() as stack:
            for name in sorted({n for e in plan.players if (n := self.entries[e].remote)}):
                await stack.enter_async_context(self.busy[name])
            await stack.enter_async_context(limiter)
            c = self.config
            root = table_dir(c.out, plan)
            if root.exists():  # left by a run that was stopped: the table is played again whole
                shutil.rmtree(root)
            root.parent.mkdir(parents=True, exist_ok=True)
            self.store.started(plan, root)
            if c.ruleset != DEFAULT:
                await self._ruleset_table(plan, root)
                return
            players = tuple(Player(self.entries[e].name, self.entries[e].command)
                            for e in plan.players)
            config = MatchConfig(players, plan.seed, c.groups, root, c.options, "autoplay",
                                 TableLauncher(ProcessLauncher(c.sandbox), remote=self.remote),
                                 hands=c.hands)
            key = (plan.round, plan.table)
            self.progress.running[key] = 0

            def on_hand(summary: HandSummary, result: MatchResult) -> None:
                self.progress.running[key] += 1
                self.progress.hands_done += 1
                self.progress.stalls += sum(summary.outcome.host_stalls)
                self.progress.faults += len(summary.faults)
                if summary.faults and self.fault_listener is not None:
                    self.fault_listener(plan, summary)
                self._tell("hand", plan)

            try:
                result = await run_match(config, on_hand, self.log.bind(table=f"{key}"))
            finally:
                done = self.progress.running.pop(key, 0)
            if not result.completed:  # autoplay always completes; anything else is a bug
                raise RuntimeError(f"table {key} did not complete ({done} hands)")
            rows, kinds = hand_rows(plan, result)
            self.store.finish(plan, player_results(plan, result, rows), rows, kinds)
            self.progress.tables_done += 1
            self._tell("table", plan)


    async def _ruleset_table(self, plan: TablePlan, root: Path) -> None:
        """A table of a ruleset behind the seam: the ruleset plays it, the store keeps
        one row per seat and game, as for the default ruleset's hands."""
        c = self.config
        key = (plan.round, plan.table)
        self.progress.running[key] = 0

        def on_game() -> None:
            self.progress.running[key] += 1
            self.progress.hands_done += 1
            self._tell("hand", plan)

        request = TableRequest([(self.entries[e].name, self.entries[e].command)
                                for e in plan.players], plan.seed, root, c.settings,
                               c.sandbox, on_game)
        try:
            rows = await load(c.ruleset).play_table(request)
        finally:
            self.progress.running.pop(key, None)
        hands = [HandRow(plan.round, plan.table, r.game, r.group, r.deal, r.seat,
                         plan.players[r.player], r.points, 0, r.faulted, 0, r.won, r.drawn)
                 for r in rows]
        results = []
        for player, entry in enumerate(plan.players):
            mine = [r for r in rows if r.player == player]
            results.append(PlayerResult(entry, sum(r.points for r in mine), 0,
                                        sum(r.faulted for r in mine), sum(r.won for r in mine),
                                        sum(r.drawn for r in mine), 0, len(mine)))
        self.store.finish(plan, results, hands, [r.result for r in rows])
        self.progress.tables_done += 1
        self._tell("table", plan)


def hand_rows(plan: TablePlan, result: MatchResult) -> tuple[list[HandRow], list[str]]:
    rows: list[HandRow] = []
    kinds: list[str] = []
    for h in result.hands:
        engine_result = h.outcome.engine.result
        winner = None if engine_result is None else engine_result.winner
        kind = "draw" if engine_result is None or engine_result.kind is None \
            else engine_result.kind.value
        faulted = {player for player, _ in h.faults}
        for seat, player in enumerate(h.plan.seats):
            rows.append(HandRow(plan.round, plan.table, h.plan.number, h.plan.group,
                                h.plan.deal_index, seat, plan.players[player], h.points[player],
                                h.fines[player], player in faulted,
                                h.outcome.host_stalls[seat], winner == seat, winner is None))
            kinds.append(kind)
    return rows, kinds


def player_results(plan: TablePlan, result: MatchResult,
                   rows: list[HandRow]) -> list[PlayerResult]:
    out = []
    for player, totals in enumerate(result.totals):
        entry = plan.players[player]
        mine = [r for r in rows if r.entry == entry]
        out.append(PlayerResult(entry, totals.points, totals.fines, totals.faults, totals.wins,
                                sum(r.drawn for r in mine), sum(r.stalls for r in mine),
                                len(mine)))
    return out
