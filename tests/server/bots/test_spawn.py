"""Bots die with the server, and only with it (``server.bots.spawn``).

The parent-death signal follows the *thread* that forked a bot. trio's worker
threads end after some idle seconds (``IDLE_TIMEOUT``, 10 s); it is cut to a
tenth of a second here, so that a bot forked by such a thread would be killed
within the test (as a bot under bubblewrap's ``--die-with-parent`` was,
mid-hand, on a server that had not forked anything for ten seconds).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import trio
from trio._core import _thread_cache

from server.bots.processes import start_bot
from server.bots.sandbox import BotLimits, bwrap_argv, enable_subreaper
from tests.server.bots.test_hostile import HOSTILE, bwrap_or_skip, no_leftovers  # noqa: F401 (a fixture)


@pytest.mark.parametrize("sandbox_kind", ["none", "bwrap"])
async def test_a_bot_outlives_the_idle_thread_that_started_it(
        sandbox_kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if sandbox_kind == "bwrap":
        bwrap_or_skip()
    monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0.1)
    argv = [sys.executable, str(HOSTILE / "ignore_sigterm.py")]  # joins, then sleeps
    if sandbox_kind == "bwrap":
        argv = bwrap_argv(argv, BotLimits())
    peer = await start_bot(argv, "seat0", None, Path.cwd())
    try:
        said = b""
        while not said.endswith(b"\n"):
            said += await peer.receive_some()
        assert said == b"join\n"
        await trio.sleep(1.0)  # trio's threads, idle, have ended by now
        assert peer.process.poll() is None, f"the bot died: {peer.process.returncode}"
    finally:
        await peer.close()
    assert peer.needed_kill or sandbox_kind == "bwrap"


BURN = ("import time\n"
        "data = bytearray(64 << 20)\n"  # 64 MB, touched
        "for i in range(0, len(data), 4096): data[i] = 1\n"
        "end = time.process_time() + 0.3\n"
        "while time.process_time() < end: pass\n"
        "raise SystemExit(3)\n")


@pytest.mark.parametrize("sandbox_kind", ["none", "bwrap"])
async def test_a_bots_cpu_time_and_peak_memory_are_measured_when_it_ends(
        sandbox_kind: str) -> None:
    """wait4 gives the CPU time of the bot and keeps its exit status (under bwrap, the
    bot is reaped by bwrap's init, which the server, a subreaper as every launcher makes
    it, adopts and reaps in its sweep); its memory guard gives the peak, not the server's
    size (the forked child's high-water mark)."""
    if sandbox_kind == "bwrap":
        bwrap_or_skip()
    enable_subreaper()
    argv = [sys.executable, "-c", BURN]
    if sandbox_kind == "bwrap":
        argv = bwrap_argv(argv, BotLimits(memory_mb=512))
    peer = await start_bot(argv, "seat0", None, Path.cwd(), limits=BotLimits(memory_mb=512),
                           sandboxed=sandbox_kind == "bwrap")
    try:
        assert await peer.process.wait() == 3
    finally:
        await peer.close()
    used = peer.resources()
    assert used["cpu_seconds"] is not None and 0.3 <= used["cpu_seconds"] < 5
    assert used["peak_memory_mb"] is not None and 60 <= used["peak_memory_mb"] < 200


async def test_a_bot_killed_by_a_signal_keeps_its_status_and_cpu_time() -> None:
    peer = await start_bot([sys.executable, "-c", "import time; time.sleep(60)"], "seat0",
                           None, Path.cwd())
    await peer.close()  # terminated: SIGTERM
    assert peer.exit_status == -15
    assert peer.process.cpu_seconds is not None and peer.process.cpu_seconds > 0
    assert peer.resources()["peak_memory_mb"] is None  # no memory limit: not measured
