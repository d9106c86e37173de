"""Self-contained HTML pages: a hand to step through, and a match report.

No network and no server: each page carries its data as JSON and a little
script; the match report's chart is inline SVG. Tiles are drawn with CSS
(rank and suit letter), so no font with Mahjong glyphs is needed.
"""

from __future__ import annotations

import csv
import html
import json
from pathlib import Path
from typing import Any

from rulesets.default.engine.legacy_log import our_fan_name
from rulesets.default.engine.table_view import Snapshot, snapshots
from rulesets.default.replay import RecordedHand, load_hand
from scoring.fans import FANS
from server.output.pages import STEPPER_SCRIPT, page
from server.output.stats_page import stats_section

_HAND_SCRIPT = r"""
const data = JSON.parse(document.getElementById('hand-data').textContent);
const slider = document.getElementById('step');
slider.max = data.steps.length - 1;
function tile(code, extra) {
  const el = document.createElement('span');
  const suit = code.length === 2 ? code[1] : 'H';
  el.className = 'tile ' + suit + (extra ? ' ' + extra : '');
  if (suit === 'H') { el.textContent = code; }
  else { el.textContent = code[0]; const s = document.createElement('small');
         s.textContent = suit; el.appendChild(s); }
  el.title = code;
  return el;
}
function fill(el, codes, extra) { for (const c of codes) el.appendChild(tile(c, extra)); }
function render(i) {
  const s = data.steps[i];
  slider.value = i;
  document.getElementById('stepno').textContent = i + ' / ' + (data.steps.length - 1);
  document.getElementById('steplink').href = '#step=' + i;
  document.getElementById('note').textContent = s.note + (s.event ? '  [' + s.event + ']' : '');
  document.getElementById('wall').textContent = s.wall;
  for (let seat = 0; seat < 4; seat++) {
    const box = document.getElementById('seat' + seat);
    box.classList.toggle('actor', s.actor === seat);
    const hand = box.querySelector('.hand'); hand.textContent = '';
    fill(hand, s.hands[seat]);
    if (s.drawn[seat]) fill(hand, [s.drawn[seat]], 'drawn');
    const melds = box.querySelector('.melds'); melds.textContent = '';
    for (const m of s.melds[seat]) {
      const span = document.createElement('span'); span.className = 'meld';
      span.title = m.kind + (m.source === null ? '' : ' from seat ' + m.source);
      fill(span, m.tiles); melds.appendChild(span);
    }
    const river = box.querySelector('.river'); river.textContent = '';
    fill(river, s.rivers[seat]);
  }
  document.getElementById('result').style.display =
      i === data.steps.length - 1 ? 'block' : 'none';
}
""" + STEPPER_SCRIPT


def _snapshot_json(s: Snapshot) -> dict[str, Any]:
    return {
        "note": s.note, "event": s.event, "actor": s.actor, "wall": s.wall_left,
        "hands": [[t.code for t in h] for h in s.hands],
        "drawn": [t.code if t is not None else None for t in s.drawn],
        "melds": [[{"kind": m.kind, "tiles": [t.code for t in m.tiles], "source": m.source}
                   for m in seat] for seat in s.melds],
        "rivers": [[t.code for t in r] for r in s.rivers],
    }


def _seat_labels(hand: RecordedHand) -> list[str]:
    seats = hand.header.get("seats")
    labels = []
    for seat in range(4):
        if seats and seat < len(seats):
            labels.append(f"seat {seat} · P{seats[seat]['player']} {seats[seat]['name']}")
        else:
            labels.append(f"seat {seat} · {hand.log.ais[seat]}")
    return labels


def _english(name: str) -> str:
    fan = FANS.get(our_fan_name(name))
    return fan.english if fan else ""


def _result_html(hand: RecordedHand) -> str:
    log = hand.log
    parts = ["<h2>Result</h2>"]
    if log.result is None:
        parts.append("<p class='winner'>Draw: the wall ran out.</p>")
    else:
        how = "self-drawn" if log.result.how == "tsumo" else f"on seat {log.result.source}'s tile"
        parts.append(f"<p class='winner'>Winner: seat {log.result.winner} ({how}), "
                     f"{log.result.score} fan</p>")
        # The English name too: a server often has no CJK font, and shows boxes.
        rows = "".join(f"<tr><td lang='zh'>{html.escape(n)}</td>"
                       f"<td>{html.escape(_english(n))}</td>"
                       f"<td class='num'>{v}</td></tr>" for n, v in log.result.fans)
        parts.append("<table class='fans'><tr><th>fan</th><th>in English</th><th>value (fan)"
                     f"</th></tr>{rows}<tr><th>total</th><th></th>"
                     f"<th class='num'>{log.result.score}</th></tr></table>")
    res = hand.result
    if res.get("deltas") is not None:
        cells = "".join(f"<td class='num'>{d:+d}</td>" for d in res["deltas"])
        fines = "".join(f"<td class='num'>{f}</td>" for f in res.get("fines", [0] * 4))
        parts.append("<h2>Settlement</h2><table><tr><th></th>"
                     + "".join(f"<th>seat {s}</th>" for s in range(4)) + "</tr>"
                     f"<tr><th>points</th>{cells}</tr><tr><th>fines</th>{fines}</tr></table>")
    for seat, cause in (res.get("faults") or {}).items():
        parts.append(f"<p class='fault'>Fault, seat {html.escape(str(seat))}: "
                     f"{html.escape(str(cause))}</p>")
    return "\n".join(parts)


def hand_page(hand: RecordedHand) -> str:
    """One page to step through a hand with buttons, a slider and the arrow keys."""
    data = {"steps": [_snapshot_json(s) for s in snapshots(hand.log)]}
    title = f"Round {hand.log.round} Game {hand.log.game}"
    gid = hand.header.get("game_id")
    if gid:
        title += f" · {gid}"
    seats = "\n".join(
        f"<div class='seat' id='seat{s}'><div class='row'><span class='label'>"
        f"{html.escape(label)}{' (first)' if s == hand.log.first else ''}</span>"
        f"<span class='hand'></span></div><div class='row'>melds: <span class='melds'></span>"
        f"</div><div class='row'>discards: <span class='river'></span></div></div>"
        for s, label in enumerate(_seat_labels(hand)))
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return page(title, f"""<div class="controls">
<button id="first" title="Home">« first</button><button id="prev" title="Left arrow">‹ prev</button>
<input type="range" id="step" min="0" value="0">
<button id="next" title="Right arrow">next ›</button><button id="last" title="End">last »</button>
<span>step <span id="stepno"></span> · wall <span id="wall"></span>
· <a id="steplink" href="#step=0" title="A link to this step">link</a></span>
</div>
<div class="note" id="note"></div>
{seats}
<div id="result" style="display:none">{_result_html(hand)}</div>
<script type="application/json" id="hand-data">{payload}</script>
<script>{_HAND_SCRIPT}</script>""")


def _chart(series: list[list[int]], names: list[str]) -> str:
    """Running totals per player as an inline SVG line chart."""
    width, plot, pad = 760, 300, 40
    height = plot + 18 * len(series)
    n = max(len(s) for s in series) if series else 0
    lo = min([0, *(v for s in series for v in s)])
    hi = max([0, *(v for s in series for v in s)])
    span = (hi - lo) or 1
    colours = ["#c0392b", "#2471a3", "#1e8449", "#b9770e"]

    def xy(i: int, v: int) -> str:
        x = pad + (width - 2 * pad) * (i / max(1, n))
        y = plot - pad - (plot - 2 * pad) * ((v - lo) / span)
        return f"{x:.1f},{y:.1f}"

    lines = []
    for p, s in enumerate(series):
        points = " ".join(xy(i, v) for i, v in enumerate([0, *s]))
        lines.append(f"<polyline fill='none' stroke='{colours[p % 4]}' stroke-width='2' "
                     f"points='{points}'><title>{html.escape(names[p])}</title></polyline>")
    zero = xy(0, 0).split(",")[1]
    legend = "".join(
        f"<text x='{pad}' y='{plot + 18 * p}' fill='{colours[p % 4]}'>"
        f"P{p} {html.escape(names[p])}</text>" for p in range(len(series)))
    return (f"<svg class='chart' width='{width}' height='{height}' role='img' "
            f"aria-label='running totals'>"
            f"<line x1='{pad}' x2='{width - pad}' y1='{zero}' y2='{zero}' stroke='#999'/>"
            f"<text x='4' y='{pad}'>{hi}</text><text x='4' y='{plot - pad}'>{lo}</text>"
            + "".join(lines) + legend + "</svg>")


def match_page(root: Path, hand_links: dict[str, str]) -> str:
    """Standings, the scoresheet with a running-total chart, fines and faults."""
    summary = json.loads((root / "match.json").read_text(encoding="utf-8"))
    with (root / "scoresheet.csv").open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], [r for r in rows[1:] if r and r[0] != "Total"]
    players = summary.get("players", [])
    names = [p.get("name", f"P{i}") for i, p in enumerate(players)]
    running: list[list[int]] = [[] for _ in players]
    totals = [0] * len(players)
    for r in body:
        for p in range(len(players)):
            totals[p] += int(r[2 + p])
            running[p].append(totals[p])
    ranking = summary.get("ranking", list(range(len(players))))
    standings = "".join(
        f"<tr><td class='num'>{rank}</td><td>P{p}</td><td>{html.escape(names[p])}</td>"
        f"<td class='num'>{players[p].get('total')}</td><td class='num'>"
        f"{players[p].get('fines')}</td><td class='num'>{players[p].get('faults')}</td></tr>"
        for rank, p in enumerate(ranking, start=1))
    sheet_rows = []
    for r in body:
        gid = r[6]
        link = hand_links.get(gid)
        cell = f"<a href='{html.escape(link)}'>{gid}</a>" if link else html.escape(gid)
        cells = [html.escape(c) for c in r]
        cells[6] = cell
        sheet_rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    state = "completed" if summary.get("completed") else "not completed"
    title = f"Match seed {summary.get('seed')}: {summary.get('hands_played')} hands, {state}"
    return page(title, f"""<h2>Standings</h2>
<table class="standings"><tr><th>rank</th><th>player</th><th>AI</th><th>points</th>
<th>fines</th><th>faults</th></tr>{standings}</table>
{stats_section(names, [p.get("stats") for p in players], unit="hands")}
<h2>Running totals</h2>
{_chart(running, names)}
<h2>Scoresheet</h2>
<table class="scoresheet"><tr>{head}</tr>{''.join(sheet_rows)}</table>""")


def write_hand_page(path: Path, out: Path) -> None:
    out.write_text(hand_page(load_hand(path)), encoding="utf-8")


def write_match_report(root: Path, out: Path) -> list[Path]:
    """The report and one page per hand beside it (in ``<out stem>-hands/``)."""
    pages_dir = out.parent / f"{out.stem}-hands"
    pages_dir.mkdir(parents=True, exist_ok=True)
    links: dict[str, str] = {}
    written = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and (p / "game.log").exists()):
        page = pages_dir / f"{folder.name}.html"
        write_hand_page(folder, page)
        gid = folder.name.split("-", 1)[-1]
        links[gid] = f"{pages_dir.name}/{page.name}"
        written.append(page)
    out.write_text(match_page(root, links), encoding="utf-8")
    return [out, *written]
