"""Run a turn-based ruleset's match from the command line: one line per game (every
turn with ``-v``), the standings, Ctrl-C, SIGTERM and SIGHUP, exit status. Any ruleset
behind the seam that gives ``TurnRules`` is run by this, unchanged."""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import trio
from rich.table import Table
from rich.text import Text

from server.output.live import LiveFeed, feed_path
from server.output.say import err_console, one_line, out_console
from server.output.stopping import (
    EXIT_COMPLETED,
    EXIT_INTERRUPTED,
    fresh_dir,
    is_interrupt,
    say_terminated,
    stopped_status,
    until_terminated,
)
from server.seam.contract import GamePlan, StandingRow
from server.turns.match import TurnMatch, TurnMatchResult, TurnPlayer, run_turn_match

LINE = 80  # characters of a request, an answer shown with -v


def standings_table(rows: Sequence[StandingRow], players: Sequence[TurnPlayer],
                    points_name: str = "points") -> Table:
    table = Table(title="standings")
    for col in ("place", "player", points_name, "score", "games", "wins", "penalties"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for r in rows:
        points = f"{r.points:g}"
        table.add_row(str(r.place), Text(players[r.player].name), points, str(r.score),
                      str(r.games), str(r.wins), str(r.penalties))
    return table


def match_folder(log_dir: Path, ruleset: str, seed: int) -> Path:
    return fresh_dir(log_dir, f"{time.strftime('%Y%m%d-%H%M%S')}-{ruleset}-seed{seed}")


def run_turn_match_cli(match: TurnMatch, *, verbose: bool, seed: int,
                       serve: str | None = None) -> int:
    """Play ``match`` with console output; the exit status (0: completed). With ``serve``
    (HOST:PORT), the web view of its folder is served meanwhile (``--serve``)."""
    if serve is not None and match.root is not None:
        from server.bots.web_child import serving

        with serving(match.root, serve):
            return _run_turn_match_cli(match, verbose=verbose, seed=seed)
    return _run_turn_match_cli(match, verbose=verbose, seed=seed)


def _run_turn_match_cli(match: TurnMatch, *, verbose: bool, seed: int) -> int:
    console = err_console()
    total = len(match.plans)
    holder: list[TurnMatchResult] = []

    def on_game(plan: GamePlan, record: dict[str, Any]) -> None:
        names = [match.players[p].name for p in plan.order]
        console.print(f"game {plan.number}/{total} ({plan.label}): "
                      + match.rules.game_line(record, names), markup=False, highlight=False)

    def on_turn(turn: int, entries: list[dict[str, Any] | None], output: dict[str, Any]) -> None:
        for seat, item in enumerate(entries):
            if item is None:
                continue
            answer = item["response"] if item["verdict"] == "OK" else item["verdict"]
            console.print(f"  turn {turn} seat {seat}: {one_line(str(item['request']), LINE)} -> "
                          f"{one_line(str(answer), LINE)} ({item['ms']} ms)"
                          + (f" [{item['cause']}]" if item.get("cause") else ""),
                          markup=False, highlight=False)
        display = output.get("display", output)
        console.print(f"  judge: {one_line(str(display), 2 * LINE)}", markup=False, highlight=False)

    async def play() -> None:
        async with match.around() if match.around is not None else nullcontext():
            holder.append(await run_turn_match(match, on_game, on_turn if verbose else None))

    if match.root is not None and match.live is None:
        match.live = LiveFeed(feed_path(match.root))
        match.title = f"Match {match.root.name}"
    where = f", logs in {match.root}" if match.root is not None else ""
    console.print(f"{match.ruleset} match: seed {seed}, {total} game(s){where}",
                  markup=False)
    kept = f"; the finished games are kept in {match.root}" if match.root else ""
    try:
        terminated = trio.run(until_terminated, play)
    except BaseException as exc:
        if not is_interrupt(exc):
            raise
        console.print(Text.assemble("\n", ("interrupted", "yellow"),
                                    ": every bot was stopped" + kept))
        return EXIT_INTERRUPTED
    if terminated is not None:
        say_terminated(console, terminated, kept)
        return stopped_status(terminated)
    out_console().print(standings_table(holder[0].standings, match.players))
    if match.root is not None:
        console.print(f"logs: {match.root}", markup=False)
    return EXIT_COMPLETED
