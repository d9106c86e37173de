"""One tournament table, played wherever it runs: here, or on a Ray node.

The runner decides what a table is (``TableJob``: its plan, each player's
name and the command it runs, the rules) and keeps the record; ``play_table``
plays it into a folder and gives back what the store keeps
(``TableOutcome``). The same function serves a tournament on this machine,
in the runner's own trio run, and one on a cluster, where a Ray task calls
``run_job`` on its node (``server.tournament.cluster``). Everything in a job
and an outcome is plain data, so it travels between machines.

Every ruleset plays its own tables (``Ruleset.play_table``: the default
ruleset's is a ``run_match`` with host-stall allowances on); ``on_hand`` is
told after every hand (or game) of the host stalls it had and its faults.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from server.bots.person import PersonSeats
from server.bots.remote import RemoteSeats
from server.bots.seats import Sandbox, TableOptions
from server.output.live import LiveFeed, feed_path
from server.seam.contract import FaultNote, TableRequest
from server.seam.registry import load
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
    # What match.json says each player runs: ``runs`` with no path of the machine.
    shown: tuple[tuple[str, ...], ...] = ()


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


async def play_table(job: TableJob, root: Path, on_hand: HandListener | None = None,
                     remote: RemoteSeats | None = None,
                     persons: PersonSeats | None = None) -> TableOutcome:
    """Play ``job`` into ``root`` (its log folder, made there) by its ruleset's
    ``play_table``; the store keeps one row per seat and hand (or game)."""
    plan = job.plan
    told: list[FaultNote] = []

    def on_game(stalls: int = 0, faults: Sequence[FaultNote] = ()) -> None:
        told.extend(faults)
        if on_hand is not None:
            on_hand(stalls, faults)

    # The table's live feed; its hands' pages are those of its report, matches/rRR-tTT.html
    # (``server.tournament.report``), as seen from the tournament's folder.
    live = LiveFeed(feed_path(root), report=f"{root.parent.name}/{root.name}")
    request = TableRequest(list(zip(job.names, job.runs, strict=True)), plan.seed, root,
                           job.settings, job.sandbox, on_game, job.options, remote,
                           job.groups, job.hands, f"{(plan.round, plan.table)}", live=live,
                           title=f"Round {plan.round}, table {plan.table}",
                           shown=job.shown, persons=persons)
    try:
        rows = await load(job.ruleset).play_table(request)
    finally:
        live.close()
    hands = [HandRow(plan.round, plan.table, r.game, r.group, r.deal, r.seat,
                     plan.players[r.player], r.points, r.fines, r.faulted, r.stalls, r.won,
                     r.drawn, r.errors)
             for r in rows]
    results = []
    for player, entry in enumerate(plan.players):
        mine = [r for r in rows if r.player == player]
        results.append(PlayerResult(entry, sum(r.points for r in mine),
                                    sum(r.fines for r in mine), sum(r.faulted for r in mine),
                                    sum(r.won for r in mine), sum(r.drawn for r in mine),
                                    sum(r.stalls for r in mine), len(mine)))
    return TableOutcome(results, hands, [r.result for r in rows], told)
