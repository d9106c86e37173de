"""The web app of ``server serve``: the live page, ``/api/*`` and the folder's files.

Routes (``?dir=PATH`` picks a tournament or match inside a folder of several):

* ``/`` and any folder's URL: the live page of a tournament or a match (standings, tables
  in play drawn move by move, faults, finished tables and hands), or the index of a folder
  of several;
* ``/api/standings``: the standings' rows as ``standings.json`` has them (per-bot
  ``stats`` included); a match's players from ``match.json`` or, while it runs, summed
  from its live feed;
* ``/api/tables``: the tables in play: title, players, hand or game in play, its latest
  picture;
* ``/api/events``: server-sent events: ``snapshot`` (all of the above and the finished
  tables) on connecting, then ``record`` (each new live-feed record; a run of pictures
  read at once sends the last) and ``standings`` (when they change);
* any other path: a file of the folder, refused (404) when the path is unsafe or private
  (at any depth) and (403) when it belongs to a sealed table: one in play, or listed in
  its run's ``sealed.json`` (``server.web.folders``); a sealed table's ``end`` records
  are relayed with their scores only.

The files are polled every ``POLL_SECONDS`` by one task (``Hub``) that pushes what changed
to every page connected, encoded once for all of them; at most ``max_viewers`` pages.
Nothing here writes a file; the hand-in routes (``server.web.handins``) are mounted only
when hand-ins are on.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import trio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

from server.seam.errors import InputError
from server.web.feeds import Watch, folder_index, folder_title
from server.web.folders import kind_of, safe_path, withheld
from server.web.handins import HandinSettings
from server.web.handins import routes as handin_routes
from server.web.page import index_page, live_page

POLL_SECONDS = 0.5  # the files polled and the pages sent what changed, twice a second
KEEP_ALIVE_SECONDS = 15.0
T = TypeVar("T")
MAX_VIEWERS = 2000  # pages on /api/events at once (each an open connection)
SLOTS = 10  # the pages' sends are spread over this many parts of a poll's interval
_SLOTS = itertools.count()
QUEUE = 256  # batches a page may fall behind by before it is dropped (it reconnects)


class Hub:
    """Every folder's ``Watch``, polled by one task; each connected page's queue.

    What a poll found is encoded once (``sse``) and the same bytes go to every page, so a
    page costs a send, never JSON work or a file read of its own; the snapshot a page gets
    on connecting is encoded once per poll that changed something. A request of the API
    reads the state of the last poll when it is fresh (``POLL_SECONDS``) instead of
    polling again."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._watches: dict[Path, Watch] = {}
        self._polled: dict[Path, float] = {}  # when each folder was last polled
        self._snapshots: dict[Path, bytes] = {}  # encoded, until the next change
        self._pages: dict[Path, set[trio.MemorySendChannel[bytes]]] = {}
        self._lock = trio.Lock()

    def viewers(self) -> int:
        return sum(len(pages) for pages in self._pages.values())

    async def _poll(self, folder: Path) -> Watch:
        # under self._lock: read the files (in a thread: a first read may be long), push
        watch = self._watches.get(folder)
        if watch is None:
            watch = self._watches[folder] = Watch(folder, self.root)
        events = await trio.to_thread.run_sync(watch.poll)
        self._polled[folder] = trio.current_time()
        if events:
            self._snapshots.pop(folder, None)
            data = b"".join(sse(name, value) for name, value in events)
            for page in list(self._pages.get(folder, ())):
                try:
                    page.send_nowait(data)
                except (trio.WouldBlock, trio.BrokenResourceError, trio.ClosedResourceError):
                    self._pages[folder].discard(page)  # too slow or gone: it reconnects
                    page.close()
        return watch

    async def _fresh(self, folder: Path) -> Watch:
        # under self._lock: the folder's watch, polled unless it was just now
        watch = self._watches.get(folder)
        polled = self._polled.get(folder)
        if watch is None or polled is None or trio.current_time() - polled > POLL_SECONDS:
            watch = await self._poll(folder)
        return watch

    async def current(self, folder: Path, view: Callable[[Watch], T]) -> T:
        """``view`` of the folder's state as its files say it now (within
        ``POLL_SECONDS``)."""
        watch = self._watches.get(folder)
        polled = self._polled.get(folder)
        if watch is not None and polled is not None and \
                trio.current_time() - polled <= POLL_SECONDS and not self._lock.locked():
            return view(watch)  # the last poll's state: no poll of its own
        async with self._lock:
            return view(await self._fresh(folder))

    async def subscribe(self, folder: Path
                        ) -> tuple[bytes, trio.MemorySendChannel[bytes],
                                   trio.MemoryReceiveChannel[bytes]]:
        """The snapshot (encoded) and the queue of every event after it."""
        send, receive = trio.open_memory_channel[bytes](QUEUE)
        async with self._lock:
            watch = await self._fresh(folder)
            snapshot = self._snapshots.get(folder)
            if snapshot is None:
                snapshot = self._snapshots[folder] = sse("snapshot", watch.snapshot())
            self._pages.setdefault(folder, set()).add(send)
            return snapshot, send, receive

    def unsubscribe(self, folder: Path, send: trio.MemorySendChannel[bytes]) -> None:
        self._pages.get(folder, set()).discard(send)
        send.close()

    async def run(self) -> None:
        """Poll the folders that have a page connected, for ever."""
        while True:
            await trio.sleep(POLL_SECONDS)
            for folder in [f for f, pages in self._pages.items() if pages]:
                async with self._lock:
                    await self._poll(folder)


def sse(name: str, data: Any) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class EventStream(Response):
    """``/api/events``: a snapshot, then the hub's events, until the page goes away."""

    media_type = "text/event-stream"

    def __init__(self, hub: Hub, folder: Path) -> None:  # no body: no Content-Length
        self.status_code = 200
        self.background = None
        self.raw_headers = [(b"content-type", b"text/event-stream; charset=utf-8"),
                            (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]
        self.hub = hub
        self.folder = folder
        self.slot = POLL_SECONDS * (next(_SLOTS) % SLOTS) / SLOTS

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        snapshot, queue, events = await self.hub.subscribe(self.folder)
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": self.raw_headers})
            await send({"type": "http.response.body", "body": snapshot, "more_body": True})
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._until_gone, receive, nursery.cancel_scope)
                while True:
                    with trio.move_on_after(KEEP_ALIVE_SECONDS) as idle:
                        try:
                            body = await events.receive()
                        except trio.EndOfChannel:  # dropped as too slow: it reconnects
                            break
                    if idle.cancelled_caught:
                        body = b": keep-alive\n\n"
                    else:
                        # Each page sends in its own slot of the poll's interval: not
                        # every page in one turn of the event loop, which would hold up
                        # every other request for as long as all those sends take.
                        await trio.sleep(self.slot)
                        more = [body]
                        while True:  # what came meanwhile goes in the same send
                            try:
                                more.append(events.receive_nowait())
                            except (trio.WouldBlock, trio.EndOfChannel):
                                break
                        body = b"".join(more)
                    await send({"type": "http.response.body", "body": body,
                                "more_body": True})
                nursery.cancel_scope.cancel()
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the connection went away while we wrote
        finally:
            self.hub.unsubscribe(self.folder, queue)

    @staticmethod
    async def _until_gone(receive: Receive, scope: trio.CancelScope) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        scope.cancel()


class StaticFile(FileResponse):
    """A file of the folder, sent without the disconnect watch starlette adds for ASGI
    servers before spec 2.4: under hypercorn's trio worker that watch outlived the file
    and held the connection open (a sending error ends it just as well)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asgi = {**scope.get("asgi", {}), "spec_version": "2.4"}
        await super().__call__({**scope, "asgi": asgi}, receive, send)


def build_app(root: Path, *, handins: HandinSettings | None = None,
              max_viewers: int = MAX_VIEWERS) -> Starlette:
    """The app serving ``root`` (a tournament's or a match's folder, or a folder of
    several), read-only unless ``handins`` (the hand-in settings) is given; at most
    ``max_viewers`` pages on ``/api/events`` at once (503 past that)."""
    root = root.resolve()
    if not root.is_dir():
        raise InputError(f"{root}: not a folder")
    hub = Hub(root)
    extra = handin_routes(root, handins) if handins is not None else []  # the only writes
    handin_path = next((r.path for r in extra if isinstance(r, Route)), None)

    def folder_of(request: Request) -> Path | None:
        target = safe_path(root, request.query_params.get("dir", ""))
        return target if target is not None and target.is_dir() else None

    def no_folder(request: Request) -> JSONResponse:
        return JSONResponse({"error": f"no such folder: {request.query_params.get('dir')!r}"},
                            status_code=404)

    async def standings(request: Request) -> Response:
        folder = folder_of(request)
        if folder is None:
            return no_folder(request)
        if kind_of(folder) == "several":
            return JSONResponse(folder_index(folder))
        return JSONResponse(await hub.current(folder, Watch.standings))

    async def tables(request: Request) -> Response:
        folder = folder_of(request)
        if folder is None:
            return no_folder(request)
        return JSONResponse({"tables": await hub.current(folder, Watch.tables_in_play)})

    async def events(request: Request) -> Response:
        folder = folder_of(request)
        if folder is None:
            return no_folder(request)
        if hub.viewers() >= max_viewers:
            return PlainTextResponse("503: too many pages are watching; try again later",
                                     status_code=503, headers={"Retry-After": "30"})
        return EventStream(hub, folder)

    async def files(request: Request) -> Response:
        rel: str = request.path_params.get("path", "")
        target = safe_path(root, rel)
        if target is None:
            return PlainTextResponse("404: no such file here", status_code=404)
        if target.is_dir():
            if rel and not rel.endswith("/"):
                return RedirectResponse(request.url.path + "/", status_code=308)
            return folder_page(target)
        if withheld(root, target):
            return sealed_answer()
        return StaticFile(target)

    def sealed_answer() -> Response:
        return PlainTextResponse("403: this table is in play, or another table has its deals "
                                 "still to play; its logs and pages are shown when every "
                                 "table has played them", status_code=403)

    def folder_page(folder: Path) -> Response:
        rel = folder.relative_to(root).as_posix()
        depth = 0 if rel == "." else len(rel.split("/"))
        name = folder.name
        kind = kind_of(folder)
        if kind == "several" or (kind == "empty" and folder != root):
            if (folder / "index.html").is_file() and kind == "empty":
                if withheld(root, folder / "index.html"):
                    return sealed_answer()
                return StaticFile(folder / "index.html")
            index = folder_index(folder)["folders"]
            if not index:
                return PlainTextResponse("404: no such page here", status_code=404)
            return HTMLResponse(index_page(name, index))
        query = "" if rel == "." else "?dir=" + quote(rel)
        handin = "../" * depth + handin_path.lstrip("/") if handin_path else None
        return HTMLResponse(live_page(folder_title(folder), "../" * depth + "api/", query, kind,
                                      handin=handin))

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(hub.run)
            yield
            nursery.cancel_scope.cancel()

    async def no_icon(request: Request) -> Response:  # the reports' pages have none
        return Response(status_code=204)

    routes: list[BaseRoute] = [
        Route("/favicon.ico", no_icon),
        Route("/api/standings", standings),
        Route("/api/tables", tables),
        Route("/api/events", events),
    ]
    routes += extra
    routes.append(Route("/{path:path}", files, methods=["GET", "HEAD"]))
    return Starlette(routes=routes, lifespan=lifespan)
