"""How a run stops: Ctrl-C, SIGTERM and SIGHUP, the line that says so, the exit status;
and a run's fresh output folder.

Every command that plays (a match of any ruleset, a tournament) stops the same way:
the bots are killed, what is finished is kept, and the status says why.

May import: ``server.output.paths``, ``server.seam``.
"""

from __future__ import annotations

import contextlib
import itertools
import signal
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio
from rich.console import Console
from rich.text import Text

from server.output.paths import PathError
from server.seam.errors import reason

EXIT_COMPLETED = 0
EXIT_NOT_COMPLETED = 1
EXIT_BAD_SETUP = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT


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
        except OSError as exc:  # checked before (server.output.paths), but the disk may differ now
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
