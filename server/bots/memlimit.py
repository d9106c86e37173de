"""The memory limit of a bot: on the memory it uses, not the address space it reserves.

A JVM with its defaults reserves gigabytes of address space it never touches
(its heap, code cache and class space: 9 GB of ``VmPeak`` for a Java bot that
reads one line, on a 24 GB machine), Node reserves 700 MB, and both refuse to
start under a 256 MB ``RLIMIT_AS``, while each uses about 40 MB. So a bot's
limit is on the memory its processes use together, measured one of two ways:

* **A memory cgroup per bot**, where the server may make one (``Cgroups``).
  The server makes a folder of its own under its own cgroup
  (``mahjong-<pid>``) and, for each bot it starts, a cgroup in it with the
  limit: cgroup v1's ``memory.limit_in_bytes`` (and ``memory.memsw.limit_in_bytes``
  where swap is accounted, so swap is no way round it), or v2's ``memory.max``
  (and ``memory.swap.max`` 0) where our own cgroup delegates the memory
  controller to its children. The bot's process joins it before it runs the
  bot (``preexec``, in the child, after the fork), so everything it starts is
  inside too, bubblewrap's whole tree included. A bot that uses more is
  stopped by the kernel's OOM killer, within the cgroup only; the server
  knows it was the limit from the cgroup's own count of OOM kills
  (v1 ``memory.oom_control``, v2 ``memory.events``) and says the peak
  (``memory.max_usage_in_bytes``, ``memory.peak``). When the bot is stopped,
  whatever is left in its cgroup is killed and the cgroup removed; a server
  killed outright leaves its folder, which the next start removes.
* **Sampling**, where no cgroup can be made (no cgroup file system we may
  write, or ``MAHJONG_MEMORY_CGROUP=0``): one thread reads the resident size
  (``/proc/PID/statm``) of every process of each bot's process tree every
  ``SAMPLE_SECONDS`` and kills the bot's process group and tree when their sum
  passes the limit. A bot that allocates fast can overshoot by what it
  touches between two samples; processes a bot has detached from its tree
  (a double fork) are not counted. No address-space or data limit is set at
  all: ``RLIMIT_DATA`` counts a JVM's committed initial heap (a 64th of the
  machine's memory: 493 MB of ``VmData`` here), so it would fail Java on
  large machines for memory it never touches.

This module does not import trio: it is plain process plumbing.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import threading
import time
from pathlib import Path

MB = 1 << 20
SAMPLE_SECONDS = 0.05
SWITCH = "MAHJONG_MEMORY_CGROUP"  # "0": never use a cgroup (sampling only)
CGROUP_FS = Path("/sys/fs/cgroup")
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_names = itertools.count(1)


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


def _write(path: Path, text: str) -> bool:
    try:
        path.write_text(text)
    except OSError:
        return False
    return True


def _field(text: str | None, name: str) -> int | None:
    """The value of ``name N`` in a flat-keyed cgroup file (memory.events, oom_control)."""
    for line in (text or "").splitlines():
        key, _, value = line.partition(" ")
        if key == name and value.strip().isdigit():
            return int(value)
    return None


def _kill_pids(text: str | None) -> int:
    count = 0
    for word in (text or "").split():
        with contextlib.suppress(ValueError, OSError):
            os.kill(int(word), signal.SIGKILL)
            count += 1
    return count


# --- where this process may make cgroups --------------------------------------------------


def _mounts() -> list[tuple[str, str, str, str]]:
    """(root, mount point, file system type, super options) of every mount we see."""
    found = []
    for line in (_read(Path("/proc/self/mountinfo")) or "").splitlines():
        head, sep, tail = line.partition(" - ")
        fields, rest = head.split(), tail.split()
        if sep and len(fields) >= 5 and len(rest) >= 3:
            found.append((fields[3], fields[4], rest[0], rest[2]))
    return found


def _under(mount: tuple[str, str, str, str], path: str) -> Path | None:
    root, point = mount[0], mount[1]
    if root != "/" and not (path == root or path.startswith(root.rstrip("/") + "/")):
        return None
    rel = path[len(root):] if root != "/" else path
    return Path(point) / rel.lstrip("/")


def own_cgroup() -> tuple[str, Path] | None:
    """Our own memory cgroup's folder: ("v1", folder) or ("v2", folder); None if none."""
    lines = (_read(Path("/proc/self/cgroup")) or "").splitlines()
    mounts = _mounts()
    for line in lines:  # v1 first: where its memory controller is mounted, v2 has none
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number != "0" and "memory" in controllers.split(","):
            for mount in mounts:
                if mount[2] == "cgroup" and "memory" in mount[3].split(","):
                    folder = _under(mount, path)
                    if folder is not None and folder.is_dir():
                        return "v1", folder
    for line in lines:
        if line.startswith("0::"):
            for mount in mounts:
                if mount[2] == "cgroup2":
                    folder = _under(mount, line[3:])
                    if folder is not None and folder.is_dir():
                        return "v2", folder
    return None


class Cgroups:
    """This server's folder of bot cgroups, made under its own cgroup."""

    def __init__(self, version: str, folder: Path) -> None:
        self.version = version
        self.folder = folder

    @classmethod
    def here(cls) -> Cgroups | None:
        """Ours, made now, if this process may make memory cgroups; else None."""
        if os.environ.get(SWITCH, "1") == "0":
            return None
        found = own_cgroup()
        if found is None:
            return None
        version, own = found
        if version == "v2":
            controls = _read(own / "cgroup.subtree_control") or ""
            if "memory" not in controls.split() and \
                    not _write(own / "cgroup.subtree_control", "+memory"):
                return None  # not delegated to us (or our cgroup holds processes)
        _remove_stale(own)
        folder = own / f"mahjong-{os.getpid()}"
        try:
            folder.mkdir(exist_ok=True)
        except OSError:
            return None
        if version == "v2" and not _write(folder / "cgroup.subtree_control", "+memory"):
            _rmdir(folder)
            return None
        groups = cls(version, folder)
        probe = groups.make(64)  # the files we need must be there and writable
        if probe is None:
            _rmdir(folder)
            return None
        probe.finish()
        atexit.register(_rmdir, folder)
        return groups

    def make(self, limit_mb: int) -> BotCgroup | None:
        """A new cgroup holding at most ``limit_mb`` MB; None if it cannot be made."""
        path = self.folder / f"bot-{next(_names)}"
        try:
            path.mkdir()
        except OSError:
            return None
        size = str(limit_mb * MB)
        if self.version == "v1":
            ok = _write(path / "memory.limit_in_bytes", size)
            swap = path / "memory.memsw.limit_in_bytes"
            ok = ok and (not swap.exists() or _write(swap, size))
        else:
            ok = _write(path / "memory.max", size)
            if (path / "memory.swap.max").exists():
                _write(path / "memory.swap.max", "0")
            _write(path / "memory.oom.group", "1")  # an OOM kill takes the whole bot
        if not ok:
            _rmdir(path)
            return None
        return BotCgroup(self.version, path, limit_mb)


def _rmdir(path: Path) -> bool:
    for _ in range(50):  # a killed process leaves its cgroup a moment after it dies
        try:
            path.rmdir()
            return True
        except FileNotFoundError:
            return True
        except OSError:
            _kill_pids(_read(path / "cgroup.procs"))
            time.sleep(0.01)
    return False


def _remove_stale(own: Path) -> None:
    """Remove what a server killed outright left: its folder, its bots' cgroups, their
    processes."""
    with contextlib.suppress(OSError):
        for folder in own.glob("mahjong-*"):
            pid = folder.name.removeprefix("mahjong-")
            if not pid.isdigit() or int(pid) == os.getpid() or Path(f"/proc/{pid}").exists():
                continue
            for child in folder.glob("bot-*"):
                _rmdir(child)
            _rmdir(folder)


class BotCgroup:
    """One bot's memory cgroup: joined before exec, read for the verdict, removed."""

    def __init__(self, version: str, path: Path, limit_mb: int) -> None:
        self.version = version
        self.path = path
        self.limit_mb = limit_mb
        self._procs = str(path / "cgroup.procs")
        self._verdict: str | None = None
        self._finished = False
        self._peak: int | None = None  # bytes, read when it is finished

    def join(self) -> None:
        """In the child before exec: move this process into the cgroup (raises OSError)."""
        fd = os.open(self._procs, os.O_WRONLY)
        try:
            os.write(fd, str(os.getpid()).encode())
        finally:
            os.close(fd)

    def started(self, pid: int) -> None:
        """In the server once the bot runs: nothing to do, the kernel keeps the limit."""

    def verdict(self) -> str | None:
        """"memory limit ..." if the kernel stopped the bot for using more; else None."""
        if self._finished:
            return self._verdict
        if self.version == "v1":
            kills = _field(_read(self.path / "memory.oom_control"), "oom_kill")
            peak = _read(self.path / "memory.max_usage_in_bytes")
        else:
            kills = _field(_read(self.path / "memory.events"), "oom_kill")
            peak = _read(self.path / "memory.peak")
        if not kills:
            return None
        used = f", {int(peak) // MB} MB used" if peak and peak.strip().isdigit() else ""
        return f"memory limit of {self.limit_mb} MB reached{used}: killed by the kernel"

    def _read_peak(self) -> int | None:
        name = "memory.max_usage_in_bytes" if self.version == "v1" else "memory.peak"
        text = (_read(self.path / name) or "").strip()
        return int(text) if text.isdigit() else None

    def peak_mb(self) -> float | None:
        """The most memory the bot's processes used together (the cgroup's own count of
        what was charged to it after the bot joined it), in MB; None if unknown."""
        peak = self._peak if self._finished else self._read_peak()
        return None if peak is None else peak / MB

    def finish(self) -> None:
        """Once the bot is stopped: keep the verdict and the peak, kill what is left,
        remove the cgroup."""
        if self._finished:
            return
        self._verdict = self.verdict()
        self._peak = self._read_peak()
        self._finished = True
        if self.version == "v2":
            _write(self.path / "cgroup.kill", "1")
        _kill_pids(_read(self.path / "cgroup.procs"))
        _rmdir(self.path)


# --- the fallback: sampling ---------------------------------------------------------------


def _tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc/*/task/*/children."""
    found, todo = [], [pid]
    while todo:
        head = todo.pop()
        found.append(head)
        with contextlib.suppress(OSError):
            for task in os.listdir(f"/proc/{head}/task"):
                text = _read(Path(f"/proc/{head}/task/{task}/children")) or ""
                todo.extend(int(word) for word in text.split())
        if len(found) > 4096:
            break
    return found


def resident_bytes(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        text = _read(Path(f"/proc/{pid}/statm"))
        if text:
            with contextlib.suppress(IndexError, ValueError):
                total += int(text.split()[1]) * _PAGE
    return total


class SampledBot:
    """A bot's memory watched by sampling its process tree (no cgroup here)."""

    def __init__(self, limit_mb: int) -> None:
        self.limit_mb = limit_mb
        self.pid: int | None = None
        self.peak = 0
        self._verdict: str | None = None

    def join(self) -> None:
        """Nothing to do in the child: the sampler finds the bot by its pid."""

    def started(self, pid: int) -> None:
        self.pid = pid
        _SAMPLER.watch(self)

    def sample(self) -> None:
        if self.pid is None or self._verdict is not None:
            return
        pids = _tree(self.pid)
        used = resident_bytes(pids)
        self.peak = max(self.peak, used)
        if used > self.limit_mb * MB:
            self._verdict = (f"memory limit of {self.limit_mb} MB reached, {used // MB} MB "
                             "used: killed by the server")
            with contextlib.suppress(OSError):
                os.killpg(self.pid, signal.SIGKILL)
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)

    def verdict(self) -> str | None:
        return self._verdict

    def peak_mb(self) -> float | None:
        """The largest sum of its processes' resident sizes the sampler saw, in MB; None
        if it was never sampled (it lived less than a sampling interval)."""
        return self.peak / MB if self.peak else None

    def finish(self) -> None:
        _SAMPLER.forget(self)


class _Sampler:
    """One thread sampling every watched bot, started with the first."""

    def __init__(self) -> None:
        self._bots: set[SampledBot] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, bot: SampledBot) -> None:
        with self._lock:
            self._bots.add(bot)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="bot-memory",
                                                daemon=True)
                self._thread.start()

    def forget(self, bot: SampledBot) -> None:
        with self._lock:
            self._bots.discard(bot)

    def _run(self) -> None:
        while True:
            with self._lock:
                bots = list(self._bots)
            for bot in bots:
                bot.sample()
            time.sleep(SAMPLE_SECONDS)


_SAMPLER = _Sampler()
_cgroups: Cgroups | None = None
_looked = False
_look_lock = threading.Lock()


def cgroups() -> Cgroups | None:
    """This server's bot cgroups, made on first use; None where none can be made."""
    global _cgroups, _looked
    with _look_lock:
        if not _looked:
            _cgroups = Cgroups.here()
            _looked = True
    return _cgroups


def mechanism() -> str:
    """How memory limits are kept here, in words (for docs, tests and messages)."""
    groups = cgroups()
    if groups is None:
        return "sampling"
    return f"cgroup {groups.version}"


MemoryGuard = BotCgroup | SampledBot


def guard(limit_mb: int | None) -> MemoryGuard | None:
    """What keeps one bot to ``limit_mb`` MB: its cgroup, or the sampler; None: no limit."""
    if limit_mb is None:
        return None
    groups = cgroups()
    made = groups.make(limit_mb) if groups is not None else None
    return made if made is not None else SampledBot(limit_mb)
