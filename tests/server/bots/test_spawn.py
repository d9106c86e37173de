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
from server.bots.sandbox import BotLimits, bwrap_argv
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
