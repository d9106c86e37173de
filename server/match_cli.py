"""Run a match from the command line: console output, Ctrl-C, exit status."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import structlog
import trio
from rich.console import Console

from server.console import MatchProgress, configure_logging, ranking_table
from server.match import MatchConfig, MatchResult, players_from_args, run_match
from server.table import TableOptions

EXIT_COMPLETED = 0
EXIT_NOT_COMPLETED = 1
EXIT_INTERRUPTED = 130


def _is_interrupt(exc: BaseException) -> bool:
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_is_interrupt(e) for e in exc.exceptions)
    return False


def run_from_cli(specs: Sequence[str], argvs: Sequence[list[str]], *, seed: int, groups: int,
                 verbose: bool, log_dir: Path | None, hard_limit: float, join_limit: float,
                 on_fault: str, announce: bool) -> int:
    configure_logging(verbose)
    console = Console(stderr=True)
    match_id = f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    root = log_dir / match_id if log_dir is not None else None
    config = MatchConfig(players_from_args(specs, argvs), seed, groups, root,
                         TableOptions(hard_limit, join_limit, announce), on_fault)
    log = structlog.get_logger().bind(match=match_id)
    holder: list[MatchResult] = []

    async def main() -> None:
        if verbose:
            holder.append(await run_match(config, log=log))
            return
        with MatchProgress(groups * 16, console) as progress:
            holder.append(await run_match(config, progress.hand_done, log=log))

    console.print(f"match {match_id}: seed {seed}, {groups * 16} hands"
                  + (f", logs in {root}" if root else ""))
    try:
        trio.run(main)
    except BaseException as exc:
        if not _is_interrupt(exc):
            raise
        console.print(f"\n[yellow]interrupted[/yellow]: every bot was stopped"
                      + (f"; the finished hands are kept in {root}" if root else ""))
        return EXIT_INTERRUPTED
    result = holder[0]
    Console().print(ranking_table(result))
    if root is not None:
        console.print(f"logs: {root}")
    return EXIT_COMPLETED if result.completed else EXIT_NOT_COMPLETED
