"""A tournament table of the default ruleset: a ``run_match`` into the table's folder.

The tournament (``server.tournament``) decides the table and keeps its record;
this plays it: its seats from the table's own bot processes, the tournament's
TCP seats or its person seats (``web:NAME``, ``server.bots.person``), with
host-stall allowances on, the faults told after every hand, and one row per
seat and hand as the tournament stores them.
"""

from __future__ import annotations

from pathlib import Path

import structlog

from rulesets.default.match import HandSummary, MatchConfig, MatchResult, Player, run_match
from server.bots.remote import TableLauncher
from server.bots.seats import Launcher, ProcessLauncher, TableOptions
from server.output.say import bot_error_causes
from server.seam.contract import FaultNote, TableRequest, TableRow


async def play_table(table: TableRequest) -> list[TableRow]:
    """Play ``table`` (its log folder, ``table.root``, made here)."""
    tell = table.on_game or (lambda stalls, faults: None)
    log = structlog.get_logger().bind(table=table.label)
    options: TableOptions = table.options or TableOptions(host_stalls=True)
    shown = table.shown or [run for _, run in table.players]
    launcher: Launcher = TableLauncher(ProcessLauncher(table.sandbox), remote=table.remote)
    if table.persons is not None:  # web:NAME players: the tournament's person seats
        launcher = table.persons.over(launcher)
    config = MatchConfig(tuple(Player(name, run, tuple(words)) for (name, run), words
                               in zip(table.players, shown, strict=True)), table.seed,
                         table.groups, table.root, options, "autoplay", launcher,
                         hands=table.hands, live=table.live, title=table.title)

    def hand_done(summary: HandSummary, result: MatchResult) -> None:
        tell(sum(summary.outcome.host_stalls), fault_notes(summary, table.root))

    result = await run_match(config, hand_done, log)
    if not result.completed:  # autoplay always completes; anything else is a bug
        raise RuntimeError(f"table {table.label} did not complete ({len(result.hands)} hands)")
    return table_rows(result)


def fault_notes(summary: HandSummary, root: Path) -> list[FaultNote]:
    notes = []
    for player, cause in summary.faults:
        tail, path = summary.stderr.get(player, (None, None))
        file = None
        if path is not None:
            file = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        notes.append(FaultNote(summary.plan.number + 1, player, cause, tail, file,
                               summary.stdout.get(player),
                               advice=summary.advice.get(player, "")))
    for player, reports in summary.reports.items():  # bugs its framework answered for
        notes += [FaultNote(summary.plan.number + 1, player, cause, charged=False,
                            problem=f"own code: {what}")
                  for what, cause in zip(reports.distinct, bot_error_causes(reports),
                                         strict=True)]
    return notes


def table_rows(result: MatchResult) -> list[TableRow]:
    """One row per seat and hand, in the order played."""
    rows: list[TableRow] = []
    for h in result.hands:
        engine_result = h.outcome.engine.result
        winner = None if engine_result is None else engine_result.winner
        kind = "draw" if engine_result is None or engine_result.kind is None \
            else engine_result.kind.value
        faulted = {player for player, _ in h.faults}
        for seat, player in enumerate(h.plan.seats):
            rows.append(TableRow(h.plan.number, h.plan.group, h.plan.deal_index, seat, player,
                                 h.points[player], player in faulted, winner == seat,
                                 winner is None, kind, fines=h.fines[player],
                                 stalls=h.outcome.host_stalls[seat],
                                 errors=h.reports[player].count if player in h.reports else 0))
    return rows


