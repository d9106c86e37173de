"""Self-contained HTML pages: a hand to step through, and a match report.

No network and no server: each page carries its data as JSON and a little
script; the match report's chart is inline SVG. Tiles are drawn as SVG faces
(``server.output.tiles``, in Botzone's notation: ``botzone_code``) and fan names
in Chinese as glyph paths beside their English names, so no font is needed.
"""

from __future__ import annotations

import csv
import html
import json
import re
from pathlib import Path
from typing import Any

from rulesets.default.engine.legacy_log import our_fan_name
from rulesets.default.engine.table_view import Snapshot, snapshots
from rulesets.default.late import late_answers
from rulesets.default.logs import sheet_names
from rulesets.default.replay import RecordedHand, load_hand
from scoring.fans import FANS
from scoring.settlement import apply_fines
from server.output.pages import (
    FAULTS_SCRIPT,
    STEPPER_SCRIPT,
    back_link,
    output_root,
    page,
    stderr_excerpt,
    tiles_script,
)
from server.output.stats_page import stats_section
from server.output.tiles import chinese_svg

_HAND_SCRIPT = r"""
const data = JSON.parse(document.getElementById('hand-data').textContent);
const slider = document.getElementById('step');
slider.max = data.steps.length - 1;
function fill(el, codes, extra) { for (const c of codes) el.appendChild(tileEl(c, extra)); }
function render(i) {
  const s = data.steps[i];
  slider.value = i;
  document.getElementById('stepno').textContent = i + ' / ' + (data.steps.length - 1);
  document.getElementById('steplink').href = '#step=' + i;
  document.getElementById('note').textContent = s.note + (s.event ? '  [' + s.event + ']' : '');
  document.getElementById('wall').textContent = s.wall;
  showFaults(i);
  for (const l of data.late) {  // a late answer at the step it was due after, with its fine
    if (l.step !== i) continue;
    const box = document.createElement('div'); box.className = 'late-box';
    box.textContent = 'Late answer: ' + l.name + ' ' + l.said;
    document.getElementById('faults').appendChild(box);
  }
  for (let seat = 0; seat < 4; seat++) {
    const box = document.getElementById('seat' + seat);
    box.classList.toggle('actor', s.actor === seat);
    box.classList.toggle('faulted', data.faults.some((f) => f.seat === seat && f.step < i));
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
""" + FAULTS_SCRIPT + STEPPER_SCRIPT

_SUITS = {"M": "W", "S": "T", "T": "B"}  # characters, bamboo, dots
_HONOURS = {"E": "F1", "S": "F2", "W": "F3", "N": "F4", "Z": "J1", "F": "J2", "B": "J3"}


def botzone_code(code: str) -> str:
    """A tile code of this ruleset (``6M``, ``E``, ``Z``) in Botzone's notation, which the
    SVG faces use (``W6``, ``F1``, ``J1``)."""
    if len(code) == 2 and code[1] in _SUITS:
        return _SUITS[code[1]] + code[0]
    return _HONOURS.get(code, code)


def _named(text: str, names: list[str]) -> str:
    """``seat 2 discards 5M`` as ``carol discards 5M``."""
    return re.sub(r"\bseat (\d)\b", lambda m: names[int(m.group(1))], text)


def _snapshot_json(s: Snapshot, names: list[str]) -> dict[str, Any]:
    return {
        "note": _named(s.note, names), "event": s.event, "actor": s.actor,
        "wall": s.wall_left,
        "hands": [[botzone_code(t.code) for t in h] for h in s.hands],
        "drawn": [botzone_code(t.code) if t is not None else None for t in s.drawn],
        "melds": [[{"kind": m.kind, "tiles": [botzone_code(t.code) for t in m.tiles],
                    "source": m.source} for m in seat] for seat in s.melds],
        "rivers": [[botzone_code(t.code) for t in r] for r in s.rivers],
    }


def _names(hand: RecordedHand) -> list[str]:
    """Each seat's player's name (the AI as the log names it, without its folders, when
    the hand has no events.jsonl)."""
    seats = hand.header.get("seats") or []
    return [str(seats[s]["name"]) if s < len(seats)
            else Path(hand.log.ais[s]).name if s < len(hand.log.ais) else f"seat {s}"
            for s in range(4)]


def fault_steps(hand: RecordedHand) -> list[dict[str, Any]]:
    """Each fault of the hand at the step where it happened (the step its answer was
    due after), with its cause and the last lines of the bot's stderr."""
    names = _names(hand)
    out = []
    for row in hand.structured:
        cause = row.get("fault")
        if row.get("type") != "input" or not cause or cause == "auto":
            continue
        seat = int(row["seat"])
        stderr = stderr_excerpt(hand.path / f"seat{seat}.stderr",
                                base=output_root(hand.path.parent)) \
            if hand.path.is_dir() else ""
        out.append({"step": int(row.get("after", 0)), "seat": seat, "name": names[seat],
                    "cause": str(cause), "stderr": stderr})
    return out


def late_steps(hand: RecordedHand) -> list[dict[str, Any]]:
    """Each answer the hand fined for its time, at the step it was due after, with how
    late it was and its fine (``rulesets.default.late``)."""
    names = _names(hand)
    inputs = [(int(row["seat"]), str(row.get("fault", "")), int(row["after"]))
              for row in hand.structured if row.get("type") == "input" and "after" in row]
    return [{"step": late.step, "seat": late.seat, "name": names[late.seat],
             "said": late.said()}
            for late in late_answers(inputs, hand.result.get("timings") or [])]


def _seat_labels(hand: RecordedHand) -> list[str]:
    seats = hand.header.get("seats")
    labels = []
    for seat in range(4):
        if seats and seat < len(seats):
            labels.append(f"seat {seat} · P{seats[seat]['player']} {seats[seat]['name']}")
        else:
            labels.append(f"seat {seat} · {_names(hand)[seat]}")
    return labels


def _english(name: str) -> str:
    fan = FANS.get(our_fan_name(name))
    return fan.english if fan else ""


def _result_html(hand: RecordedHand) -> str:
    log = hand.log
    names = _names(hand)
    esc = html.escape
    parts = ["<h2>Result</h2>"]
    if log.result is None:
        parts.append("<p class='winner'>Draw: the wall ran out.</p>")
    else:
        src = log.result.source
        how = "self-drawn" if log.result.how == "tsumo" or src is None \
            else f"on {esc(names[src])}'s tile"
        parts.append(f"<p class='winner'>Winner: {esc(names[log.result.winner])} "
                     f"(seat {log.result.winner}, {how}), {log.result.score} fan</p>")
        # The Chinese as glyph paths (the room's machine may have no CJK font), and English.
        rows = "".join(f"<tr><td lang='zh'>{chinese_svg(n, height=20)}</td>"
                       f"<td>{html.escape(_english(n))}</td>"
                       f"<td class='num'>{v}</td></tr>" for n, v in log.result.fans)
        parts.append("<table class='fans'><tr><th>fan</th><th>in English</th><th>value (fan)"
                     f"</th></tr>{rows}<tr><th>total</th><th></th>"
                     f"<th class='num'>{log.result.score}</th></tr></table>")
    res = hand.result
    fined = [int(f) for f in res.get("fines") or [0] * 4]
    if res.get("deltas") is not None or any(fined):
        deltas = [int(d) for d in res.get("deltas") or [0] * 4]
        cells = "".join(f"<td class='num'>{d:+d}</td>" for d in deltas)
        fines = "".join(f"<td class='num'>{-f if f else 0:+d}</td>" for f in fined)
        # What the hand gave each seat: its points less its fines (scoring.apply_fines).
        totals = "".join(f"<td class='num'><b>{t:+d}</b></td>"
                         for t in apply_fines(deltas, fined))
        parts.append("<h2>Settlement</h2><table class='settlement'><tr><th></th>"
                     + "".join(f"<th>{esc(names[s])}</th>" for s in range(4)) + "</tr>"
                     f"<tr><th>points</th>{cells}</tr><tr><th>fines</th>{fines}</tr>"
                     f"<tr><th>total</th>{totals}</tr></table>")
    at = {f["seat"]: f for f in fault_steps(hand)}
    for seat, cause in (res.get("faults") or {}).items():
        who = names[int(seat)] if str(seat).isdigit() and int(seat) < 4 else str(seat)
        fault = at.get(int(seat)) if str(seat).isdigit() else None
        step = f" (<a href='#step={fault['step']}'>step {fault['step']}</a>)" if fault else ""
        parts.append(f"<p class='fault'>Fault: {esc(who)}{step}: {esc(str(cause))}</p>")
        if fault and fault["stderr"]:
            parts.append(f"<pre class='stderr'>{esc(fault['stderr'])}</pre>")
    for late in late_steps(hand):
        parts.append(f"<p class='late'>Late answer: {esc(late['name'])} (<a href='#step="
                     f"{late['step']}'>step {late['step']}</a>) {esc(late['said'])}</p>")
    return "\n".join(parts)


def hand_title(hand: RecordedHand, where: str = "") -> str:
    """"Round 1, table 1, hand 2" at a tournament's table (``where``), "Hand 2" in a match:
    the hand's number in its table, as the live page and the table's report count it
    (the log's own round and game are the scoresheet's, within one match)."""
    n = hand.header.get("hand")
    if not isinstance(n, int):  # a log without its events.jsonl
        return f"Scoresheet round {hand.log.round}, game {hand.log.game}"
    return f"{where}, hand {n}" if where else f"Hand {n}"


def hand_page(hand: RecordedHand, back: tuple[str, str] | None = None, where: str = "") -> str:
    """One page to step through a hand with buttons, a slider and the arrow keys; each
    fault shown at its step; ``back``: a link to the match's page; ``where``: the
    tournament's table ("Round 1, table 2"), for the title."""
    names = _names(hand)
    data = {"steps": [_snapshot_json(s, names) for s in snapshots(hand.log)],
            "faults": fault_steps(hand), "late": late_steps(hand)}
    title = hand_title(hand, where)
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
    return page(title, f"""{back_link(back)}<div class="controls">
<button id="first" title="Home">« first</button><button id="prev" title="Left arrow">‹ prev</button>
<input type="range" id="step" min="0" value="0">
<button id="next" title="Right arrow">next ›</button><button id="last" title="End">last »</button>
<span>step <span id="stepno"></span> · wall <span id="wall"></span>
· <a id="steplink" href="#step=0" title="A link to this step">link</a></span>
</div>
<div class="note" id="note"></div>
<div id="faults"></div>
{seats}
<div id="result" style="display:none">{_result_html(hand)}</div>
<script type="application/json" id="hand-data">{payload}</script>
<script>{tiles_script()}{_HAND_SCRIPT}</script>""")


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
        f"{html.escape(names[p])}</text>" for p in range(len(series)))
    return (f"<svg class='chart' width='{width}' height='{height}' role='img' "
            f"aria-label='running totals'>"
            f"<line x1='{pad}' x2='{width - pad}' y1='{zero}' y2='{zero}' stroke='#999'/>"
            f"<text x='4' y='{pad}'>{hi}</text><text x='4' y='{plot - pad}'>{lo}</text>"
            + "".join(lines) + legend + "</svg>")


def _faults_by_hand(root: Path, names: list[str]) -> dict[str, str]:
    """Game id -> the hand's faults with their whole causes (``alice: closed-output: exit
    status 1``), from each hand's events.jsonl (a scoresheet may keep only the word)."""
    out: dict[str, str] = {}
    for folder in root.iterdir():
        events = folder / "events.jsonl"
        if not events.is_file():
            continue
        header: dict[str, Any] = {}
        faults: dict[str, Any] = {}
        for line in events.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if row.get("type") == "hand":
                header = row
            elif row.get("type") == "result":
                faults = row.get("faults") or {}
        seats = [s.get("player", i) for i, s in enumerate(header.get("seats") or [])]
        said = []
        for seat, cause in sorted(faults.items(), key=lambda kv: str(kv[0])):
            s = int(seat) if str(seat).isdigit() else -1
            player = seats[s] if 0 <= s < len(seats) else s
            who = names[player] if 0 <= player < len(names) else f"seat {seat}"
            said.append(f"{who}: {' '.join(str(cause).split())}")
        if header.get("game_id"):
            out[str(header["game_id"])] = "; ".join(said)
    return out


def _by_name(header: list[str], row: list[str], names: list[str]) -> list[str]:
    """A scoresheet row written by player number (an older scoresheet) with the players
    named: Winner and From hold player numbers there."""
    if header[2:3] != ["Player0"]:
        return row
    row = list(row)
    for col in (8, 9):
        if col < len(row) and row[col].isdigit() and int(row[col]) < len(names):
            row[col] = names[int(row[col])]
    return row


def match_page(root: Path, hand_links: dict[str, str], title: str = "",
               back: tuple[str, str] | None = None) -> str:
    """Standings, the scoresheet with a running-total chart, fines and faults (each with
    its cause), every player named; ``title`` (a tournament's "Round 2, table 3 — ...")
    and ``back`` (a link up to the tournament) when given."""
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
    # Decisions a bot's own framework answered for (protocol.bot_errors): only when any.
    errors = any(p.get("bot_errors") for p in players)
    standings = "".join(
        f"<tr><td class='num'>{rank}</td><td>{html.escape(names[p])}</td>"
        f"<td class='num'>{players[p].get('total')}</td><td class='num'>"
        f"{players[p].get('fines')}</td><td class='num'>{players[p].get('faults')}</td>"
        + (f"<td class='num'>{players[p].get('bot_errors')}</td>" if errors else "")
        + "</tr>" for rank, p in enumerate(ranking, start=1))
    faults = _faults_by_hand(root, names)
    sheet_rows = []
    for r in body:
        gid = r[6]
        link = hand_links.get(gid)
        cell = f"<a href='{html.escape(link)}'>{gid}</a>" if link else html.escape(gid)
        named = _by_name(header, r, names)
        if gid in faults and len(named) > 15:
            named[15] = faults[gid]
        cells = [html.escape(c) for c in named]
        cells[6] = cell
        sheet_rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    if header[2:3] == ["Player0"] and len(header) >= 15:  # an older scoresheet
        header = list(header)
        for p, name in enumerate(sheet_names(names)[:4]):
            header[2 + p], header[11 + p] = name, f"Fines {name}"
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    state = "completed" if summary.get("completed") else "not completed"
    about = f"Match seed {summary.get('seed')}: {summary.get('hands_played')} hands, {state}"
    title = title or summary.get("title") or about
    return page(title, f"""{back_link(back)}<p>{html.escape(about)}</p>
<h2>Standings</h2>
<table class="standings"><tr><th>rank</th><th>player</th><th>points</th>
<th>fines</th><th>faults</th>{"<th>bot errors</th>" if errors else ""}</tr>{standings}</table>
{stats_section(names, [p.get("stats") for p in players], unit="hands")}
<h2>Running totals</h2>
{_chart(running, names)}
<h2>Scoresheet</h2>
<table class="scoresheet"><tr>{head}</tr>{''.join(sheet_rows)}</table>""")


def write_hand_page(path: Path, out: Path, back: tuple[str, str] | None = None,
                    where: str = "") -> None:
    out.write_text(hand_page(load_hand(path), back, where), encoding="utf-8")


def write_match_report(root: Path, out: Path, *, title: str = "",
                       back: tuple[str, str] | None = None) -> list[Path]:
    """The report and one page per hand beside it (in ``<out stem>-hands/``), each hand's
    page linking back to the report; ``title`` and ``back`` as ``match_page`` says."""
    pages_dir = out.parent / f"{out.stem}-hands"
    pages_dir.mkdir(parents=True, exist_ok=True)
    links: dict[str, str] = {}
    written = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir() and (p / "game.log").exists()):
        page = pages_dir / f"{folder.name}.html"
        # A tournament's title names the table, then its players: the table is the where.
        write_hand_page(folder, page, (f"../{out.name}", title or "the match"),
                        title.partition(" — ")[0])
        gid = folder.name.split("-", 1)[-1]
        links[gid] = f"{pages_dir.name}/{page.name}"
        written.append(page)
    out.write_text(match_page(root, links, title, back), encoding="utf-8")
    return [out, *written]
