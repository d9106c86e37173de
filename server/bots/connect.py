"""``server connect``: play an unchanged stdio bot at a remote match server.

For every hand: start the bot (in its own process group, as the server would),
wait for its ``join``, connect and say ``join NAME TOKEN`` instead, then copy
bytes both ways until either side closes, and stop the bot. The bot starts
before the connection is made, so its start-up falls in the server's join
allowance, as it would for a local bot. The server's first line may be
``error REASON`` (a refusal, or ``match over``): it is not passed to the bot,
and the bridge stops and says why. It also stops when the server is gone after
a hand (the match has ended) or cannot be reached within ``wait`` seconds at
the start.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import trio

from protocol.framing import MAX_LINE, encode_line
from server.bots.processes import ProcessPeer, start_bot, write_nowait
from server.seam import errors

BOT_JOIN_LIMIT = 60.0  # seconds for the local bot to say its first line
MAX_SILENT = 3  # connections in a row closed before any line: the bridge stops
BACKOFF = (0.05, 1.0)  # first and longest pause between attempts to connect


@dataclass(slots=True)
class BridgeResult:
    hands: int  # connections that carried at least one line from the server
    reason: str  # why the bridge stopped
    status: int  # 0: the match is over; 1: refused or unreachable; 2: the bot failed


class _Stop(Exception):
    def __init__(self, reason: str, status: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def _leaf(exc: BaseException) -> BaseException:
    """The first exception that is not a group, however deeply nurseries nested it."""
    while isinstance(exc, BaseExceptionGroup):
        exc = exc.exceptions[0]
    return exc


async def _bot_first_line(bot: ProcessPeer) -> bytes:
    """The bot's output up to and including its first newline (more if it came along)."""
    buf = b""
    with trio.move_on_after(BOT_JOIN_LIMIT):
        while b"\n" not in buf and len(buf) <= MAX_LINE + 1:
            try:
                data = await bot.receive_some()
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                raise _Stop("the bot exited before saying join", 2)
            buf += data
        return buf
    raise _Stop(f"the bot said nothing for {BOT_JOIN_LIMIT:g} s", 2)


async def _connect(host: str, port: int, give_up_at: float) -> trio.SocketStream:
    pause = BACKOFF[0]
    while True:
        try:
            return await trio.open_tcp_stream(host, port)
        except OSError as exc:
            cause: BaseException = exc
            if isinstance(exc.__cause__, BaseExceptionGroup):  # trio's: one per address tried
                cause = exc.__cause__.exceptions[-1]
            errno = cause.errno if isinstance(cause, OSError) else None
            reason = os.strerror(errno) if errno else errors.reason(cause)
            if trio.current_time() + pause > give_up_at:
                raise _Stop(f"cannot connect to {host}:{port} ({reason})", 1) from None
        await trio.sleep(pause)
        pause = min(2 * pause, BACKOFF[1])


async def _pump_to_bot(stream: trio.SocketStream, bot: ProcessPeer, got_line: list[bool]) -> None:
    """Server to bot; the first line is checked for ``error``. Ends when either closes."""
    head = b""
    while True:
        try:
            data = await stream.receive_some(65536)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        if not data:
            return
        if not got_line[0]:
            head += data
            if b"\n" not in head and len(head) <= MAX_LINE:
                continue
            got_line[0] = True
            first = head.split(b"\n", 1)[0].strip()
            if first.startswith(b"error"):
                reason = first.decode("ascii", "replace")[5:].strip()[:200]
                if reason == "match over":
                    raise _Stop("the match is over", 0)
                raise _Stop(f"the server refused: {reason}", 1)
            data, head = head, b""
        try:
            await bot.send(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return


async def _pump_to_server(bot: ProcessPeer, stream: trio.SocketStream) -> None:
    """Bot to server. Ends when either closes."""
    while True:
        try:
            data = await bot.receive_some()
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            data = b""
        if not data:
            return
        try:
            await _send(stream, data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return


async def _send(stream: trio.SocketStream, data: bytes) -> None:
    """A plain non-blocking write first (as the server's peers do), ``send_all`` the rest.

    It saves a pass through trio's scheduler on nearly every answer.
    """
    taken = write_nowait(stream.socket.fileno(), data)
    if taken < len(data):
        await stream.send_all(data[taken:])


async def _drain_stderr(bot: ProcessPeer) -> None:
    """The bot's stderr goes to ours, as if it ran here."""
    stream = bot.process.stderr
    assert stream is not None
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        while data := await stream.receive_some(65536):
            sys.stderr.buffer.write(data)
            sys.stderr.buffer.flush()


async def _one_hand(host: str, port: int, name: str, token: str, argv: Sequence[str],
                    give_up_at: float) -> bool:
    """Play one hand; True when the server wrote at least one line."""
    bot = await start_bot(list(argv), "bot", None)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_drain_stderr, bot)
            first = await _bot_first_line(bot)
            line, _, rest = first.partition(b"\n")
            stream = await _connect(host, port, give_up_at)
            got_line = [False]
            async with stream:
                hello = encode_line(f"join {name} {token}")
                if line.strip() != b"join":  # let the server judge what the bot said first
                    hello += line + b"\n"
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await stream.send_all(hello + rest)
                async with trio.open_nursery() as pumps:

                    async def to_bot() -> None:
                        await _pump_to_bot(stream, bot, got_line)
                        pumps.cancel_scope.cancel()

                    async def to_server() -> None:
                        await _pump_to_server(bot, stream)
                        pumps.cancel_scope.cancel()

                    pumps.start_soon(to_bot)
                    pumps.start_soon(to_server)
            nursery.cancel_scope.cancel()
    finally:
        await bot.close()
    return got_line[0]


async def bridge(host: str, port: int, name: str, token: str, argv: Sequence[str],
                 wait: float = 30.0) -> BridgeResult:
    """Play hands until the match is over, the server refuses, or it cannot be reached."""
    hands = 0
    silent = 0
    give_up_at = trio.current_time() + wait
    while True:
        stop: _Stop | None = None
        played = False
        try:
            played = await _one_hand(host, port, name, token, argv, give_up_at)
        except* _Stop as group:
            first = _leaf(group)
            assert isinstance(first, _Stop)
            stop = first
        except* OSError as group:
            stop = _Stop(f"cannot start the bot: {_leaf(group)}", 2)
        if stop is not None:
            reason, status = stop.reason, stop.status
            if hands and status == 1 and reason.startswith("cannot connect"):
                reason = f"the server is gone ({reason}): the match is over or it stopped"
                status = 0
            return BridgeResult(hands, reason, status)
        if played:
            hands += 1
            silent = 0
        else:
            silent += 1
            if silent >= MAX_SILENT:
                return BridgeResult(hands, f"the server closed {silent} connections in a row "
                                    "without a word", 1)
        give_up_at = trio.current_time()  # from now on, a refused connection means it is gone
