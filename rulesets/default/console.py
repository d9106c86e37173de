"""What a person sees of a default-ruleset match: a progress bar, a line per fault,
and the ranking table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from rulesets.default.late import LateAnswer, late_answers
from server.output.say import Repeats, bot_error_causes, fault_key, fault_line

if TYPE_CHECKING:
    from rulesets.default.match import HandSummary, MatchResult


def say_faults(console: Console, repeats: Repeats, summary: HandSummary,
               result: MatchResult) -> None:
    """A line for each fault of a hand: who, where, why, and the end of the bot's stderr;
    a fault already said (same player, cause and stderr) is only counted in ``repeats``.
    A bot's first late answer is said too (how late, its fine, its step on the hand's
    page); its later ones are counted."""
    for player, cause in summary.faults:
        name = result.config.players[player].name
        where, who = f"hand {summary.plan.number + 1}", f"player {player} ({name})"
        tail, path = summary.stderr.get(player, (None, None))
        if repeats.first(fault_key(who, cause, tail), who, where):
            console.print(fault_line(where, who, cause, tail, path,
                                     stdout_tail=summary.stdout.get(player),
                                     advice=summary.advice.get(player, "")),
                          markup=False, emoji=False, highlight=False)
    for player, reports in summary.reports.items():
        name = result.config.players[player].name
        where, who = f"hand {summary.plan.number + 1}", f"player {player} ({name})"
        for what, cause in zip(reports.distinct, bot_error_causes(reports), strict=True):
            if repeats.first((who, what), f"{who}, {what}", where):
                console.print(f"{where}: {who}: {cause}", markup=False, emoji=False,
                              highlight=False)
    say_late(console, repeats, summary, result)


def say_late(console: Console, repeats: Repeats, summary: HandSummary,
             result: MatchResult) -> None:
    """A bot's first late answer, when its hand ends: how late, its fine, its step on
    the hand's page; the later hands with late answers are counted in ``repeats``."""
    outcome = summary.outcome
    inputs = ((i.seat, i.fault, i.after) for i in outcome.engine.inputs)
    by_seat: dict[int, list[LateAnswer]] = {}
    for late in late_answers(inputs, outcome.timings):
        by_seat.setdefault(late.seat, []).append(late)
    for seat, answers in sorted(by_seat.items()):
        player = summary.plan.seats[seat]
        name = result.config.players[player].name
        where, who = f"hand {summary.plan.number + 1}", f"player {player} ({name})"
        if not repeats.first((who, "late answers"), f"{who}, late answers", where):
            continue
        first = answers[0]
        line = (f"{where}: {who} answered late (step {first.step} of the hand: "
                f"{first.ms:.0f} ms, limit {first.limit} ms, fined {first.fine})")
        if len(answers) > 1:
            line += (f"; {len(answers)} late answers in this hand, fined "
                     f"{sum(a.fine for a in answers)} in all")
        console.print(line + "; later hands with late answers are counted",
                      markup=False, emoji=False, highlight=False)


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
