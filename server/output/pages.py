"""The page skeleton every self-contained HTML page shares: its look, and stepping.

Every ruleset's pages (a hand or a game to step through, a match report) and the
tournament's report are built on ``page``; a page that steps through a game uses
``STEP_CONTROLS`` and ``STEPPER_SCRIPT``, and a page that shows tiles
``tiles_script`` (the SVG faces of ``server.output.tiles``, drawn in the browser).
No network, no server and no font: each page carries its data, its script and its
tiles, and Chinese is drawn as glyph paths (``tiles.chinese_svg``).

May import: server.output.tiles.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from server.output.tiles import tiles_js

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; background: #f6f5ef; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.1em; margin-top: 1.5em; }
.controls { display: flex; gap: .5em; align-items: center; margin: 1em 0; }
.controls input[type=range] { flex: 1; max-width: 40em; }
.seat { background: #fff; border: 1px solid #ccc; border-radius: 6px; padding: .5em .8em;
        margin: .4em 0; }
.seat.actor { border-color: #c33; box-shadow: 0 0 0 2px #f2c0c0; }
.label { font-weight: bold; display: inline-block; min-width: 7em; }
.row { margin: .25em 0; min-height: 2.2em; }
.tile { display: inline-block; margin: 1px; vertical-align: middle; line-height: 0; }
.tile svg { display: block; }
.melds .tile svg, .river .tile svg { width: 24px; height: 32px; }
.tile.drawn { margin-left: .8em; outline: 3px solid #c33; border-radius: 4px; }
svg.zh { display: inline-block; }
.meld { display: inline-block; margin-right: .8em; padding: 1px 3px; background: #e8e4d4;
        border-radius: 4px; }
.note { font-size: 1.05em; margin: .5em 0; }
.fault-box { background: #fdecea; border: 2px solid #b22; border-radius: 6px;
             padding: .4em .8em; margin: .5em 0; }
.fault-box pre, pre.stderr { background: #fff; border: 1px solid #e3b3ad; padding: .3em .5em;
             max-height: 14em; overflow: auto; white-space: pre-wrap; font-size: .85em; }
.late-box { background: #fef5e7; border: 2px solid #d68910; border-radius: 6px;
             padding: .3em .8em; margin: .5em 0; }
.seat.faulted .label::after { content: " (faulted: autoplayed)"; color: #b22;
             font-weight: normal; }
p.back { margin: 0 0 .5em; }
table { border-collapse: collapse; background: #fff; }
td, th { border: 1px solid #ccc; padding: .2em .5em; }
th { background: #e8e4d4; font-weight: 600; } td.num, th.num { text-align: right; }
a { color: #1a5276; }
"""


def page(title: str, body: str) -> str:
    """A self-contained page with the reports' look: ``title`` is plain text, ``body`` HTML.

    The hand pages, the match report and the tournament report all use it.
    """
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>{STYLE}</style></head><body>
<h1>{html.escape(title)}</h1>
{body}
</body></html>
"""

def back_link(back: tuple[str, str] | None) -> str:
    """A link back up (``(href, text)``: to the tournament, to the match), or nothing."""
    if back is None:
        return ""
    href, text = back
    return (f"<p class='back'><a href='{html.escape(href, quote=True)}'>&larr; "
            f"{html.escape(text)}</a></p>")


# An absolute path: a slash not inside a word, a relative path or a URL ("http://").
_ABSOLUTE = re.compile(r"(?<![\w./])/(?!/)[^\s'\"<>:;,()]+")


def shown_paths(text: str, base: Path | None) -> str:
    """``text`` with no folder of the machine in it: a path under ``base`` (the output
    folder) relative to it, any other absolute path by its last two parts after "…/"."""
    def shown(match: re.Match[str]) -> str:
        path = Path(match.group(0))
        if base is not None:
            for root in (base, base.resolve()):
                if path.is_relative_to(root):
                    return path.relative_to(root).as_posix() or "."
        return "…/" + "/".join(path.parts[-2:]) if len(path.parts) > 2 else match.group(0)

    return _ABSOLUTE.sub(shown, text)


def output_root(match: Path) -> Path:
    """The output folder a match folder's pages name paths from: the tournament's
    (the nearest folder above holding tournament.sqlite), else the match's parent."""
    for folder in list(match.parents)[:3]:
        if (folder / "tournament.sqlite").exists():
            return folder
    return match.parent


def stderr_excerpt(path: Path, lines: int = 12, limit: int = 2048,
                   base: Path | None = None) -> str:
    """The last ``lines`` lines of a bot's stderr file (its last ``limit`` bytes at most,
    decoded with replacement), or "" when it has none; paths as ``shown_paths`` shows
    them from ``base``. Plain text: escape it to show."""
    try:
        with path.open("rb") as f:
            f.seek(0, 2)
            size = f.tell()
            f.seek(max(0, size - limit))
            tail = f.read()
    except OSError:
        return ""
    text = tail.decode("utf-8", errors="replace")
    if size > limit:
        text = text.split("\n", 1)[-1] if "\n" in text else text
    return shown_paths("\n".join(text.rstrip().splitlines()[-lines:]), base)


def table_title(round_: int, table: int, names: list[str]) -> str:
    """A tournament table's page title: "Round 2, table 3 — alice, bob, carol, dave"."""
    return f"Round {round_}, table {table} — {', '.join(names)}"


# A fault shown at the step where it happened: ``showFaults(i)`` fills ``#faults`` from
# ``data.faults`` ([{step, seat, name, cause, stderr}]), as text (nothing a bot wrote is
# read as HTML).
FAULTS_SCRIPT = r"""
function showFaults(i) {
  const faults = document.getElementById('faults'); faults.textContent = '';
  for (const f of data.faults) {
    if (f.step !== i) continue;
    const box = document.createElement('div'); box.className = 'fault-box';
    const what = document.createElement('strong');
    what.textContent = 'Fault: ' + f.name + ': ' + f.cause;
    box.appendChild(what);
    if (f.stderr) {
      const said = document.createElement('div'); said.textContent = 'its stderr ends:';
      const pre = document.createElement('pre'); pre.textContent = f.stderr;
      box.appendChild(said); box.appendChild(pre);
    }
    faults.appendChild(box);
  }
}
"""

# The step controls' markup (the ids STEPPER_SCRIPT uses), and a step number and link.
STEP_CONTROLS = """<div class="controls">
<button id="first" title="Home">« first</button><button id="prev" title="Left arrow">‹ prev</button>
<input type="range" id="step" min="0" value="0">
<button id="next" title="Right arrow">next ›</button><button id="last" title="End">last »</button>
<span>step <span id="stepno"></span></span>
</div>"""

# The step controls every stepping page shares: buttons, slider, arrow/Home/End keys and
# #step=N in the address. It needs ``data.steps``, ``slider`` and ``render(i)``.
STEPPER_SCRIPT = r"""
let current = 0;
// The address says the step (#step=N), so a step can be linked to and reloaded.
function fromHash() {
  const m = /^#step=(\d+)$/.exec(location.hash);
  return m ? parseInt(m[1], 10) : 0;
}
function go(i) {
  current = Math.max(0, Math.min(data.steps.length - 1, i));
  render(current);
  if (location.hash !== '#step=' + current) history.replaceState(null, '', '#step=' + current);
}
window.addEventListener('hashchange', () => go(fromHash()));
document.getElementById('first').onclick = () => go(0);
document.getElementById('prev').onclick = () => go(current - 1);
document.getElementById('next').onclick = () => go(current + 1);
document.getElementById('last').onclick = () => go(data.steps.length - 1);
slider.oninput = () => go(parseInt(slider.value, 10));
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowRight') go(current + 1);
  else if (e.key === 'ArrowLeft') go(current - 1);
  else if (e.key === 'Home') go(0);
  else if (e.key === 'End') go(data.steps.length - 1);
});
go(fromHash());
"""


def tiles_script(height: int = 40) -> str:
    """The script that draws tiles in the browser: ``FACES`` (each tile code's SVG face,
    ``height`` pixels high), ``tileEl(code, extra, title)`` (a ``span.tile`` holding the
    face; ``extra`` adds classes, ``title`` adds to the tooltip) and ``fillTiles(root)``
    (draws the face of every ``[data-tile]`` element under ``root`` that is empty).

    Codes are Botzone's notation (``server.output.tiles.TILE_CODES``); an unknown code is
    shown as written.
    """
    return f"""
const FACES = {tiles_js(height=height)};
function drawFace(el, code, title) {{
  if (FACES[code] === undefined) {{ el.textContent = code; return; }}
  el.innerHTML = FACES[code];
  if (title) el.querySelector('title').textContent += ' · ' + title;
}}
function tileEl(code, extra, title) {{
  const el = document.createElement('span');
  el.className = 'tile' + (extra ? ' ' + extra : '');
  el.dataset.tile = code;
  drawFace(el, code, title);
  return el;
}}
function fillTiles(root) {{
  for (const el of root.querySelectorAll('[data-tile]')) {{
    if (!el.firstChild) drawFace(el, el.dataset.tile, el.dataset.title);
  }}
}}
"""
