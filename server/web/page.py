"""The live page (HTML, CSS and its script in one response, nothing from the network)
and the index of a folder of several.

The script connects to ``/api/events`` (server-sent events): a ``snapshot`` first, then
each new record of the live feeds and each change of the standings. It draws the
standings, each table in play (its picture, tile by tile, with ``tile_faces_js``'s
faces), the feed of faults and the finished tables and hands. When the server goes away
it keeps the last data on screen and says so ("the tournament is over" when the last
standings said so, else "connection lost"); the browser's EventSource tries again.
"""

from __future__ import annotations

import html
import json
from typing import Any

# Botzone's notation (the live feed's): suits W B T 1-9, winds F1-4, dragons J1-3,
# flowers H1-8, and ?? a tile face down.
TILE_CODES = tuple([f"{s}{n}" for s in "WBT" for n in range(1, 10)]
                   + [f"F{n}" for n in range(1, 5)] + [f"J{n}" for n in range(1, 4)]
                   + [f"H{n}" for n in range(1, 9)] + ["??"])
_FALLBACK_COLOURS = {"W": "#b22", "B": "#135", "T": "#172", "F": "#333", "J": "#a40",
                     "H": "#639", "?": "#777"}


def _fallback_faces() -> str:
    """Tile faces that show the codes, for a tree without ``server.output.tiles``."""
    faces = {}
    for code in TILE_CODES:
        colour = _FALLBACK_COLOURS[code[0]]
        back = "#8aa" if code == "??" else "#fffdf4"
        label = "" if code == "??" else code
        faces[code] = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 40" '
                       f'width="30" height="40"><rect x="1" y="1" width="28" height="38" '
                       f'rx="4" fill="{back}" stroke="#888"/><text x="15" y="26" '
                       f'font-size="13" font-family="sans-serif" text-anchor="middle" '
                       f'fill="{colour}">{label}</text></svg>')
    return json.dumps(faces)


def tile_faces_js() -> str:
    """A JavaScript object literal mapping each tile code to its SVG face: the tiles
    module's (``server.output.tiles.tiles_js``, no font needed) where this tree has it."""
    try:
        from server.output.tiles import tiles_js  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return _fallback_faces()
    faces: str = tiles_js()
    return faces


STYLE = """
* { box-sizing: border-box; }
body { font-family: system-ui, sans-serif; margin: 0; background: #f6f5ef; color: #222; }
header { display: flex; gap: 1em; align-items: baseline; padding: .5em 1em;
         background: #2e4053; color: #fff; }
header h1 { font-size: 1.25em; margin: 0; } header a { color: #d6eaf8; }
#status { margin-left: auto; font-size: .95em; }
#status.lost { color: #ffd27f; font-weight: 600; } #status.over { color: #abebc6; }
main { padding: .5em 1em; max-width: 1280px; }
h2 { font-size: 1.05em; margin: .8em 0 .3em; }
.top { display: grid; grid-template-columns: minmax(0, max-content) minmax(16em, 1fr); gap: 1em; }
#standings { overflow-x: auto; }
#standings th { white-space: normal; vertical-align: bottom; }  /* "bot errors" in two lines */
table { border-collapse: collapse; background: #fff; font-size: .9em; }
td, th { border: 1px solid #ccc; padding: .15em .35em; white-space: nowrap; }
th { background: #e8e4d4; font-weight: 600; } td.num, th.num { text-align: right; }
tr.row { cursor: pointer; } tr.row:hover td { background: #fbf7e6; }
tr.more td { background: #fafafa; white-space: normal; font-size: .9em; }
td.bot { font-weight: 600; max-width: 12em; overflow: hidden; text-overflow: ellipsis; }
#faults { max-height: 22em; overflow-y: auto; background: #fff; border: 1px solid #ccc;
          padding: .2em .5em; font-size: .9em; }
.fault { border-bottom: 1px solid #eee; padding: .25em 0; }
.fault .cause { color: #a93226; font-weight: 600; }
.fault code { font-size: .85em; color: #444; word-break: break-all; }
.fault pre { margin: .2em 0; max-height: 8em; overflow: auto; background: #f4f4f4;
             font-size: .85em; white-space: pre-wrap; }
#tables { display: grid; grid-template-columns: repeat(auto-fill, minmax(600px, 1fr));
          gap: .8em; }
.card { background: #fff; border: 1px solid #bbb; border-radius: 6px; padding: .4em .6em; }
.card h3 { font-size: 1em; margin: 0 0 .3em; display: flex; gap: .6em; }
.card h3 .n { color: #555; font-weight: normal; }
.seat { border-left: 4px solid transparent; padding: .15em .4em; margin: .15em 0; }
.seat.turn { border-left-color: #c0392b; background: #fdf2f0; }
.who { display: flex; gap: .5em; align-items: baseline; font-size: .9em; }
.who .name { font-weight: 600; } .who .wind { color: #555; min-width: 1.2em; }
.tiles { display: flex; flex-wrap: wrap; gap: 2px 6px; align-items: flex-end;
         min-height: 30px; }
.grp { display: inline-flex; gap: 1px; }
.meld { background: #e8e4d4; border-radius: 3px; padding: 1px; }
.t { display: inline-block; line-height: 0; }
.t svg { height: 30px; width: auto; }
.disc .t svg { height: 25px; }
.t.last { outline: 2px solid #c0392b; border-radius: 3px; }
.lastline { font-size: .9em; color: #333; margin-top: .2em; }
.muted { color: #777; font-size: .9em; }
.times { font-weight: bold; color: #b22; }
details { margin: .2em 0; } summary { cursor: pointer; }
ul.hands { margin: .2em 0 .4em; padding-left: 1.3em; font-size: .9em; }
"""

SCRIPT = r"""
const TILES = __TILES__;
const API = __API__;
const KIND = __KIND__;
const QUERY = __QUERY__;
const state = {kind: KIND, standings: {}, tables: {}, feeds: {}, faults: []};
let open = false, dirty = false;
const $ = id => document.getElementById(id);
const shown = {};  // each section's markup: a section is redrawn only when it changed
function setHTML(id, markup) {
  if (shown[id] === markup) return false;
  shown[id] = markup;
  $(id).innerHTML = markup;
  return true;
}
const esc = s => String(s ?? "").replace(/[&<>"']/g,
  c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const link = (href, text) => href ? `<a href="${esc(href)}">${esc(text)}</a>` : esc(text);

function tile(code, last) {
  const face = TILES[code] || TILES["??"] || esc(code);
  return `<span class="t${last ? " last" : ""}" title="${esc(code)}">${face}</span>`;
}
const tiles = (codes, lastTile) => (codes || []).map(
  (c, i, a) => tile(c, lastTile && i === a.length - 1 && c === lastTile)).join("");

function drawPicture(p) {
  if (!p || !p.seats) return `<p class="muted">waiting for the first deal…</p>`;
  const last = p.last || {};
  const rows = p.seats.map((s, i) => {
    const face = Array(Math.max(0, s.concealed || 0)).fill("??");
    const melds = (s.melds || []).map(m => `<span class="grp meld" title="${esc(m.kind)}">`
      + tiles(m.tiles) + `</span>`).join("");
    const flowers = (s.flowers || []).length ? `<span class="grp">${tiles(s.flowers)}</span>` : "";
    const lastDiscard = last.seat === i ? last.tile : null;
    return `<div class="seat${p.turn === i ? " turn" : ""}">`
      + `<div class="who"><span class="wind">${esc(s.wind || "")}</span>`
      + `<span class="name">${esc(s.name)}</span>`
      + (s.score !== null && s.score !== undefined ? `<span>${esc(s.score)}</span>` : "")
      + `<span class="muted">${esc(s.concealed)} in hand</span></div>`
      + `<div class="tiles"><span class="grp">${tiles(face)}</span>${melds}${flowers}</div>`
      + `<div class="tiles disc">${tiles(s.discards, lastDiscard)}</div></div>`;
  }).join("");
  const wall = p.wall !== null && p.wall !== undefined ? ` · wall ${esc(p.wall)}` : "";
  const wind = p.wind ? ` · ${esc(p.wind)} round` : "";
  return rows + `<div class="lastline">${esc(last.text || "")}`
    + `<span class="muted">${wall}${wind}</span></div>`;
}

const HEAD = {rank: "#", bot: "bot", tables: "tables", hands: "hands", games: "games",
  points: "points", per_hand: "/hand", rank_points: "rank pts", score: "score",
  rating: "rating", wins: "wins", faults: "faults", fines: "fines", penalties: "penalties",
  bot_errors: "bot errors"};
const MAIN = ["rank", "bot", "tables", "hands", "games", "rank_points", "points", "score",
  "per_hand", "rating", "wins", "fines", "faults", "bot_errors"];
// Shown only where some bot has one: a turn-based ruleset has no fines, and most bots'
// frameworks never answer for their code.
const WHEN_ANY = new Set(["fines", "bot_errors"]);
const STATS = [["win %", s => s.games ? (100 * s.wins / s.games).toFixed(0) : ""],
  ["deal-ins", s => s.dealt_in], ["mean fan", s => s.mean_fan === null ? "–" : s.mean_fan],
  ["answer ms", s => s.answer_ms ? s.answer_ms.median : "–"],
  ["peak MB", s => s.peak_memory_mb ?? "–"]];
const fmt = v => typeof v === "number" && !Number.isInteger(v) ? v.toFixed(2) : (v ?? "");

// A word where the rating orders two bots the other way from the ranking, and why
// (server.tournament.report.rating_note says the same on the report).
function ratingNote(rows) {
  for (let i = 0; i < rows.length; i++)
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i], b = rows[j];
      if (typeof a.rating === "number" && typeof b.rating === "number"
          && b.rank > a.rank && b.rating > a.rating)
        return `<p class="muted">${esc(b.bot)} has the higher rating though ${esc(a.bot)} `
          + `ranks above it: the ranking sums points, while the rating (OpenSkill) counts `
          + `only each table's finishing order, and less for a bot seen at fewer tables.</p>`;
    }
  return "";
}

function drawStandings() {
  const st = state.standings || {};
  const rows = st.standings || [];
  if (!rows.length) { setHTML("standings", `<p class="muted">No table has finished yet.</p>`); return; }
  const cols = MAIN.filter(c => rows.some(r => r[c] !== undefined && r[c] !== null
    && (!WHEN_ANY.has(c) || r[c] !== 0)));
  const stats = rows.some(r => r.stats) ? STATS : [];
  let h = "<table><tr>" + cols.map(c => `<th class="${c === "bot" ? "" : "num"}">${esc(HEAD[c] || c)}</th>`).join("")
    + stats.map(s => `<th class="num">${esc(s[0])}</th>`).join("") + "</tr>";
  rows.forEach((r, i) => {
    h += `<tr class="row" data-i="${i}">` + cols.map(c => c === "bot"
      ? `<td class="bot" title="${esc(r.bot)}">${esc(r.bot)}</td>` : `<td class="num">${esc(fmt(r[c]))}</td>`).join("")
      + stats.map(s => `<td class="num">${r.stats ? esc(fmt(s[1](r.stats))) : ""}</td>`).join("") + "</tr>";
    if (openRows.has(r.bot)) h += `<tr class="more"><td colspan="${cols.length + stats.length}">${details(r)}</td></tr>`;
  });
  h += "</table>" + ratingNote(rows);
  if (!setHTML("standings", h)) return;
  $("standings").querySelectorAll("tr.row").forEach(tr => tr.onclick = () => {
    const bot = rows[+tr.dataset.i].bot;
    openRows.has(bot) ? openRows.delete(bot) : openRows.add(bot);
    drawStandings();
  });
}
const openRows = new Set();
function details(r) {
  const skip = new Set([...MAIN, "stats"]);
  const rest = Object.entries(r).filter(([k, v]) => !skip.has(k) && v !== null && typeof v !== "object");
  const s = r.stats || {};
  const parts = rest.map(([k, v]) => `${esc(HEAD[k] || k.replace(/_/g, " "))}: ${esc(fmt(v))}`);
  for (const [k, v] of Object.entries(s)) {
    const text = v && typeof v === "object" ? Object.entries(v).map(([a, b]) => `${a} ${fmt(b)}`).join(", ") : fmt(v);
    parts.push(`${esc(k.replace(/_/g, " "))}: ${esc(text || "–")}`);
  }
  return parts.join(" · ");
}

// A table whose hands are over but whose result the standings do not hold yet (the
// server is storing it and writing the reports): still shown, as finishing.
function finishing(f) {
  if (!f.done) return false;
  const st = state.standings || {};
  if (st.kind !== "tournament") return !st.over;
  return !(st.reports || []).some(r => r.report && f.key === r.report.replace(/\.html$/, ""));
}
function drawTables() {
  const playing = Object.values(state.feeds).filter(f => f.in_play || finishing(f));
  if (!playing.length) { setHTML("tables", `<p class="muted">No table is in play.</p>`); return; }
  setHTML("tables", playing.map(f => `<div class="card" data-key="${esc(f.key)}">`
    + `<h3>${link(f.key ? f.key + "/" : "", f.title)}<span class="n">${esc(f.in_play ? f.hand_title || "" : "finishing")}</span>`
    + `<span class="n">${esc((f.players || []).join(", "))}</span></h3>`
    + (f.in_play ? drawPicture(f.picture)
       : `<p class="muted">Its last ${esc(f.unit || "hand")} is over: its result is being stored and the standings written.</p>`)
    + `</div>`).join(""));
}

const lastLine = text => (text || "").trim().split("\n").pop().slice(-160);
const unitOf = key => ((state.feeds[key] || {}).unit || "hand");
const at = f => `${f.table_title}, ${unitOf(f.table)} ${f.n}`;
// One bot's faults of one kind are one entry, its latest, with how often and since when:
// a bot that crashes in every hand is one line, not one per hand. The kind is the cause
// with its numbers left out (a time, an exit status, a step).
function faultGroups() {
  const groups = new Map();
  for (const f of state.faults) {
    const key = `${f.name}\u0000${String(f.cause || "").replace(/[0-9]+/g, "#")}`;
    const g = groups.get(key) || {first: f, times: 0};
    g.times += 1; g.last = f;
    groups.delete(key); groups.set(key, g);  // the latest last
  }
  return [...groups.values()].reverse().slice(0, 60);
}
function drawFaults() {
  const list = faultGroups();
  setHTML("faults", list.length ? list.map(({first, last: f, times}) => `<div class="fault">`
    + `<b>${esc(f.name)}</b> `
    + (times > 1 ? `<span class="times">${esc(times)} times</span> <span class="muted">first ${esc(at(first))}, last ${esc(at(f))}</span>`
       : `<span class="muted">${esc(at(f))}, seat ${esc(f.seat)}</span>`) + `<br>`
    + `<span class="cause">${esc(f.cause)}</span>`
    + (lastLine(f.stderr) ? `<br><code>${esc(lastLine(f.stderr))}</code>` : "")
    + (f.sealed ? `<br><span class="muted">what it wrote is shown once every table with this deal has played it</span>` : "")
    + (f.stderr ? `<details><summary>stderr</summary><pre>${esc(f.stderr)}</pre>`
       + (f.stderr_file ? link(f.stderr_file, "whole stderr") : "") + `</details>` : "")
    + `</div>`).join("") : `<p class="muted">No fault so far.</p>`);
}

function handList(f) {
  return `<ul class="hands">` + (f.hands || []).map(h => `<li>${link(h.page, h.title)}: ${esc(h.text || h.result || "")}</li>`).join("") + `</ul>`;
}
function drawFinished() {
  const st = state.standings || {};
  let h = "";
  if (st.kind === "tournament") {
    if ((st.standings || []).length)  // the report is written with the standings
      h += `<p>${link("tournament.html", "The tournament's report")} · ${link("standings.csv", "standings.csv")}</p>`;
    for (const r of (st.reports || []).filter(r => r.report)) {
      const key = `matches/${r.report.replace(/^matches\//, "").replace(/\.html$/, "")}`;
      const feed = state.feeds[key];
      h += `<details><summary>${link(r.report, `Round ${r.round}, table ${r.table}`)}`
        + ` <span class="muted">${esc((r.players || []).join(", "))}</span></summary>`
        + (feed ? handList(feed) : "") + `</details>`;
    }
  } else {
    if (st.report) h += `<p>${link(st.report, "The match's report")}</p>`;
    for (const f of Object.values(state.feeds)) {
      if (!(f.hands || []).length) continue;
      h += `<h3>${esc(f.title)}</h3>` + handList(f);
    }
  }
  setHTML("finished", h || `<p class="muted">Nothing has finished yet.</p>`);
}

function drawStatus() {
  const el = $("status");
  const over = state.standings && state.standings.over;
  const noun = state.kind === "match" ? "match" : "tournament";
  if (open) { el.className = over ? "over" : ""; el.textContent = over ? `The ${noun} is over.` : "live"; }
  else if (over) { el.className = "over"; el.textContent = `The ${noun} is over (the server has stopped): the final standings.`; }
  else { el.className = "lost"; el.textContent = "Connection lost: showing the last data, trying again…"; }
}

function draw() {
  if (dirty) return;
  dirty = true;
  requestAnimationFrame(() => { dirty = false; drawStandings(); drawTables(); drawFaults(); drawFinished(); drawStatus(); });
}

function feedOf(key) {
  return state.feeds[key] || (state.feeds[key] = {key, title: key || "the match", hands: [], starts: {}, in_play: true});
}
function onRecord(r) {
  const f = feedOf(r.table);
  f.starts = f.starts || {};
  switch (r.type) {
    case "table": Object.assign(f, {title: r.title, ruleset: r.ruleset, unit: r.unit, players: r.players,
      planned: r.planned, in_play: true, done: false, hands: [], starts: {}}); break;
    case "start": Object.assign(f, {n: r.n, hand_title: r.title, seats: r.seats, picture: r.picture, in_play: true});
      f.starts[r.n] = r; break;
    case "step": f.picture = r.picture; break;
    case "fault": state.faults.push(r.row); break;
    case "end": f.hands = (f.hands || []).filter(h => h.n !== r.n);
      f.hands.push({n: r.n, title: (f.starts[r.n] || {}).title || f.hand_title || `#${r.n}`,
        seats: (f.starts[r.n] || {}).seats, result: r.result, text: r.text, scores: r.scores, page: r.page}); break;
    case "done": f.done = true; f.in_play = false; f.n = null; break;
  }
}

function connect() {
  const source = new EventSource(API + "events" + QUERY);
  source.onopen = () => { open = true; draw(); };
  source.onerror = () => { open = false; draw(); };
  source.addEventListener("snapshot", e => {
    const s = JSON.parse(e.data);
    state.kind = s.kind; state.standings = s.standings; state.faults = s.faults; state.feeds = {};
    for (const f of s.feeds) state.feeds[f.key] = {...f, starts: {}};
    for (const t of s.tables) Object.assign(state.feeds[t.key] || feedOf(t.key), t, {in_play: true});
    open = true; draw();
  });
  source.addEventListener("record", e => { onRecord(JSON.parse(e.data)); draw(); });
  source.addEventListener("standings", e => { state.standings = JSON.parse(e.data); draw(); });
}
draw();
connect();
"""  # noqa: E501


def live_page(title: str, api: str, query: str, kind: str, *,
              handin: str | None = None) -> str:
    """The live page of a tournament or a match folder. ``api``: the URL of ``/api/``
    relative to the page; ``query``: the folder's ``?dir=...`` (empty for the root);
    ``handin``: the hand-in page's URL when hand-ins are on."""
    script = (SCRIPT.replace("__TILES__", tile_faces_js().replace("</", "<\\/"))
              .replace("__API__", json.dumps(api)).replace("__QUERY__", json.dumps(query))
              .replace("__KIND__", json.dumps(kind)))
    handin_link = (f'<a href="{html.escape(handin)}">Hand in a bot</a>' if handin else "")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)} (live)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<style>{STYLE}</style></head><body>
<header><h1>{html.escape(title)}</h1>{handin_link}<span id="status">connecting…</span></header>
<main>
<div class="top"><section><h2>Standings</h2><div id="standings"></div></section>
<section><h2>Faults</h2><div id="faults"></div></section></div>
<section><h2>Tables in play</h2><div id="tables"></div></section>
<section><h2>Finished</h2><div id="finished"></div></section>
</main>
<script>{script}</script>
</body></html>
"""


def index_page(title: str, folders: list[dict[str, Any]]) -> str:
    """A folder of several tournaments and matches: a link to each one's live page."""
    items = "".join(f'<li><a href="{html.escape(f["url"])}">{html.escape(f["name"])}</a> '
                    f'<span class="muted">{html.escape(f["kind"])}</span></li>'
                    for f in folders)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<link rel="icon" href="data:,"><style>{STYLE}</style></head><body>
<header><h1>{html.escape(title)}</h1></header>
<main><h2>Tournaments and matches</h2><ul>{items or "<li>none yet</li>"}</ul></main>
</body></html>
"""
