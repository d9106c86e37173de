"""How a seat gets its bot for one hand: the seam between a match and its bots.

A match asks its ``Launcher`` for each seat's ``Peer`` at the start of every
hand and closes them all at its end. ``ProcessLauncher`` starts a fresh bot
process; other launchers (a sandbox, a TCP listener) give other peers and the
match does not change.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import trio

from server.bots import Peer, start_bot


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


class ProcessLauncher:
    """A fresh process per seat and hand, stderr drained into the hand folder."""

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        stderr = request.folder / f"seat{request.seat}.stderr" if request.folder else None
        peer = await start_bot(list(request.argv), f"seat{request.seat}", stderr)
        nursery.start_soon(peer.drain_stderr)
        return peer
