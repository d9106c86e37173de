"""Run a match from the command line: console output, Ctrl-C, exit status."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from pathlib import Path

import structlog
import trio
from rich.console import Console
from rich.text import Text

from rulesets.default.account import account_line
from rulesets.default.console import MatchProgress, ranking_table, say_faults, say_repeats
from rulesets.default.match import MatchConfig, MatchResult, players_from_args, run_match
from server.bots.person import PersonOptions
from server.bots.remote import RemoteOptions, RemoteSetupError, open_remote_seats
from server.bots.seats import ProcessLauncher, Sandbox, TableOptions
from server.output.console import configure_logging
from server.output.live import LiveFeed, feed_path
from server.output.say import Repeats, err_console, error_line, out_console
from server.output.stopping import (
    EXIT_BAD_SETUP,
    EXIT_COMPLETED,
    EXIT_INTERRUPTED,
    EXIT_NOT_COMPLETED,
    fresh_dir,
    is_interrupt,
    say_terminated,
    stopped_status,
    until_terminated,
)

EVENTS_FILE = "server-events.jsonl"  # the match's structured log events, in its folder


def run_from_cli(specs: Sequence[str], argvs: Sequence[list[str]], *, seed: int, groups: int,
                 verbose: bool, log_dir: Path | None, hard_limit: float, join_limit: float,
                 on_fault: str, announce: bool,
                 remote: RemoteOptions | None = None, sandbox: Sandbox | None = None,
                 serve: str | None = None, title: str = "",
                 persons: PersonOptions | None = None, hands: int | None = None) -> int:
    console = err_console()
    match_id = f"{time.strftime('%Y%m%d-%H%M%S')}-seed{seed}"
    root = None
    if log_dir is not None:
        root = fresh_dir(log_dir, match_id)
        match_id = root.name
    # The structured events go to the match folder; the console gets the account (-v).
    configure_logging(verbose, root / EVENTS_FILE if root is not None else None,
                      account_line)
    config = MatchConfig(players_from_args(specs, argvs), seed, groups, root,
                         TableOptions(hard_limit, join_limit, announce), on_fault,
                         launcher=ProcessLauncher(sandbox),
                         live=None if root is None else LiveFeed(feed_path(root)),
                         title=title or f"Match {match_id}", heading=title, hands=hands)
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
                    await with_persons(dataclasses.replace(config, launcher=seats))
            except RemoteSetupError as exc:  # raised before the block: nothing was played
                console.print(error_line(exc))
            return
        await with_persons(config)

    async def with_persons(config: MatchConfig) -> None:
        """``web:NAME`` seats: their pages served, their links printed (stdout)."""
        if persons is None:
            await play_all(config)
            return
        from rulesets.default.person_board import PersonBoard
        from server.bots.person import links
        from server.web.seat_page import open_person_seats

        async with open_person_seats(persons, PersonBoard, config.launcher) as (seats, base):
            for name, link in links(base, persons):
                print(f"web:{name} plays at {link}", flush=True)
            console.print("open the link in a browser (each person their own): the first "
                          f"hand starts when every page is open; {persons.clock:g} s a move",
                          markup=False)
            await play_all(dataclasses.replace(config, launcher=seats))

    async def play_all(config: MatchConfig) -> None:
        if verbose:  # the account tells the rest; the fault lines are said all the same
            holder.append(await run_match(config, partial(say_faults, console, repeats),
                                          log=log))
            return
        with MatchProgress(config.planned, console, repeats) as progress:
            holder.append(await run_match(config, progress.hand_done, log=log))

    console.print(f"match {match_id}: seed {seed}, {config.planned} hands"
                  + (f", logs in {root}" if root else ""), markup=False)
    with web_view(root, serve):
        return play_and_say(play, console, root, holder, repeats)


def web_view(root: Path | None, serve: str | None) -> contextlib.AbstractContextManager[object]:
    """``--serve``: the web view of the match folder while the match plays."""
    if serve is None or root is None:
        return contextlib.nullcontext()
    from server.bots.web_child import serving

    return serving(root, serve)


def play_and_say(play: Callable[[], Awaitable[None]], console: Console, root: Path | None,
                 holder: list[MatchResult], repeats: Repeats) -> int:
    """Play the match under trio; say how it ended; its exit status."""
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
