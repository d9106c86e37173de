"""Remote seats: bots that connect to the match over TCP instead of being started.

Theory of operation. ``open_remote_seats`` listens on a TCP address for the
whole match. Every connection is read for one line under a handshake deadline
(with the protocol's 4096-byte line cap): it must be ``join NAME TOKEN``, with a
NAME that a ``tcp:NAME`` player holds and that name's TOKEN (compared in
constant time). Anything else gets one ``error ...`` line and is closed, and
what it sent reaches the log only as an escaped excerpt. An accepted connection
is parked in its name's slot until a hand asks for that seat; the hand's
``RemotePeer`` takes it, presents the handshake as a plain ``join`` line (so
the table and the transcript see what a local bot says) and closes it when the
hand ends: a connection is one hand, as a process is one hand.

A seat's peer waits for its connection inside the table's join phase, so the
join allowance covers connecting, as it covers starting a process: a seat whose
client has not connected by then is faulted ``no-join``, exactly like a
process that never says ``join``; a client that disconnects mid-hand is
``closed-output``, like a crash. Times are measured on the server, from the
write of a prompt to the arrival of the answer: network latency counts against
the bot.

Each connection's handler task lives as long as the connection, so the caps on
connections per address and in total count every connection from accept to
close.

A tournament keeps one listener for all its tables (``RemoteSeats.peer`` gives
each table's launcher its remote seats): a parked connection waits for
whichever table next seats its name. A name is one client, so the tournament
never lets two tables seat it at once.
"""

from __future__ import annotations

import collections
import hmac
import os
import secrets
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import structlog
import trio

from protocol.framing import MAX_LINE, FramingError, decode_line, encode_line
from protocol.messages import Join, MalformedLine, parse_from_ai
from server.bots.processes import Peer, write_nowait
from server.bots.seats import Launcher, ProcessLauncher, SeatRequest
from server.seam import errors

PREFIX = "tcp:"  # an AI argument tcp:NAME is a remote seat
HANDSHAKE_LIMIT = 5.0  # seconds for a new connection to send its join line
MAX_PER_ADDRESS = 8  # open connections from one address
MAX_TOTAL = 32  # open connections in all
FAREWELL_WAIT = 1.0  # seconds for the last hand's clients to come back and hear it is over
REFUSE_GRACE = 0.5  # seconds to write an error line and let the client read it
MAX_NAME = 64  # as the protocol's join NAME TOKEN


class RemoteSetupError(ValueError):
    """A bad --listen address, --token or tcp:NAME argument."""


def remote_name(spec: str) -> str | None:
    """NAME for an AI argument ``tcp:NAME``, None for any other argument."""
    return spec[len(PREFIX):] if spec.startswith(PREFIX) else None


def seat_name(request: SeatRequest) -> str | None:
    """The remote NAME a seat asks for, None for a local seat.

    A match's seat is named by its AI argument (``tcp:NAME``); a tournament's
    player keeps its entry's name, and its command is the one word ``tcp:NAME``.
    """
    name = remote_name(request.name)
    if name is None and len(request.argv) == 1:
        name = remote_name(request.argv[0])
    return name


def check_name(what: str, text: str) -> str:
    if not 0 < len(text) <= MAX_NAME or not text.isascii() or not text.isprintable() \
            or " " in text:
        raise RemoteSetupError(f"{what} {text[:20]!r} must be 1..{MAX_NAME} printable ASCII "
                               "characters without spaces")
    return text


def parse_listen(text: str, what: str = "--listen") -> tuple[str, int]:
    """``HOST:PORT``, ``[V6]:PORT``, or ``PORT`` alone (loopback); ``what`` names the
    argument in the error."""
    host, sep, port = text.rpartition(":")
    if not sep:
        host = ""
    host = host.removeprefix("[").removesuffix("]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise RemoteSetupError(f"{what} {text!r}: give HOST:PORT (port 0..65535)")
    return host, int(port)


def parse_tokens(pairs: Iterable[str], names: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    """Each remote name's token (``NAME=SECRET``), generated when not given.

    Returns the tokens and the names whose token was generated (to be printed).
    """
    tokens: dict[str, str] = {}
    for pair in pairs:
        name, sep, secret = pair.partition("=")
        if not sep:
            raise RemoteSetupError(f"--token {pair[:20]!r}: give NAME=SECRET")
        if name not in names:
            raise RemoteSetupError(f"--token for {name[:20]!r}, but no AI is tcp:{name[:20]}")
        tokens[check_name("name", name)] = check_name(f"the token of {name}", secret)
    generated = [name for name in names if name not in tokens]
    for name in generated:
        tokens[name] = secrets.token_urlsafe(16)
    return tokens, generated


@dataclass(frozen=True, slots=True)
class RemoteLimits:
    handshake: float = HANDSHAKE_LIMIT
    per_address: int = MAX_PER_ADDRESS
    total: int = MAX_TOTAL


@dataclass(slots=True)
class _Connection:
    """An authenticated connection, waiting for or playing its hand."""

    stream: trio.SocketStream
    address: str
    leftover: bytes  # what came after the join line
    done: trio.Event = field(default_factory=trio.Event)  # the hand closed it


class _Slot:
    """One remote name: its waiting connection and the peer of the current hand."""

    def __init__(self) -> None:
        self.parked: _Connection | None = None
        self.arrived = trio.Event()
        self.seated: RemotePeer | None = None
        self.last_refusal: str | None = None
        self.expected = False  # a hand ended with the client there: it will come back

    def taken(self) -> bool:
        return self.parked is not None or (self.seated is not None and self.seated.live)

    def park(self, conn: _Connection) -> None:
        self.parked = conn
        self.expected = False
        self.arrived.set()

    async def returned(self) -> None:
        """Until the client that an ended hand expects back has connected."""
        while self.expected:
            if self.arrived.is_set():
                self.arrived = trio.Event()
            await self.arrived.wait()

    async def take(self) -> _Connection:
        while self.parked is None:
            if self.arrived.is_set():
                self.arrived = trio.Event()
            await self.arrived.wait()
        conn, self.parked = self.parked, None
        return conn


class RemotePeer:
    """A remote seat for one hand: its connection once the client has come."""

    def __init__(self, label: str, name: str, slot: _Slot, log: Any) -> None:
        self.label = label
        self.name = name
        self._slot = slot
        self._log = log
        self._conn: _Connection | None = None
        self._waiting = trio.CancelScope()
        self._closed = False
        self._eof = False

    @property
    def live(self) -> bool:
        return self._conn is not None and not self._closed and not self._eof

    @property
    def missing_reason(self) -> str | None:
        """Why no client has joined this seat, for the fault's cause."""
        if self._conn is not None:
            return None
        return self._slot.last_refusal or "no connection"

    def _stream(self) -> trio.SocketStream:
        if self._closed or self._conn is None:
            raise trio.ClosedResourceError(f"remote seat {self.name} is not connected")
        return self._conn.stream

    def send_nowait(self, data: bytes) -> int:
        """One non-blocking write to the socket (it is non-blocking): the bytes it took."""
        return write_nowait(self._stream().socket.fileno(), data)

    async def send(self, data: bytes) -> None:
        taken = self.send_nowait(data)
        if taken < len(data):
            await self._stream().send_all(data[taken:])

    async def receive_some(self) -> bytes:
        """The first call waits for the connection and gives its join as ``join``."""
        if self._conn is None:
            conn: _Connection | None = None
            with self._waiting:
                conn = await self._slot.take()
            if conn is None or self._closed:
                if conn is not None:  # closed as it came: give it back to the next hand
                    self._slot.park(conn)
                raise trio.ClosedResourceError(f"remote seat {self.name} was closed")
            self._conn = conn
            self._slot.seated = self
            return b"join\n" + conn.leftover
        try:
            data = await self._stream().receive_some(65536)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            self._eof = True
            raise
        if not data:
            self._eof = True
        return data

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._waiting.cancel()
        conn = self._conn
        if conn is None:
            self._log.warning("remote_seat_missing", name=self.name, seat=self.label,
                              last_refusal=self._slot.last_refusal)
            return
        if self._slot.seated is self:
            self._slot.seated = None
            self._slot.expected = not self._eof
        with trio.CancelScope(shield=True):
            await conn.stream.aclose()
        conn.done.set()


class _Refused(Exception):
    def __init__(self, reason: str, excerpt: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.excerpt = excerpt  # escaped, for the log


async def _refuse(stream: trio.SocketStream, reason: str) -> None:
    """Write ``error REASON``, end our side, and let the client read it before closing."""
    with trio.move_on_after(REFUSE_GRACE):
        try:
            await stream.send_all(encode_line(f"error {reason}"))
            await stream.send_eof()
            drained = 0
            while drained < 1 << 16 and (data := await stream.receive_some(4096)):
                drained += len(data)
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
    await trio.aclose_forcefully(stream)


async def _first_line(stream: trio.SocketStream) -> tuple[str, bytes]:
    """The connection's first line (decoded, capped) and the bytes after it."""
    buf = bytearray()
    while (end := buf.find(b"\n")) < 0:
        if len(buf) > MAX_LINE + 1:
            raise _Refused(f"malformed: line longer than {MAX_LINE} bytes", repr(bytes(buf[:64])))
        data = await stream.receive_some(65536)
        if not data:
            raise _Refused("closed before join", repr(bytes(buf[:64])))
        buf += data
    line = decode_line(bytes(buf[:end]))
    if isinstance(line, FramingError):
        raise _Refused(f"malformed: {line.reason}", repr(line.raw))
    return line, bytes(buf[end + 1:])


class RemoteSeats:
    """A ``Launcher``: ``tcp:NAME`` seats from the listener, the others from ``fallback``."""

    def __init__(self, tokens: Mapping[str, str], fallback: Launcher | None = None,
                 limits: RemoteLimits | None = None, log: Any = None) -> None:
        self._tokens = {name: token.encode() for name, token in tokens.items()}
        self.slots = {name: _Slot() for name in tokens}
        self.fallback = fallback if fallback is not None else ProcessLauncher()
        self.limits = limits if limits is not None else RemoteLimits()
        self.log = log if log is not None else structlog.get_logger()
        self.addresses: list[tuple[str, int]] = []
        self._per_address: collections.Counter[str] = collections.Counter()
        self._open = 0

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        peer = self.peer(request)
        return peer if peer is not None else await self.fallback.open(request, nursery)

    def peer(self, request: SeatRequest) -> RemotePeer | None:
        """The seat's peer for one hand when it is a remote seat, else None.

        Launchers of their own (a tournament's tables) route with this and
        start the other seats themselves. A name is one client: two hands that
        want it at once would leave one of them waiting in vain.
        """
        name = seat_name(request)
        if name is None:
            return None
        if request.folder is not None:  # the same files as a local seat; stderr stays remote
            (request.folder / f"seat{request.seat}.stderr").touch()
        return RemotePeer(f"seat{request.seat}", name, self.slots[name], self.log)

    async def handle(self, stream: trio.SocketStream) -> None:
        """One connection, from accept to close (``serve_listeners`` closes it after)."""
        try:
            address = str(stream.socket.getpeername()[0])
        except OSError:
            return
        if self._open >= self.limits.total or \
                self._per_address[address] >= self.limits.per_address:
            self.log.warning("remote_refused", address=address, reason="too many connections")
            await _refuse(stream, "too many connections")
            return
        self._open += 1
        self._per_address[address] += 1
        try:
            conn = await self._handshake(stream, address)
            if conn is not None:
                await conn.done.wait()
        finally:
            self._open -= 1
            self._per_address[address] -= 1
            if not self._per_address[address]:
                del self._per_address[address]

    async def _handshake(self, stream: trio.SocketStream, address: str) -> _Connection | None:
        name: str | None = None
        try:
            with trio.move_on_after(self.limits.handshake) as scope:
                line, leftover = await _first_line(stream)
            if scope.cancelled_caught:
                raise _Refused(f"no join within {self.limits.handshake:g} s")
            try:
                message = parse_from_ai(line)
            except MalformedLine as exc:
                raise _Refused(f"malformed: {exc.reason}", repr(line[:64])) from None
            if not isinstance(message, Join) or message.name is None or message.token is None:
                raise _Refused("the first line must be: join NAME TOKEN", repr(line[:64]))
            name = message.name
            slot = self.slots.get(name)
            if slot is None:
                raise _Refused(f"no remote seat is named {name}")
            if not hmac.compare_digest(message.token.encode(), self._tokens[name]):
                slot.last_refusal = f"wrong token from {address}"
                raise _Refused(f"wrong token for {name}")
            if slot.taken():
                raise _Refused(f"seat {name} is taken")
        except _Refused as refused:
            self.log.warning("remote_refused", address=address, name=name,
                             reason=refused.reason, line=refused.excerpt)
            await _refuse(stream, refused.reason)
            return None
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            return None
        conn = _Connection(stream, address, leftover)
        slot.park(conn)
        self.log.info("remote_joined", name=name, address=address)
        return conn

    async def farewell(self) -> None:
        """Tell every waiting client that the match is over, and close it."""
        async with trio.open_nursery() as nursery:
            for slot in self.slots.values():
                if slot.parked is not None:
                    conn, slot.parked = slot.parked, None
                    nursery.start_soon(_refuse, conn.stream, "match over")


@asynccontextmanager
async def open_remote_seats(host: str, port: int, tokens: Mapping[str, str],
                            fallback: Launcher | None = None, limits: RemoteLimits | None = None,
                            log: Any = None) -> AsyncIterator[RemoteSeats]:
    """Listen for remote seats while the block runs; ``seats.addresses`` says where.

    A port that cannot be listened on is a ``RemoteSetupError``, raised before the block.
    """
    seats = RemoteSeats(tokens, fallback, limits, log)
    try:
        listeners = await trio.open_tcp_listeners(port, host=host)
    except OSError as exc:
        why = os.strerror(exc.errno) if exc.errno else errors.reason(exc)
        raise RemoteSetupError(f"cannot listen on {host}:{port}: {why}") from None
    seats.addresses = [tuple(listener.socket.getsockname()[:2]) for listener in listeners]
    async with trio.open_nursery() as handlers:
        async with trio.open_nursery() as acceptors:
            await acceptors.start(partial(trio.serve_listeners, seats.handle, listeners,
                                          handler_nursery=handlers))
            try:
                yield seats
            except BaseException:
                acceptors.cancel_scope.cancel()  # closes the listeners
                raise
            # The clients of the last hand are reconnecting: tell them it is over.
            with trio.move_on_after(FAREWELL_WAIT):
                for slot in seats.slots.values():
                    await slot.returned()
            acceptors.cancel_scope.cancel()
        with trio.CancelScope(shield=True):
            await seats.farewell()
        handlers.cancel_scope.cancel()


@dataclass(frozen=True, slots=True)
class RemoteOptions:
    """The ``match`` command's --listen and --token, checked."""

    host: str
    port: int
    tokens: Mapping[str, str]
    generated: Sequence[str] = ()  # names whose token was made up, to be printed


def remote_options(ais: Sequence[str], listen: str | None,
                   token_pairs: Sequence[str]) -> RemoteOptions | None:
    """The remote seats of a match's AI arguments, or None when there are none."""
    names = [check_name("tcp:NAME", name) for spec in ais
             if (name := remote_name(spec)) is not None]
    if len(set(names)) < len(names):
        raise RemoteSetupError("two AIs have the same tcp:NAME")
    if not names:
        if listen is not None or token_pairs:
            raise RemoteSetupError("--listen and --token need at least one tcp:NAME AI")
        return None
    if listen is None:
        raise RemoteSetupError("tcp:NAME AIs need --listen HOST:PORT")
    host, port = parse_listen(listen)
    tokens, generated = parse_tokens(token_pairs, names)
    return RemoteOptions(host, port, tokens, generated)


class TableLauncher:
    """Each table's launcher: its own bot processes, and the tournament's remote seats.

    Processes are the table's own (their working folders are named by hand and
    seat, so two tables must not share a ``ProcessLauncher``); remote seats come
    from the one listener of the tournament, and neither start nor sweep
    processes. Tables start and stop bots at the same time freely: a stopping
    bot's sweep spares the bots other tables are starting (``server.bots.processes``).
    """

    def __init__(self, inner: Launcher | None = None,
                 remote: RemoteSeats | None = None) -> None:
        self.inner = inner or ProcessLauncher()
        self.remote = remote

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        peer = self.remote.peer(request) if self.remote is not None else None
        if peer is not None:
            return peer
        return await self.inner.open(request, nursery)
