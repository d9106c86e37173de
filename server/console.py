"""What a person sees: the readable account with -v, else a progress bar and a table."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text
from structlog.typing import EventDict

from server.account import account_line
from server.say import Repeats, bot_error_causes, fault_key, fault_line

if TYPE_CHECKING:
    from server.match import HandSummary, MatchResult


class _JsonLines:
    """A processor that appends each event to a file as one JSON line."""

    def __init__(self, path: Path) -> None:
        # Open for as long as this logging configuration, so the rest of the process;
        # line-buffered: whatever stops the match, the events so far are on disk.
        self.file = path.open("a", encoding="utf-8", buffering=1)

    def __call__(self, _: Any, __: str, event: EventDict) -> EventDict:
        self.file.write(json.dumps(event, default=str, ensure_ascii=False) + "\n")
        return event


def _account(_: Any, __: str, event: EventDict) -> str:
    """The console's line for an event (``server.account``), or drop it."""
    line = account_line(event)
    if line is None:
        raise structlog.DropEvent
    return line


def _drop(_: Any, __: str, event: EventDict) -> str:
    raise structlog.DropEvent


def configure_logging(verbose: bool, events: Path | None = None) -> None:
    """-v: the readable account on stderr; ``events``: every event as JSON lines.

    Without -v the table's debug events (every line sent and received) are
    dropped by the logger before any processor runs, so they cost one no-op
    call each. ``events``, a file in the match folder, gets them too with -v,
    else the info events (fines, faults, hands).
    """
    level = logging.DEBUG if verbose else logging.INFO if events else logging.CRITICAL
    processors: list[Any] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=False),
    ]
    if events is not None:
        processors.append(_JsonLines(events))
    processors.append(_account if verbose else _drop)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


def say_faults(console: Console, repeats: Repeats, summary: HandSummary,
               result: MatchResult) -> None:
    """A line for each fault of a hand: who, where, why, and the end of the bot's stderr;
    a fault already said (same player, cause and stderr) is only counted in ``repeats``."""
    for player, cause in summary.faults:
        name = result.config.players[player].name
        where, who = f"hand {summary.plan.number + 1}", f"player {player} ({name})"
        tail, path = summary.stderr.get(player, (None, None))
        if repeats.first(fault_key(who, cause, tail), who, where):
            console.print(fault_line(where, who, cause, tail, path,
                                     stdout_tail=summary.stdout.get(player)),
                          markup=False, emoji=False, highlight=False)
    for player, reports in summary.reports.items():
        name = result.config.players[player].name
        where, who = f"hand {summary.plan.number + 1}", f"player {player} ({name})"
        for what, cause in zip(reports.distinct, bot_error_causes(reports), strict=True):
            if repeats.first((who, what), f"{who}, {what}", where):
                console.print(f"{where}: {who}: {cause}", markup=False, emoji=False,
                              highlight=False)


def say_repeats(console: Console, repeats: Repeats) -> None:
    for line in repeats.summary():
        console.print(line, markup=False, emoji=False, highlight=False)


class MatchProgress:
    """A progress bar over the hands, with a line for each fault above it."""

    def __init__(self, total: int, console: Console, repeats: Repeats) -> None:
        self.console = console
        self.repeats = repeats
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
        say_faults(self.console, self.repeats, summary, result)
        leader = result.ranking()[0]
        self.progress.update(self.task, advance=1,
                             status=f"leader P{leader} {result.totals[leader].points:+d}")


def ranking_table(result: MatchResult) -> Table:
    state = "completed" if result.completed else "NOT completed"
    played = sum(1 for h in result.hands if not h.aborted)
    table = Table(title=f"Match seed {result.config.seed}: {played} hands, {state}")
    errors = any(t.bot_errors for t in result.totals)  # only when a bot reported its bugs
    for col in ("rank", "player", "AI", "points", "fines", "faults", "wins") + (
            ("bot errors",) if errors else ()):
        table.add_column(col, justify="left" if col in ("player", "AI") else "right")
    for rank, p in enumerate(result.ranking(), start=1):
        t = result.totals[p]
        name = result.config.players[p].name
        if result.ended_by_fault == p:
            name += " (ended the match)"
        table.add_row(str(rank), f"P{p}", Text(name), str(t.points), str(t.fines), str(t.faults),
                      str(t.wins), *((str(t.bot_errors),) if errors else ()))
    return table
