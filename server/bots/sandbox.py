"""Limits, sandbox and clean-up for untrusted bot processes (issue 6).

Every bot process gets resource limits set in the child before it runs the
bot (``BotLimits.apply``): CPU seconds (per process, so per hand: each hand
starts fresh processes), the size of any file it writes, and no core dumps.
Its memory limit is on the memory the bot's processes use together, not on
address space (``server.bots.memlimit``: a memory cgroup per bot, else sampling).
With ``--sandbox bwrap`` the bot runs under bubblewrap (``bwrap_argv``), and the
sandbox denies by default: a bot runs students' code, which must see nothing but
itself. Its file system is empty but for what is bound for it, read-only: the
system (/usr and the merged-usr links), the few /etc entries runtimes read (the
dynamic linker's cache, the alternatives links, the JDK's configuration, the time
zone), the interpreter its command names and that interpreter's install (looked
up on the bot environment's PATH, ``bot_environment``), the server's Python (the
venv and the Python it is made from), the project's package folders (sample bots
import ``protocol``, ``sample_ai``... from the repository; the repository root,
with its logs and tests, is not bound) and the bot's own program folders. Never
the output folder, the hand-ins, the tokens, BOTS, home folders or other programs:
they are simply not there (``hide`` masks them where a bound folder holds them).
It gets a private size-capped /tmp as its working folder, a fresh /dev and /proc,
no network, its own PID, IPC, UTS and cgroup namespaces, and dies with the
server. It runs as uid/gid 65534 ("nobody", owner of no file) with no
capabilities and a clean environment, so even a file bound by mistake is only
readable if everyone may read it, and the server's secrets in its environment
(tokens, keys) do not reach it. ``check_bwrap`` tries the policy once before
anything plays, and says why it cannot work here and what to do.

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


# --- bubblewrap: deny by default ------------------------------------------------------

NOBODY = 65534  # the bot's uid and gid inside the sandbox ("nobody": owns no file)
SETPRIV = "/usr/bin/setpriv"  # util-linux: drops root's identity inside the sandbox
SYSTEM = "/usr"  # the system's programs and libraries, read-only
MERGED_USR = ("/bin", "/lib", "/lib32", "/lib64", "/libx32", "/sbin")
# What the runtimes read in /etc: the dynamic linker's cache and configuration, the
# alternatives links (java, c++ ...), the time zone, the JDK's configuration (java-*).
ETC_ENTRIES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")
ETC_PATTERNS = ("java-*",)
# The project's packages, which sample bots import from the repository (each package's
# folder, never the repository root: that holds the logs, tests and anything beside).
PROJECT_PACKAGES = ("protocol", "scoring", "sample_ai", "server", "rulesets")
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


def server_venv() -> Path | None:
    """The virtual environment the server runs from, if it runs from one."""
    if sys.prefix == sys.base_prefix:
        return None
    venv = Path(sys.prefix)
    return venv if (venv / "bin").is_dir() else None


def bot_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment bots run in: ``base`` (the server's own by default), as if the
    server's virtual environment were activated.

    A student's ``#!/usr/bin/env python3`` or ``python3 bot.py`` then finds the
    Python that has this repository's packages, whether or not whoever started
    the server had activated it; a program named by absolute path is run as named.
    Under bwrap the bot gets none of it but PATH's venv folder (``bwrap_argv``).
    """
    env = dict(os.environ if base is None else base)
    venv = server_venv()
    if venv is None:
        return env
    bin_dir = str(venv / "bin")
    rest = [p for p in env.get("PATH", os.defpath).split(os.pathsep) if p != bin_dir]
    env["PATH"] = os.pathsep.join([bin_dir, *rest])
    env["VIRTUAL_ENV"] = str(venv)
    env.pop("PYTHONHOME", None)  # as activate does: it would point the venv's Python elsewhere
    return env


def bwrap_path() -> str:
    """The bwrap program, or a SandboxError that says how to get it."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxError("--sandbox bwrap: bubblewrap is not installed (no 'bwrap' on PATH); "
                           "install it (apt-get install bubblewrap), or use --sandbox none "
                           "to run the bots' code as yourself")
    return path


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _depth(path: str) -> int:
    return len(Path(path).parts)


def _is_system(path: str) -> bool:
    """Whether ``path`` is already in the sandbox as part of the read-only system."""
    first = "/" + Path(path).parts[1] if _depth(path) > 1 else "/"
    return (first == SYSTEM or first in MERGED_USR) and _within(os.path.realpath(path), SYSTEM)


def _install_of(program: str) -> str:
    """The folder a program installed outside the system lives in: ``PREFIX`` for
    ``PREFIX/bin/NAME``, else the program's folder."""
    folder = os.path.dirname(program)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _resolve_program(program: str) -> str:
    """argv[0] as the bot environment's PATH finds it (a name), or as given (a path)."""
    if "/" in program:
        return os.path.abspath(program)
    return shutil.which(program, path=bot_environment().get("PATH")) or program


def _project_folders() -> list[str]:
    root = Path(__file__).resolve().parents[2]
    return [str(root / name) for name in PROJECT_PACKAGES if (root / name).is_dir()]


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):  # a name too long, a NUL: not a file
        return False


def _program_folders(argv: list[str]) -> list[str]:
    """The bot's own folders: every word after argv[0] that names an existing file (its
    folder) or folder (itself), and argv[0]'s folder when it is a path; each also as
    its links resolve, so a linked script still finds its folder."""
    words = argv[1:] + ([argv[0]] if "/" in argv[0] else [])
    found: list[str] = []
    for word in words:
        if not os.path.isabs(word) or not _exists(Path(word)):
            continue
        for path in (os.path.abspath(word), os.path.realpath(word)):
            folder = path if os.path.isdir(path) else os.path.dirname(path)
            if folder != "/":  # never the whole file system: a file at the top is bound alone
                found.append(folder)
            elif folder != path:
                found.append(path)
    return found


def sandbox_binds(argv: list[str]) -> list[str]:
    """The host folders (and files) bound read-only for ``argv``, beyond the system:
    /etc's runtime entries, the interpreter's install, the server's Python (its venv
    and the Python that venv is made from), the project's packages, the bot's folders."""
    program = argv[0]
    sources = [str(Path("/etc") / name) for name in ETC_ENTRIES]
    for pattern in ETC_PATTERNS:
        sources += sorted(str(p) for p in Path("/etc").glob(pattern))
    if "/" not in program:  # found on PATH: the whole install (its libraries beside it)
        resolved = _resolve_program(program)
        if os.path.isabs(resolved):
            sources += [_install_of(resolved), _install_of(os.path.realpath(resolved))]
    sources += [sys.prefix, sys.base_prefix, _install_of(os.path.realpath(sys.executable))]
    sources += _project_folders()
    sources += _program_folders(argv)
    return [os.path.abspath(s) for s in sources if os.path.isabs(s) and os.path.lexists(s)]


def bwrap_argv(argv: Iterable[str], limits: BotLimits, bwrap: str = "bwrap", *,
               hide: Iterable[Path | str] = (), tag: str | None = None) -> list[str]:
    """``argv`` under bubblewrap, deny by default: the bot sees only what it needs.

    Its file system is empty but for what is bound read-only: the system (/usr and
    the merged-usr links), a few entries of /etc, the interpreter its argv[0] names
    and its install, the server's Python (venv and base), the project's package
    folders (a sample bot imports them from the repository) and the bot's own
    folders (``_program_folders``). Every folder bwrap creates for those binds is
    made 0755 (bwrap would make them 0700, which the bot's uid cannot cross). The
    output folder, hand-ins, tokens, BOTS, home folders and other programs are
    never bound; ``hide`` names folders masked by an empty read-only tmpfs where
    they lie inside a bound folder (a program folder that holds the output).

    It also gets a fresh /dev and /proc, a private /tmp (mode 1777, capped at the
    file limit) as its working folder, and the rest of its root read-only; an
    environment of PATH (the venv's bin, if the server runs from one, then the
    system's: ``python3`` is the server's Python, as outside), HOME and TMPDIR
    (/tmp), LANG and its ``tag`` (``TAG_VARIABLE``: the sweep finds its processes by
    it) only; its own network (none), PID, IPC, UTS and cgroup namespaces; and it
    dies with the server. Not ``--new-session``: bwrap already leads a session of its
    own with no terminal (``server.bots.spawn``), and in another session the bot would
    be out of bwrap's process group, which the server stops (a kept Botzone bot
    between turns) and terminates by group. Its
    identity: as root, ``setpriv`` makes it uid/gid 65534 with no groups, no
    capabilities (inheritable, bounding set, and so effective) and no new
    privileges (no setuid program gives them back); bwrap adds no user namespace
    there, since root sets ids without one and 65534 would have no mapping in it.
    Otherwise a user namespace maps the server's user to 65534 with every
    capability dropped. argv[0] given as a name is resolved here, on the bot
    environment's PATH, so the same interpreter runs in and out of the sandbox.
    """
    argv = list(argv)
    if not argv:
        raise ValueError("an empty command")
    binds = sandbox_binds(argv)
    argv[0] = _resolve_program(argv[0])
    hidden = [os.path.abspath(h) for h in hide]
    out: list[str] = [bwrap]
    # The system: /usr and its merged-usr links as they are on the host.
    out += ["--ro-bind", SYSTEM, SYSTEM]
    for link in MERGED_USR:
        if os.path.islink(link):
            out += ["--symlink", os.readlink(link), link]
        elif os.path.isdir(link):
            out += ["--ro-bind", link, link]
    out += ["--dev", "/dev", "--proc", "/proc"]
    out += ["--perms", "1777", *(["--size", str(limits.file_mb * MB)] if limits.file_mb else []),
            "--tmpfs", "/tmp"]
    out += _mounts(binds, hidden)
    out += ["--remount-ro", "/"]  # the sandbox's own root and the folders made in it
    venv = server_venv()
    path = f"{venv / 'bin'}:{SYSTEM_PATH}" if venv is not None else SYSTEM_PATH
    out += ["--chdir", "/tmp", "--clearenv", "--setenv", "PATH", path,
            "--setenv", "HOME", "/tmp", "--setenv", "TMPDIR", "/tmp",
            "--setenv", "LANG", "C.UTF-8"]
    if tag is not None:
        out += ["--setenv", TAG_VARIABLE, tag]
    out += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--die-with-parent"]
    if os.geteuid() == 0:
        out += ["--", SETPRIV, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
    else:
        out += ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY),
                "--cap-drop", "ALL", "--"]
    return out + argv


def _mounts(sources: list[str], hidden: list[str]) -> list[str]:
    """The bwrap arguments that bind ``sources`` read-only and mask ``hidden``, in
    an order that works: shallow before deep, every missing parent made 0755.

    A path is in the sandbox as the host has it when the deepest mount that holds it
    is a bind (or it is part of the system); under an empty tmpfs (/tmp, a mask) or
    the sandbox's bare root, its parents must be made first.
    """
    layers: list[tuple[str, str]] = [("/tmp", "tmpfs")]  # (path, "bind" | "tmpfs")
    made: set[str] = set()

    def as_on_host(path: str) -> bool:
        if _is_system(path):
            return True
        holders = [(p, kind) for p, kind in layers if _within(path, p)]
        if not holders:
            return False
        deepest, kind = max(holders, key=lambda layer: _depth(layer[0]))
        return kind == "bind" or deepest == path

    out: list[str] = []
    masks: list[str] = []
    for path in sorted(set(sources) | set(hidden), key=lambda p: (_depth(p), p)):
        if path in hidden:
            if not (os.path.isdir(path) and as_on_host(path) and not _is_system(path)
                    and path not in (p for p, _ in layers)):
                continue  # not visible in the sandbox: nothing to mask
            kind = "tmpfs"
            masks.append(path)
        elif as_on_host(path):
            continue
        else:
            kind = "bind"
        for parent in reversed(Path(path).parents):
            folder = str(parent)
            if folder != "/" and folder not in made and not as_on_host(folder):
                out += ["--perms", "0755", "--dir", folder]
                made.add(folder)
        out += ["--ro-bind", path, path] if kind == "bind" else \
            ["--perms", "0555", "--tmpfs", path]
        layers.append((path, kind))
    for path in masks:
        out += ["--remount-ro", path]
    return out


def _sandbox_advice(said: str) -> str:
    """What to do when bwrap cannot start here, from its words and this machine."""
    advice = []
    if not os.path.exists(SETPRIV) and os.geteuid() == 0:
        advice.append(f"install util-linux (it gives {SETPRIV}, which drops root's identity)")
    lowered = said.lower()
    refused = any(word in lowered for word in ("namespace", "permission", "not permitted",
                                               "uid map"))
    if "user namespace" in lowered or "userns" in lowered or "uid map" in lowered \
            or (refused and os.geteuid() != 0):
        advice.append("enable unprivileged user namespaces (sysctl -w "
                      "kernel.unprivileged_userns_clone=1 user.max_user_namespaces=15000; "
                      "on Ubuntu 23.10 and later also "
                      "kernel.apparmor_restrict_unprivileged_userns=0)")
    if refused and _in_container():
        advice.append("inside a container, start the container with namespaces allowed "
                      "(docker run --security-opt seccomp=unconfined --security-opt "
                      "apparmor=unconfined --cap-add SYS_ADMIN, or --privileged)")
    advice.append("or use --sandbox none to run the bots' code as yourself (it can then "
                  "read and write whatever you can)")
    return "; ".join(advice)


def _in_container() -> bool:
    if os.path.exists("/.dockerenv") or os.path.exists("/run/.containerenv"):
        return True
    try:
        text = Path("/proc/1/cgroup").read_text()
    except OSError:
        return False
    return any(word in text for word in ("docker", "kubepods", "containerd", "lxc"))


def check_bwrap(limits: BotLimits) -> None:
    """Start one trivial sandbox with the real policy; if it fails, a SandboxError with
    bwrap's own words and what to do about it."""
    bwrap = bwrap_path()
    if os.geteuid() == 0 and not os.path.exists(SETPRIV):
        raise SandboxError(f"--sandbox bwrap: {SETPRIV} is missing, and as root a bot "
                           f"needs it to run as nobody; {_sandbox_advice('')}")
    argv = bwrap_argv(["/bin/true"], limits, bwrap)
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, check=False,
                              env={"PATH": SYSTEM_PATH})
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxError(f"--sandbox bwrap: bubblewrap cannot start: {exc}; "
                           f"{_sandbox_advice(str(exc))}") from None
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip() or f"exit status {done.returncode}"
        said = " ".join(said.split())
        raise SandboxError(f"--sandbox bwrap: bubblewrap cannot start a sandbox here: {said}; "
                           f"{_sandbox_advice(said)}")


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
          cpu: list[float] | None = None, escaped: set[int] | None = None
          ) -> tuple[set[int], list[int]]:
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

    ``escaped`` gets the pids found outside the bot's process group: the group was
    killed whole before the sweep (a member still there is dying, which under load
    takes a moment), so only those had left the bot behind them running; of them, only
    those surely the bot's (its session or tag), not an untagged orphan of our own.

    ``live`` is asked only after /proc has been read: a bot another table
    starts meanwhile is registered before it forks, so every process the scan
    saw is known by then (a snapshot taken before the scan would miss it).
    """
    me = os.getpid()
    my_session = os.getsid(0)
    table = processes()
    live_bots, live_tags, spawning = live()
    targets: dict[int, Stat] = {}
    mine: set[int] = set()  # of those, the bot's for sure: its session, group or tag
    for pid, info in table.items():
        state, parent, group, session = info
        if pid == me or pid in live_bots or session in live_bots:
            continue
        if state == "Z" and parent != me:
            continue
        if session == bot or group == bot:
            targets[pid] = info
            mine.add(pid)
        elif _subreaper and parent == me and pid not in _children_before \
                and session != my_session:
            owner = _tag_of(pid)
            if owner is None and spawning:
                continue
            if owner is None or owner == tag or owner not in live_tags:
                targets[pid] = info
                if owner is not None and owner == tag:
                    mine.add(pid)
    if not _subreaper and tag:
        for pid, info in table.items():
            if pid != me and pid not in targets and info[0] != "Z" and _tag_of(pid) == tag:
                targets[pid] = info
                mine.add(pid)
    for pid in targets:
        _kill(pid)
    pending = []
    for pid in targets:
        now = _stat(pid)
        if now is not None and not _reap(pid, now, cpu):
            pending.append(pid)
    found = {pid for pid, (state, _, _, _) in targets.items() if state != "Z"}
    if escaped is not None:  # left running: out of the bot's group, which was killed whole;
        # counted only when surely the bot's (an untagged orphan adopted here may be what
        # another job of this process left: killed all the same, not charged to this bot)
        escaped |= {pid for pid in found if targets[pid][2] != bot and pid in mine}
    return found, sorted(pending)
