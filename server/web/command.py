"""``server serve DIR``: the web view of an output folder until Ctrl-C (or SIGTERM from
the match or tournament that started it with ``--serve``)."""

from __future__ import annotations

import sys
from pathlib import Path

import trio

from server.output.say import err_console
from server.output.stopping import is_interrupt
from server.seam.errors import InputError
from server.tournament.command import leaves
from server.web.app import build_app
from server.web.handins import HandinSettings, check_sandbox
from server.web.serving import parse_bind, serve


def check_handin_sandbox(folder: Path) -> None:
    """Before the page takes an upload: the sandbox its check runs in can start here
    (an InputError that says how to fix it, or to opt out with ``--sandbox none``)."""
    from server.bots.sandbox import SandboxError
    from server.bots.seats import Sandbox
    from server.web.tokens import TokenError, tournament_meta

    try:
        kind = check_sandbox(tournament_meta(folder))
    except TokenError:  # each upload is refused with why; the check would be bwrap's
        kind = check_sandbox(None)
    try:
        Sandbox(kind=kind).check()
    except SandboxError as exc:
        raise InputError(f"{exc} (hand-ins are checked in the tournament's sandbox: "
                         "bwrap unless it was started with --sandbox none)") from None


def run_serve(folder: Path, bind: str, handins: bool) -> int:
    """Serve ``folder``; prints ``serving http://HOST:PORT/`` once listening."""
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder (give a match's or a tournament's "
                         "output folder, or a folder of them)")
    host, port = parse_bind(bind, option="--bind")
    if handins:
        check_handin_sandbox(folder)
    app = build_app(folder, handins=HandinSettings() if handins else None)

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            urls = await nursery.start(serve, app, host, port)
            url = next((u for u in urls if u.startswith("http")), f"http://{host}:{port}")
            sys.stdout.write(f"serving {url}/\n")
            sys.stdout.flush()

    try:
        trio.run(main)
    except BaseException as exc:
        if is_interrupt(exc):
            err_console().print("stopped", markup=False)
            return 0
        if isinstance(exc, BaseExceptionGroup):
            refused = [e for e in leaves(exc) if isinstance(e, InputError)]
            if refused:  # a port in use: one line, as any bad input
                raise refused[0] from None
        raise
    return 0
