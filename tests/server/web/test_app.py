"""The web app over real HTTP on loopback (hypercorn on port 0): the API, the events
pushed to a page, the folder's files and what is refused (``server.web.app``)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio

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
        assert got["row"]["cause"] == "closed-output: exit status 1"
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
