"""``server report`` for a turn-based ruleset's match folder: standings, every game's
result and a page per game, in one folder of static HTML. The ruleset gives how a
game is read, drawn as a page and told in one line."""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.seam.errors import InputError


@dataclass(frozen=True, slots=True)
class GamePage:
    """What a game's page shows besides its record: a link ``back`` to the match's page
    (href, text) and each seat's ``stderr`` (its last lines, for a fault)."""

    back: tuple[str, str] | None = None
    stderr: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReportKind:
    title: str  # "Botzone match"
    ruleset: str  # match.json's ruleset
    read_record: Callable[[Path], dict[str, Any]]
    write_game_page: Callable[[dict[str, Any], Path, GamePage], None]
    game_line: Callable[[Mapping[str, Any], Sequence[str]], str]
    points: str = "points"  # the standings' ranking column
    subtitle: Callable[[Mapping[str, Any]], str] = lambda meta: ""
    win_worth: str = "fan"  # what a win is worth, in the per-bot statistics' words


def table(head: list[str], rows: list[list[str]]) -> str:
    """HTML of a table; the cells are HTML already (escaped by the caller)."""
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def write_report(kind: ReportKind, root: Path, out: Path) -> int:
    """``server report``: the report, and a line saying what was written."""
    from rich.console import Console

    from server.output.paths import output_file

    written = write_report_files(kind, root, output_file(out, "--html"))
    Console(emoji=False, soft_wrap=True).print(f"wrote {out} and {written} game page(s)",
                                               markup=False)
    return 0


def write_report_files(kind: ReportKind, root: Path, out: Path, *, title: str = "",
                       back: tuple[str, str] | None = None) -> int:
    """The match's page at ``out`` and its games' pages beside it, each linking back to
    it; how many games. ``title``, ``back``: a tournament's table ("Round 2, table 3 —
    ...", a link up to the tournament)."""
    from server.output.pages import back_link, output_root, page, stderr_excerpt
    from server.output.stats_page import stats_section
    from server.turns.match import GAME_FILE, GAMES, MATCH_FILE

    try:
        meta: dict[str, Any] = json.loads((root / MATCH_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        meta = {}
    if not isinstance(meta, dict) or meta.get("ruleset") != kind.ruleset:
        raise InputError(f"{root} is not a {kind.title} folder (no match.json of the "
                         f"{kind.ruleset} ruleset)")
    names = [p["name"] for p in meta["players"]]
    pages = out.parent / (out.stem + "-games")
    pages.mkdir(parents=True, exist_ok=True)
    rows: list[list[str]] = []
    written = 0
    for plan in meta.get("plan", []):
        path = root / GAMES / f"{plan['number']:03d}" / GAME_FILE
        if not path.exists():
            continue
        record = kind.read_record(path)
        target = pages / f"game{plan['number']:03d}.html"
        stderr = {s: text for s in range(4)
                  if (text := stderr_excerpt(path.parent / f"seat{s}.stderr",
                                             base=output_root(root)))}
        kind.write_game_page(record, target,
                             GamePage((f"../{out.name}", title or "the match"), stderr))
        written += 1
        seated = [names[p] for p in plan["order"]]
        scores = record.get("scores") or []
        rows.append([f'<a href="{html.escape(pages.name)}/{target.name}">{plan["number"]}</a>',
                     html.escape(plan["label"]),
                     html.escape(" / ".join(seated)),
                     html.escape(kind.game_line(record, seated)),
                     html.escape(" ".join(f"{s:g}" for s in scores))])
    standing = meta.get("standings") or []
    body = [f"<p>{html.escape(kind.subtitle(meta))}format "
            f"{html.escape(str(meta.get('format', '')))}, seed {html.escape(str(meta.get('seed')))}"
            f"; {written} game(s)</p>"]
    if standing:
        body.append("<h2>Standings</h2>" + table(
            ["place", "player", kind.points, "score", "games", "wins", "penalties"],
            [[str(r["place"]), html.escape(r["name"]), f"{r['points']:g}", f"{r['score']:g}",
              str(r["games"]), str(r["wins"]), str(r["penalties"])] for r in standing]))
    else:
        body.append("<p>The match did not finish: no standings.</p>")
    body.append(stats_section(names, [p.get("stats") for p in meta["players"]], unit="games",
                              fan=kind.win_worth))
    body.append("<h2>Games</h2>" + table(["game", "wall, order", "seats 0-3", "result",
                                          "scores by seat"], rows))
    out.write_text(page(title or f"{kind.title} {root.name}",
                        back_link(back) + "\n".join(body)), encoding="utf-8")
    return written
