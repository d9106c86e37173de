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
from server.web.handins import HandinSettings
from server.web.serving import parse_bind, serve


def run_serve(folder: Path, bind: str, handins: bool) -> int:
    """Serve ``folder``; prints ``serving http://HOST:PORT/`` once listening."""
    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder (give a match's or a tournament's "
                         "output folder, or a folder of them)")
    host, port = parse_bind(bind, option="--bind")
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
