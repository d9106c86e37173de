"""What a person sees: structlog's account with -v, else a progress bar and a table."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any

import structlog
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from server.say import fault_line

if TYPE_CHECKING:
    from server.match import HandSummary, MatchResult


def configure_logging(verbose: bool) -> None:
    """-v: every line and decision on stderr; otherwise warnings only go to the bar."""
    level = logging.DEBUG if verbose else logging.CRITICAL
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="%H:%M:%S.%f", utc=False),
            structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty()),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


class MatchProgress:
    """A progress bar over the hands, with a line for each fault above it."""

    def __init__(self, total: int, console: Console) -> None:
        self.console = console
        self.progress = Progress(
            TextColumn("[bold]match"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[status]}"), TimeElapsedColumn(), console=console,
            transient=False,
        )
        self.task = self.progress.add_task("hands", total=total, status="")

    def __enter__(self) -> MatchProgress:
        self.progress.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.stop()

    def hand_done(self, summary: HandSummary, result: MatchResult) -> None:
        for player, cause in summary.faults:
            name = result.config.players[player].name
            self.console.print(fault_line(f"hand {summary.plan.number + 1}",
                                          f"player {player} ({name})", cause,
                                          *summary.stderr.get(player, (None, None))),
                               markup=False, emoji=False, highlight=False)
        leader = result.ranking()[0]
        self.progress.update(self.task, advance=1,
                             status=f"leader P{leader} {result.totals[leader].points:+d}")


def ranking_table(result: MatchResult) -> Table:
    state = "completed" if result.completed else "NOT completed"
    played = sum(1 for h in result.hands if not h.aborted)
    table = Table(title=f"Match seed {result.config.seed}: {played} hands, {state}")
    for col in ("rank", "player", "AI", "points", "fines", "faults", "wins"):
        table.add_column(col, justify="left" if col in ("player", "AI") else "right")
    for rank, p in enumerate(result.ranking(), start=1):
        t = result.totals[p]
        name = result.config.players[p].name
        if result.ended_by_fault == p:
            name += " (ended the match)"
        table.add_row(str(rank), f"P{p}", Text(name), str(t.points), str(t.fines), str(t.faults),
                      str(t.wins))
    return table
