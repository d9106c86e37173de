"""The web app over real HTTP on loopback (hypercorn on port 0): the API, the events
pushed to a page, the folder's files and what is refused (``server.web.app``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
import trio

import server.web.app as app_module
from server.web.app import build_app
from server.web.handins import PATH, HandinSettings
from server.web.serving import serve
from tests.server.web.feeds_by_hand import (
    append,
    done,
    end,
    fault,
    standings_json,
    start,
    step,
    table,
)


@asynccontextmanager
async def served(root: Path) -> AsyncIterator[tuple[str, int]]:
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve, build_app(root), "127.0.0.1", 0)
        port = int(urls[0].rsplit(":", 1)[1])
        yield "127.0.0.1", port
        nursery.cancel_scope.cancel()


async def get(address: tuple[str, int], path: str) -> tuple[int, bytes]:
    """Status and body of a GET, the path sent exactly as given (no normalising)."""
    stream = await trio.open_tcp_stream(*address)
    async with stream:
        await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                              .encode())
        data = b""
        with trio.fail_after(10):
            while chunk := await stream.receive_some():
                data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


async def get_json(address: tuple[str, int], path: str) -> Any:
    def fetch() -> Any:
        with urllib.request.urlopen(f"http://{address[0]}:{address[1]}{path}",
                                    timeout=10) as r:
            return json.load(r)
    return await trio.to_thread.run_sync(fetch)


class Events:
    """A page's server-sent events, read from a raw socket."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""

    async def next(self) -> tuple[str, Any]:
        with trio.fail_after(10):
            while b"\n\n" not in self.buffer:
                chunk = await self.stream.receive_some()
                assert chunk, "the stream ended"
                self.buffer += chunk
        block, _, self.buffer = self.buffer.partition(b"\n\n")
        fields = dict(line.split(": ", 1) for line in block.decode().split("\n")
                      if not line.startswith(":"))
        if not fields:
            return await self.next()  # a keep-alive
        return fields["event"], json.loads(fields["data"])

    async def until(self, name: str, kind: str | None = None) -> Any:
        while True:
            event, data = await self.next()
            if event == name and (kind is None or data.get("type") == kind):
                return data


@asynccontextmanager
async def events(address: tuple[str, int], query: str = "") -> AsyncIterator[Events]:
    stream = await trio.open_tcp_stream(*address)
    async with stream:
        # HTTP/1.0: the body as it is sent, not in chunks
        await stream.send_all(f"GET /api/events{query} HTTP/1.0\r\nHost: x\r\n\r\n".encode())
        reader = Events(stream)
        with trio.fail_after(10):
            while b"\r\n\r\n" not in reader.buffer:
                reader.buffer += await stream.receive_some()
        head, _, reader.buffer = reader.buffer.partition(b"\r\n\r\n")
        assert b" 200 " in head.split(b"\r\n")[0] + b" "
        assert b"text/event-stream" in head
        yield reader


def tournament(root: Path) -> Path:
    feed = root / "matches" / "r01-t02" / "live.jsonl"
    append(feed, table("Round 1, table 2"), start(1), step(1, 0, ["W1"]))
    standings_json(root, {"alice": 3, "bob": -3, "carol": 0, "dave": 0})
    (root / "tournament.html").write_text("<p>report</p>")
    return feed


async def test_the_api_gives_the_standings_and_the_tables_in_play(tmp_path: Path) -> None:
    tournament(tmp_path)
    async with served(tmp_path) as address:
        standings = await get_json(address, "/api/standings")
        tables = await get_json(address, "/api/tables")
    assert standings["kind"] == "tournament"
    assert [r["bot"] for r in standings["standings"]] == ["alice", "carol", "dave", "bob"]
    assert standings["standings"][0]["stats"]["games"] == 2
    [playing] = tables["tables"]
    assert playing["title"] == "Round 1, table 2" and playing["n"] == 1
    assert playing["players"] == ["alice", "bob", "carol", "dave"]
    assert playing["picture"]["last"]["tile"] == "W1"
    assert all(isinstance(s["concealed"], int) for s in playing["picture"]["seats"])


async def test_a_page_gets_a_snapshot_then_each_record_and_standings(tmp_path: Path) -> None:
    feed = tournament(tmp_path)
    async with served(tmp_path) as address, events(address) as page:
        name, snapshot = await page.next()
        assert name == "snapshot"
        assert snapshot["tables"][0]["picture"]["last"]["tile"] == "W1"
        append(feed, step(1, 1, ["W2"]))
        got = await page.until("record", "step")
        assert got["table"] == "matches/r01-t02"
        assert got["picture"]["last"]["tile"] == "W2"
        append(feed, fault(1))
        got = await page.until("record", "fault")
        # in play, so sealed: its kind, not what the bot wrote (its stderr, its lines)
        assert (got["row"]["cause"], got["row"]["stderr"]) == ("closed-output", None)
        assert got["row"]["stderr_file"] == "matches/r01-t02/001-00000001/seat1.stderr"
        append(feed, end(1, [3, -1, -1, -1], page="matches/r01-t02-hands/001.html"), done())
        assert (await page.until("record", "end"))["page"] == "matches/r01-t02-hands/001.html"
        await page.until("record", "done")
        standings_json(tmp_path, {"alice": 3, "bob": 9}, reports=2)
        standings = await page.until("standings")
        assert standings["standings"][0]["bot"] == "bob"
        assert standings["reports"][1]["report"] == "matches/r01-t02.html"


async def test_a_folder_of_several_has_an_index_and_each_its_page(tmp_path: Path) -> None:
    tournament(tmp_path / "class-a")
    append(tmp_path / "match-1" / "live.jsonl", table(), start(1), end(1, [4, 0, 0, -4]))
    async with served(tmp_path) as address:
        status, index = await get(address, "/")
        assert status == 200 and b'href="class-a/"' in index and b'href="match-1/"' in index
        status, page = await get(address, "/match-1/")
        assert status == 200 and b'"?dir=match-1"' in page and b'"../api/"' in page
        assert (await get_json(address, "/api/standings?dir=match-1"))["standings"][0][
            "points"] == 4
        assert (await get_json(address, "/api/standings"))["kind"] == "several"
        async with events(address, "?dir=class-a") as page_events:
            _, snapshot = await page_events.next()
        assert snapshot["kind"] == "tournament"
        status, _ = await get(address, "/api/tables?dir=../")
        assert status == 404


async def test_files_are_served_and_unsafe_paths_refused(tmp_path: Path) -> None:
    root = tmp_path / "out"
    root.mkdir()
    feed = tournament(root)
    (tmp_path / "secret.txt").write_text("secret")
    (root / "escape.txt").symlink_to(tmp_path / "secret.txt")
    (root / "tournament.sqlite").write_text("store")
    (root / "handins").mkdir()
    (root / "handins" / "tokens.json").write_text("{}")
    log = feed.parent / "001-00000001" / "game.log"
    log.parent.mkdir()
    log.write_text("every concealed tile")
    async with served(root) as address:
        assert await get(address, "/tournament.html") == (200, b"<p>report</p>")
        for bad in ("/../secret.txt", "/matches/../../secret.txt", "/%2e%2e/secret.txt",
                    "/escape.txt", "/tournament.sqlite", "/handins/tokens.json",
                    "/.hidden", "/nothing.html"):
            status, body = await get(address, bad)
            assert status == 404, bad
            assert b"secret" not in body and b"store" not in body
        status, body = await get(address, "/matches/r01-t02/001-00000001/game.log")
        assert status == 403 and b"in play" in body
        append(feed, done())
        assert await get(address, "/matches/r01-t02/001-00000001/game.log") == (
            200, b"every concealed tile")
        status, _ = await get(address, "/matches")
        assert status == 308


async def test_the_live_page_is_self_contained(tmp_path: Path) -> None:
    tournament(tmp_path)
    async with served(tmp_path) as address:
        status, page = await get(address, "/")
    assert status == 200
    assert b"EventSource" in page and b"<svg" in page
    assert b"http://" not in page.replace(b"http://www.w3.org/2000/svg", b"")
    assert b"https://" not in page


def files_and_times(folder: Path) -> list[tuple[Path, int]]:
    return sorted((p, p.stat().st_mtime_ns) for p in folder.rglob("*"))


async def test_nothing_is_written_and_only_get_is_answered(tmp_path: Path) -> None:
    tournament(tmp_path)
    before = files_and_times(tmp_path)
    async with served(tmp_path) as address:
        stream = await trio.open_tcp_stream(*address)
        async with stream:
            await stream.send_all(b"PUT /new.html HTTP/1.1\r\nHost: x\r\nContent-Length: 2"
                                  b"\r\nConnection: close\r\n\r\nhi")
            reply = b""
            while chunk := await stream.receive_some():
                reply += chunk
        assert reply.split()[1] == b"405"
        await get(address, "/")
        await get_json(address, "/api/standings")
    assert files_and_times(tmp_path) == before


async def test_hand_ins_are_mounted_only_when_on(tmp_path: Path) -> None:
    tournament(tmp_path)
    async with served(tmp_path) as address:
        status, page = await get(address, "/")
        assert b"Hand in a bot" not in page
        assert (await get(address, PATH))[0] == 404
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve, build_app(tmp_path, handins=HandinSettings()),
                                   "127.0.0.1", 0)
        address = ("127.0.0.1", int(urls[0].rsplit(":", 1)[1]))
        status, page = await get(address, "/")
        assert f'href="{PATH.lstrip("/")}"'.encode() in page
        status, form = await get(address, PATH)
        assert status == 200 and b"<form" in form
        nursery.cancel_scope.cancel()


def a_run(run: Path) -> None:
    """A tournament's folder with every private part a teacher's run has."""
    tournament(run)
    (run / "tournament.sqlite").write_text("store")
    (run / "tournament.sqlite-wal").write_text("store")
    (run / "handins" / "alice" / "11").mkdir(parents=True)
    (run / "handins" / "tokens.json").write_text('{"secret": 1}')
    (run / "handins" / "alice" / "11" / "x.py").write_text("secret upload")
    (run / "handins" / "alice" / "current.json").write_text("{}")
    (run / "programs" / "0123abcd").mkdir(parents=True)
    (run / "programs" / "0123abcd" / "bot.py").write_text("secret program")
    (run / ".git").mkdir()
    (run / ".git" / "config").write_text("secret dotfile")
    (run / ".env").write_text("secret dotfile")


PRIVATE = ("handins/tokens.json", "handins/alice/11/x.py", "handins/alice/current.json",
           "handins/", "handins/alice/", "programs/0123abcd/bot.py", "programs/",
           "tournament.sqlite", "tournament.sqlite-wal", ".git/config", ".env",
           "out.txt", "tokens.json", "handins-link/tokens.json", "up/secret.txt")


async def test_private_parts_are_hidden_at_every_depth_of_a_folder_of_runs(
        tmp_path: Path) -> None:
    """``server serve PARENT`` of several runs (and a folder of them): each run's
    tokens, uploads, programs, store, dotfiles and links out are 404, at any depth."""
    parent = tmp_path / "parent"
    (tmp_path / "secret.txt").write_text("secret outside")
    runs = [parent / "class", parent / "term" / "class2"]
    for run in runs:
        a_run(run)
        (run / "out.txt").symlink_to(tmp_path / "secret.txt")
        (run / "tokens.json").symlink_to(run / "handins" / "tokens.json")
        (run / "handins-link").symlink_to(run / "handins")
        (run / "up").symlink_to(tmp_path)
    async with served(parent) as address:
        assert (await get(address, "/class/tournament.html"))[0] == 200
        assert (await get(address, "/term/class2/tournament.html"))[0] == 200
        for prefix in ("/class/", "/term/class2/"):
            for rel in PRIVATE:
                status, body = await get(address, prefix + rel)
                assert status == 404, prefix + rel
                assert b"secret" not in body and b"store" not in body
            for api in ("/api/standings", "/api/tables", "/api/events"):
                status, _ = await get(address, f"{api}?dir={prefix[1:]}handins")
                assert status == 404, api


def sealed_run(run: Path) -> dict[str, Path]:
    """A tournament in round 2: r01-t01 finished and free, r02-t01 finished but sealed
    (sealed.json lists it: r02-t02 plays its deals still), r02-t02 in play."""
    files: dict[str, Path] = {}
    for name, state in (("r01-t01", "done"), ("r02-t01", "done"), ("r02-t02", "play")):
        folder = run / "matches" / name
        append(folder / "live.jsonl", table(name), start(1))
        if state == "done":
            append(folder / "live.jsonl", end(1, [8, -8, 0, 0],
                                              page=f"matches/{name}-hands/001.html"), done())
        for rel, text in (("001-00000001/game.log", "W1 W1 W1 every tile"),
                          ("001-00000001/events.jsonl", "the wall"),
                          ("match.json", "{}"), ("report.html", "every tile")):
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            (folder / rel).write_text(text)
            files[f"{name}/{rel}"] = folder / rel
        for rel in (f"{name}.html", f"{name}-hands/001.html"):
            (run / "matches" / rel).parent.mkdir(parents=True, exist_ok=True)
            (run / "matches" / rel).write_text("every tile")
            files[rel] = run / "matches" / rel
    standings_json(run, {"alice": 8, "bob": -8})
    (run / "sealed.json").write_text(json.dumps({"tables": ["r02-t01", "r02-t02"]}))
    return files


async def test_a_sealed_table_hands_out_no_file_and_its_ends_tell_only_scores(
        tmp_path: Path) -> None:
    """Listed in sealed.json or in play: every file of the table is 403, its pages
    included, at every depth; its live ``end`` records keep their scores only; once
    unsealed, all is shown."""
    parent = tmp_path / "parent"
    run = parent / "term" / "class"
    files = sealed_run(run)
    async with served(parent) as address:
        for rel in files:
            status, body = await get(address, f"/term/class/matches/{rel}")
            if rel.startswith("r01-t01"):
                assert status == 200, rel
            else:
                assert (status, b"tile" in body, b"wall" in body) == (403, False, False), rel
        async with events(address, "?dir=term/class") as page:
            name, snapshot = await page.next()
            assert name == "snapshot"
            shown = {f["key"]: f["hands"] for f in snapshot["feeds"]}
            assert shown["matches/r01-t01"][0]["text"] == "carol wins on bob's discard"
            assert shown["matches/r02-t01"] == [
                {"n": 1, "title": "Hand 1 of 2", "seats": table()["players"], "result": "ron",
                 "text": None, "scores": [8, -8, 0, 0], "page": None}]
            append(run / "matches" / "r02-t02" / "live.jsonl",
                   end(1, [0, 0, 6, -6], page="matches/r02-t02-hands/001.html"))
            relayed = await page.until("record", "end")
            assert relayed == {"table": "matches/r02-t02", "type": "end", "n": 1,
                               "result": "ron", "scores": [0, 0, 6, -6], "sealed": True}
            tables = await get_json(address, "/api/tables?dir=term/class")
            assert "W1" not in json.dumps(tables) and "wins on" not in json.dumps(tables)
            # every table has played the deals: all is shown
            append(run / "matches" / "r02-t02" / "live.jsonl", done())
            (run / "sealed.json").write_text(json.dumps({"tables": []}))
            later = await page.until("snapshot")
            shown = {f["key"]: f["hands"] for f in later["feeds"]}
            assert shown["matches/r02-t02"][0]["page"] == "matches/r02-t02-hands/001.html"
            assert shown["matches/r02-t01"][0]["text"] == "carol wins on bob's discard"
        for rel in files:
            assert (await get(address, f"/term/class/matches/{rel}"))[0] == 200, rel


async def test_a_sealed_json_that_cannot_be_read_seals_every_table(tmp_path: Path) -> None:
    files = sealed_run(tmp_path)
    (tmp_path / "sealed.json").write_text('{"tables": ')
    async with served(tmp_path) as address:
        for rel in files:
            assert (await get(address, f"/matches/{rel}"))[0] == 403, rel
        assert (await get(address, "/standings.json"))[0] == 200


async def test_a_sealed_tables_faults_show_nothing_the_bot_wrote(tmp_path: Path) -> None:
    """A bot could print its hand on stderr, or as a malformed line its cause quotes: of
    a sealed table a fault tells who, when and its kind; once unsealed, all of it."""
    sealed_run(tmp_path)
    leak = {"type": "fault", "n": 1, "seat": 2, "name": "carol",
            "cause": "malformed: unknown keyword 'W1W2W3'", "stderr": "my hand: W1 W2 W3",
            "stderr_file": "001-00000001/seat2.stderr"}
    append(tmp_path / "matches" / "r02-t01" / "live.jsonl", leak)
    async with served(tmp_path) as address, events(address) as page:
        _, snapshot = await page.next()
        assert "W1" not in json.dumps(snapshot["faults"])
        assert [f["cause"] for f in snapshot["faults"]] == ["malformed"]
        append(tmp_path / "matches" / "r02-t02" / "live.jsonl", {**leak, "seat": 3})
        relayed = await page.until("record", "fault")
        assert "W1" not in json.dumps(relayed) and relayed["row"]["sealed"] is True
        append(tmp_path / "matches" / "r02-t02" / "live.jsonl", done())
        (tmp_path / "sealed.json").write_text(json.dumps({"tables": []}))
        later = await page.until("snapshot")
        assert [f["stderr"] for f in later["faults"]] == ["my hand: W1 W2 W3"] * 2


async def test_an_event_is_encoded_once_for_every_page(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty pages watching: a new record is turned into bytes once, not once a page
    (the cost of a viewer is a send, never JSON work of its own)."""
    feed = tournament(tmp_path)
    calls: list[str] = []
    real = app_module.sse

    def counted(name: str, data: Any) -> bytes:
        calls.append(name)
        return real(name, data)

    monkeypatch.setattr(app_module, "sse", counted)
    async with served(tmp_path) as address, AsyncExitStack() as stack:
        pages = [await stack.enter_async_context(events(address)) for _ in range(20)]
        for page in pages:
            assert (await page.next())[0] == "snapshot"
        assert calls.count("snapshot") <= 2, "one snapshot for all (a poll between: two)"
        calls.clear()
        append(feed, step(1, 1, ["W2"]))
        for page in pages:
            assert (await page.until("record", "step"))["picture"]["last"]["tile"] == "W2"
        assert calls == ["record"]


async def test_pages_past_the_cap_are_refused_until_one_leaves(tmp_path: Path) -> None:
    tournament(tmp_path)
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve, build_app(tmp_path, max_viewers=3), "127.0.0.1", 0)
        address = ("127.0.0.1", int(urls[0].rsplit(":", 1)[1]))
        async with AsyncExitStack() as stack:
            for _ in range(3):
                await stack.enter_async_context(events(address))
            status, body = await get(address, "/api/events")
            assert status == 503 and b"too many pages" in body
        for _ in range(200):  # the server sees the pages go
            if await events_status(address) == 200:
                break
            await trio.sleep(0.05)
        else:
            raise AssertionError("a page that left still counts")
        nursery.cancel_scope.cancel()


async def events_status(address: tuple[str, int]) -> int:
    stream = await trio.open_tcp_stream(*address)
    async with stream:
        await stream.send_all(b"GET /api/events HTTP/1.0\r\nHost: x\r\n\r\n")
        data = b""
        with trio.fail_after(10):
            while b"\r\n" not in data:
                data += await stream.receive_some()
    return int(data.split()[1])
