"""Bot processes that die with the server, forked by threads that live as long as it.

Every bot gets the kernel's parent-death signal: ``prctl(PR_SET_PDEATHSIG,
SIGKILL)`` is set in the child before it runs the bot, so a server killed
outright (SIGKILL, the OOM killer), which can run no clean-up of its own,
still takes its bots with it. If the server died between the fork and the
``prctl``, the child sees a new parent and kills itself.

The kernel's "parent" here is the *thread* that forked the child, not the
process: trio forks in its worker threads, which end after ten idle seconds,
and a bot forked there would be killed mid-hand when its thread ends (so would
a bot under bubblewrap's ``--die-with-parent``, which is the same signal). Bots
are therefore forked by a small pool of threads that live as long as the
server (``_SPAWNERS``), and ``BotProcess`` is the part of ``trio.Process`` the
server uses, built on the same public pieces (``FdStream``, a pidfd).

What a bot starts itself does not get the signal (it is cleared on fork):
``server.bots.leftovers`` finds those at the next start.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import os
import signal
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import trio

PR_SET_PDEATHSIG = 1
SPAWN_THREADS = 4  # bots forked at once (four seats of a table start together)

T = TypeVar("T")

# Never shut down before the interpreter exits: a thread that ended would kill its bots.
_SPAWNERS = concurrent.futures.ThreadPoolExecutor(SPAWN_THREADS, thread_name_prefix="bot-spawner")

try:  # looked up here, in the server: the child only calls it
    _prctl: Callable[..., int] | None = ctypes.CDLL(None, use_errno=True).prctl
except (OSError, AttributeError):  # not Linux: no parent-death signal
    _prctl = None


def die_with_parent(parent: int) -> None:
    """In a child before exec: be killed when the thread that forked us ends.

    ``parent`` is the server's pid, read before the fork: if it is no longer our
    parent, the server died before the signal was set, and we die now.
    """
    if _prctl is None:
        return
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), signal.SIGKILL)


class BotProcess:
    """A running bot: its pid, its three pipes, ``poll`` and ``wait``.

    The bot is reaped with ``wait4``, so its CPU time is known once it has ended
    (``cpu_seconds``: user and system time of the bot and of every descendant it
    waited for; ``ProcessPeer`` adds what it reaps after it). Its ``ru_maxrss`` is not
    kept: a child forked from the server inherits the server's resident size as its
    high-water mark before it runs the bot (``server.bots.memlimit`` measures memory).
    """

    def __init__(self, popen: subprocess.Popen[bytes], stdin: trio.lowlevel.FdStream,
                 stdout: trio.lowlevel.FdStream, stderr: trio.lowlevel.FdStream) -> None:
        self._popen = popen
        self.pid = popen.pid
        self.args = popen.args
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr
        self._wait_lock = trio.Lock()
        self.cpu_seconds: float | None = None  # once reaped by us: user + system time
        self._pidfd: int | None = None
        with contextlib.suppress(OSError, AttributeError):  # no pidfd: wait() polls
            self._pidfd = os.pidfd_open(self.pid)

    @property
    def returncode(self) -> int | None:
        """The exit status (negative: the signal that killed it), None while it runs."""
        return self.poll()

    def poll(self) -> int | None:
        if self._popen.returncode is None and not self._reap():
            return None
        self._close_pidfd()
        return self._popen.returncode

    def _reap(self) -> bool:
        """Reap the bot if it has exited, keeping its CPU time; whether it has."""
        try:
            pid, status, usage = os.wait4(self.pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere: Popen says what it knows
            return self._popen.poll() is not None
        if pid == 0:
            return False
        self.cpu_seconds = usage.ru_utime + usage.ru_stime
        self._popen.returncode = os.waitstatus_to_exitcode(status)
        return True

    async def wait(self) -> int:
        """Wait until the bot has exited and is reaped; its exit status."""
        async with self._wait_lock:
            while (status := self.poll()) is None:
                if self._pidfd is not None:
                    with contextlib.suppress(trio.ClosedResourceError):
                        await trio.lowlevel.wait_readable(self._pidfd)
                else:
                    await trio.sleep(0.01)
            return status

    def _close_pidfd(self) -> None:
        if self._pidfd is not None:
            fd, self._pidfd = self._pidfd, None
            with contextlib.suppress(RuntimeError):  # outside trio: nobody waits on it
                trio.lowlevel.notify_closing(fd)
            os.close(fd)


async def _in_spawner(work: Callable[[], T]) -> T:
    """``work()`` run by a spawner thread; not cancellable (a fork cannot be undone)."""
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()
    future = _SPAWNERS.submit(work)
    future.add_done_callback(lambda _: token.run_sync_soon(done.set))
    with trio.CancelScope(shield=True):
        await done.wait()
    return future.result()


async def open_bot_process(argv: Sequence[str], *, cwd: Path | None = None,
                           env: Mapping[str, str] | None = None,
                           preexec: Callable[[], None] | None = None) -> BotProcess:
    """Start ``argv`` in its own session with piped stdio, killed if the server dies.

    ``preexec`` runs in the child before the bot (resource limits).
    """
    server = os.getpid()

    def setup() -> None:
        if preexec is not None:
            preexec()
        die_with_parent(server)

    stdin_r, stdin_w = os.pipe()
    stdout_r, stdout_w = os.pipe()
    stderr_r, stderr_w = os.pipe()
    ours = (stdin_w, stdout_r, stderr_r)
    try:
        popen = await _in_spawner(lambda: subprocess.Popen(
            list(argv), stdin=stdin_r, stdout=stdout_w, stderr=stderr_w,
            start_new_session=True, cwd=cwd, env=env, preexec_fn=setup))
    except BaseException:
        for fd in ours:
            os.close(fd)
        raise
    finally:
        for fd in (stdin_r, stdout_w, stderr_w):
            os.close(fd)
    return BotProcess(popen, trio.lowlevel.FdStream(stdin_w), trio.lowlevel.FdStream(stdout_r),
                      trio.lowlevel.FdStream(stderr_r))
