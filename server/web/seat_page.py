"""A person's seat page: the table as their seat sees it, played by clicking.

``open_person_seats`` serves, for the match that opens it, one page per ``web:NAME``
seat (``server.bots.person``): ``/seat/NAME?token=TOKEN``, the link printed at the
start. The page asks ``/api/seat/NAME`` for the seat's state (long polling: the
request waits until the state changes) and posts the person's clicks to
``/api/seat/NAME/answer``; both need the seat's token, checked in constant time,
and both answer an unknown name exactly as a wrong token (403). The state is the
ruleset's ``SeatBoard`` picture: the seat's own tiles and what every seat has shown,
never another seat's concealed tiles or the wall.

This server runs in the match's own event loop (it must hand the clicks to the
table); its requests are few and short (one waiting request per open page), so
the bots' clocks do not feel it. ``--serve``'s view of the folder stays a child
process of its own.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import trio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from server.bots.person import BoardFactory, PersonOptions, PersonSeats, links
from server.bots.seats import Launcher
from server.output.say import err_console
from server.output.tiles import tiles_js
from server.web.serving import parse_bind, serve

POLL_WAIT = 20.0  # seconds a state request waits for a change before answering anyway
LINGER = 1.5  # seconds the pages are served after the match, to show that it ended
MAX_BODY = 4096  # bytes of an answer's request body
DENIED = {"error": "no such seat, or a wrong token"}


def seat_app(seats: PersonSeats) -> Starlette:
    async def page(request: Request) -> Response:
        return HTMLResponse(PAGE.replace("__TILES__", tiles_js(height=60)),
                            headers={"Cache-Control": "no-store",
                                     "Referrer-Policy": "no-referrer"})

    async def state(request: Request) -> Response:
        seat = seats.find(request.path_params["name"], request.query_params.get("token", ""))
        if seat is None:
            return JSONResponse(DENIED, status_code=403)
        after = request.query_params.get("after", "")
        if after.isdigit():
            with trio.move_on_after(POLL_WAIT):
                await seat.changed_since(int(after))
        return JSONResponse(seat.state(), headers={"Cache-Control": "no-store"})

    async def answer(request: Request) -> Response:
        body = await request.body()
        try:
            data = json.loads(body[:MAX_BODY]) if len(body) <= MAX_BODY else None
        except (ValueError, UnicodeDecodeError):
            data = None
        if not isinstance(data, dict) or not isinstance(data.get("answer"), str) \
                or not isinstance(data.get("token", ""), str):
            return JSONResponse({"error": "send JSON: token, answer, version"},
                                status_code=400)
        seat = seats.find(request.path_params["name"], data.get("token", ""))
        if seat is None:
            return JSONResponse(DENIED, status_code=403)
        version = data.get("version")
        refused = seat.answer(data["answer"], version if isinstance(version, int) else None)
        if refused is not None:
            return JSONResponse({"refused": refused}, status_code=409)
        return JSONResponse({"ok": True, "version": seat.version})

    async def no_icon(request: Request) -> Response:
        return Response(status_code=204)

    return Starlette(routes=[
        Route("/favicon.ico", no_icon),
        Route("/seat/{name}", page),
        Route("/api/seat/{name}", state),
        Route("/api/seat/{name}/answer", answer, methods=["POST"]),
    ])


@asynccontextmanager
async def open_person_seats(options: PersonOptions, board: BoardFactory,
                            fallback: Launcher | None = None
                            ) -> AsyncIterator[tuple[PersonSeats, str]]:
    """The person seats of a match and their pages, served while the block runs; the
    launcher and the base URL. A bind that cannot be served is an InputError."""
    seats = PersonSeats(options, board, fallback)
    async with serve_person_seats(seats) as base:
        yield seats, base


@asynccontextmanager
async def serve_person_seats(seats: PersonSeats) -> AsyncIterator[str]:
    """The pages of ``seats`` served while the block runs (on ``seats.options.bind``);
    the base URL. At the end every page is told that the match is over."""
    host, port = parse_bind(seats.options.bind, option="--seat-bind")
    async with trio.open_nursery() as nursery:
        urls = await nursery.start(serve, seat_app(seats), host, port)
        base = next((u for u in urls if u.startswith("http")), f"http://{host}:{port}")
        try:
            yield base
        finally:
            seats.finish()
            with trio.CancelScope(shield=True):
                await trio.sleep(LINGER)
            nursery.cancel_scope.cancel()


@asynccontextmanager
async def person_pages(seats: PersonSeats, unit: str = "hand") -> AsyncIterator[None]:
    """``serve_person_seats`` with each link printed (stdout) and a word on the console:
    what a match with person seats runs around its games (``TurnMatch.around``)."""
    async with serve_person_seats(seats) as base:
        for name, link in links(base, seats.options):
            print(f"web:{name} plays at {link}", flush=True)
        err_console().print("open the link in a browser (each person their own): the first "
                            f"{unit} starts when every page is open; "
                            f"{seats.options.clock:g} s a move", markup=False)
        yield


PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Your seat</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #1f5c3f; color: #f4f1e8; }
header { display: flex; gap: 24px; align-items: baseline; padding: 8px 16px;
         background: #123a28; font-size: 16px; }
header b { font-size: 20px; }
#clock { margin-left: auto; font-size: 22px; font-variant-numeric: tabular-nums; }
#clock.low { color: #ffb347; }
#note { padding: 6px 16px; min-height: 22px; background: #2c704f; }
#note.warn { background: #8a3b12; }
main { display: grid; grid-template-columns: 1fr 260px; gap: 12px; padding: 10px 16px; }
.others { display: grid; grid-template-columns: repeat(3, 1fr); gap: 10px; }
.seat { background: #174a33; border-radius: 8px; padding: 8px; min-height: 120px; }
.seat.turn { outline: 3px solid #ffd866; }
.seat h3 { margin: 0 0 4px; font-size: 15px; font-weight: 600; }
.row { display: flex; flex-wrap: wrap; gap: 2px; align-items: flex-end; min-height: 8px; }
.small svg { width: 22px; height: 30px; }
.tiny svg { width: 18px; height: 24px; }
.meld { margin-right: 8px; display: inline-flex; gap: 1px; }
.mine { margin-top: 12px; background: #174a33; border-radius: 8px; padding: 10px; }
.hand { display: flex; gap: 4px; align-items: flex-end; margin-top: 10px; }
.hand button { padding: 0; border: 0; background: none; cursor: default; border-radius: 5px; }
.hand button svg { width: 45px; height: 60px; display: block; }
.hand button.can { cursor: pointer; }
.hand button.can:hover { transform: translateY(-8px); }
.hand .drawn { margin-left: 18px; }
.last { outline: 3px solid #ffd866; border-radius: 3px; }
#choices { margin-top: 12px; display: flex; gap: 10px; flex-wrap: wrap; min-height: 44px; }
#choices button { font-size: 18px; padding: 8px 18px; border-radius: 6px; border: 0;
                  background: #f4f1e8; color: #123a28; cursor: pointer; }
#choices button[data-kind=win], #choices button[data-kind=rob] { background: #ffd866; }
#choices button[data-kind=pass] { background: #c9c3b3; }
aside { background: #174a33; border-radius: 8px; padding: 8px; font-size: 14px; }
aside h3 { margin: 0 0 6px; font-size: 15px; }
aside ol { margin: 0; padding-left: 18px; }
#refused { color: #ffb347; min-height: 20px; margin-top: 6px; }
#result { font-size: 20px; margin-top: 8px; color: #ffd866; }
</style></head>
<body>
<header><b id="who">Your seat</b><span id="hand"></span><span id="wall"></span>
<span id="turn"></span><span id="clock"></span></header>
<div id="note"></div>
<main><section>
<div class="others" id="others"></div>
<div class="mine" id="mine"><h3 id="me">You</h3>
<div class="row small" id="my-discards"></div><div class="row small" id="my-melds"></div>
<div class="hand" id="hand-tiles"></div>
<div id="choices"></div><div id="refused"></div><div id="result"></div></div>
</section>
<aside><h3>What happened</h3><ol id="events"></ol></aside></main>
<script>
const FACES = __TILES__;
const params = new URLSearchParams(location.search);
const TOKEN = params.get("token") || "";
const NAME = decodeURIComponent(location.pathname.split("/").pop());
const API = "/api/seat/" + encodeURIComponent(NAME);
let state = null, deadline = null;

function face(code) { return FACES[code] || FACES["??"]; }
function el(tag, cls, html) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (html !== undefined) e.innerHTML = html;
  return e;
}
function tilesRow(target, codes, last) {
  target.replaceChildren(...codes.map((c, i) => {
    const s = el("span", i === codes.length - 1 && last ? "last" : "", face(c));
    s.dataset.tile = c; return s; }));
}
function melds(target, list) {
  target.replaceChildren(...list.map(m => el("span", "meld", m.map(face).join(""))));
}
function render() {
  const s = state, b = s.board;
  document.body.dataset.version = s.version;
  document.body.dataset.over = s.over ? "1" : "0";
  document.getElementById("who").textContent = s.name;
  document.getElementById("hand").textContent = s.hand ? "hand " + s.hand : "";
  const note = document.getElementById("note");
  note.textContent = s.note || (s.choices.length ? "Your move." : "");
  note.className = /did not answer|refused/.test(s.note) ? "warn" : "";
  deadline = s.time_left === null ? null : performance.now() + 1000 * s.time_left;
  tick();
  const others = document.getElementById("others");
  const handTiles = document.getElementById("hand-tiles");
  const choices = document.getElementById("choices");
  if (!b || b.seat < 0) {
    others.replaceChildren(); handTiles.replaceChildren(); choices.replaceChildren(); return;
  }
  document.getElementById("wall").textContent = "wall: " + b.wall + " tiles";
  document.getElementById("turn").textContent = b.turn === null ? "" :
    (b.turn === b.seat ? "your turn" : "seat " + b.turn + "'s turn");
  document.getElementById("me").textContent = "You (seat " + b.seat + ")" +
    (b.first === b.seat ? " · first" : "");
  const last = b.last_discard;
  others.replaceChildren(...[1, 2, 3].map(k => {
    const p = b.seats[(b.seat + k) % 4];
    const box = el("div", "seat" + (b.turn === p.seat ? " turn" : ""));
    box.dataset.seat = p.seat;
    box.append(el("h3", "", "seat " + p.seat + (k === 1 ? " (after you)" : k === 3 ?
      " (before you)" : " (across)") + " · " + p.concealed + " tiles in hand"));
    const hidden = el("div", "row tiny concealed");
    hidden.innerHTML = face("??").repeat(p.concealed);
    const m = el("div", "row small"); melds(m, p.melds);
    const d = el("div", "row small discards");
    tilesRow(d, p.discards, last && last.seat === p.seat);
    box.append(hidden, m, d);
    return box; }));
  const mine = b.seats[b.seat];
  tilesRow(document.getElementById("my-discards"), mine.discards,
           last && last.seat === b.seat);
  melds(document.getElementById("my-melds"), mine.melds);
  const discard = new Map(s.choices.filter(c => c.kind === "discard")
                                   .map(c => [c.tile, c.answer]));
  const button = (code, cls) => {
    const t = el("button", cls + (discard.has(code) ? " can" : ""), face(code));
    t.dataset.tile = code;
    if (discard.has(code)) { t.dataset.answer = discard.get(code);
                             t.title = "discard"; t.onclick = () => send(t.dataset.answer); }
    return t; };
  const row = b.hand.map(c => button(c, "tile"));
  if (b.drawn) row.push(button(b.drawn, "tile drawn"));
  handTiles.replaceChildren(...row);
  choices.replaceChildren(...s.choices.filter(c => c.kind !== "discard").map(c => {
    const x = el("button", "choice"); x.textContent = c.label;
    x.dataset.kind = c.kind; x.dataset.answer = c.answer;
    x.onclick = () => send(c.answer); return x; }));
  document.getElementById("result").textContent = b.result || "";
  document.getElementById("events").replaceChildren(...b.events.map(e => el("li", "", e)));
}
function tick() {
  const c = document.getElementById("clock");
  if (deadline === null) { c.textContent = ""; return; }
  const left = Math.max(0, (deadline - performance.now()) / 1000);
  c.textContent = left.toFixed(left < 10 ? 1 : 0) + " s left";
  c.className = left < 5 ? "low" : "";
}
async function send(answer) {
  document.getElementById("refused").textContent = "";
  const r = await fetch(API + "/answer", {method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify({token: TOKEN, answer: answer, version: state.version})});
  const data = await r.json();
  if (!r.ok) document.getElementById("refused").textContent =
    data.refused || data.error || "refused";
}
async function poll() {
  let after = "";
  for (;;) {
    let r;
    try {
      r = await fetch(API + "?token=" + encodeURIComponent(TOKEN) + "&after=" + after,
                      {cache: "no-store"});
      if (r.status === 403) { document.getElementById("note").textContent =
        "This link is not a seat's (a wrong token?)."; return; }
      state = await r.json();
    } catch (e) {
      document.getElementById("note").textContent = "The match server is gone.";
      return;
    }
    after = state.version; render();
    if (state.over) return;
  }
}
setInterval(tick, 200);
poll();
</script></body></html>
"""
