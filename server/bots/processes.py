"""Bot processes under trio: start, pipe lines, drain stderr, and kill for good.

Each bot is a process in its own process group (``start_new_session``), with
stdin and stdout as pipes, killed by the kernel if the server dies
(``server.bots.spawn``). Stderr is drained continuously into a file capped
in size, so a bot that floods it never blocks. At the end of a hand the whole
group is sent SIGTERM, then SIGKILL after a short grace, and the leader is
reaped; then everything the bot started is killed too (``server.bots.sandbox.sweep``),
and its readers are closed, so a daemon that keeps a pipe open cannot hold up
the hand. A bot that stopped by itself keeps its exit status, so a fault can
say why (``exit_detail``: "killed by SIGXCPU (cpu limit)"). A bot is a ``Peer``:
something lines can be written to and a byte stream to read them from, so a
socket can stand in for a process.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import trio

from protocol.bot_errors import Reports
from server.bots import leftovers, memlimit
from server.bots.leftovers import RUN_VARIABLE
from server.bots.memlimit import MemoryGuard
from server.bots.sandbox import BotLimits, LiveBots, bot_environment, describe_exit, sweep
from server.bots.scripts import script_of, shebang_problem
from server.bots.spawn import BotProcess, open_bot_process

STDERR_CAP = 1 << 20  # bytes of a bot's stderr kept per hand
STDERR_TAIL = 4096  # bytes of the end of stderr kept to tell why a bot died
KILL_GRACE = 0.3  # seconds between SIGTERM and SIGKILL
SETTLE = 0.25  # seconds a bot whose output closed has to finish exiting
EOF_GRACE = 0.5  # seconds a bot faulted on time has to exit once its input is closed
SWEEP_LIMIT = 2.0  # seconds to kill and reap what a bot left behind

_live_bots: dict[int, str] = {}  # pid -> tag of bot processes started and not yet reaped
# Tags of bots being started right now (another table's sweep must spare them).
_starting: dict[str, int] = {}


class BotCommandError(ValueError):
    """An AI argument that names no runnable program."""


def parse_command(spec: str) -> list[str]:
    """An AI argument as argv: a path to an executable, or a quoted command line.

    Checked before anything starts: the program must exist and be executable,
    its ``#!`` line must be runnable (not ended by a Windows carriage return),
    and the script an interpreter is given (``python3 bot.py``) must exist.
    """
    try:
        argv = shlex.split(spec)
    except ValueError as exc:
        raise BotCommandError(f"AI {spec!r}: cannot split the command line ({exc})") from None
    if not argv:
        raise BotCommandError("an AI argument is empty")
    program = argv[0]
    if "/" in program or os.sep in program:
        path = Path(program)
        if not path.exists():
            raise BotCommandError(f"AI {spec!r}: {program} does not exist"
                                  + _spaced_path(argv, 0))
        if path.is_dir():
            raise BotCommandError(f"AI {spec!r}: {program} is a folder, not a program")
        if not os.access(path, os.X_OK):
            hint = f' (try "python3 {program}" or chmod +x)' if program.endswith(".py") else ""
            raise BotCommandError(f"AI {spec!r}: {program} is not executable{hint}")
    else:
        found = shutil.which(program, path=bot_environment().get("PATH"))
        if found is None:
            if Path(program).is_dir():
                raise BotCommandError(f"AI {spec!r}: {program} is a folder, not a program")
            if Path(program).exists():
                raise BotCommandError(
                    f"AI {spec!r}: to run a file in this folder, write ./{program}")
            raise BotCommandError(f"AI {spec!r}: no program {program!r} on PATH")
        program = found
    problem = shebang_problem(program)
    if problem is not None:
        raise BotCommandError(f"AI {spec!r}: {argv[0]}: {problem}")
    script = script_of(argv)
    if script is not None and not _is_file_here(script):
        # Read as the bot will read it: relative paths are taken from here (the
        # launcher makes them absolute, since the bot runs in a folder of its own).
        where = "" if os.path.isabs(script) else f" (in {Path.cwd()})"
        raise BotCommandError(f"AI {spec!r}: {argv[0]} would run {script}, which does not "
                              f"exist{where}" + _spaced_path(argv, argv.index(script)
                                                             if script in argv else -1))
    return argv


def _spaced_path(argv: Sequence[str], i: int) -> str:
    """When ``argv[i]`` and the words after it are one path with spaces that the
    command line split (it exists once they are joined again), how to quote it."""
    if i < 0:
        return ""
    for end in range(i + 2, len(argv) + 1):
        joined = " ".join(argv[i:end])
        if _is_file_here(joined):
            quoted = shlex.join([*argv[:i], joined, *argv[end:]])
            # Shown in double quotes: the one form both a shell and BOTS.toml take.
            return (f"; {joined!r} exists: its spaces split it into words, so quote it "
                    f'inside the command: "{quoted}"')
    return ""


def _is_file_here(path: str) -> bool:
    try:
        return Path(path).exists()
    except (OSError, ValueError):  # a name too long, a NUL
        return False


class Peer(Protocol):
    """One seat's connection: write lines to it, read bytes from it, end it.

    ``send_nowait`` writes what the connection takes at once, without blocking
    or yielding, and says how many bytes that was (0 is always a correct
    answer); the table then ``send``s the rest under a deadline. Both raise
    ``trio.BrokenResourceError`` or ``trio.ClosedResourceError`` when the far
    end is gone.
    """

    label: str

    def send_nowait(self, data: bytes) -> int: ...

    async def send(self, data: bytes) -> None: ...

    async def receive_some(self) -> bytes: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class ProcessPeer:
    """A bot program started for one hand."""

    label: str
    process: BotProcess
    stderr_path: Path | None
    stderr_bytes: int = 0
    exit_status: int | None = None
    tag: str | None = None  # the bot's TAG_VARIABLE value: its descendants carry it
    sandboxed: bool = False  # under bwrap: exit statuses are bwrap's
    work_dir: Path | None = None  # removed once the bot is stopped
    exited_by_itself: bool = False  # it had exited before the server stopped it
    needed_kill: bool = False  # it outlived SIGTERM and the grace
    left_behind: int = 0  # processes it had started that were killed after it
    stderr_tail: bytes = b""
    reports: Reports = field(default_factory=Reports)  # its own bugs it reported on stderr
    unread_tail: bytes = b""  # the end of what it wrote on stdout that the protocol refused
    memory: MemoryGuard | None = None  # what keeps it to its memory limit (server.bots.memlimit)
    # Seconds it is given to exit by itself once its input is closed, before SIGTERM (0:
    # none). A bot faulted for silence gets them: one whose output is buffered writes its
    # lines when it exits, and they show that it was buffered, not silent.
    eof_grace: float = 0.0
    # Seconds between SIGTERM and SIGKILL. check-bot gives more: on a loaded machine a
    # bot dying of SIGTERM can take longer than a match's grace, and it was not to blame.
    kill_grace: float = KILL_GRACE
    _stderr_done: trio.Event = field(default_factory=trio.Event, repr=False)
    _closed: bool = field(default=False, repr=False)

    def send_nowait(self, data: bytes) -> int:
        """One non-blocking write to the bot's stdin: the bytes the pipe took.

        trio's ``send_all`` always yields to the scheduler before it writes. A
        hand's few hundred short lines always fit in the pipe, so a plain write
        saves that trip on almost every prompt (a third of the server's time
        per message, measured), and the prompt's clock starts right after it.
        """
        stdin = self.process.stdin
        if self._closed:
            raise trio.ClosedResourceError("the bot was stopped")
        if not isinstance(stdin, trio.lowlevel.FdStream):
            return 0  # not a pipe we can write to directly: let send() do it all
        return write_nowait(stdin.fileno(), data)

    async def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        taken = self.send_nowait(data)
        if taken < len(data):
            await self.process.stdin.send_all(data[taken:])

    async def receive_some(self) -> bytes:
        assert self.process.stdout is not None
        data = bytes(await self.process.stdout.receive_some(65536))
        if not data:
            await self._settle()
        return data

    def keep_unread(self, text: str | bytes) -> None:
        """Keep a line of the bot's output that the protocol did not take (a bad line,
        a line after its fault): a fault line shows how it ends (a JVM's error)."""
        line = text.encode(errors="replace") if isinstance(text, str) else text
        self.unread_tail = (self.unread_tail + line + b"\n")[-STDERR_TAIL:]

    async def _settle(self) -> None:
        """After end of output: give the bot a moment to exit and say why on stderr."""
        with trio.move_on_after(SETTLE):
            await self.process.wait()
            self.exited_by_itself = True
            await self._stderr_done.wait()

    @property
    def exit_detail(self) -> str:
        """Why the bot stopped by itself, when it did ("" otherwise)."""
        if not self.exited_by_itself:
            return ""
        return describe_exit(self.process.returncode, self.stderr_tail, self.sandboxed,
                             self.memory_verdict)

    @property
    def memory_verdict(self) -> str | None:
        """"memory limit ..." when the memory limit stopped the bot; else None."""
        return self.memory.verdict() if self.memory is not None else None

    def resources(self) -> dict[str, float | None]:
        """What the bot's processes used, once it is stopped, as the logs keep it:
        ``peak_memory_mb`` as its memory limit measured it (None without a limit) and
        ``cpu_seconds`` from its reaping (None if something else reaped it)."""
        return resources_json(self.memory.peak_mb() if self.memory is not None else None,
                              self.process.cpu_seconds)

    async def drain_stderr(self, cap: int = STDERR_CAP,
                           save: Callable[[bytes], None] | None = None) -> None:
        """Read stderr until it closes, keeping its tail and the first ``cap`` bytes in
        ``stderr_path``; or handing every chunk to ``save`` (a file shared by the
        processes of one Botzone bot)."""
        stream = self.process.stderr
        assert stream is not None
        sink = self.stderr_path.open("wb") if self.stderr_path and save is None else None
        try:
            while True:
                try:
                    data = await stream.receive_some(65536)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    break
                if not data:
                    break
                if save is not None:
                    save(data)
                if sink is not None and self.stderr_bytes < cap:
                    keep = data[: cap - self.stderr_bytes]
                    sink.write(keep)
                    if len(keep) < len(data):
                        sink.write(b"\n[stderr capped]\n")
                self.stderr_bytes += len(data)
                self.stderr_tail = (self.stderr_tail + data)[-STDERR_TAIL:]
                self.reports.feed(data)
        finally:
            self.reports.close()
            self._stderr_done.set()
            if sink is not None:
                sink.close()

    async def close(self) -> None:
        """Terminate the bot's process group, kill it after a grace, reap the leader;
        then kill whatever it left behind and stop reading from it."""
        if self._closed:
            return
        self._closed = True
        with trio.CancelScope(shield=True):
            if self.process.poll() is not None:
                self.exited_by_itself = True
            if self.process.stdin is not None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError,
                                         OSError):
                    await self.process.stdin.aclose()
            if self.eof_grace and self.process.returncode is None:
                with trio.move_on_after(self.eof_grace):
                    await self.process.wait()
            _signal_group(self.process.pid, signal.SIGTERM)
            with trio.move_on_after(self.kill_grace):
                await self.process.wait()
            if self.process.returncode is None:
                self.needed_kill = True
            _signal_group(self.process.pid, signal.SIGKILL)
            await self.process.wait()
            self.exit_status = self.process.returncode
            await self._sweep()
            if self.memory is not None:  # kills what is left in its cgroup, removes it
                await trio.to_thread.run_sync(self.memory.finish)
            _live_bots.pop(self.process.pid, None)  # after: its tag stays its own to sweep
            self._keep_rest_of_stdout()
            for out in (self.process.stdout, self.process.stderr):
                if out is not None:
                    await out.aclose()
            if self.work_dir is not None:  # in a thread: a bot may have written many files
                await trio.to_thread.run_sync(_remove_work_dir, self.work_dir)

    def _keep_rest_of_stdout(self) -> None:
        """What the stopped bot wrote that nobody read yet (the line after the one that
        faulted it: a JVM writes why it failed in two), kept for its fault line."""
        stdout = self.process.stdout
        if not isinstance(stdout, trio.lowlevel.FdStream):
            return
        rest = b""
        with contextlib.suppress(OSError):  # BlockingIOError: nothing more to read
            while len(rest) < STDERR_TAIL and (data := os.read(stdout.fileno(), 65536)):
                rest += data
        for line in rest.splitlines():
            if line.strip():
                self.keep_unread(line)

    async def _sweep(self) -> None:
        """Kill and reap every process the bot started, wherever it went; the CPU time
        of those reaped here (orphans adopted from its tree) counts as the bot's."""
        escaped: set[int] = set()  # what it left running, outside its killed group
        cpu: list[float] = []
        with trio.move_on_after(SWEEP_LIMIT):
            while True:  # /proc is read in a thread: the other seats' clocks run on
                found, pending = await trio.to_thread.run_sync(
                    sweep, self.process.pid, self.tag, self._other_bots, cpu, escaped)
                if not found and not pending:
                    break
                await trio.sleep(0.01)
        self.left_behind = len(escaped - {self.process.pid})
        if cpu and self.process.cpu_seconds is not None:
            self.process.cpu_seconds += sum(cpu)

    def _other_bots(self) -> LiveBots:
        """The other bots alive now (called from the sweep's thread).

        ``_starting`` is read before ``_live_bots``: a starter adds its bot to
        ``_live_bots`` before it leaves ``_starting``, so a bot moving from one
        to the other is found in one of them whatever runs in between.
        """
        starting = frozenset(_starting)
        others = {pid: tag for pid, tag in list(_live_bots.items()) if pid != self.process.pid}
        return frozenset(others), frozenset(others.values()) | starting, bool(starting)


def resources_json(peak_mb: float | None, cpu_seconds: float | None) -> dict[str, float | None]:
    """A bot's resources for one hand or game as the logs write them (MB and seconds,
    rounded to a thousandth)."""
    return {"peak_memory_mb": None if peak_mb is None else round(peak_mb, 3),
            "cpu_seconds": None if cpu_seconds is None else round(cpu_seconds, 3)}


def _remove_work_dir(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
    if path.parent.name.startswith("mahjong-bots-"):  # our temporary root, when empty
        with contextlib.suppress(OSError):
            path.parent.rmdir()


def write_nowait(fd: int, data: bytes) -> int:
    """One write to a non-blocking pipe or socket: the bytes it took, in trio's errors."""
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
    except (BrokenPipeError, ConnectionResetError) as exc:
        raise trio.BrokenResourceError(str(exc)) from None
    except OSError as exc:  # EBADF: closed under us
        raise trio.ClosedResourceError(str(exc)) from None


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def start_bot(argv: list[str], label: str, stderr_path: Path | None,
                    cwd: Path | None = None, *, env: Mapping[str, str] | None = None,
                    limits: BotLimits | None = None, tag: str | None = None,
                    sandboxed: bool = False, work_dir: Path | None = None) -> ProcessPeer:
    """Start one bot in its own process group with piped stdio.

    ``limits`` are set in the child before the bot runs: its rlimits, and its
    memory limit (it joins its own memory cgroup there, so everything it starts,
    bubblewrap's tree included, is inside; ``server.bots.memlimit``). ``work_dir``
    is removed when the bot is closed. Every bot (in a match, a tournament,
    check-bot, replay or the connect bridge) runs in ``bot_environment(env)``.
    The bot dies with the server
    (``server.bots.spawn``); it and everything it starts carry this run's id, and it is
    recorded, so that the next start stops what a server killed outright left
    (``server.bots.leftovers``).
    """
    key = tag or f"untagged-{id(argv)}"
    memory = memlimit.guard(limits.memory_mb) if limits is not None else None

    def preexec() -> None:
        if memory is not None:
            memory.join()
        if limits is not None:
            limits.apply()

    _starting[key] = _starting.get(key, 0) + 1
    try:
        env = {**bot_environment(env), RUN_VARIABLE: leftovers.run_id()}
        try:
            process = await open_bot_process(argv, cwd=cwd, env=env, preexec=preexec)
        except BaseException:
            if memory is not None:
                memory.finish()
            raise
        _live_bots[process.pid] = tag or ""
        leftovers.record(process.pid)
        if memory is not None:
            memory.started(process.pid)
    finally:
        _starting[key] -= 1
        if not _starting[key]:
            del _starting[key]
    return ProcessPeer(label, process, stderr_path, tag=tag, sandboxed=sandboxed,
                       work_dir=work_dir, memory=memory)
