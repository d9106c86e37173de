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
asked); ``serving`` passes it on to our stdout and yields the URL. With ``handins`` the
child takes hand-ins through its page too (``server serve --handins``): one server,
one port, for a class.

The child is watched: if it exits while the run goes on (killed, crashed), the console
says so in one line with its status and it is started again on the same port (the
real one when 0 was asked), a few times a minute at most (``WebChild``).
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
from server.output.say import err_console, warning_line
from server.seam.errors import InputError

START_LIMIT = 20.0  # seconds for the web server to say where it serves
STOP_GRACE = 1.0  # seconds between SIGTERM and SIGKILL
LINGER = 1.0  # seconds the web server outlives a run that ended (four polls of its files)
RESTARTS = 5  # a web server that died is restarted at most this many times ...
RESTART_WINDOW = 60.0  # ... in this many seconds
PROJECT = Path(__file__).resolve().parents[2]  # the folder holding the server package


def serve_argv(folder: Path, bind: str, handins: bool = False) -> list[str]:
    return [sys.executable, "-m", "server.cli", "serve", str(folder), "--bind", bind,
            *(["--handins"] if handins else [])]


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


def exit_words(status: int | None) -> str:
    """How a process ended, in words: ``exit status 1``, ``killed by SIGKILL``."""
    if status is None:
        return "still running"
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


def _say(text: str) -> None:
    """A warning line on the console (stderr), from the watcher's thread."""
    with contextlib.suppress(OSError, ValueError):
        err_console().print(warning_line(text), markup=False, highlight=False)


def _bound_again(bind: str, url: str) -> str:
    """``bind`` with the port the child really listened on (``url``'s): the one a
    restarted child takes, so the URL people have stays good when 0 was asked."""
    port = url.rstrip("/").rsplit(":", 1)[1]
    return f"{bind.rsplit(':', 1)[0]}:{port}" if ":" in bind else port


class WebChild:
    """The web server child, started, watched and stopped.

    A thread waits on the child; when it exits while the run goes on, the console
    says so (its status) and a new one is started on the same port, at most
    ``RESTARTS`` times in ``RESTART_WINDOW`` seconds: then one line says it is not
    restarted again and the run goes on without it. The thread forks the new child,
    so the child's parent-death signal is bound to it: it lives until the child is
    stopped."""

    def __init__(self, folder: Path, bind: str, handins: bool = False) -> None:
        self.folder = folder
        self.bind = bind
        self.handins = handins
        self.parent = os.getpid()
        self.lock = threading.Lock()
        self.stopping = False
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.deaths: list[float] = []  # when each child died (the restart limit's window)
        self.watcher: threading.Thread | None = None

    def _start(self, bind: str) -> tuple[subprocess.Popen[bytes], str]:
        """A child serving on ``bind``, and its URL; InputError when it does not start."""
        env = {**os.environ, leftovers.RUN_VARIABLE: leftovers.run_id(),
               "PYTHONPATH": os.pathsep.join(
                   p for p in (str(PROJECT), os.environ.get("PYTHONPATH", "")) if p)}
        parent = self.parent
        process = subprocess.Popen(
            serve_argv(self.folder, bind, self.handins), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, env=env, process_group=0,
            preexec_fn=lambda: die_with_parent(parent))
        leftovers.record(process.pid)
        try:
            assert process.stdout is not None
            line = _first_line(process.stdout, START_LIMIT).decode(errors="replace").strip()
        except BaseException:
            stop(process)
            raise
        if not line.startswith("serving "):
            stop(process)
            status = process.returncode
            raise InputError(f"--serve {bind}: the web server did not start"
                             + (f" (exit status {status})" if status else ""))
        threading.Thread(target=_pump, args=(process.stdout,), daemon=True,
                         name="serve-stdout").start()
        return process, line.split(" ", 1)[1]

    def start(self) -> str:
        """The first child, its URL line passed on to stdout; the watcher started."""
        self.process, self.url = self._start(self.bind)
        sys.stdout.write(f"serving {self.url}\n")
        sys.stdout.flush()
        self.watcher = threading.Thread(target=self._watch, daemon=True, name="serve-watch")
        self.watcher.start()
        return self.url

    def _watch(self) -> None:
        bind = _bound_again(self.bind, self.url)
        while True:
            process = self.process
            assert process is not None
            status = process.wait()
            with self.lock:
                if self.stopping:
                    return
            now = time.monotonic()
            self.deaths = [t for t in self.deaths if now - t < RESTART_WINDOW] + [now]
            if len(self.deaths) > RESTARTS:
                _say(f"the web server (pid {process.pid}) stopped ({exit_words(status)}): "
                     f"{len(self.deaths)} times in {RESTART_WINDOW:g} s, so it is not "
                     f"restarted again; the run goes on without {self.url}")
                return
            _say(f"the web server (pid {process.pid}) stopped ({exit_words(status)}); "
                 f"restarting it on {bind}")
            try:
                new, url = self._start(bind)
            except (InputError, OSError) as exc:
                _say(f"the web server could not be restarted ({exc}); the run goes on "
                     f"without {self.url}")
                return
            with self.lock:
                self.process = new
                if self.stopping:  # the run ended while it started
                    stop(new)
                    return
            _say(f"the web server is back (pid {new.pid}): serving {url}")

    def close(self) -> None:
        """Stop watching, then stop the child (SIGTERM, grace, SIGKILL)."""
        with self.lock:
            self.stopping = True
            process = self.process
        if process is not None:
            stop(process)
        if self.watcher is not None:
            self.watcher.join(START_LIMIT + 2 * STOP_GRACE)
        with self.lock:
            if self.process is not None and self.process is not process:
                stop(self.process)


@contextlib.contextmanager
def serving(folder: Path, bind: str, handins: bool = False) -> Iterator[str]:
    """The web server of ``folder`` on ``bind`` (with ``handins``: taking hand-ins too)
    while the block runs, restarted if it dies (``WebChild``); its URL.

    InputError when it does not start (it said why on stderr, which it shares)."""
    child = WebChild(folder, bind, handins)
    try:
        yield child.start()
    except BaseException:
        child.close()  # Ctrl-C, an error: at once
        raise
    try:  # a run that ended: the pages connected get its last state before the server goes
        time.sleep(LINGER)
    finally:  # a second Ctrl-C meanwhile included
        child.close()
