"""Botzone bots run as Botzone runs them (SPEC-botzone §7): the async shell.

Theory of operation. A ``BotzoneBot`` is one bot for one game. Each ``ask``
is one Botzone turn:

* No kept process: the bot is started afresh (``server.bots.processes.start_bot``: own
  process group, limits, leftovers registry) and sent the whole history,
  ``data`` and ``globaldata`` (``server.bots.botzone_io.format_input``).
* A kept process (a bot with the keep-running setting on that printed
  ``KEEP_RUNNING`` after its last answer, and was stopped with SIGSTOP on its
  process group): its group gets SIGCONT and only the new request. If it had
  exited meanwhile, or exits now having printed nothing, it is restarted with
  the whole history instead, within the turn (fresh clock, a restarted turn's
  limit).

The answer is complete, as on Botzone, when the bot exits or prints the
keep-running marker line; what it printed before is its output, and what it
does after the marker does not count for the turn. Printing an answer and
doing neither is waited on until the limit (TLE).

End of input. Keep-running is a setting of the bot, chosen before the game
(``BotzoneSpec.keep_running``, Botzone's ``enable_keep_running``). A bot with
it off gets end of file once its request is written, as on Botzone, so a bot
that reads its input to the end (jsoncpp's ``cin >> value`` in Botzone's
sample bot, ``json.load(sys.stdin)``) answers; if it prints the marker anyway,
its answer is taken and it is restarted on its next turn. Only a bot with the
setting on keeps its input open (its next request comes there) and is kept
when it prints the marker; such a bot that reads to the end of its input
never answers (TLE), as on Botzone.

The clock starts when the request is handed over: right after the process has
started (a start-up counts, as on Botzone) or after SIGCONT, with the input
written concurrently (a bot that does not read a long input cannot stall the
server); it stops at the bot's exit or at its marker line. Each bot keeps its
own clock and its own tasks, so the four bots of a turn may be asked at once
(one ``trio`` task each) and one's stall never delays another.

Verdicts (``server.bots.botzone_io``): TLE, the process group killed; RE, exited
with a non-zero status or killed by a signal (even after an answer, as Botzone
judges the run); MLE, the same with a sign of the memory limit (a
``MemoryError`` or ``std::bad_alloc`` in its stderr: ``server.bots.sandbox.
describe_exit``); BAD_OUTPUT, output that cannot be read (also output over
``OUTPUT_CAP`` bytes, cut off at once). After a non-OK verdict the bot's
processes are already gone. ``data`` carries to the bot's next turn,
``globaldata`` across games (``globaldata=`` in, ``bot.globaldata`` out).
Every process dies with its turn (restarted bots) or its game (kept ones):
terminate, grace, kill, then whatever it left behind (``ProcessPeer.close``);
a stopped group is continued first so that SIGTERM reaches it.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import tempfile
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

import trio

from server.bots.advice import flush_advice, stderr_advice
from server.bots.botzone_io import (
    BAD_OUTPUT,
    BOTZONE,
    KEEP_RUNNING,
    MLE,
    NOTHING,
    OK,
    OUTPUT_CAP,
    RE,
    TLE,
    Answer,
    BotzoneLimits,
    BotzoneSpec,
    Dialect,
    Output,
    format_input,
    format_kept,
    parse_output,
    parse_spec,
    split_marker,
)
from server.bots.leftovers import scratch_prefix
from server.bots.processes import EOF_GRACE, STDERR_CAP, ProcessPeer, resources_json, start_bot
from server.bots.sandbox import (
    TAG_VARIABLE,
    BotLimits,
    absolute_argv,
    bwrap_argv,
    bwrap_path,
    describe_exit,
    enable_subreaper,
)
from server.output.say import last_line, last_lines
from server.seam.contract import CommandArgs, GamePlan, TableRequest
from server.seam.errors import InputError

__all__ = ["KEEP_RUNNING", "Answer", "BotzoneBot", "BotzoneLimits", "BotzoneSpec",
           "open_botzone_bot", "parse_spec"]

EXIT_GRACE = 0.2  # seconds to collect output and stderr once the bot has exited (not timed)
_count = itertools.count(1)
_token = uuid.uuid4().hex[:12]


@dataclass(slots=True)
class _Process:
    """One started bot process and what its stderr drain knows."""

    peer: ProcessPeer
    stderr_done: trio.Event = field(default_factory=trio.Event)


@dataclass(slots=True)
class _Turn:
    """How one exchange with a process ended."""

    how: str  # "marker", "exited", "overflow", "timeout"
    output: bytes
    ms: int
    status: int | None = None  # exit status when it exited
    eof: bool = False  # its output had closed


class BotzoneBot:
    """One Botzone bot for one game; ``ask`` one request per turn."""

    def __init__(self, spec: BotzoneSpec, label: str, limits: BotzoneLimits,
                 nursery: trio.Nursery, *, sandbox: str = "none", globaldata: str = "",
                 stderr_path: Path | None = None, work_root: Path | None = None,
                 hide: Sequence[Path] = ()) -> None:
        if sandbox not in ("none", "bwrap"):
            raise ValueError(f"unknown sandbox {sandbox!r}")
        self.spec = spec
        self.label = label
        self.limits = limits
        self.sandbox = sandbox
        self.globaldata = globaldata  # carried across games: read it after the game
        self.data = ""  # carried to the next turn
        self.requests: list[str] = []
        self.responses: list[str] = []
        self.restarts = 0  # processes started
        self._started: list[_Process] = []  # every process of the game, for its resources
        self._nursery = nursery
        self._kept: _Process | None = None
        self._current: _Process | None = None  # the process of the turn being asked
        self._busy = False
        self._closed = False
        self._stderr_path = stderr_path
        self._stderr_bytes = 0
        self._work_root = work_root
        self._hide = tuple(hide)  # masked in the sandbox (server.bots.sandbox.bwrap_argv)
        self._work: Path | None = None
        self._bwrap: str | None = bwrap_path() if sandbox == "bwrap" else None
        self._process_limits = BotLimits(limits.memory_mb, limits.cpu_seconds, limits.file_mb)

    async def ask(self, request: str) -> Answer:
        """One Botzone turn: the bot's answer to ``request``, with its time and verdict."""
        if self._busy:
            raise RuntimeError(f"{self.label} is already being asked")
        if self._closed:
            raise RuntimeError(f"{self.label} is closed")
        self._busy = True
        try:
            self.requests.append(request)
            first = len(self.requests) == 1
            answer: Answer | None = None
            if self._kept is not None:
                answer = await self._continue(request)
            if answer is None:
                answer = await self._restart(first)
            self.responses.append(answer.response if answer.response is not None else "")
            self._current = None  # kept, closed or closing: not after a cancelled ask
            return answer
        finally:
            self._busy = False

    # --- one turn ----------------------------------------------------------------------

    async def _restart(self, first: bool) -> Answer:
        limit = self.limits.seconds(self.spec.language, first=first, kept=False)
        message = format_input(self.spec.mode, self.requests, self.responses, self.data,
                               self.globaldata, limit, self.limits.memory_mb,
                               self.limits.dialect)
        process = self._current = await self._start()
        turn = await _exchange(process, message, limit,
                               close_input=not self.spec.keep_running)
        return await self._judge(process, turn, limit, kept=False)

    async def _continue(self, request: str) -> Answer | None:
        """A kept process's turn; None when it had ended (restart it instead)."""
        process, self._kept = self._kept, None
        assert process is not None
        self._current = process
        if process.peer.process.poll() is not None:
            self._nursery.start_soon(_close, process)
            return None
        _discard_pending(process.peer)
        limit = self.limits.seconds(self.spec.language, first=False, kept=True)
        _signal_group(process.peer.process.pid, signal.SIGCONT)
        turn = await _exchange(process, format_kept(self.spec.mode, request), limit,
                               close_input=False)
        if turn.how == "exited" and turn.status == 0 and not turn.output.strip():
            self._nursery.start_soon(_close, process)
            return None
        return await self._judge(process, turn, limit, kept=True)

    async def _judge(self, process: _Process, turn: _Turn, limit: float, kept: bool) -> Answer:
        """The turn's Answer; the process kept (stopped), closed, or left to close."""
        peer = process.peer
        if turn.how == "timeout":
            silent = not turn.eof and not turn.output.strip()
            if silent and self.spec.keep_running:
                # Its input is open: given its end, a bot whose output is buffered prints
                # its answer and its marker as it exits, which shows it was buffered, not
                # silent. (A bot that reads to the end of its input answers then too, but
                # with no marker: it never meant to keep running.)
                peer.eof_grace = EOF_GRACE
            await _close(process)
            answered, marked = split_marker(peer.unread_tail) if silent else (b"", False)
            late = last_lines(answered, 20)[:1] if marked else []
            if late:
                what = (f"nothing printed in time; {late[0]!r} came only when it exited: its "
                        f"output is buffered; {flush_advice(self.spec.argv)}")
            elif turn.eof:
                what = "it closed its output but did not exit"
            elif turn.output.strip():
                what = "it answered but neither exited nor printed the keep-running marker"
            elif self.spec.keep_running and not kept:
                what = ("nothing printed; with keep-running on its input stays open, so a bot "
                        "that reads to the end of its input never answers")
            else:
                what = "nothing printed"
            return Answer(TLE, None, None, turn.ms,
                          f"no complete answer within {limit:g} s ({what})")
        if turn.how == "overflow":
            await _close(process)
            return Answer(BAD_OUTPUT, None, None, turn.ms,
                          f"output longer than {OUTPUT_CAP} bytes")
        if turn.how == "exited" and turn.status != 0:
            with trio.move_on_after(EXIT_GRACE):
                await process.stderr_done.wait()
            await _close(process)
            detail = describe_exit(turn.status, peer.stderr_tail, peer.sandboxed,
                                   peer.memory_verdict)
            printed = last_line(turn.output)  # not read as an answer: a crash says why there
            said = last_line(peer.stderr_tail)
            cause = detail + (f"; its stdout ends: {printed}" if printed else "") \
                + (f"; its stderr ends: {said}" if said else "")
            verdict = MLE if "memory limit" in detail else RE
            return Answer(verdict, None, None, turn.ms, cause)
        output = parse_output(self.spec.mode, turn.output, kept=kept)
        if output.verdict != OK:
            await _close(process)
            if turn.how == "marker":
                output = _after_marker(output)
            cause = output.cause
            if cause.startswith(("output is not JSON", "output is JSON but not")):
                cause += f"; {stderr_advice(self.spec.argv)}"  # debug text, the usual culprit
            return Answer(output.verdict, None, None, turn.ms, cause)
        cap = self.limits.dialect.data_cap
        if cap is not None and output.data is not None and len(output.data.encode()) > cap:
            await _close(process)
            return Answer(BAD_OUTPUT, None, None, turn.ms,
                          f"data longer than {cap} bytes ({len(output.data.encode())})")
        if turn.how == "marker" and self.spec.keep_running:
            _signal_group(peer.process.pid, signal.SIGSTOP)
            self._kept = process
        else:  # exited, or a marker with keep-running off: restarted next turn
            self._nursery.start_soon(_close, process)
        self._carry(output)
        return Answer(OK, output.response, output.debug, turn.ms, "")

    def _carry(self, output: Output) -> None:
        if output.data is not None:
            self.data = output.data
        if output.globaldata is not None:
            self.globaldata = output.globaldata

    # --- processes ---------------------------------------------------------------------

    async def _start(self) -> _Process:
        enable_subreaper()
        tag = f"bz-{_token}-{next(_count)}"
        env = {**os.environ, TAG_VARIABLE: tag}
        argv = absolute_argv(self.spec.argv)
        cwd: Path | None = None
        if self._bwrap is not None:
            argv = bwrap_argv(argv, self._process_limits, self._bwrap, hide=self._hide, tag=tag)
        else:
            if self._work is None:
                root = self._work_root or Path(tempfile.gettempdir())
                root.mkdir(parents=True, exist_ok=True)
                # Stamped with this process (leftovers.scratch_prefix): a server killed
                # outright leaves it, and the next start on the machine removes it.
                self._work = Path(tempfile.mkdtemp(prefix=scratch_prefix("mahjong-bots-"),
                                                   dir=root))
            cwd = self._work
        peer = await start_bot(argv, self.label, None, cwd, env=env,
                               limits=self._process_limits, tag=tag,
                               sandboxed=self._bwrap is not None)
        self.restarts += 1
        process = _Process(peer)
        self._started.append(process)
        self._nursery.start_soon(self._drain_stderr, process)
        return process

    async def _drain_stderr(self, process: _Process) -> None:
        """Read a process's stderr to its end: its tail kept, the game's first bytes saved."""
        try:
            await process.peer.drain_stderr(save=self._save_stderr)
        finally:
            process.stderr_done.set()

    def _save_stderr(self, data: bytes) -> None:
        """Append to the game's stderr file, up to STDERR_CAP bytes and then a note."""
        if self._stderr_path is None or self._stderr_bytes > STDERR_CAP:
            return
        keep = data[: STDERR_CAP - self._stderr_bytes]
        with self._stderr_path.open("ab") as sink:
            sink.write(keep)
            if len(keep) < len(data):
                sink.write(b"\n[stderr capped]\n")
        self._stderr_bytes += len(keep) + (1 if len(keep) < len(data) else 0)

    async def aclose(self) -> None:
        """Stop the kept process, and the process of an ask that was cancelled."""
        if self._closed:
            return
        self._closed = True
        with trio.CancelScope(shield=True):
            for process in (self._kept, self._current):  # _current: an ask was cancelled
                if process is not None:
                    await _close(process)
            self._kept = self._current = None

    def resources(self) -> dict[str, float | None]:
        """What the bot's processes of this game used, once it is over: the largest peak
        memory of one process (MB, as its memory limit measures it) and the CPU seconds
        of them all (None where nothing was measured); ``processes``: how many ran."""
        peaks = [peak for p in self._started if p.peer.memory is not None
                 and (peak := p.peer.memory.peak_mb()) is not None]
        cpus = [cpu for p in self._started if (cpu := p.peer.process.cpu_seconds) is not None]
        return {**resources_json(max(peaks) if peaks else None, sum(cpus) if cpus else None),
                "processes": len(self._started)}

    def remove_work_dir(self) -> None:
        if self._work is not None:
            shutil.rmtree(self._work, ignore_errors=True)


async def _exchange(process: _Process, message: bytes, limit: float, *,
                    close_input: bool) -> _Turn:
    """Hand ``message`` over and wait for the bot's exit or marker, at most ``limit`` s;
    ``close_input``: its input is closed once ``message`` is written (end of file)."""
    peer = process.peer
    out = bytearray()
    send, receive = trio.open_memory_channel[str](4)
    start = trio.current_time()
    how = "timeout"
    end = start
    eof = False
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_write, peer, message, close_input)
        nursery.start_soon(_read, peer, out, send.clone())
        nursery.start_soon(_wait_exit, peer, send.clone())
        with trio.move_on_at(start + limit):
            while True:
                event = await receive.receive()
                if event == "eof":
                    eof = True
                    continue
                how = event
                break
        end = trio.current_time()
        read_marker = False  # the reader found the marker (and cut it) after the exit
        if how == "exited" and not eof:  # what it wrote before exiting is in the pipe
            with trio.move_on_after(EXIT_GRACE):
                while (event := await receive.receive()) != "eof":
                    if event == "marker":
                        read_marker = True
                        break
        nursery.cancel_scope.cancel()
    output = bytes(out)
    if how in ("exited", "marker"):
        output, marked = split_marker(output)
        if marked or read_marker:  # its answer was complete at the marker, before it exited
            how = "marker"
    status = peer.process.poll() if how == "exited" else None
    return _Turn(how, output, round((end - start) * 1000), status, eof)


async def _write(peer: ProcessPeer, message: bytes, close_input: bool) -> None:
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        await peer.send(message)
        if close_input:
            assert peer.process.stdin is not None
            await peer.process.stdin.aclose()


async def _read(peer: ProcessPeer, out: bytearray, events: trio.MemorySendChannel[str]) -> None:
    """Collect output until the marker line, the cap, or its end."""
    stdout = peer.process.stdout
    async with events:
        while True:
            try:
                data = await stdout.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError):
                data = b""
            if not data:
                await events.send("eof")
                return
            scan = max(0, out.rfind(b"\n") + 1)  # where the last unfinished line starts
            out += data
            if len(out) > OUTPUT_CAP:
                await events.send("overflow")
                return
            if b"\n" in data:
                before, marked = split_marker(bytes(out[scan:]))
                if marked:
                    del out[scan + len(before):]
                    await events.send("marker")
                    return


async def _wait_exit(peer: ProcessPeer, events: trio.MemorySendChannel[str]) -> None:
    async with events:
        await peer.process.wait()
        await events.send("exited")


def _discard_pending(peer: ProcessPeer) -> None:
    """Drop what a kept bot wrote after its marker, before it was stopped."""
    stdout = peer.process.stdout
    if not isinstance(stdout, trio.lowlevel.FdStream):
        return
    for _ in range(64):
        try:
            if not os.read(stdout.fileno(), 65536):
                return
        except (BlockingIOError, OSError):
            return


def _after_marker(output: Output) -> Output:
    if output.cause == NOTHING:
        return Output(output.verdict, None, cause="printed the keep-running marker with no "
                      "answer before it")
    return output


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, sig)


async def _close(process: _Process) -> None:
    """Kill a process's group for good; a stopped group is continued so SIGTERM lands."""
    with trio.CancelScope(shield=True):
        _signal_group(process.peer.process.pid, signal.SIGCONT)
        await process.peer.close()


@asynccontextmanager
async def open_botzone_bot(spec: BotzoneSpec, label: str,
                           limits: BotzoneLimits | None = None, *, sandbox: str = "none",
                           globaldata: str = "", stderr_path: Path | None = None,
                           work_root: Path | None = None, hide: Sequence[Path] = ()
                           ) -> AsyncIterator[BotzoneBot]:
    """A Botzone bot for one game; every process it started is gone when this ends.

    ``sandbox`` is "none" or "bwrap" (``server.bots.sandbox``); ``globaldata`` is what
    the bot left in the match's previous game (read ``bot.globaldata`` after);
    ``stderr_path`` keeps the first MB of the game's stderr; ``work_root`` is
    where the bot's working folder goes (a temporary folder by default); ``hide``:
    folders masked in the sandbox (``server.bots.seats.Sandbox.hide``).
    """
    bot: BotzoneBot | None = None
    try:
        async with trio.open_nursery() as nursery:
            bot = BotzoneBot(spec, label, limits or BotzoneLimits(), nursery, sandbox=sandbox,
                             globaldata=globaldata, stderr_path=stderr_path,
                             work_root=work_root, hide=hide)
            try:
                yield bot
            finally:
                await bot.aclose()
    finally:
        if bot is not None:
            bot.remove_work_dir()


class Bots:
    """How every player's bot is started: its spec, limits and sandbox; and the
    ``globaldata`` each leaves for its next game of the match."""

    def __init__(self, specs: Sequence[str], limits: BotzoneLimits, sandbox: str = "none",
                 work_root: Path | None = None, hide: Sequence[Path] = ()) -> None:
        self.specs = [parse_spec(spec) for spec in specs]
        self.limits = limits
        self.sandbox = sandbox
        self.work_root = work_root
        self.hide = tuple(hide)
        self.globaldata: list[str] = ["" for _ in specs]

    @classmethod
    def from_args(cls, specs: Sequence[str], args: CommandArgs, work_root: Path | None = None,
                  dialect: Dialect = BOTZONE) -> Bots:
        """From a command's options: --time-limit, --sandbox, --mem-limit, ..."""
        from server.bots.sandbox import SandboxError, check_bwrap

        if args["sandbox"] not in ("none", "bwrap"):
            raise InputError(f"--sandbox must be none or bwrap, not {args['sandbox']!r}")
        from server.bots.sandbox import LIMIT_OPTIONS
        from server.seam.registry import limit_defaults

        # Not given: the ruleset's defaults; 0: none (as in every command and ruleset).
        process = BotLimits.from_options({key: args.get(key) for key in LIMIT_OPTIONS},
                                         limit_defaults(dialect.name))
        limits = BotzoneLimits(base_seconds=float(args.get("time_limit") or 1.0),
                               memory_mb=process.memory_mb, cpu_seconds=process.cpu_seconds,
                               file_mb=process.file_mb, dialect=dialect)
        if args["sandbox"] == "bwrap":
            try:
                check_bwrap(process)
            except SandboxError as exc:
                raise InputError(str(exc)) from None
        return cls(specs, limits, args["sandbox"], work_root)

    @classmethod
    def for_table(cls, table: TableRequest, base_seconds: float,
                  dialect: Dialect = BOTZONE) -> Bots:
        """A tournament table's bots: its players' stored commands, the tournament's
        sandbox and limits (as stored: the ruleset's defaults unless it set them)."""
        sandbox = table.sandbox
        limits = BotzoneLimits(base_seconds=base_seconds,
                               memory_mb=sandbox.limits.memory_mb,
                               cpu_seconds=sandbox.limits.cpu_seconds,
                               file_mb=sandbox.limits.file_mb, dialect=dialect)
        return cls([command[0] for _, command in table.players], limits, sandbox.kind,
                   sandbox.work_dir, sandbox.hide)

    @asynccontextmanager
    async def opener(self, player: int, seat: int, plan: GamePlan,
                     stderr: Path | None) -> AsyncIterator[BotzoneBot]:
        """A turn match's ``SeatOpener``: player ``player``'s bot for one game."""
        async with open_botzone_bot(self.specs[player], f"player {player + 1}", self.limits,
                                    sandbox=self.sandbox, globaldata=self.globaldata[player],
                                    stderr_path=stderr, work_root=self.work_root,
                                    hide=self.hide) as bot:
            try:
                yield bot
            finally:
                self.globaldata[player] = bot.globaldata
