"""Run a match from the command line: console output, Ctrl-C, exit status."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import signal
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path

import structlog
import trio
from rich.console import Console
from rich.text import Text

from server.console import (
    MatchProgress,
    configure_logging,
    ranking_table,
    say_faults,
    say_repeats,
)
from server.errors import reason
from server.match import MatchConfig, MatchResult, players_from_args, run_match
from server.paths import PathError
from server.remote import RemoteOptions, RemoteSetupError, open_remote_seats
from server.say import Repeats, err_console, error_line, out_console
from server.seats import ProcessLauncher, Sandbox
from server.table import TableOptions

EXIT_COMPLETED = 0
EXIT_NOT_COMPLETED = 1
EXIT_BAD_SETUP = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT
EVENTS_FILE = "server-events.jsonl"  # the match's structured log events, in its folder


def is_interrupt(exc: BaseException) -> bool:
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(is_interrupt(e) for e in exc.exceptions)
    return False


def fresh_dir(parent: Path, name: str) -> Path:
    """A new folder ``parent/name``, or ``name-2``, ``name-3``...: two matches started
    in the same second with the same seed must not write into one folder."""
    for n in itertools.count(1):
        path = parent / (name if n == 1 else f"{name}-{n}")
        try:
            path.mkdir(parents=True)
        except FileExistsError:
            continue
        except OSError as exc:  # checked before (server.paths), but the disk may differ now
            raise PathError(f"--log-dir {parent}: cannot make the match folder "
                            f"{path.name} ({reason(exc)})") from None
        return path
    raise AssertionError("unreachable")


# Signals that end a run as cleanly as Ctrl-C does: SIGTERM (kill, a batch system's time
# limit) and SIGHUP (the terminal it ran in was closed).
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def stop_signals() -> list[signal.Signals]:
    """``STOP_SIGNALS`` but those ignored when the server started: ``nohup server ...``
    asks to outlive the terminal, and does."""
    return [s for s in STOP_SIGNALS if signal.getsignal(s) is not signal.SIG_IGN]


async def until_terminated(play: Callable[[], Awaitable[None]]) -> signal.Signals | None:
    """Run ``play``; a stop signal (``stop_signals``) cancels it as cleanly as Ctrl-C
    does. The signal, when one did.

    An error of ``play`` reaches the caller as itself, not inside the
    exception group of the nursery that holds the signal's watcher.
    """
    terminated: signal.Signals | None = None
    watched = stop_signals()
    if not watched:  # every one ignored when the server started: nothing to watch
        await play()
        return None
    try:
        with trio.open_signal_receiver(*watched) as signals:
            async with trio.open_nursery() as nursery:

                async def watch() -> None:
                    nonlocal terminated
                    async for signum in signals:
                        terminated = terminated or signal.Signals(signum)
                        nursery.cancel_scope.cancel()

                nursery.start_soon(watch)
                await play()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
    return terminated


def say_terminated(console: Console, signum: signal.Signals, kept: str) -> None:
    """That a stop signal ended the run; quietly nothing when the terminal is gone
    (SIGHUP): the files tell what was kept."""
    with contextlib.suppress(OSError):
        console.print(Text.assemble("\n", ("terminated", "yellow"),
                                    f" ({signum.name}): every bot was stopped" + kept))


def stopped_status(signum: signal.Signals) -> int:
    """The exit status of a run a signal stopped, as a shell reports it: 128 + the signal."""
    return 128 + int(signum)


def run_from_cli(specs: Sequence[str], argvs: Sequence[list[str]], *, seed: int, groups: int,
                 verbose: bool, log_dir: Path | None, hard_limit: float, join_limit: float,
                 on_fault: str, announce: bool,
                 remote: RemoteOptions | None = None, sandbox: Sandbox | None = None) -> int:
    console = err_console()
    match_id = f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    root = None
    if log_dir is not None:
        root = fresh_dir(log_dir, match_id)
        match_id = root.name
    # The structured events go to the match folder; the console gets the account (-v).
    configure_logging(verbose, root / EVENTS_FILE if root is not None else None)
    config = MatchConfig(players_from_args(specs, argvs), seed, groups, root,
                         TableOptions(hard_limit, join_limit, announce), on_fault,
                         launcher=ProcessLauncher(sandbox))
    log = structlog.get_logger().bind(match=match_id)
    holder: list[MatchResult] = []
    repeats = Repeats()


    async def play() -> None:
        if remote is not None:
            try:
                async with open_remote_seats(remote.host, remote.port, remote.tokens,
                                             fallback=config.launcher) as seats:
                    for host, port in seats.addresses:
                        console.print(f"listening on {host}:{port} for "
                                      + ", ".join(f"tcp:{n}" for n in remote.tokens),
                                      markup=False)
                    for name in remote.generated:
                        console.print(f"token for tcp:{name}: {remote.tokens[name]}",
                                      markup=False)
                    await play_all(dataclasses.replace(config, launcher=seats))
            except RemoteSetupError as exc:  # raised before the block: nothing was played
                console.print(error_line(exc))
            return
        await play_all(config)

    async def play_all(config: MatchConfig) -> None:
        if verbose:  # the account tells the rest; the fault lines are said all the same
            holder.append(await run_match(config, partial(say_faults, console, repeats),
                                          log=log))
            return
        with MatchProgress(groups * 16, console, repeats) as progress:
            holder.append(await run_match(config, progress.hand_done, log=log))

    console.print(f"match {match_id}: seed {seed}, {groups * 16} hands"
                  + (f", logs in {root}" if root else ""), markup=False)
    try:
        # SIGTERM (kill, a batch system's time limit) and SIGHUP (the terminal closed)
        # stop the match as cleanly as Ctrl-C: the bots are killed, the finished hands kept.
        terminated = trio.run(until_terminated, play)
    except BaseException as exc:
        if not is_interrupt(exc):
            raise
        console.print(Text.assemble("\n", ("interrupted", "yellow"), ": every bot was stopped"
                                    + (f"; the finished hands are kept in {root}" if root
                                       else "")))
        return EXIT_INTERRUPTED
    if terminated is not None:
        say_terminated(console, terminated, f"; the finished hands are kept in {root}"
                       if root else "")
        return stopped_status(terminated)
    if not holder:  # the remote seats' port could not be opened
        return EXIT_BAD_SETUP
    result = holder[0]
    say_repeats(console, repeats)
    out_console().print(ranking_table(result))
    if root is not None:
        console.print(f"logs: {root}", markup=False)
    return EXIT_COMPLETED if result.completed else EXIT_NOT_COMPLETED
