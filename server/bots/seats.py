"""How a seat gets its bot for one hand: the seam between a match and its bots.

A match asks its ``Launcher`` for each seat's ``Peer`` at the start of every
hand and closes them all at its end. ``ProcessLauncher`` starts a fresh bot
process; other launchers (a sandbox, a TCP listener) give other peers and the
match does not change.

``ProcessLauncher`` runs every bot with ``BotLimits``, in a working directory
of its own for the hand (removed after it; under bwrap a private tmpfs), with
the bot's tag in its environment so nothing it starts can outlive it, and
optionally under bubblewrap (``Sandbox``).
"""

from __future__ import annotations

import atexit
import itertools
import os
import shutil
import tempfile
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import trio

from server.bots.leftovers import scratch_prefix
from server.bots.processes import Peer, start_bot
from server.bots.sandbox import (
    SANDBOXES,
    TAG_VARIABLE,
    BotLimits,
    SandboxError,
    absolute_argv,
    bwrap_argv,
    bwrap_path,
    check_bwrap,
    enable_subreaper,
)
from server.output.paths import output_folder


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A line-protocol table's clock, as the command line sets it (match, check-bot,
    tournament): the default ruleset's table keeps it; TCP seats join by it."""

    hard_limit: float = 5.0  # seconds before an unanswered prompt is a fault
    join_limit: float = 5.0  # seconds for every bot to say join (not fined)
    announce: bool = False  # send "mhu" before closing
    host_stalls: bool = False  # take the host's delays off a late answer (the table's docstring)


@dataclass(frozen=True, slots=True)
class SeatRequest:
    player: int  # index in argument order
    name: str  # the AI argument as given
    argv: tuple[str, ...]
    seat: int
    hand: int  # 0-based hand number in the match
    folder: Path | None  # the hand's log folder, when logging


class Launcher(Protocol):
    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        """The seat's peer, running; background work (stderr) goes in ``nursery``."""
        ...


@dataclass(frozen=True, slots=True)
class Sandbox:
    """Where and how bot processes run (the ``match`` command's options)."""

    limits: BotLimits = field(default_factory=BotLimits)
    kind: str = "none"  # or "bwrap"
    work_dir: Path | None = None  # the per-bot folders go here (a temporary folder if None)
    # Folders masked in the sandbox where a bound folder holds them (the output folder,
    # its handins/ and programs/): ``server.bots.sandbox.bwrap_argv``.
    hide: tuple[Path, ...] = ()

    def check(self) -> None:
        """A SandboxError now, rather than a fault per seat later, if it cannot work."""
        if self.kind not in SANDBOXES:
            raise SandboxError(f"--sandbox must be one of {', '.join(SANDBOXES)}, "
                               f"not {self.kind!r}")
        if self.kind == "bwrap":
            check_bwrap(self.limits)
        if self.work_dir is not None:  # a PathError: a file, or not writable
            output_folder(self.work_dir, "--work-dir")


class ProcessLauncher:
    """A fresh process per seat and hand, stderr drained into the hand folder."""

    def __init__(self, sandbox: Sandbox | None = None) -> None:
        self.sandbox = sandbox or Sandbox()
        self._token = uuid.uuid4().hex[:12]
        self._bwrap: str | None = None
        self._count = itertools.count(1)
        self._roots: set[Path] = set()

    def _work_root(self) -> Path:
        """This launcher's folder of bot folders (two matches never share one)."""
        parent = self.sandbox.work_dir or Path(tempfile.gettempdir())
        root = parent / f"{scratch_prefix('mahjong-bots-')}{self._token}"
        root.mkdir(parents=True, exist_ok=True)
        if root not in self._roots:  # each bot's folder goes when it stops; this catches
            self._roots.add(root)  # a peer never closed
            atexit.register(shutil.rmtree, root, True)
        return root

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        enable_subreaper()
        sandbox = self.sandbox
        stderr = request.folder / f"seat{request.seat}.stderr" if request.folder else None
        tag = f"{self._token}-{next(self._count)}"
        env = {**os.environ, TAG_VARIABLE: tag}
        argv = absolute_argv(request.argv)
        work: Path | None = None
        if sandbox.kind == "bwrap":
            if self._bwrap is None:
                self._bwrap = bwrap_path()
            argv = bwrap_argv(argv, sandbox.limits, self._bwrap, hide=sandbox.hide, tag=tag)
            cwd = None
        elif sandbox.kind == "none":
            work = self._work_root() / f"hand{request.hand + 1:03d}-seat{request.seat}"
            work.mkdir(parents=True, exist_ok=True)
            cwd = work
        else:
            raise SandboxError(f"unknown sandbox {sandbox.kind!r}")
        peer = await start_bot(argv, f"seat{request.seat}", stderr, cwd, env=env,
                               limits=sandbox.limits, tag=tag,
                               sandboxed=sandbox.kind == "bwrap", work_dir=work)
        nursery.start_soon(peer.drain_stderr)
        return peer
