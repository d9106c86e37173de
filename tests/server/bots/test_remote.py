"""Remote seats over TCP, on loopback: the listener, its limits, and the connect bridge.

Most tests play chosen hands in-process (``play_match_hand`` with a
``RemoteSeats`` launcher) while clients run in the same trio run: the bridge
(``server.bots.connect.bridge``, starting real bot processes) or raw scripted
sockets. One test runs the ``server`` command and two ``server connect``
commands as processes, as people would. Only 127.0.0.1 and ephemeral ports are
used; every loop is bounded; no process or socket outlives a test.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import structlog
import trio
from structlog.testing import capture_logs

from rulesets.default.engine.rng import HandPlan, match_plan
from rulesets.default.logs import MatchFiles
from rulesets.default.match import HandSummary, MatchConfig, Player, play_match_hand
from server.bots.connect import bridge
from server.bots.remote import (
    RemoteLimits,
    RemoteSeats,
    RemoteSetupError,
    open_remote_seats,
    parse_listen,
    parse_tokens,
)
from server.bots.seats import TableOptions
from tests.rulesets.default.test_match_e2e import (  # noqa: F401  (fixtures: no bot outlives a test, quiet logs)
    DRAWBOT,
    GREEDY,
    ROOT,
    SEEDED,
    _quiet_logs,
    hand_dirs,
    hand_records,
    match_dir,
    no_leftover_bots,
    read_sheet,
    server_argv,
)

TOKENS = {"p0": "secret0", "p2": "secret2"}
# Every seat must join within the join limit, and a seat nobody comes for costs all of it.
# The local bots are Python processes started at once: they join in about 0.1 s on a quiet
# machine and 0.5 s at a load of 8 on 2 cores; 1.2 s was seen beside the hostile tests'
# memory hogs. 3 s leaves room and costs only the tests with a missing seat.
FAST = TableOptions(join_limit=3.0)
Client = Callable[[int, RemoteSeats], Awaitable[object]]


# --- helpers ---------------------------------------------------------------------------------


def argv_of(spec: str) -> tuple[str, ...]:
    if spec.startswith("tcp:"):
        return ()
    first, *rest = spec.split()
    return (str(ROOT / first), *rest)


@asynccontextmanager
async def remote_table(players: Sequence[str], tokens: dict[str, str] = TOKENS,
                       limits: RemoteLimits | None = None) -> AsyncIterator[RemoteSeats]:
    tokens = {name: tokens[name] for name in tokens if f"tcp:{name}" in players}
    async with open_remote_seats("127.0.0.1", 0, tokens, limits=limits) as seats:
        yield seats


async def play(players: Sequence[str], numbers: Sequence[int], root: Path, clients:
               Sequence[Client], *, seed: int = 3, options: TableOptions = FAST,
               limits: RemoteLimits | None = None,
               between: Callable[[int], None] | None = None) -> list[HandSummary]:
    """Play chosen hands of a match with remote seats while ``clients`` run."""
    cfg_players = tuple(Player(p, argv_of(p)) for p in players)
    plans: dict[int, HandPlan] = {p.number: p for p in match_plan(seed, 1)}
    files = MatchFiles(root)
    summaries: list[HandSummary] = []
    with trio.fail_after(60):
        async with trio.open_nursery() as nursery, remote_table(players, limits=limits) as seats:
            port = seats.addresses[0][1]
            for client in clients:
                nursery.start_soon(client, port, seats)
            cfg = MatchConfig(cfg_players, seed, 1, root, options, launcher=seats)
            for n in numbers:
                summaries.append(await play_match_hand(cfg, plans[n], files,
                                                       structlog.get_logger()))
                if between is not None:
                    between(n)
    files.close([0, 0, 0, 0])
    return summaries


def via_bridge(name: str, bot: str = DRAWBOT, results: list[Any] | None = None) -> Client:
    async def client(port: int, seats: RemoteSeats) -> None:
        result = await bridge("127.0.0.1", port, name, TOKENS[name], argv_of(bot), wait=5.0)
        if results is not None:
            results.append(result)

    return client


class Lines:
    """A raw client's connection, read line by line."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buf = b""

    async def line(self) -> str | None:
        while b"\n" not in self.buf:
            try:
                data = await self.stream.receive_some(65536)
            except trio.BrokenResourceError:
                data = b""
            if not data:
                return None
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode().strip()


async def raw_drawbot(port: int, name: str, token: str, quit_after: int | None = None) -> int:
    """Join, then play as drawbot until the server closes (or quit after N answers)."""
    answers = 0
    me = -1
    async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
        await stream.send_all(f"join {name} {token}\n".encode())
        lines = Lines(stream)
        while (line := await lines.line()) is not None:
            words = line.split()
            answer = None
            if words[0] == "id":
                me = int(words[1])
            elif words[0] == "pick":
                answer = f"out {words[1]}"
            elif words[0] in ("mout", "mjgang") and int(words[1]) != me:
                answer = "pass"
            if answer is not None:
                if quit_after is not None and answers >= quit_after:
                    return answers
                await stream.send_all(f"{answer}\n".encode())
                answers += 1
    return answers


async def refusal(port: int, hello: bytes) -> str | None:
    """What the server answers ``hello`` with: its first line, or None if it just closed."""
    async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
        if hello:
            await stream.send_all(hello)
        line = await Lines(stream).line()
        assert await Lines(stream).line() is None  # and then it closes
        return line


def faults_by_player(summary: HandSummary) -> dict[int, str]:
    return dict(summary.faults)


# --- the acceptance run: two local seats, two remote ones, a whole match ---------------------


# The match through the real commands: five hands, the fifth the first with the players in
# other seats (a 16-hand group showed nothing more; the in-process tests play the rest).
HANDS = 5
# Each hand's join waits for ``server connect`` to start its bot and hear it (0.4 s on a
# quiet machine, seconds under a heavy load, when the default 5 s faulted a hand and the
# bridge counted one fewer). A join that comes sooner is taken at once.
JOIN = ("--join-limit", "30")


def _start_server(log_dir: Path, *ais: str) -> tuple[subprocess.Popen[str], int, list[str]]:
    proc = subprocess.Popen(server_argv(*ais, "-d", "--seed", "3", "--hands", str(HANDS),
                                        "--log-dir", str(log_dir)),
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "200"})
    assert proc.stderr is not None
    err: list[str] = []
    port = 0
    for line in proc.stderr:  # bounded: the server prints this at once, or exits
        err.append(line)
        if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
            port = int(found[1])
            break
    assert port, "".join(err)
    stream = proc.stderr
    threading.Thread(target=lambda: err.extend(stream), daemon=True).start()
    return proc, port, err


def _input_order(record: dict[str, Any]) -> tuple[int, int, str]:
    """Answers to one prompt arrive in any order; everything else keeps its place."""
    if record.get("type", "input") != "input":
        return (-1, 0, "")
    return (record.get("after", -1), record["seat"], record.get("line", ""))


def _normalised(folder: Path, names: Sequence[str]) -> dict[str, Any]:
    """A match folder with what rightly differs (names, times) taken out."""
    out: dict[str, Any] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_dir():
            out[rel] = "dir"
            continue
        if path.name == "server-events.jsonl":  # the server's own log: times, connections
            continue
        text = path.read_text()
        if path.name == "scoresheet.csv":  # headed by the names: compared above
            text = text.split("\n", 1)[1]
        for name in names:
            text = text.replace(name, "<AI>")
        if path.suffix == ".transcript":  # each line: seconds, direction, text
            text = "\n".join(line.split(None, 1)[1] for line in text.splitlines())
        elif path.name == "events.jsonl":
            records = [json.loads(line) for line in text.splitlines()]
            for record in records:
                for key in ("answer_ms", "timings", "host_stalls", "resources"):
                    record.pop(key, None)
            text = json.dumps(sorted(records, key=_input_order))
        elif path.name == "live.jsonl":  # the feed: its times and the folder's name differ
            records = [json.loads(line) for line in text.splitlines()]
            for record in records:
                record.pop("at", None)
                if record["type"] == "table":
                    record.pop("title")
            text = json.dumps(records)
        elif path.name == "match.json":
            summary = json.loads(text)
            for player in summary["players"]:
                player.pop("command")
                for measured in ("answer_ms", "peak_memory_mb", "cpu_seconds"):
                    player["stats"].pop(measured)  # a remote bot's process is not ours
            text = json.dumps(summary)
        out[rel] = text
    return out


def test_two_remote_and_two_local_seats_play_a_match_logged_as_if_all_local(
        tmp_path: Path) -> None:
    remote_ais = ["tcp:p0", DRAWBOT, "tcp:p2", DRAWBOT]
    server, port, err = _start_server(tmp_path / "remote", *remote_ais, "--listen",
                                      "127.0.0.1:0", "--token", "p0=secret0", "--token",
                                      "p2=secret2", *JOIN)
    bridges = [subprocess.Popen(server_argv("connect", f"127.0.0.1:{port}", "--name", name,
                                            "--token", TOKENS[name], "--", DRAWBOT),
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
               for name in ("p0", "p2")]
    try:
        server.wait(timeout=60)
        outputs = [b.communicate(timeout=10) for b in bridges]
    finally:
        for proc in (server, *bridges):
            proc.kill()
            proc.wait()
    assert server.returncode == 0, "".join(err)
    for bridge_proc, (_, stderr) in zip(bridges, outputs, strict=True):
        assert bridge_proc.returncode == 0
        assert f"stopped after {HANDS} hand(s): the match is over" in stderr
    local = subprocess.run(server_argv(*[DRAWBOT] * 4, "-d", "--seed", "3", "--hands", str(HANDS),
                                       *JOIN, "--log-dir", str(tmp_path / "local")),
                           cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert local.returncode == 0, local.stderr
    remote_dir, local_dir = match_dir(tmp_path / "remote"), match_dir(tmp_path / "local")
    assert len(hand_dirs(remote_dir)) == HANDS
    remote_sheet, local_sheet = read_sheet(remote_dir), read_sheet(local_dir)
    # The headers name the players (a remote seat by its tcp:NAME); every row is the same.
    assert [remote_sheet[0][i] for i in (2, 4, 11, 13)] == \
        ["tcp:p0", "tcp:p2", "Fines tcp:p0", "Fines tcp:p2"]
    assert remote_sheet[1:] == local_sheet[1:]
    assert remote_sheet[1][-1] == ""  # no faults
    remote_files = _normalised(remote_dir, remote_ais)
    local_files = _normalised(local_dir, [DRAWBOT] * 4)
    assert remote_files.keys() == local_files.keys()
    for rel, text in remote_files.items():
        assert text == local_files[rel], rel
    verify = subprocess.run(server_argv("verify", str(remote_dir)), cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert verify.returncode == 0, verify.stdout


# --- refused or faulted, with a cause; the hands go on -----------------------------------------


async def test_wrong_token_is_refused_and_the_seat_faults_no_join(tmp_path: Path) -> None:
    answers: list[str | None] = []

    async def wrong(port: int, seats: RemoteSeats) -> None:
        answers.append(await refusal(port, b"join p0 not-the-secret\n"))

    with capture_logs() as logs:
        (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path, [wrong])
    assert answers == ["error wrong token for p0"]
    assert faults_by_player(summary) == {0: "no-join: wrong token from 127.0.0.1"}
    assert summary.outcome.engine.result is not None  # the hand was played to its end
    refused = [e for e in logs if e["event"] == "remote_refused"]
    assert refused[0]["reason"] == "wrong token for p0"
    missing = [e for e in logs if e["event"] == "remote_seat_missing"]
    assert missing[0]["last_refusal"].startswith("wrong token from 127.0.0.1")


async def test_a_second_client_for_a_taken_seat_is_refused(tmp_path: Path) -> None:
    answers: list[str | None] = []

    async def intruder(port: int, seats: RemoteSeats) -> None:
        with trio.fail_after(10):
            while not seats.slots["p0"].taken():  # noqa: ASYNC110  (polls another task's state)
                await trio.sleep(0.01)
        answers.append(await refusal(port, b"join p0 secret0\n"))

    summaries = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0, 1], tmp_path,
                           [via_bridge("p0"), intruder])
    assert answers == ["error seat p0 is taken"]
    assert [s.faults for s in summaries] == [[], []]


async def test_a_client_that_says_nothing_is_dropped_at_the_handshake_deadline(
        tmp_path: Path) -> None:
    took: list[float] = []

    async def silent(port: int, seats: RemoteSeats) -> None:
        began = trio.current_time()
        took.append(0.0)
        answer = await refusal(port, b"")
        took[0] = trio.current_time() - began
        assert answer == "error no join within 0.3 s"

    (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path, [silent],
                            limits=RemoteLimits(handshake=0.3))
    assert 0.3 <= took[0] < 3.0
    assert faults_by_player(summary) == {0: "no-join: no connection"}


async def test_a_megabyte_without_newline_is_refused_at_the_line_cap(tmp_path: Path) -> None:
    got: list[bytes] = []

    async def flood(port: int, seats: RemoteSeats) -> None:
        async with await trio.open_tcp_stream("127.0.0.1", port) as stream:

            async def send() -> None:
                with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
                    await stream.send_all(b"\x1b[31m" + b"x" * (1 << 20))

            async with trio.open_nursery() as nursery:
                nursery.start_soon(send)
                data = b"x"
                while data:  # until the server closes (EOF or reset)
                    try:
                        data = await stream.receive_some(65536)
                    except trio.BrokenResourceError:
                        data = b""
                    got.append(data)
                nursery.cancel_scope.cancel()

    with capture_logs() as logs:
        (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path, [flood])
    answer = b"".join(got)
    assert answer in (b"", b"error malformed: line longer than 4096 bytes\r\n")  # or a reset
    (refused,) = [e for e in logs if e["event"] == "remote_refused"]
    assert refused["reason"] == "malformed: line longer than 4096 bytes"
    assert refused["line"].startswith("b'\\x1b[31mxxx")  # escaped, and short
    assert len(refused["line"]) < 100
    assert faults_by_player(summary) == {0: "no-join: no connection"}


async def test_garbage_before_join_never_takes_a_seat(tmp_path: Path) -> None:
    answers: list[str | None] = []

    async def garbage(port: int, seats: RemoteSeats) -> None:
        for hello in (b"out 1M\n", b"join\n", b"join p1 secret0\n", b"\xff\xfejoin p0 secret0\n"):
            answers.append(await refusal(port, hello))

    (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path, [garbage])
    assert answers == ["error the first line must be: join NAME TOKEN"] * 2 + [
        "error no remote seat is named p1", "error malformed: line is not ASCII"]
    assert faults_by_player(summary) == {0: "no-join: no connection"}


async def test_a_client_that_disconnects_mid_hand_is_closed_output_and_plays_the_next(
        tmp_path: Path) -> None:
    async def quitter(port: int, seats: RemoteSeats) -> None:
        assert await raw_drawbot(port, "p0", "secret0", quit_after=5) == 5
        await raw_drawbot(port, "p0", "secret0")

    first, second = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0, 1], tmp_path,
                               [quitter])
    assert faults_by_player(first) == {0: "closed-output"}
    assert len(first.outcome.answer_ms[first.plan.seats.index(0)]) == 5
    assert first.outcome.engine.result is not None
    assert second.faults == []


async def test_a_client_that_comes_for_some_hands_only_is_no_join_in_the_others(
        tmp_path: Path) -> None:
    skipped = trio.Event()

    async def sometimes(port: int, seats: RemoteSeats) -> None:
        await raw_drawbot(port, "p0", "secret0")  # hand 1
        await skipped.wait()  # not there for hand 2
        await raw_drawbot(port, "p0", "secret0")  # hand 3

    def between(number: int) -> None:
        if number == 1:
            skipped.set()

    summaries = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0, 1, 2], tmp_path,
                           [sometimes], between=between)
    assert [faults_by_player(s) for s in summaries] == [{}, {0: "no-join: no connection"}, {}]
    assert all(s.outcome.engine.result is not None for s in summaries)


async def test_a_remote_seat_that_stops_answering_is_faulted_at_the_hard_limit(
        tmp_path: Path) -> None:
    async def mute(port: int, seats: RemoteSeats) -> None:
        async with await trio.open_tcp_stream("127.0.0.1", port) as stream:
            await stream.send_all(b"join p0 secret0\n")
            while await stream.receive_some(65536):  # reads everything, answers nothing
                pass

    (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path, [mute],
                            options=TableOptions(hard_limit=1.0, join_limit=FAST.join_limit))
    assert faults_by_player(summary) == {0: "hard-limit"}
    assert summary.outcome.engine.result is not None


async def test_connections_past_the_caps_are_refused() -> None:
    tokens = {"p0": "secret0"}
    async with open_remote_seats("127.0.0.1", 0, tokens,
                                 limits=RemoteLimits(per_address=2, total=3)) as seats:
        port = seats.addresses[0][1]
        held = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(2)]
        try:
            with trio.fail_after(5):
                assert await refusal(port, b"") == "error too many connections"
        finally:
            for stream in held:
                await stream.aclose()


# --- the bridge ---------------------------------------------------------------------------------


async def test_a_bot_through_the_bridge_plays_exactly_as_the_same_bot_locally(
        tmp_path: Path) -> None:
    """Seeded sample AIs, same match seed: the same game records, event for event."""
    remote = ["tcp:p0", *SEEDED[1:]]
    local_summaries = []
    for n in (0, 1):
        local_summaries += await play(SEEDED, [n], tmp_path / f"local{n}", [], seed=0)
    results: list[Any] = []
    remote_summaries = await play(remote, [0, 1], tmp_path / "remote",
                                  [via_bridge("p0", SEEDED[0], results)], seed=0)
    assert results[0].reason == "the match is over" and results[0].hands == 2
    local_dirs = [hand_dirs(tmp_path / f"local{n}")[0] for n in (0, 1)]
    for local_dir, remote_dir in zip(local_dirs, hand_dirs(tmp_path / "remote"), strict=True):
        local_rec, remote_rec = hand_records(local_dir), hand_records(remote_dir)
        assert remote_rec["event"] == local_rec["event"]
        assert sorted(remote_rec["input"], key=_input_order) == \
            sorted(local_rec["input"], key=_input_order)
        assert remote_rec["result"]["result"] == local_rec["result"]["result"]
    assert [s.points for s in remote_summaries] == [s.points for s in local_summaries]
    assert {s.outcome.engine.result.kind for s in remote_summaries  # type: ignore[union-attr]
            } != {None}  # someone won: the bot's decisions mattered
    assert GREEDY in SEEDED[0]


async def test_the_bridge_runs_its_bot_in_the_servers_environment(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A student's bot outside the repository, ``server connect`` started without the
    venv activated: its ``#!/usr/bin/env python3`` finds the Python with ``sample_ai``."""
    from tests.rulesets.default.test_match_e2e import BARE_PATH, student_bot

    monkeypatch.setenv("PATH", BARE_PATH)
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    bot = student_bot(tmp_path / "student")
    results: list[Any] = []
    (summary,) = await play(["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], [0], tmp_path / "match",
                            [via_bridge("p0", str(bot), results)])
    assert summary.faults == []
    assert results[0].reason == "the match is over" and results[0].hands == 1


async def test_the_bridge_stops_and_says_why() -> None:
    async with open_remote_seats("127.0.0.1", 0, {"p0": "secret0"}) as seats:
        port = seats.addresses[0][1]
        refused = await bridge("127.0.0.1", port, "p0", "wrong", argv_of(DRAWBOT), wait=1.0)
    assert (refused.status, refused.reason) == (1, "the server refused: wrong token for p0")
    began = time.monotonic()
    gone = await bridge("127.0.0.1", port, "p0", "secret0", argv_of(DRAWBOT), wait=0.3)
    assert gone.status == 1 and gone.reason.startswith(f"cannot connect to 127.0.0.1:{port}")
    assert time.monotonic() - began < 5


@pytest.mark.parametrize(("text", "address"), [
    ("9000", ("127.0.0.1", 9000)),
    (":9000", ("127.0.0.1", 9000)),
    ("0.0.0.0:0", ("0.0.0.0", 0)),
    ("[::1]:9000", ("::1", 9000)),
])
def test_listen_addresses_default_to_loopback(text: str, address: tuple[str, int]) -> None:
    assert parse_listen(text) == address


@pytest.mark.parametrize("text", ["", "host:", "host:port", "1:65536", "127.0.0.1:-1"])
def test_bad_listen_addresses_are_refused(text: str) -> None:
    with pytest.raises(RemoteSetupError):
        parse_listen(text)


def test_tokens_are_given_or_generated() -> None:
    tokens, generated = parse_tokens(["p0=secret0"], ["p0", "p2"])
    assert tokens["p0"] == "secret0" and generated == ["p2"]
    assert 16 <= len(tokens["p2"]) <= 64 and " " not in tokens["p2"]
    for bad in (["p0"], ["p0=with space"], ["p0="], ["p9=x"]):
        with pytest.raises(RemoteSetupError):
            parse_tokens(bad, ["p0"])


@pytest.mark.parametrize(("args", "message"), [
    (["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT], "need --listen"),
    (["tcp:p0", "tcp:p0", DRAWBOT, DRAWBOT, "--listen", "0"], "the same tcp:NAME"),
    (["tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT, "--listen", "0", "--token", "p1=x"],
     "no AI is tcp:p1"),
    ([DRAWBOT] * 4 + ["--listen", "0"], "need at least one tcp:NAME"),
])
def test_bad_remote_arguments_exit_2(args: list[str], message: str) -> None:
    proc = subprocess.run(server_argv(*args), cwd=ROOT, capture_output=True, text=True,
                          timeout=30)
    assert proc.returncode == 2
    assert message in " ".join(proc.stderr.split())


def test_a_port_already_in_use_exits_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = subprocess.run(server_argv("tcp:p0", DRAWBOT, DRAWBOT, DRAWBOT, "--listen",
                                          f"127.0.0.1:{port}"),
                              cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in " ".join(proc.stderr.split())
