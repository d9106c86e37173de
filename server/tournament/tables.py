"""One tournament table, played wherever it runs: here, or on a Ray node.

The runner decides what a table is (``TableJob``: its plan, each player's
name and the command it runs, the rules) and keeps the record; ``play_table``
plays it into a folder and gives back what the store keeps
(``TableOutcome``). The same function serves a tournament on this machine,
in the runner's own trio run, and one on a cluster, where a Ray task calls
``run_job`` on its node (``server.tournament.cluster``). Everything in a job
and an outcome is plain data, so it travels between machines.

A default-ruleset table is a ``run_match`` (host-stall allowances on); a
table of another ruleset is its ``Ruleset.play_table``. ``on_hand`` is told
after every hand (or game) of the host stalls it had and its faults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import structlog
import trio

from rulesets.default.match import HandSummary, MatchConfig, MatchResult, Player, run_match
from rulesets.default.table import TableOptions
from server.bots.processes import STDERR_TAIL, Peer
from server.bots.remote import RemoteSeats
from server.bots.seats import Launcher, ProcessLauncher, Sandbox, SeatRequest
from server.output.say import bot_error_causes
from server.seam.contract import TableRequest
from server.seam.registry import DEFAULT, load
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow
from server.tournament.store import PlayerResult


@dataclass(frozen=True, slots=True)
class TableJob:
    """A table as it is handed to whoever plays it."""

    plan: TablePlan
    names: tuple[str, ...]  # by player (P0..P3)
    runs: tuple[tuple[str, ...], ...]  # what each player's seat runs (its pinned program)
    ruleset: str
    settings: Mapping[str, str]
    groups: int
    hands: int | None
    options: TableOptions
    sandbox: Sandbox


@dataclass(frozen=True, slots=True)
class FaultNote:
    """A fault, as the console prints it."""

    hand: int  # 1-based, in the table
    player: int  # in the table
    cause: str
    stderr_tail: bytes | None = None
    stderr_file: str | None = None  # relative to the table's folder
    stdout_tail: bytes | None = None  # what it wrote on stdout that the protocol refused
    charged: bool = True  # False: a bug the bot's framework answered for (no fault)
    unit: str = "hand"  # what the table plays: "hand", or "game" for a turn-based ruleset


@dataclass(slots=True)
class TableOutcome:
    """What the store keeps of a finished table, and where it was played."""

    results: list[PlayerResult]
    hands: list[HandRow]
    kinds: list[str]  # each hand row's result
    faults: list[FaultNote] = field(default_factory=list)
    node: str = ""  # set by whoever ran it


# After each hand or game: its host stalls and its faults.
HandListener = Callable[[int, Sequence[FaultNote]], None]


class TableLauncher:
    """Each table's launcher: its own bot processes, and the tournament's remote seats.

    Processes are the table's own (their working folders are named by hand and
    seat, so two tables must not share a ``ProcessLauncher``); remote seats come
    from the one listener of the tournament, and neither start nor sweep
    processes. Tables start and stop bots at the same time freely: a stopping
    bot's sweep spares the bots other tables are starting (``server.bots.processes``).
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


async def play_table(job: TableJob, root: Path, on_hand: HandListener | None = None,
                     remote: RemoteSeats | None = None) -> TableOutcome:
    """Play ``job`` into ``root`` (its log folder, made here)."""
    tell = on_hand or (lambda stalls, faults: None)
    log = structlog.get_logger().bind(table=f"{(job.plan.round, job.plan.table)}")
    if job.ruleset != DEFAULT:
        return await _ruleset_table(job, root, tell)
    config = MatchConfig(tuple(Player(n, r) for n, r in zip(job.names, job.runs, strict=True)),
                         job.plan.seed, job.groups, root, job.options, "autoplay",
                         TableLauncher(ProcessLauncher(job.sandbox), remote=remote),
                         hands=job.hands)
    faults: list[FaultNote] = []

    def hand_done(summary: HandSummary, result: MatchResult) -> None:
        notes = fault_notes(summary, root)
        faults.extend(notes)
        tell(sum(summary.outcome.host_stalls), notes)

    result = await run_match(config, hand_done, log)
    if not result.completed:  # autoplay always completes; anything else is a bug
        raise RuntimeError(f"table {job.plan} did not complete ({len(result.hands)} hands)")
    rows, kinds = hand_rows(job.plan, result)
    return TableOutcome(player_results(job.plan, result, rows), rows, kinds, faults)


def fault_notes(summary: HandSummary, root: Path) -> list[FaultNote]:
    notes = []
    for player, cause in summary.faults:
        tail, path = summary.stderr.get(player, (None, None))
        file = None
        if path is not None:
            file = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        notes.append(FaultNote(summary.plan.number + 1, player, cause, tail, file,
                               summary.stdout.get(player)))
    for player, reports in summary.reports.items():  # bugs its framework answered for
        notes += [FaultNote(summary.plan.number + 1, player, cause, charged=False)
                  for cause in bot_error_causes(reports)]
    return notes


async def _ruleset_table(job: TableJob, root: Path,
                         tell: Callable[[int, Sequence[FaultNote]], None]) -> TableOutcome:
    """A table of a ruleset behind the seam: the ruleset plays it; the store keeps one
    row per seat and game, as for the default ruleset's hands."""
    plan = job.plan

    def on_game(faults: Sequence[tuple[int, int, str, Path | None]] = ()) -> None:
        tell(0, [FaultNote(game, player, cause, *_stderr_of(file, root), unit="game")
                 for game, player, cause, file in faults])

    request = TableRequest(list(zip(job.names, job.runs, strict=True)), plan.seed, root,
                           job.settings, job.sandbox, on_game)
    rows = await load(job.ruleset).play_table(request)
    hands = [HandRow(plan.round, plan.table, r.game, r.group, r.deal, r.seat,
                     plan.players[r.player], r.points, 0, r.faulted, 0, r.won, r.drawn)
             for r in rows]
    results = []
    for player, entry in enumerate(plan.players):
        mine = [r for r in rows if r.player == player]
        results.append(PlayerResult(entry, sum(r.points for r in mine), 0,
                                    sum(r.faulted for r in mine), sum(r.won for r in mine),
                                    sum(r.drawn for r in mine), 0, len(mine)))
    return TableOutcome(results, hands, [r.result for r in rows])


def _stderr_of(file: Path | None, root: Path) -> tuple[bytes | None, str | None]:
    """A seat's stderr file of a game, for its fault line: its end, and its path in the
    table's folder (nothing when the seat's bot wrote none)."""
    if file is None:
        return None, None
    try:
        with file.open("rb") as f:
            f.seek(max(0, f.seek(0, 2) - STDERR_TAIL))
            tail = f.read()
    except OSError:
        return b"", None
    return tail, str(file.relative_to(root)) if file.is_relative_to(root) else str(file)


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
