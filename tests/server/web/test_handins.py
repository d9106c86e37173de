"""Hand-ins through the page, over real HTTP on loopback (hypercorn on port 0, http.client).

A good upload passes check-bot and plays from the student's next table of a real
tournament (two tables of one hand, sample bots; the runner in this process, the page
in a thread of its own, as ``server serve`` is a process of its own). Every refusal
says why, and none changes anything outside the student's folder.
"""

from __future__ import annotations

import hashlib
import http.client
import io
import json
import logging
import os
import sqlite3
import sys
import threading
import time
import uuid
import zipfile
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import trio
from starlette.applications import Starlette

from server.tournament.programs import digest
from server.tournament.runner import PROGRAMS_FILE, Runner, TournamentConfig
from server.tournament.schedule import TablePlan
from server.tournament.store import Entry, Store
from server.web.handins import HandinSettings, routes
from server.web.serving import serve
from server.web.tokens import make_tokens, revoke
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
SAMPLE = (ROOT / "sample_ai" / "random_bot.py").read_text()
FAST = 1000  # PBKDF2 rounds of these tests' tokens
QUICK = HandinSettings(max_bytes=64 << 10, max_files=5, max_unpacked=256 << 10,
                       uploads_per_minute=100, failures_per_minute=100, check_hands=1,
                       check_timeout=120)


def marked(text: str) -> str:
    """The sample bot with a marker, which reads a data file beside it as it starts (and
    crashes without it)."""
    return SAMPLE.replace("\nfrom protocol.messages", "\nsys.stderr.write((Path(__file__)"
                          '.parent / "version.txt").read_text())\nfrom protocol.messages',
                          1) + f"# {text}\n"


# --- HTTP, as a browser or a script sends it ---------------------------------------------------


def multipart(fields: dict[str, str], files: Iterable[tuple[str, str, bytes]]
              ) -> tuple[bytes, str]:
    boundary = "handin" + uuid.uuid4().hex
    out = io.BytesIO()
    for name, value in fields.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n'
                  f"{value}\r\n".encode())
    for name, filename, data in files:
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                  f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
                  .encode())
        out.write(data + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def post(url: str, fields: dict[str, str], files: Iterable[tuple[str, str, bytes]], *,
         json_answer: bool = True, chunked: bool = False) -> tuple[int, Any, str]:
    """POST a form: (status, headers, body: parsed JSON or HTML text)."""
    body, content_type = multipart(fields, files)
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=180)
    headers = {"Content-Type": content_type}
    if json_answer:
        headers["Accept"] = "application/json"
    try:
        if chunked:
            pieces = (body[i:i + 8192] for i in range(0, len(body), 8192))
            conn.request("POST", "/handin", body=pieces, headers=headers, encode_chunked=True)
        else:
            conn.request("POST", "/handin", body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        return response.status, response.headers, json.loads(text) if json_answer else text
    finally:
        conn.close()


async def upload(url: str, token: str | None, *files: tuple[str, bytes], **kw: Any
                 ) -> tuple[int, Any, Any]:
    fields = {} if token is None else {"token": token}
    return await trio.to_thread.run_sync(
        lambda: post(url, fields, [("file", n, d) for n, d in files], **kw))


@asynccontextmanager
async def served(root: Path, settings: HandinSettings) -> AsyncIterator[str]:
    app = Starlette(routes=routes(root, settings))
    async with trio.open_nursery() as nursery:
        urls: list[str] = await nursery.start(serve, app, "127.0.0.1", 0)
        yield urls[0]
        nursery.cancel_scope.cancel()


@contextmanager
def served_in_a_thread(root: Path, settings: HandinSettings) -> Iterator[str]:
    """The page in a thread with its own trio run, as another process would serve it."""
    ready = threading.Event()
    got: dict[str, Any] = {}

    async def main() -> None:
        async with trio.open_nursery() as nursery:
            got["token"] = trio.lowlevel.current_trio_token()
            got["scope"] = nursery.cancel_scope
            got["urls"] = await nursery.start(serve, Starlette(routes=routes(root, settings)),
                                              "127.0.0.1", 0)
            ready.set()

    thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
    thread.start()
    assert ready.wait(60), "the page did not start"
    try:
        yield got["urls"][0]
    finally:
        trio.from_thread.run_sync(got["scope"].cancel, trio_token=got["token"])
        thread.join(30)


def zipped(*entries: tuple[str | zipfile.ZipInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in entries:
            zf.writestr(name, data)
    return buffer.getvalue()


def link(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = 0o120777 << 16
    return info


def appears(path: Path, seconds: float = 60.0) -> bool:
    """Whether ``path`` comes to exist within ``seconds`` (made by the page, in another
    task: a file, not an event this test could wait on)."""
    end = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def snapshot(root: Path) -> dict[str, tuple[str, str]]:
    """Every path under ``root``: its kind and its bytes' hash (a link: its target)."""
    seen: dict[str, tuple[str, str]] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                seen[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                seen[rel] = ("dir", "")
            else:
                seen[rel] = ("file", hashlib.sha256(path.read_bytes()).hexdigest())
    return seen


# --- the tests ---------------------------------------------------------------------------------


async def test_refusals_each_say_why_and_change_nothing_outside_the_students_folder(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    (_, alice, _), (_, bob, _) = make_tokens(out, ["alice", "bob"], FAST)
    revoke(out, "bob")
    (out / "standings.json").write_text("{}\n")  # a file of the tournament, to be left alone
    before = snapshot(tmp_path)
    bot = ("bot.py", SAMPLE.encode())
    crash = ("crash.py", b"import sys\nsys.exit('crashed on purpose')\n")
    cases: list[tuple[str, str | None, tuple[tuple[str, bytes], ...], dict[str, Any],
                      int, str]] = [
        ("no token", None, (bot,), {}, 401, "no token: give the token your teacher made"),
        ("wrong token", "deadbeef.not-it", (bot,), {}, 403, "this token is not valid"),
        ("revoked token", bob, (bot,), {}, 403, "this token is not valid"),
        ("oversized", alice, (("big.py", bytes(100 << 10)),), {}, 413,
         "the upload is larger than 64 KB"),
        ("oversized, streamed", alice, (("big.py", bytes(100 << 10)),), {"chunked": True},
         413, "the upload is larger than 64 KB"),
        ("two files", alice, (bot, bot), {}, 400, "Too many files"),
        ("../", alice, (("up.zip", zipped(bot, ("../../../../escaped.py", b"x"))),), {},
         422, "'../../../../escaped.py': '..' in its path"),
        ("absolute", alice, (("abs.zip", zipped(bot, (str(tmp_path / "abs.py"), b"x"))),),
         {}, 422, f"'{tmp_path / 'abs.py'}': an absolute path"),
        ("link", alice, (("link.zip", zipped(bot, (link("evil.py"), b"/etc/passwd"))),), {},
         422, "'evil.py': a symbolic link"),
        ("too many files", alice,
         (("many.zip", zipped(bot, *((f"f{i}.txt", b"x") for i in range(5)))),), {}, 422,
         "too many files in the zip: 6 (at most 5)"),
        ("zip bomb", alice, (("bomb.zip", zipped(bot, ("zeros", bytes(1 << 20)))),), {}, 422,
         "too many bytes once unpacked"),
        ("fails check-bot", alice, (crash,), {}, 422, "check-bot found problems"),
    ]
    async with served(out, QUICK) as url:
        for what, token, files, options, status, reason in cases:
            got, headers, answer = await upload(url, token, *files, **options)
            assert (got, answer["ok"]) == (status, False), (what, answer)
            assert reason in answer["reason"], (what, answer)
            if status == 401:
                assert headers["WWW-Authenticate"].startswith("Bearer")
            if what == "fails check-bot":
                assert "never started" in answer["report"], answer["report"]
                assert "crashed on purpose" in answer["report"]
                assert str(tmp_path) not in answer["report"], "no path of the machine"
        got, _, page = await upload(url, None, bot, json_answer=False)
        assert got == 401 and "Refused: no token" in page and "<form" in page
    after = snapshot(tmp_path)
    changed = {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}
    assert changed and all(p.startswith("out/handins/alice") for p in changed), changed
    assert not (out / "handins" / "alice" / "current.json").exists()
    assert not (tmp_path / "abs.py").exists() and not (tmp_path / "escaped.py").exists()
    logged = [json.loads(line) for line in
              (out / "handins" / "alice" / "uploads.jsonl").read_text().splitlines()]
    assert [(e["status"], e["taken"]) for e in logged] == [(422, False)] * 6
    assert [e["n"] for e in logged] == [1, 2, 3, 4, 5, 6], "each upload its own number"
    assert "'..' in its path" in logged[0]["reason"]
    student = out / "handins" / "alice"
    assert not [p for p in student.iterdir() if p.is_dir()], "refused uploads are removed"
    (report,) = student.glob("report-*.txt")
    assert "crashed on purpose" in report.read_text(), "check-bot's report is kept"


async def test_a_flood_of_uploads_or_of_wrong_tokens_is_refused_with_when_to_retry(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    (_, alice, _), = make_tokens(out, ["alice"], FAST)
    settings = HandinSettings(uploads_per_minute=2, failures_per_minute=3)
    odd = ("bad name.py", b"x")  # refused before check-bot: cheap
    async with served(out, settings) as url:
        statuses = [(await upload(url, alice, odd))[0] for _ in range(2)]
        assert statuses == [422, 422]
        got, headers, answer = await upload(url, alice, odd)
        assert got == 429 and answer["reason"].startswith("too many uploads: 2 a minute; "
                                                           "try again in ")
        assert 1 <= int(headers["Retry-After"]) <= 60
        assert answer["retry_after"] == int(headers["Retry-After"])
        for _ in range(3):
            assert (await upload(url, "0000.wrong", odd))[0] == 403
        got, headers, answer = await upload(url, "0000.wrong", odd)
        assert got == 429 and "too many wrong tokens from your address" in answer["reason"]
        assert int(headers["Retry-After"]) >= 1
        got, _, page = await upload(url, alice, odd, json_answer=False)
        assert got == 429 and "try again in" in page


async def test_a_check_that_hangs_is_stopped_whole_and_one_check_runs_at_a_time(
        tmp_path: Path) -> None:
    """While a student's upload is checked, their next one waits its turn (429); a check
    past ``check_timeout`` is stopped with every process it started (no_leftovers)."""
    out = tmp_path / "out"
    (_, alice, _), = make_tokens(out, ["alice"], FAST)
    hangs = ("hangs.py", b"import time\ntime.sleep(600)\n")
    settings = HandinSettings(check_hands=1, check_timeout=3)
    async with served(out, settings) as url, trio.open_nursery() as nursery:
        first: list[Any] = []

        async def slow() -> None:
            first.append(await upload(url, alice, hangs))

        nursery.start_soon(slow)
        assert await trio.to_thread.run_sync(appears, out / "handins" / "alice" / "1")
        got, headers, answer = await upload(url, alice, hangs)
        assert got == 429 and "your last upload is still being checked" in answer["reason"]
        assert headers["Retry-After"] == "10"
    ((status, _, answer),) = first
    assert status == 422 and "took longer than 3 s and was stopped" in answer["reason"]


async def test_a_remote_entry_or_a_stranger_to_the_tournament_cannot_hand_in(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    (_, alice, _), (_, bob, _) = make_tokens(out, ["alice", "bob"], FAST)
    store = Store(out / "tournament.sqlite")
    store.initialise({"format": "swiss"}, [Entry("alice", ("tcp:alice",)),
                                           Entry("carol", (PY, "c.py"))])
    store.close()
    async with served(out, QUICK) as url:
        remote = await upload(url, alice, ("bot.py", b"x"))
        stranger = await upload(url, bob, ("bot.py", b"x"))
    assert remote[0] == 403 and "plays as a remote bot (tcp:alice)" in remote[2]["reason"]
    assert stranger[0] == 403 and "'bob' is not an entry of this tournament" in \
        stranger[2]["reason"]
    assert not (out / "handins" / "alice").exists()


async def test_a_student_over_their_quota_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (_, alice, _), = make_tokens(out, ["alice"], FAST)
    (out / "handins" / "alice" / "1").mkdir(parents=True)
    (out / "handins" / "alice" / "1" / "old.bin").write_bytes(bytes(60 << 10))
    async with served(out, HandinSettings(quota=64 << 10)) as url:
        got, _, answer = await upload(url, alice, ("bot.py", bytes(8 << 10)))
    assert got == 413 and answer["reason"].startswith("your hand-ins already take 60 KB, "
                                                      "and a student may keep 64 KB")


async def test_the_page_shows_the_form_and_the_limits(tmp_path: Path) -> None:
    async with served(tmp_path, QUICK) as url:
        def get() -> tuple[int, str]:
            parts = urlsplit(url)
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
            try:
                conn.request("GET", "/handin")
                response = conn.getresponse()
                return response.status, response.read().decode()
            finally:
                conn.close()

        status, page = await trio.to_thread.run_sync(get)
    assert status == 200
    assert 'enctype="multipart/form-data"' in page and 'name="token"' in page
    assert "64 KB an upload" in page and "at most 5 files" in page


def test_a_passed_upload_plays_from_the_students_next_table(tmp_path: Path) -> None:
    """Swiss, four bots, two rounds of one table and one hand. After round 1 alice hands
    in a zip of a folder holding a marked copy of the sample bot and the data file it
    reads: it passes check-bot and plays round 2, pinned whole and hashed, without a
    fault; the console says it came through the page."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "alice.py").write_text(SAMPLE)
    entries = [Entry("alice", (PY, str(bots / "alice.py")))] + [
        Entry(name, (PY, str(ROOT / "sample_ai" / "greedy.py"), "--seed", str(k)))
        for k, name in enumerate(("bob", "carol", "dave"))]
    out = tmp_path / "out"
    (_, token, _), = make_tokens(out, ["alice"], FAST)
    config = TournamentConfig(tuple(entries), "swiss", 3, 2, out, hands=1, jobs=1)
    v2 = marked("alice's second version").encode()
    said: list[str] = []
    answers: list[tuple[int, Any]] = []
    store = Store(out / "tournament.sqlite")
    try:
        runner = Runner(config, store)
        runner.notice_listener = lambda text, warning: said.append(text)
        with served_in_a_thread(out, QUICK) as url:

            def listener(what: str, plan: TablePlan | None) -> None:
                if what == "table" and plan is not None and plan.round == 1:
                    status, _, answer = post(url, {"token": token}, [(
                        "file", "alice.zip", zipped(("alice/alice_v2.py", v2),
                                                    ("alice/version.txt", b"alice v2\n")))])
                    answers.append((status, answer))

            runner.listener = listener
            trio.run(runner.run)
    finally:
        store.close()
    ((status, answer),) = answers
    assert status == 200 and answer["ok"], answer
    assert answer["reason"] == "upload 1 passed check-bot: it plays from your next table"
    assert "the bot speaks the protocol correctly" in answer["report"]
    current = json.loads((out / "handins/alice/current.json").read_text())
    assert current["n"] == 1 and current["command"] == ["python3", "alice/alice_v2.py"]

    def program(table: str) -> dict[str, Any]:
        recorded = json.loads((out / "matches" / table / PROGRAMS_FILE).read_text())
        return next(p for p in recorded if p["name"] == "alice")

    first, second = program("r01-t01"), program("r02-t01")
    assert first["hash"] == digest([("alice.py", SAMPLE.encode())])
    assert second["hash"] == digest([("alice_v2.py", v2), ("version.txt", b"alice v2\n")])
    # Paths relative to the output folder: none of the machine in what the web serves.
    assert second["command"][-1] == "handins/alice/1/alice/alice_v2.py"
    assert not Path(second["run"][-1]).is_absolute()
    pinned = out / second["run"][-1]
    assert pinned.read_bytes() == v2 and pinned.parent.parent.name == "programs"
    assert (pinned.parent / "version.txt").read_text() == "alice v2\n"
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        faults = db.execute("SELECT r.round, r.faults FROM results r JOIN entries e "
                            "ON e.id = r.entry WHERE e.name = 'alice'").fetchall()
    finally:
        db.close()
    assert sorted(faults) == [(1, 0), (2, 0)], "the pinned copy found its data file"
    told = [t for t in said if t.startswith("alice handed in a new program (sha256:")]
    assert len(told) == 1 and told[0].endswith(" through the page (upload 1): plays from "
                                               "table r02-t01"), said


def test_check_bot_runs_as_the_tournament_plays_its_ruleset_sandbox_limits_and_io(
        tmp_path: Path) -> None:
    """A Botzone tournament's check is Botzone's check-bot, with the entry's way to talk
    (json+keep-running) and the stored limits; without a tournament, the defaults."""
    from rulesets.botzone.ruleset import RULESET as BOTZONE
    from server.bots.sandbox import BotLimits
    from server.bots.seats import Sandbox
    from server.web.handins import check_argv

    dest = tmp_path / "out" / "handins" / "alice" / "1"
    dest.mkdir(parents=True)
    (dest / "bot.py").write_text("print(1)\n")
    plain = check_argv(tmp_path / "out", "alice", ("python3", "bot.py"), dest, QUICK)
    assert plain[3:] == ["check-bot", "--ruleset", "default", "--hands", "1",
                         "--sandbox", "bwrap", f"python3 {dest / 'bot.py'}"]  # the default
    settings = BOTZONE.tournament_settings({"walls": 1, "orders": 2, "time_limit": 2.5}, None)
    entries = (Entry("alice", BOTZONE.entry_command([PY, "old.py"], "json", "x", True)),
               Entry("bob", ("json:python3 b.py",)))
    config = TournamentConfig(entries, "swiss", 1, 1, tmp_path / "out", ruleset="botzone",
                              settings=settings,
                              sandbox=Sandbox(BotLimits(512, 20, 8), "none"))
    store = Store(tmp_path / "out" / "tournament.sqlite")
    store.initialise(config.meta(), list(entries))
    store.close()
    argv = check_argv(tmp_path / "out", "alice", ("python3", "bot.py"), dest, QUICK)
    options = dict(zip(argv[6:-1:2], argv[7:-1:2], strict=True))
    assert argv[4:6] == ["--ruleset", "botzone"]
    assert options == {"--games": "1", "--mem-limit": "512", "--cpu-limit": "20",
                       "--file-limit": "8", "--sandbox": "none", "--variant": "classic",
                       "--time-limit": "2.5"}
    assert argv[-1] == f"json+keep-running:python3 {dest / 'bot.py'}"


async def test_concurrent_wrong_tokens_cannot_pass_the_limit_together(tmp_path: Path) -> None:
    """60 wrong secrets for one id at once, over 60 sockets: 3 are checked (403), the
    others refused before any hash (429)."""
    out = tmp_path / "out"
    (_, alice, _), = make_tokens(out, ["alice"], 20_000)  # a slow hash: a wide window
    guessed = alice.split(".")[0]
    settings = HandinSettings(failures_per_minute=3)
    odd = ("bad name.py", b"x")
    limiter = trio.CapacityLimiter(60)
    got: list[int] = []
    async with served(out, settings) as url:
        async def guess(i: int) -> None:
            got.append((await trio.to_thread.run_sync(
                lambda: post(url, {"token": f"{guessed}.wrong{i}"}, [("file", *odd)]),
                limiter=limiter))[0])

        async with trio.open_nursery() as nursery:
            for i in range(60):
                nursery.start_soon(guess, i)
    assert sorted(set(got)) == [403, 429] and got.count(403) == 3, got


async def test_guessing_from_one_address_does_not_lock_out_the_other_students_there(
        tmp_path: Path) -> None:
    """A classroom behind one NAT: 25 wrong secrets for alice's id from 127.0.0.1, then
    bob's right token from 127.0.0.1 is taken; alice's id stays refused a while."""
    out = tmp_path / "out"
    (_, alice, _), (_, bob, _) = make_tokens(out, ["alice", "bob"], FAST)
    guessed = alice.split(".")[0]
    settings = HandinSettings(failures_per_minute=20)
    odd = ("bad name.py", b"x")  # past the token, then refused by name: cheap
    async with served(out, settings) as url:
        statuses = [(await upload(url, f"{guessed}.guess{i}", odd))[0] for i in range(25)]
        assert statuses == [403] * 20 + [429] * 5
        for i in range(5):  # other ids guessed too: each its own count
            assert (await upload(url, f"{i:08x}.guess", odd))[0] == 403
        got, _, answer = await upload(url, bob, odd)
        assert (got, answer["name"]) == (422, "bob"), answer
        got, headers, answer = await upload(url, alice, odd)
        assert got == 429 and guessed in answer["reason"]
        assert 1 <= int(headers["Retry-After"]) <= 60


def upload_head(length: int) -> bytes:
    return (f"POST /handin HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\nContent-Type: "
            f"multipart/form-data; boundary=b\r\nContent-Length: {length}\r\n\r\n--b\r\n"
            ).encode()


async def answer_and_close(stream: trio.SocketStream, seconds: float) -> tuple[bytes, float]:
    """What the server sends until it closes the connection, and when it closed it."""
    start = trio.current_time()
    data = b""
    with trio.fail_after(seconds):
        while chunk := await stream.receive_some():
            data += chunk
    return data, trio.current_time() - start


async def test_stalled_and_trickling_upload_bodies_are_cut(tmp_path: Path) -> None:
    """Twenty bodies that stop after their first bytes are answered 408 and closed after
    the idle limit; one that trickles a byte every 0.2 s, after the total limit."""
    out = tmp_path / "out"
    make_tokens(out, ["alice"], FAST)
    settings = HandinSettings(body_idle_seconds=1.0, body_seconds=3.0)
    async with served(out, settings) as url:
        port = int(url.rsplit(":", 1)[1])
        stalled = [await trio.open_tcp_stream("127.0.0.1", port) for _ in range(20)]
        for stream in stalled:
            await stream.send_all(upload_head(100_000))
        for stream in stalled:
            data, took = await answer_and_close(stream, 10)
            assert data.startswith(b"HTTP/1.1 408 ") and b"stopped for 1 s" in data
            assert took < 4
            await stream.aclose()
        trickle = await trio.open_tcp_stream("127.0.0.1", port)
        await trickle.send_all(upload_head(100_000))
        start = trio.current_time()
        with trio.move_on_after(10):
            while True:
                try:
                    await trickle.send_all(b"x")
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    break
                await trio.sleep(0.2)
        try:  # the answer, or a reset: it was closed while the client still wrote
            data, _ = await answer_and_close(trickle, 5)
        except trio.BrokenResourceError:
            data = b""
        assert b" 408 " in data.split(b"\r\n")[0] or data == b""
        assert 2.5 < trio.current_time() - start < 8
        await trickle.aclose()


async def test_an_aborted_upload_logs_one_line(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "out"
    (_, alice, _), = make_tokens(out, ["alice"], FAST)
    caplog.set_level(logging.INFO)
    async with served(out, QUICK) as url:
        stream = await trio.open_tcp_stream("127.0.0.1", int(url.rsplit(":", 1)[1]))
        await stream.send_all(upload_head(20_000) + b'Content-Disposition: form-data; '
                              b'name="token"\r\n\r\n' + alice.encode() + b"\r\n--b\r\n")
        await trio.sleep(0.3)
        await stream.aclose()
        await trio.sleep(0.5)
    said = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(said) == 1 and not said[0].exc_info, [r.getMessage() for r in said]
    assert "aborted" in said[0].getMessage() and "\n" not in said[0].getMessage()


async def test_the_page_and_every_answer_say_when_the_teacher_opted_out_of_the_sandbox(
        tmp_path: Path) -> None:
    """Sandboxed by default (no tournament yet, or one stored with bwrap): the page says
    nothing more. Stored with ``--sandbox none``: the form and the answers say so."""
    from server.bots.seats import Sandbox

    def get(url: str) -> str:
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        try:
            conn.request("GET", "/handin")
            return conn.getresponse().read().decode()
        finally:
            conn.close()

    warned = "This tournament runs its programs without a sandbox"
    entries = (Entry("alice", (PY, "a.py")), Entry("bob", (PY, "b.py")))
    for kind in ("default", "bwrap", "none"):
        out = tmp_path / kind
        out.mkdir()
        if kind != "default":
            config = TournamentConfig(entries, "swiss", 1, 1, out, sandbox=Sandbox(kind=kind))
            store = Store(out / "tournament.sqlite")
            store.initialise(config.meta(), list(entries))
            store.close()
        async with served(out, QUICK) as url:
            form = await trio.to_thread.run_sync(get, url)
            status, _, answer = await upload(url, None, ("bot.py", b"print(1)\n"))
            _, _, page = await upload(url, None, ("bot.py", b"print(1)\n"), json_answer=False)
        assert status == 401
        bare = kind == "none"
        assert answer["sandbox"] == ("none" if bare else "bwrap"), kind
        assert (warned in form, warned in page) == (bare, bare), kind
        assert ("without a sandbox);" in form) == bare


def test_the_page_has_one_heading_a_link_back_and_taken_names_the_student() -> None:
    from server.web.handins import Answer, _result_html, form_html

    form = form_html(QUICK)
    assert form.count("<h1>") == 1 and "<h1>Hand in your bot</h1>" in form
    assert "<p class='back'><a href='./'>" in form
    taken = _result_html(QUICK, Answer(200, "upload 2 passed check-bot", name="alice"))
    assert "Taken alice&#x27;s bot: upload 2 passed check-bot" in taken
    assert taken.count("<h1>") == 1
    refused = _result_html(QUICK, Answer(401, "no token"))
    assert "Refused: no token" in refused
