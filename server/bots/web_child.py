"""The web server a match or a tournament starts for ``--serve HOST:PORT``: a child process.

``python -m server.cli serve FOLDER --bind HOST:PORT`` runs in its own process group, so
the web never shares the tables' event loop (a busy page takes no time from a bot's
clock) and the terminal's Ctrl-C reaches the server alone, which then stops it: SIGTERM
to the group, a grace period, SIGKILL. It dies with the server too (the parent-death
signal of ``server.bots.spawn``; it is forked by the main thread, outside trio) and
carries the run's id, so a server killed outright leaves nothing the next start would
not stop (``server.bots.leftovers``). It stays in the server's session: the end-of-hand
sweep (``server.bots.sandbox.sweep``) takes an adopted child of another session for a
bot's orphan.

The child prints one line, ``serving http://HOST:PORT/`` (the real port when 0 was
asked); ``serving`` passes it on to our stdout and yields the URL.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from server.bots import leftovers
from server.bots.spawn import die_with_parent
from server.seam.errors import InputError

START_LIMIT = 20.0  # seconds for the web server to say where it serves
STOP_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
LINGER = 1.0  # seconds the web server outlives a run that ended (four polls of its files)
PROJECT = Path(__file__).resolve().parents[2]  # the folder holding the server package


def serve_argv(folder: Path, bind: str) -> list[str]:
    return [sys.executable, "-m", "server.cli", "serve", str(folder), "--bind", bind]


def _first_line(stream: IO[bytes], limit: float) -> bytes:
    deadline = time.monotonic() + limit
    line = b""
    while not line.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([stream], [], [], left)[0]:
            break
        chunk = os.read(stream.fileno(), 1)  # byte by byte: the rest is the pump's
        if not chunk:
            break
        line += chunk
    return line


def _pump(stream: IO[bytes]) -> None:
    """Pass on what else the child writes on stdout (nothing, normally)."""
    with contextlib.suppress(OSError, ValueError):
        for chunk in iter(lambda: os.read(stream.fileno(), 4096), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the child's group, a grace period, SIGKILL; reaped."""
    for sig, wait in ((signal.SIGTERM, STOP_GRACE), (signal.SIGKILL, 5.0)):
        if process.poll() is not None:
            break
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(wait)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)  # anything the child left in its group


@contextlib.contextmanager
def serving(folder: Path, bind: str) -> Iterator[str]:
    """The web server of ``folder`` on ``bind`` while the block runs; its URL.

    InputError when it does not start (it said why on stderr, which it shares)."""
    parent = os.getpid()
    env = {**os.environ, leftovers.RUN_VARIABLE: leftovers.run_id(),
           "PYTHONPATH": os.pathsep.join(
               p for p in (str(PROJECT), os.environ.get("PYTHONPATH", "")) if p)}
    process = subprocess.Popen(
        serve_argv(folder, bind), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
        env=env, process_group=0, preexec_fn=lambda: die_with_parent(parent))
    leftovers.record(process.pid)
    try:
        assert process.stdout is not None
        line = _first_line(process.stdout, START_LIMIT).decode(errors="replace").strip()
        if not line.startswith("serving "):
            stop(process)
            status = process.returncode
            raise InputError(f"--serve {bind}: the web server did not start"
                             + (f" (exit status {status})" if status else ""))
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        threading.Thread(target=_pump, args=(process.stdout,), daemon=True,
                         name="serve-stdout").start()
        yield line.split(" ", 1)[1]
    except BaseException:
        stop(process)  # Ctrl-C, an error: at once
        raise
    try:  # a run that ended: the pages connected get its last state before the server goes
        time.sleep(LINGER)
    finally:  # a second Ctrl-C meanwhile included
        stop(process)
