"""A Botzone game as one self-contained HTML page to step through.

The default ruleset's hand page, for a Botzone record: the shared look and
skeleton of ``server.output.pages``, the table at every judge turn (hands, melds
with who fed them, flowers, discards with the claimed ones marked, walls),
what each seat was asked and answered, and at the last step the result with
each fan named in Chinese and in English. Buttons, a slider, the arrow, Home
and End keys, and ``#step=N`` in the address to link to a step. Tiles are SVG
faces and the Chinese is glyph paths (``server.output.tiles``): no font needed.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulesets.botzone.replay import answer_text, view_of
from rulesets.botzone.view import WINDS, GameView, Result, TableState
from server.output.pages import FAULTS_SCRIPT, STEPPER_SCRIPT, back_link, page, tiles_script
from server.output.tiles import chinese_svg, text_html

_STYLE = """
.tile.taken { opacity: .4; }
.flowers { margin-left: 1em; }
.answer { font-family: ui-monospace, monospace; font-size: .9em; color: #555; }
.answer.fault { color: #b22; font-weight: bold; }
.about { color: #555; max-width: 60em; }
"""

_SCRIPT = r"""
const data = JSON.parse(document.getElementById('game-data').textContent);
const slider = document.getElementById('step');
slider.max = data.steps.length - 1;
const tile = tileEl;
function fill(el, codes, extra) { for (const c of codes) el.appendChild(tile(c, extra)); }
function render(i) {
  const s = data.steps[i];
  slider.value = i;
  document.getElementById('stepno').textContent = i + ' / ' + (data.steps.length - 1);
  document.getElementById('steplink').href = '#step=' + i;
  document.getElementById('note').textContent = s.note + '  [' + s.action + ']';
  document.getElementById('wall').textContent = s.wall.join(' ');
  showFaults(i);
  for (let seat = 0; seat < 4; seat++) {
    const box = document.getElementById('seat' + seat);
    box.classList.toggle('actor', s.actor === seat);
    const hand = box.querySelector('.hand'); hand.textContent = '';
    fill(hand, s.hands[seat]);
    if (s.drawn[seat]) fill(hand, [s.drawn[seat]], 'drawn');
    const flowers = box.querySelector('.flowers'); flowers.textContent = '';
    fill(flowers, s.flowers[seat]);
    const melds = box.querySelector('.melds'); melds.textContent = '';
    for (const m of s.melds[seat]) {
      const span = document.createElement('span'); span.className = 'meld';
      span.title = m.what;
      fill(span, m.tiles); melds.appendChild(span);
    }
    const river = box.querySelector('.river'); river.textContent = '';
    for (const d of s.discards[seat]) {
      river.appendChild(d.taken_by === null ? tile(d.tile)
          : tile(d.tile, 'taken', 'taken by seat ' + d.taken_by));
    }
    const answer = box.querySelector('.answer');
    const a = s.answers.length ? s.answers[seat] : null;
    answer.textContent = a ? a.request + ' → ' + a.text : '';
    answer.classList.toggle('fault', !!a && a.verdict !== 'OK');
  }
  document.getElementById('result').style.display =
      i === data.steps.length - 1 ? 'block' : 'none';
}
""" + FAULTS_SCRIPT + STEPPER_SCRIPT


def _state_json(s: TableState) -> dict[str, Any]:
    return {
        "note": s.note, "action": s.action, "actor": s.actor, "wall": list(s.wall),
        "hands": [list(h) for h in s.hands],
        "drawn": list(s.drawn),
        "flowers": [list(f) for f in s.flowers],
        "melds": [[{"kind": m.kind, "tiles": list(m.tiles), "what": m.describe()}
                   for m in seat] for seat in s.melds],
        "discards": [[{"tile": d.tile, "taken_by": d.taken_by} for d in seat]
                     for seat in s.discards],
        "answers": [{"request": a.request, "verdict": a.verdict, "text": answer_text(a)}
                    for a in s.answers],
    }


def _result_html(view: GameView, result: Result | None,
                 stderr: Mapping[int, str] | None = None) -> str:
    parts = ["<h2>Result</h2>"]
    if result is None:
        parts.append("<p class='winner'>The game did not finish.</p>")
        return "\n".join(parts)
    parts.append(f"<p class='winner'>{html.escape(result.summary)}</p>")
    if result.fans:
        # The Chinese as glyph paths (the room's machine may have no CJK font), and English.
        rows = "".join(f"<tr><td lang='zh'>{chinese_svg(f.chinese, height=20)}</td>"
                       f"<td>{html.escape(f.english)}</td><td class='num'>{f.value}</td>"
                       f"<td class='num'>{f.count}</td></tr>" for f in result.fans)
        total = "" if result.fan_total is None else str(result.fan_total)
        parts.append("<table class='fans'><tr><th>fan</th><th>in English</th>"
                     "<th>value (fan)</th><th>count</th></tr>"
                     f"{rows}<tr><th>total</th><th></th><th class='num'>{total}</th>"
                     "<th></th></tr></table>")
    if result.scores is not None:
        heads = "".join(f"<th>seat {s} · {html.escape(view.names[s])}</th>"
                        if view.names[s] != f"seat {s}" else f"<th>seat {s}</th>"
                        for s in range(4))
        cells = "".join(f"<td class='num'>{v:+d}</td>" for v in result.scores)
        parts.append(f"<h2>Scores</h2><table class='scores'><tr>{heads}</tr>"
                     f"<tr>{cells}</tr></table>")
    if result.fault and result.player is not None:
        cause = f": {result.cause}" if result.cause else ""
        who = view.names[result.player]
        parts.append(f"<p class='fault'>Fault: {html.escape(who)} (seat {result.player}): "
                     f"{html.escape(result.action + cause)}</p>")
        if said := (stderr or {}).get(result.player):
            parts.append(f"<p>its stderr ends:</p><pre class='stderr'>{html.escape(said)}</pre>")
    return "\n".join(parts)


def fault_steps(view: GameView, stderr: Mapping[int, str] | None = None,
                ) -> list[dict[str, Any]]:
    """Each seat's fault (an answer the judge did not take: TLE, RE, WA, ...) at the step
    where it answered so, with its cause and the last lines of its stderr."""
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for i, state in enumerate(view.states):
        for seat, a in enumerate(state.answers):
            if a.verdict == "OK" or seat in seen:
                continue
            seen.add(seat)
            cause = a.verdict + (f": {a.cause}" if a.cause else "")
            out.append({"step": i, "seat": seat, "name": view.names[seat], "cause": cause,
                        "stderr": (stderr or {}).get(seat, "")})
    return out


def game_page(view: GameView, title: str = "", back: tuple[str, str] | None = None,
              stderr: Mapping[int, str] | None = None) -> str:
    """One page to step through a Botzone game; each fault at its step with the bot's
    ``stderr`` (seat -> its last lines); ``back``: a link to the match's page."""
    data = {"steps": [_state_json(s) for s in view.states],
            "faults": fault_steps(view, stderr)}
    title = title or f"Botzone {view.variant} game, prevailing wind {WINDS[view.quan % 4]}"
    seats = "\n".join(
        f"<div class='seat' id='seat{s}'><div class='row'><span class='label'>"
        f"seat {s} · {WINDS[s]}"
        f"{html.escape(' · ' + view.names[s]) if view.names[s] != f'seat {s}' else ''}"
        f"</span><span class='hand'></span><span class='flowers' title='flowers'></span></div>"
        f"<div class='row'>melds: <span class='melds'></span></div>"
        f"<div class='row'>discards: <span class='river'></span></div>"
        f"<div class='row answer'></div></div>"
        for s in range(4))
    about = f"<p class='about'>{text_html(view.about)}</p>" if view.about else ""
    payload = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    return page(title, f"""<style>{_STYLE}</style>
{back_link(back)}{about}
<div class="controls">
<button id="first" title="Home">« first</button><button id="prev" title="Left arrow">‹ prev</button>
<input type="range" id="step" min="0" value="0">
<button id="next" title="Right arrow">next ›</button><button id="last" title="End">last »</button>
<span>step <span id="stepno"></span> · wall <span id="wall"></span>
· <a id="steplink" href="#step=0" title="A link to this step">link</a></span>
</div>
<div class="note" id="note"></div>
<div id="faults"></div>
{seats}
<div id="result" style="display:none">{_result_html(view, view.result, stderr)}</div>
<script type="application/json" id="game-data">{payload}</script>
<script>{tiles_script()}{_SCRIPT}</script>""")


def write_game_page(record: Mapping[str, Any] | GameView, path: Path, *,
                    title: str = "", back: tuple[str, str] | None = None,
                    stderr: Mapping[int, str] | None = None) -> None:
    """Write the page of a game record (or of a view already built) to ``path``."""
    view = record if isinstance(record, GameView) else view_of(record)
    path.write_text(game_page(view, title, back, stderr), encoding="utf-8")
