"""``server report`` for a Botzone match folder: standings, every game's result and a
page per game (``view.write_game_page``), in one folder of static HTML."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from rulesets.botzone.ruleset import game_line, is_match_folder, read_record
from server.errors import InputError


def _table(head: list[str], rows: list[list[str]]) -> str:
    """HTML of a table; the cells are HTML already (escaped by the caller)."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def write_report(root: Path, out: Path) -> int:
    """``server report``: the report, and a line saying what was written."""
    from rich.console import Console

    from server.paths import output_file

    written = write_report_files(root, output_file(out, "--html"))
    Console(emoji=False, soft_wrap=True).print(f"wrote {out} and {written} game page(s)",
                                               markup=False)
    return 0


def write_report_files(root: Path, out: Path) -> int:
    """The match's page at ``out`` and its games' pages beside it; how many games."""
    from rulesets.botzone.page import write_game_page
    from server.html_pages import page
    from server.turn_match import GAME_FILE, GAMES, MATCH_FILE

    if not is_match_folder(root):
        raise InputError(f"{root} is not a Botzone match folder (no match.json of the "
                         "botzone ruleset)")
    meta: dict[str, Any] = json.loads((root / MATCH_FILE).read_text(encoding="utf-8"))
    names = [p["name"] for p in meta["players"]]
    pages = out.parent / (out.stem + "-games")
    pages.mkdir(parents=True, exist_ok=True)
    rows: list[list[str]] = []
    written = 0
    for plan in meta.get("plan", []):
        path = root / GAMES / f"{plan['number']:03d}" / GAME_FILE
        if not path.exists():
            continue
        record = read_record(path)
        target = pages / f"game{plan['number']:03d}.html"
        write_game_page(record, target)
        written += 1
        seated = [names[p] for p in plan["order"]]
        scores = record.get("scores") or []
        rows.append([f'<a href="{html.escape(pages.name)}/{target.name}">{plan["number"]}</a>',
                     html.escape(plan["label"]),
                     html.escape(" / ".join(seated)),
                     html.escape(game_line(record, seated)),
                     html.escape(" ".join(str(s) for s in scores))])
    standing = meta.get("standings") or []
    body = [f"<p>{html.escape(meta.get('variant', ''))} variant, format "
            f"{html.escape(str(meta.get('format', '')))}, seed {html.escape(str(meta.get('seed')))}"
            f"; {written} game(s)</p>"]
    if standing:
        body.append("<h2>Standings</h2>" + _table(
            ["place", "player", "rank points", "score", "games", "wins", "penalties"],
            [[str(r["place"]), html.escape(r["name"]), f"{r['points']:g}", str(r["score"]),
              str(r["games"]), str(r["wins"]), str(r["penalties"])] for r in standing]))
    else:
        body.append("<p>The match did not finish: no standings.</p>")
    body.append("<h2>Games</h2>" + _table(["game", "wall, order", "seats 0-3", "result",
                                           "scores by seat"], rows))
    out.write_text(page(f"Botzone match {root.name}", "\n".join(body)), encoding="utf-8")
    return written


