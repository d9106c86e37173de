"""``server simulate``: hands played in-process with Python bot objects, summarised.

The hands are played here (``engine.simulate``), over processes on this machine
or as Ray tasks (``simulate_spread``); the summary is the same.
"""

from __future__ import annotations

import json

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from rulesets.default.engine.simulate import BotSpecError, Played, Summary, check_specs
from rulesets.default.engine.simulate import simulate as run
from server.output.say import err_console, out_console
from server.output.stopping import EXIT_INTERRUPTED
from server.seam.contract import CommandArgs
from server.seam.errors import InputError, reason


def simulate_command(args: CommandArgs) -> int:
    """Play the hands ``args`` asks for and print the summary; the exit status (130:
    Ctrl-C stopped it, and the summary of the hands played was printed)."""
    bots: str = args["bots"]
    hands: int = args["hands"]
    seed: int = args["seed"]
    jobs: int = args["jobs"]
    cluster: str | None = args["cluster"]
    specs = [s.strip() for s in bots.split(",")]
    if cluster is not None and jobs != 1:
        raise InputError("--jobs is for processes on this machine; on a cluster (--cluster) "
                         "Ray plays as many chunks at once as its nodes have CPUs for")
    if cluster is not None:
        from server.cluster.ray_cluster import import_ray

        import_ray()  # ClusterError (an InputError: one line) when Ray is not installed
    try:
        check_specs(specs)  # before any work starts, wherever the hands are played
    except BotSpecError as exc:
        raise InputError(reason(exc)) from None
    console = err_console()
    progress = Progress("simulate", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, transient=True, disable=not console.is_terminal)
    task = progress.add_task("hands", total=hands)

    def on_hand(_: int, __: Played) -> None:
        progress.advance(task)

    def on_chunk(played: int) -> None:
        progress.advance(task, played)

    try:
        with progress:
            if cluster is not None:
                from rulesets.default.simulate_spread import on_cluster

                summary = on_cluster(specs, hands, seed, cluster, on_chunk)
            elif jobs > 1:
                from rulesets.default.simulate_spread import on_processes

                summary = on_processes(specs, hands, seed, jobs, on_chunk)
            else:
                summary = run(specs, hands, seed, on_hand=on_hand)
    except BotSpecError as exc:
        raise InputError(reason(exc)) from None
    for i, p in enumerate(summary.players):
        if p.crashes:
            console.print(f"P{i} ({p.bot}) raised an exception in {p.crashes} hand(s) and "
                          "was played by the server from there; the first time:\n"
                          + p.first_error.rstrip(), markup=False, highlight=False)
    if args["json_out"]:
        print(json.dumps(summary.as_json()))
    else:
        print_simulation(summary, seed)
    if summary.interrupted:
        console.print(f"interrupted after {summary.hands} of {hands} hands", markup=False)
        return EXIT_INTERRUPTED
    return 0


def print_simulation(summary: Summary, seed: int) -> None:
    """The summary of ``server simulate`` as a table and a line of results."""
    played = summary.hands
    rate = played / summary.seconds if summary.seconds else 0.0
    table = Table(title=f"{played} hands, seed {seed}: {rate:.0f} hands/s")
    crashes = any(p.crashes for p in summary.players)
    columns = ["player", "bot", "points", "points/hand", "wins", "illegal"]
    for col in [*columns, "crashed"] if crashes else columns:
        table.add_column(col, justify="left" if col in ("player", "bot") else "right")
    for i, p in enumerate(summary.players):
        row: list[str | Text] = [f"P{i}", Text(p.bot), str(p.points),
               f"{p.points / played:+.2f}" if played else "-", str(p.wins), str(p.illegal)]
        table.add_row(*row, *([str(p.crashes)] if crashes else []))
    out = out_console()
    out.print(table)
    wins = summary.wins
    out.print(f"draws {summary.draws}; wins: {wins['self_drawn']} self-drawn, "
              f"{wins['discard']} on a discard, {wins['robbed_kong']} robbing a kong")
