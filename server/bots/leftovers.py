"""What a server killed outright left running: recorded as it starts bots, stopped next time.

A bot dies with the server (the parent-death signal, ``server.bots.spawn``), but what
a bot started itself (a forked child, a ``setsid`` daemon) does not. While the
server lives, the sweep at the end of every hand kills those
(``server.bots.sandbox.sweep``); a server killed outright (SIGKILL, the OOM killer)
runs no clean-up at all. So each server process that starts bots records them
in a small file of a per-user registry folder::

    run-<server pid>-<server start time>.bots
        server <pid> <start time> <run id>
        bot <pid> <start time>              (one line per bot process started)

Start times are field 22 of ``/proc/<pid>/stat``, so a pid the system gave to
another process since is never mistaken for the one recorded. Every bot also
gets ``MAHJONG_SERVER_RUN=<run id>`` in its environment, which everything it
starts inherits, wherever it goes.

At the next start of a match, a tournament (``--resume`` included), ``check-bot``
or ``connect`` (``stop_earlier_bots``), the scratch folders of processes that are
gone are removed (``sweep_scratch``: each folder's name says its owner, so a
table on a cluster node sweeps its node's too), and each file whose server is gone is read
and every process still running that carries its run id, is one of its bots
(same pid and start time), or is in the session or process group of such a bot
still running, is killed; the console says what was stopped, and the file is removed. A server
that ends normally removes its own file.

The registry folder is per user, so that any next start finds it:
``$MAHJONG_RUN_DIR`` if set; else ``$XDG_RUNTIME_DIR/mahjong-server``; else
``<temporary folder>/mahjong-server-<uid>``. It is created with mode 0700 and
used only if it is a real folder owned by the user.

Plain process plumbing: no trio here.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import stat
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.text import Text

from server.bots.sandbox import env_value, processes
from server.output.say import err_console

RUN_VARIABLE = "MAHJONG_SERVER_RUN"
DIR_VARIABLE = "MAHJONG_RUN_DIR"
STOP_LIMIT = 2.0  # seconds to keep killing what an earlier run left (it may fork meanwhile)


def registry_dir() -> Path | None:
    """The per-user folder of run files, created if needed; None if it cannot be used."""
    if chosen := os.environ.get(DIR_VARIABLE):
        folder = Path(chosen)
    elif (runtime := os.environ.get("XDG_RUNTIME_DIR")) and os.path.isdir(runtime):
        folder = Path(runtime) / "mahjong-server"
    else:
        folder = Path(tempfile.gettempdir()) / f"mahjong-server-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        return None  # a symlink or someone else's folder: not trusted with what we kill
    return folder


def start_time(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), or None if there is no such process."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(text[text.rfind(")") + 2:].split()[19])


# --- this run's record ---------------------------------------------------------------------


@dataclass(slots=True)
class _Run:
    id: str
    path: Path | None
    file: IO[str] | None


_run: _Run | None = None


def run_id() -> str:
    """This server's run id (for ``RUN_VARIABLE``); its registry file is made on first use."""
    return _this_run().id


def _this_run() -> _Run:
    global _run
    if _run is None or _run.id != _run_id_for(os.getpid()):
        _run = _open_run()
    return _run


_ids: dict[int, str] = {}


def _run_id_for(pid: int) -> str:
    """A fresh id per process (a forked test worker is another server)."""
    if pid not in _ids:
        _ids[pid] = uuid.uuid4().hex
    return _ids[pid]


def _open_run() -> _Run:
    me = os.getpid()
    ident = _run_id_for(me)
    folder = registry_dir()
    started = start_time(me)
    if folder is None or started is None:
        return _Run(ident, None, None)
    path = folder / f"run-{me}-{started}.bots"
    try:
        file = path.open("a", encoding="ascii")
        file.write(f"server {me} {started} {ident}\n")
        file.flush()
    except OSError:
        return _Run(ident, None, None)
    atexit.register(_close_run, path, file)
    return _Run(ident, path, file)


def _close_run(path: Path, file: IO[str]) -> None:
    if os.getpid() != int(path.name.split("-")[1]):
        return  # a forked child inherited the handler: the file is its parent's
    with contextlib.suppress(OSError):
        file.close()
    path.unlink(missing_ok=True)


def record(pid: int) -> None:
    """Note a bot process just started, so that the next start can find it."""
    run = _this_run()
    if run.file is None:
        return
    started = start_time(pid)
    if started is None:  # gone already
        return
    with contextlib.suppress(OSError, ValueError):
        run.file.write(f"bot {pid} {started}\n")
        run.file.flush()


# --- scratch folders -------------------------------------------------------------------------

# The scratch folders a server process makes in the temporary folder: a table's on a
# cluster node, a launcher's bot folders, a simulated chunk's on a node.
SCRATCH_PREFIXES = ("mahjong-table-", "mahjong-bots-", "mahjong-simulate-")


def scratch_prefix(prefix: str) -> str:
    """``prefix`` stamped with its owner, this process: ``mahjong-table-<pid>-<start>-``.

    A process killed outright (a Ray worker whose driver died, a server under
    ``kill -9``) removes nothing; the stamp lets the next one on the machine
    tell its folders from those of the living (``sweep_scratch``).
    """
    me = os.getpid()
    return f"{prefix}{me}-{start_time(me) or 0}-"


def sweep_scratch(parent: Path | None = None) -> list[Path]:
    """Remove the scratch folders in ``parent`` (the temporary folder) whose owner is
    gone; the folders removed.

    Only real folders of this user, named by ``scratch_prefix`` (pid, start time,
    then a name of their own), are touched: a pid now given to another process
    has another start time, and a folder named otherwise (an older server's, a
    symlink, someone else's) is left alone.
    """
    folder = Path(tempfile.gettempdir()) if parent is None else parent
    removed = []
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    for name in names:
        prefix = next((p for p in SCRATCH_PREFIXES if name.startswith(p)), None)
        if prefix is None:
            continue
        parts = name[len(prefix):].split("-")
        if len(parts) != 3 or not parts[2] or not (parts[0] + parts[1]).isdigit():
            continue
        pid, started = int(parts[0]), int(parts[1])
        path = folder / name
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        if start_time(pid) == started:
            continue  # its owner lives (and removes it itself)
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed


# --- the next start --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stopped:
    """A process an earlier run left running, killed now."""

    pid: int
    command: str


@dataclass(slots=True)
class _Earlier:
    """What the files of runs whose server is gone recorded."""

    paths: list[Path]
    ids: set[str]
    bots: dict[int, int]  # pid -> start time


def _earlier_runs(folder: Path) -> _Earlier:
    found = _Earlier([], set(), {})
    me = os.getpid()
    for path in sorted(folder.glob("run-*-*.bots")):
        try:
            _, pid_text, started_text = path.name.removesuffix(".bots").split("-")
            pid, started = int(pid_text), int(started_text)
        except ValueError:
            continue
        if pid == me or start_time(pid) == started:
            continue  # this server, or another one still running
        found.paths.append(path)
        try:
            lines = path.read_text(encoding="ascii", errors="replace").splitlines()
        except OSError:
            continue
        for line in lines:
            words = line.split()
            with contextlib.suppress(ValueError, IndexError):
                if words[0] == "server" and len(words) == 4:
                    found.ids.add(words[3])
                elif words[0] == "bot" and len(words) == 3:
                    found.bots[int(words[1])] = int(words[2])
    return found


def _leftovers(earlier: _Earlier) -> dict[int, str]:
    """Live processes (zombies aside) that belong to the earlier runs: pid -> command."""
    me = os.getpid()
    # A session or group is taken only while its leader is the recorded bot itself:
    # once it is gone, its number may lead someone else's session.
    alive = {pid for pid, started in earlier.bots.items() if start_time(pid) == started}
    found: dict[int, str] = {}
    for pid, (state, _, group, session) in processes().items():
        if pid == me or state in ("Z", "X"):
            continue
        if pid in alive or group in alive or session in alive \
                or (earlier.ids and env_value(pid, RUN_VARIABLE) in earlier.ids):
            found[pid] = _command(pid)
    return found


def _command(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.rstrip(b"\0").replace(b"\0", b" ").decode(errors="replace") or "?"


def stop_earlier_bots(limit: float = STOP_LIMIT) -> list[Stopped]:
    """Kill what servers killed outright left running; what was stopped.

    Passes are repeated until one finds nothing (a process forked while we
    killed its parent carries the same run id), for at most ``limit`` seconds.
    """
    sweep_scratch()  # the folders of those servers, and of any other gone
    folder = registry_dir()
    if folder is None:
        return []
    earlier = _earlier_runs(folder)
    if not earlier.paths:
        return []
    stopped: dict[int, str] = {}
    give_up = time.monotonic() + limit
    while found := _leftovers(earlier):
        for pid, command in found.items():
            stopped.setdefault(pid, command)
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if time.monotonic() > give_up:
            break
        time.sleep(0.02)
    for path in earlier.paths:
        with contextlib.suppress(OSError):
            path.unlink()
    return [Stopped(pid, command) for pid, command in sorted(stopped.items())]


COMMAND_WIDTH = 60  # characters of a stopped process's command line shown


def _short(command: str) -> str:
    """A command line to show: paths by their last part, printable, cut to a width."""
    words = [os.path.basename(w) if w.startswith("/") and len(w) > 1 else w
             for w in command.split()]
    shown = "".join(c if c.isprintable() else "?" for c in " ".join(words))
    return shown if len(shown) <= COMMAND_WIDTH else shown[: COMMAND_WIDTH - 1] + "…"


def stopped_line(stopped: list[Stopped]) -> Text:
    """One console line on what an earlier server left running and was stopped now."""
    by_command: dict[str, list[int]] = {}
    for s in stopped:
        by_command.setdefault(_short(s.command), []).append(s.pid)
    shown = [f"{command} (pid{'s' if len(pids) > 1 else ''} {', '.join(map(str, pids))})"
             for command, pids in by_command.items()]
    n = len(stopped)
    return Text.assemble(("stopped", "yellow"), f" {n} process{'es' if n != 1 else ''} that "
                         "an earlier server, killed before it could stop them, left running: "
                         + "; ".join(shown))


def stop_earlier_bots_and_say(console: Console | None = None) -> list[Stopped]:
    """``stop_earlier_bots``, with a line on ``console`` (a rich Console; stderr by
    default) if any were: what every command that starts bots does first."""
    stopped = stop_earlier_bots()
    if console is None:
        console = err_console()
    if stopped:
        console.print(stopped_line(stopped))
    return stopped
