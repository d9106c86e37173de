"""Limits, sandbox and clean-up for untrusted bot processes (issue 6).

Every bot process gets resource limits set in the child before it runs the
bot (``BotLimits.apply``): CPU seconds (per process, so per hand: each hand
starts fresh processes), the size of any file it writes, and no core dumps.
Its memory limit is on the memory the bot's processes use together, not on
address space (``server.bots.memlimit``: a memory cgroup per bot, else sampling).
With ``--sandbox bwrap`` the bot runs under bubblewrap (``bwrap_argv``): the
whole filesystem read-only, a private size-capped tmpfs at ``/tmp`` as its
working directory, a fresh ``/dev`` and ``/proc``, no network and no other
namespace shared with the host, no capabilities, and killed with the server.

Nothing is left running: a bot leads its own process group, which is killed
at the end of the hand; every process a bot starts inherits a tag in its
environment (``TAG_VARIABLE``), and after the group is killed every process
carrying the bot's tag is killed too, wherever it went (a ``setsid`` daemon
included). The server is also a child subreaper (``enable_subreaper``), so
orphans of bots become its children; those are reaped by pid, never with
``waitpid(-1)``, which would steal trio's own children.

This module does not import trio: it is plain process plumbing.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

TAG_VARIABLE = "MAHJONG_BOT_ID"
PR_SET_CHILD_SUBREAPER = 36
MB = 1 << 20
SANDBOXES = ("none", "bwrap")
LIMIT_OPTIONS = ("mem_limit", "cpu_limit", "file_limit")  # --mem-limit, ... (0: none)

# Why a limit signal killed a bot, in the fault cause.
_SIGNAL_CAUSES: dict[int, str] = {
    signal.SIGXCPU: "cpu limit",
    signal.SIGXFSZ: "file size limit",
    signal.SIGKILL: "cpu hard limit, or killed from outside",
}
# What a runtime prints on its way out when a limit stopped it.
_STDERR_CAUSES = (
    (b"MemoryError", "memory limit"),
    (b"std::bad_alloc", "memory limit"),
    (b"out of memory", "memory limit"),
    (b"Cannot allocate memory", "memory limit"),
    (b"OutOfMemoryError", "memory limit"),
    (b"File too large", "file size limit"),
)


class SandboxError(RuntimeError):
    """The sandbox cannot be used here (not installed, or it cannot start)."""


@dataclass(frozen=True, slots=True)
class BotLimits:
    """Resource limits of every bot process; ``None`` leaves one unlimited."""

    memory_mb: int | None = 4096  # memory the bot uses, all its processes (server.bots.memlimit)
    cpu_seconds: int | None = 300  # CPU time per process, so per hand
    file_mb: int | None = 64  # size of any one file written; under bwrap also all of /tmp

    @classmethod
    def from_options(cls, given: Mapping[str, int | None], defaults: Mapping[str, int]
                     ) -> BotLimits:
        """The limits of ``--mem-limit``, ``--cpu-limit``, ``--file-limit`` (keys
        ``mem_limit``, ...): the ruleset's ``defaults`` for those not given (None), and
        0 for none, in every command."""
        def pick(key: str) -> int | None:
            value = given.get(key)
            value = defaults[key] if value is None else value
            return int(value) or None

        return cls(pick("mem_limit"), pick("cpu_limit"), pick("file_limit"))

    def apply(self) -> None:
        """Set the rlimits on the current process (runs in the child, before exec); the
        memory limit is kept apart (``server.bots.memlimit``)."""
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if self.cpu_seconds is not None:
            # SIGXCPU at the soft limit; SIGKILL a second later if the bot ignores it.
            resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, self.cpu_seconds + 1))
        if self.file_mb is not None:
            size = self.file_mb * MB
            resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


def describe_exit(status: int | None, stderr_tail: bytes, sandboxed: bool = False,
                  memory: str | None = None) -> str:
    """How a bot that stopped by itself ended, for its fault cause ("" when unknown).

    ``status`` is a ``Popen.returncode`` (negative: killed by that signal); under
    bwrap the bot's death by signal N arrives as exit status 128 + N. ``memory``
    is the memory limit's own word that it stopped the bot (``server.bots.memlimit``).
    """
    if status is None:
        return ""
    if memory is not None:
        how = describe_exit(status, b"", sandboxed).split(" (")[0]
        return f"{how} ({memory})"
    signum = -status if status < 0 else None
    if sandboxed and 128 < status < 128 + 65:
        signum = status - 128
    if signum is not None:
        try:
            name = signal.Signals(signum).name
        except ValueError:
            name = f"signal {signum}"
        why = _SIGNAL_CAUSES.get(signum) or _stderr_cause(stderr_tail)
        return f"killed by {name}" + (f" ({why})" if why else "")
    why = _stderr_cause(stderr_tail)
    return f"exit status {status}" + (f" ({why})" if why else "")


def _stderr_cause(tail: bytes) -> str | None:
    for needle, why in _STDERR_CAUSES:
        if needle in tail:
            return why
    return None


# --- bubblewrap --------------------------------------------------------------------------


def bwrap_path() -> str:
    """The bwrap program, or a SandboxError that says how to get it."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxError("--sandbox bwrap: bubblewrap is not installed (no 'bwrap' on PATH); "
                           "install it (apt-get install bubblewrap) or use --sandbox none")
    return path


def _tmp_roots(paths: Iterable[str]) -> list[str]:
    """Top folders under /tmp that the bot's program, the server or its Python live in.

    The sandbox's private /tmp would hide them; they are bound back read-only.
    """
    roots: set[str] = set()
    for text in paths:
        if not os.path.isabs(text):
            continue
        for path in (Path(text), Path(text).resolve()):
            parts = path.parts
            if len(parts) > 2 and parts[1] == "tmp":
                roots.add(str(Path(*parts[:3])))
    return sorted(roots)


def bwrap_argv(argv: Iterable[str], limits: BotLimits, bwrap: str = "bwrap") -> list[str]:
    """``argv`` run under bubblewrap: read-only system, private /tmp, no network."""
    argv = list(argv)
    scratch = [] if limits.file_mb is None else ["--size", str(limits.file_mb * MB)]
    rebind = [arg for root in _tmp_roots([*argv, os.getcwd(), sys.prefix, sys.executable])
              if os.path.exists(root) for arg in ("--ro-bind", root, root)]
    return [
        bwrap,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        *scratch, "--tmpfs", "/tmp",
        *rebind,
        "--chdir", "/tmp",
        "--unshare-all",  # network, PID, IPC, UTS, cgroup (and user where it can)
        "--cap-drop", "ALL",
        "--die-with-parent",
        "--",
        *argv,
    ]


def check_bwrap(limits: BotLimits) -> None:
    """Start one trivial sandbox; a SandboxError with bwrap's own words if it fails."""
    argv = bwrap_argv(["/bin/true"], limits, bwrap_path())
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"--sandbox bwrap: bubblewrap cannot start: {exc}") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip() or f"exit status {done.returncode}"
        raise SandboxError(f"--sandbox bwrap: bubblewrap cannot start a sandbox here: {said}")


def absolute_argv(argv: Iterable[str], cwd: Path | None = None) -> list[str]:
    """Arguments naming existing files made absolute: the bot runs in another folder.

    The program itself only when it is a path (``python3`` is looked up on PATH).
    Symbolic links are kept, not followed: ``.venv/bin/python`` must stay the virtual
    environment's Python (followed, it is the system's, without the venv's packages).
    """
    base = cwd or Path.cwd()
    out: list[str] = []
    for arg in argv:
        if arg and not arg.startswith("-") and not os.path.isabs(arg) \
                and ("/" in arg or out) and _exists(base / arg):
            out.append(os.path.abspath(base / arg))
        else:
            out.append(arg)
    return out


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long, a NUL: not a file
        return False


# --- nothing left running ----------------------------------------------------------------

_subreaper = False
_children_before: set[int] = set()


def enable_subreaper() -> bool:
    """Make this process adopt the orphans of its descendants (Linux); True if it does."""
    global _subreaper
    if _subreaper:
        return True
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
            return False
    except (OSError, AttributeError):
        return False
    me = os.getpid()
    _children_before.update(pid for pid, (_, ppid, _, _) in processes().items() if ppid == me)
    _subreaper = True
    return True


Stat = tuple[str, int, int, int]  # state, parent, process group, session


def _stat(pid: int) -> Stat | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2:].split()
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3])


def processes() -> dict[int, Stat]:
    """Every process: pid -> (state, parent, group, session); one read each."""
    found: dict[int, Stat] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if name.isdigit() and (info := _stat(int(name))) is not None:
            found[int(name)] = info
    return found


def env_value(pid: int, variable: str) -> str | None:
    """The value of ``variable`` in a process's environment, if it has it (and we may read it)."""
    try:
        environ = Path(f"/proc/{pid}/environ").read_bytes()
    except OSError:
        return None
    prefix = f"{variable}=".encode()
    for entry in environ.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix):].decode(errors="replace")
    return None


def _tag_of(pid: int) -> str | None:
    """The bot tag in a process's environment, if any."""
    return env_value(pid, TAG_VARIABLE)


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)


def _reap(pid: int, info: Stat, cpu: list[float] | None = None) -> bool:
    """Reap ``pid`` if it is a dead child of ours; True once it is no concern of ours.
    ``cpu`` gets the CPU seconds of what is reaped (with those of what it reaped)."""
    if info[1] != os.getpid():
        return info[0] == "Z"  # someone else's zombie: its parent reaps it
    try:
        done, _, usage = os.wait4(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    if done == pid and cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    return done == pid


# The bots alive now: (their pids, their tags, whether one is being started).
LiveBots = tuple[frozenset[int], frozenset[str], bool]


def sweep(bot: int, tag: str | None, live: Callable[[], LiveBots],
          cpu: list[float] | None = None) -> tuple[set[int], list[int]]:
    """Kill what a stopped bot left behind: the pids killed, and those not yet reaped;
    ``cpu`` gets the CPU seconds of each process reaped here (an orphan adopted from
    the bot's tree: bubblewrap's own init, which had reaped the bot, is one).

    ``bot`` is the pid of the bot's process (already reaped), which led its own
    session and group. One pass over /proc kills every process still in that
    session or group and, as this process is a subreaper, every child of ours
    (an adopted orphan) that is not a live bot, not ours from before, in
    another session than ours (no descendant of a bot can rejoin it), and not
    tagged for a live bot (that bot's own sweep takes those). Call again until
    nothing is found: a killed parent's orphans are adopted a moment later.
    Without the subreaper, processes with ``tag`` are looked for everywhere.
    While another bot is being started (``spawning``), an untagged child is
    spared: between fork and exec a new bot still carries our environment.

    ``live`` is asked only after /proc has been read: a bot another table
    starts meanwhile is registered before it forks, so every process the scan
    saw is known by then (a snapshot taken before the scan would miss it).
    """
    me = os.getpid()
    my_session = os.getsid(0)
    table = processes()
    live_bots, live_tags, spawning = live()
    targets: dict[int, Stat] = {}
    for pid, info in table.items():
        state, parent, group, session = info
        if pid == me or pid in live_bots or session in live_bots:
            continue
        if state == "Z" and parent != me:
            continue
        if session == bot or group == bot:
            targets[pid] = info
        elif _subreaper and parent == me and pid not in _children_before \
                and session != my_session:
            owner = _tag_of(pid)
            if owner is None and spawning:
                continue
            if owner is None or owner == tag or owner not in live_tags:
                targets[pid] = info
    if not _subreaper and tag:
        for pid, info in table.items():
            if pid != me and pid not in targets and info[0] != "Z" and _tag_of(pid) == tag:
                targets[pid] = info
    for pid in targets:
        _kill(pid)
    pending = []
    for pid in targets:
        now = _stat(pid)
        if now is not None and not _reap(pid, now, cpu):
            pending.append(pid)
    found = {pid for pid, (state, _, _, _) in targets.items() if state != "Z"}
    return found, sorted(pending)
