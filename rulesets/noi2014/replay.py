"""``server replay`` of a NOI 2014 game: in the terminal (every step, or ``--at N``) and
as one self-contained HTML page with step controls. Both end with the result: each
remaining player's target hand beside its tiles, its distance, and the sequence that
gave its chance value (the discards by position, the common hand position after them,
each needed kind's last position, the smallest marked)."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulesets.noi2014.records import read_record
from rulesets.noi2014.tiles import is_tile
from rulesets.noi2014.view import SEATS, ChanceRow, GameView, Step, view_of
from server.seam.contract import CommandArgs
from server.seam.errors import InputError


def _melds(melds: list[tuple[str, str, str]]) -> str:
    return " ".join(f"[{kind} {tile}{'' if how == 'exposed' else ' ' + how}]"
                    for kind, tile, how in melds)


def step_lines(view: GameView, step: Step) -> list[str]:
    lines = [f"step {step.number} · wall {step.wall} · " + "; ".join(step.events)]
    for seat, state in enumerate(step.seats):
        melds = _melds(state.melds)
        line = f"  {SEATS[seat]} {view.names[seat][:24]:<24} {state.status:<6} " \
               f"{' '.join(state.hand)}" + (f"  {melds}" if melds else "")
        lines.append(line)
        if state.asked is not None:
            lines.append(f"      asked {state.asked[:60]!r} -> {str(state.answer)[:60]!r}")
    if step.pool:
        lines.append(f"  pool: {' '.join(step.pool)}")
    return lines


def chance_lines(view: GameView, row: ChanceRow) -> list[str]:
    name = f"{SEATS[row.seat]} {view.names[row.seat]}"
    lines = [f"  {name}: tiles  {' '.join(view.final_tiles[row.seat])}",
             f"  {' ' * len(name)}  target {row.target if row.target is not None else '(none)'}"]
    if not row.valid:
        lines.append(f"  {' ' * len(name)}  not valid: {row.reason}; distance infinite")
        return lines
    needs = ", ".join(f"{kind} last at {pos}" + (" <- min" if pos == row.chance else "")
                      for kind, pos in row.needed.items())
    lines.append(f"  {' ' * len(name)}  distance {row.distance}; needs {needs}; "
                 f"chance value {row.chance}")
    return lines


def result_lines(view: GameView) -> list[str]:
    result = view.result
    if not result:
        return ["the game did not finish"]
    lines = ["result: " + ", ".join(
        f"{SEATS[s]} {view.names[s]} place {result['places'][s]} ({result['points'][s]:g})"
        for s in range(4))]
    if result.get("winners"):
        lines.append("winners in order: " + ", ".join(view.names[s] for s in result["winners"]))
    if view.chances:
        sequence = " ".join(f"{k}:{t}" for k, t in enumerate(view.discards, start=1))
        lines.append(f"the sequence: {sequence} | every hand and meld at {view.hand_position}")
        for row in view.chances:
            lines += chance_lines(view, row)
    return lines


def _cell_tiles(tiles: list[str], need: Mapping[str, int] | None = None) -> str:
    """Placeholders the page's script draws as SVG faces (``fillTiles``): a step's HTML
    stays small, one face per tile code in the page."""
    need = need or {}
    return "".join(f"<span class='tile{' need' if t in need else ''}' "
                   f"data-tile='{html.escape(t.upper())}'></span>" for t in tiles)


def _target_tiles(target: str | None) -> str:
    """A target hand as tiles (a melded set's tiles, in lower case, titled so), when every
    word of it is a tile code; else nothing (the answer is shown as written beside)."""
    words = (target or "").split()
    if not words or not all(is_tile(w.upper()) for w in words):
        return ""
    melded = " data-title='melded'"
    return "".join(f"<span class='tile' data-tile='{w.upper()}'"
                   f"{melded if w.islower() else ''}></span>" for w in words) + " "


def _step_html(view: GameView, step: Step) -> str:
    rows = []
    for seat, state in enumerate(step.seats):
        melds = "".join(f"<span class='meld'>{kind} {_cell_tiles([tile])} {how}</span>"
                        for kind, tile, how in state.melds)
        asked = "" if state.asked is None else \
            f"<div class='row'>asked <code>{html.escape(state.asked)}</code> → " \
            f"<code>{html.escape(str(state.answer))}</code></div>"
        rows.append(f"<div class='seat'><div class='row'><span class='label'>{SEATS[seat]} · "
                    f"{html.escape(view.names[seat])}</span> {html.escape(state.status)}</div>"
                    f"<div class='row'>{_cell_tiles(state.hand)} {melds}</div>{asked}</div>")
    pool = f"<div class='row'>pool: <span class='river'>{_cell_tiles(step.pool)}</span></div>"
    return (f"<p class='note'>step {step.number} · wall {step.wall} · "
            f"{html.escape('; '.join(step.events))}</p>" + "".join(rows) + pool)


def _result_html(view: GameView) -> str:
    result = view.result
    if not result:
        return "<p>The game did not finish.</p>"
    places = "".join(f"<tr><td>{SEATS[s]}</td><td>{html.escape(view.names[s])}</td>"
                     f"<td class='num'>{result['places'][s]}</td>"
                     f"<td class='num'>{result['points'][s]:g}</td></tr>" for s in range(4))
    parts = ["<h2>Result</h2><table><tr><th>seat</th><th>player</th><th>place</th>"
             f"<th>points</th></tr>{places}</table>"]
    if view.chances:
        sequence = "".join(f"<span class='pos'><small>{k}</small>{_cell_tiles([t])}</span>"
                           for k, t in enumerate(view.discards, start=1))
        parts.append(f"<h2>Target hands</h2><p>The sequence (discards by position; every "
                     f"hand and meld at position {view.hand_position}):</p>"
                     f"<div class='sequence'>{sequence}</div>")
        for row in view.chances:
            name = html.escape(f"{SEATS[row.seat]} · {view.names[row.seat]}")
            target = (_target_tiles(row.target)
                      + f"<code>{html.escape(row.target or '(none)')}</code>")
            if row.valid:
                needs = ", ".join(
                    f"{k} last at <b>{p}</b>" + (" (the smallest)" if p == row.chance else "")
                    for k, p in row.needed.items())
                how = (f"distance {row.distance}; needs {needs}; "
                       f"<b>chance value {row.chance}</b>")
            else:
                how = f"not valid: {html.escape(row.reason)}; distance infinite"
            parts.append(f"<div class='seat target' id='target{row.seat}'><div class='row'>"
                         f"<span class='label'>{name}</span></div>"
                         f"<div class='row'>tiles: {_cell_tiles(view.final_tiles[row.seat])}"
                         f"</div><div class='row'>target: {target}</div>"
                         f"<div class='row'>{how}</div></div>")
    return "".join(parts)


_STYLE = """
.tile.need { outline: 3px solid #c33; border-radius: 4px; }
.pos { display: inline-block; text-align: center; margin-right: 2px; }
.pos small { display: block; font-size: .65em; color: #777; }
.sequence { line-height: 1; }
.sequence .tile svg { width: 24px; height: 32px; }
"""
_SCRIPT = """
const data = JSON.parse(document.getElementById('game-data').textContent);
const slider = document.getElementById('step');
slider.max = data.steps.length - 1;
function render(i) {
  slider.value = i;
  document.getElementById('view').innerHTML = data.steps[i];
  fillTiles(document.getElementById('view'));
  document.getElementById('stepno').textContent = i;
  document.getElementById('result').style.display = i === data.steps.length - 1 ? '' : 'none';
}
"""


def fault_steps(view: GameView, stderr: Mapping[int, str] | None = None,
                ) -> dict[int, str]:
    """Step number -> the HTML of the faults that happened there (the first step a seat
    shows as faulted), each with its cause and the last lines of the bot's stderr."""
    out: dict[int, str] = {}
    seen: set[int] = set()
    for i, step in enumerate(view.steps):
        for seat, state in enumerate(step.seats):
            if state.status != "fault" or seat in seen:
                continue
            seen.add(seat)
            said = (stderr or {}).get(seat, "")
            out[i] = out.get(i, "") + (
                f"<div class='fault-box'><strong>Fault: {html.escape(view.names[seat])}: "
                f"{html.escape(str(state.answer or 'fault'))}</strong>"
                + (f"<div>its stderr ends:</div><pre>{html.escape(said)}</pre>" if said
                   else "") + "</div>")
    return out


def game_page(view: GameView, title: str, back: tuple[str, str] | None = None,
              stderr: Mapping[int, str] | None = None) -> str:
    """One page to step through a NOI 2014 game; each fault at its step with the bot's
    ``stderr`` (seat -> its last lines); ``back``: a link to the match's page."""
    from server.output.pages import STEP_CONTROLS, STEPPER_SCRIPT, back_link, page, tiles_script
    from server.output.tiles import text_html

    faults = fault_steps(view, stderr)
    payload = json.dumps({"steps": [faults.get(i, "") + _step_html(view, s)
                                    for i, s in enumerate(view.steps)]},
                         ensure_ascii=False).replace("</", "<\\/")
    about = f"<p class='about'>{text_html(view.about)}</p>" if view.about else ""
    return page(title, f"""<style>{_STYLE}</style>
{back_link(back)}{about}
{STEP_CONTROLS}
<div id="view"></div>
<div id="result" style="display:none">{_result_html(view)}</div>
<script type="application/json" id="game-data">{payload}</script>
<script>{tiles_script()}{_SCRIPT}{STEPPER_SCRIPT}
fillTiles(document.getElementById('result'));</script>""")


def write_game_page(record: Mapping[str, Any], path: Path, title: str = "", *,
                    back: tuple[str, str] | None = None,
                    stderr: Mapping[int, str] | None = None) -> None:
    view = view_of(record)
    path.write_text(game_page(view, title or f"NOI 2014 game {record.get('about', '')}",
                              back, stderr), encoding="utf-8")


def replay(args: CommandArgs) -> int:
    from rich.console import Console

    from server.output.paths import output_file

    path: Path = args["path"]
    record = read_record(path)
    console = Console(emoji=False, soft_wrap=True, highlight=False)
    if args["html_out"] is not None:
        write_game_page(record, output_file(args["html_out"], "--html"),
                        f"NOI 2014 game {path.name}")
        console.print(f"wrote {args['html_out']}", markup=False)
        return 0
    view = view_of(record)
    at = args.get("at")
    if at is not None:
        if not 0 <= at < len(view.steps):
            raise InputError(f"--at {at}: the game has steps 0 to {len(view.steps) - 1}")
        steps = [view.steps[at]]
    else:
        steps = view.steps
    for step in steps:
        for line in step_lines(view, step):
            console.print(line, markup=False)
    if at is None or at == len(view.steps) - 1:
        for line in result_lines(view):
            console.print(line, markup=False)
    return 0
