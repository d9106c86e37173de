"""The tournament's standings as CSV, JSON and an HTML page.

``tournament.html`` is made to be projected: the standings' main columns (they fit
1280 px with a dozen long-named bots) with every other number a click away (a
``<details>``: confidence intervals, the rating's mu and sigma, draws, and in the
default ruleset fines and host stalls), a chart of each bot's rating after every
round (inline SVG: a colour, dash and marker per bot, its name at its line's end, a
legend; each round's label links to that round's tables), the head-to-head table,
every table with a link to its match report (written by the ruleset's
``match_report`` into ``matches/``, titled with its round and table and linking
back), and, folded away, each bot's programs in the order it handed them in (hashes
shortened, commands with paths relative to the output folder; ``standings.json``
has the same). A turn-based ruleset's page says games, not hands.

``standings.csv`` (with a byte-order mark), the per-hand or per-game CSV and the
JSON's typed settings and portable paths come from ``server.tournament.exports``;
a ruleset ranked by rank points (Botzone) gets a ``rank_points`` column.
"""

from __future__ import annotations

import csv
import html
import itertools
import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.output import stats_page
from server.output.pages import page, shown_paths, table_title
from server.output.paths import write_atomic
from server.seam.bot_stats import BotStats
from server.seam.registry import DEFAULT, load
from server.tournament.exports import (
    CSV_ENCODING,
    Portable,
    games_file,
    typed_settings,
    write_games_csv,
)
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow, Standing, Standings, tidy
from server.tournament.store import Entry, ProgramRow

COLUMNS = ("rank", "bot", "tables", "hands", "points", "per_hand", "ci_low", "ci_high",
           "duplicate", "rating", "mu", "sigma", "wins", "draws", "fines", "faults",
           "host_stalls", "bot_errors")
# Before "points" where the ruleset ranks by them (Botzone); always a key of the JSON rows
# (null where the ruleset ranks by points).
RANK_POINTS = "rank_points"
# The standings' headers on the page (the CSV and JSON keep the keys above).
HEADERS = {
    "rank_points": "rank points",
    "per_hand": "points per hand", "ci_low": "95% CI low", "ci_high": "95% CI high",
    "duplicate": "duplicate score", "host_stalls": "host stalls", "bot_errors": "bot errors",
}
# The chart's series: Okabe and Ito's colour-blind-safe palette (its yellow left out: too
# pale on the page), then the same hues again with dashes, dots, dash-dots.
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
DASHES = ("", "8 4", "2 3", "10 3 2 3")
MARKERS = ("circle", "square", "diamond", "triangle")


def _num(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 3)


def row_values(s: Standing) -> list[Any]:
    return [s.rank, s.name, s.tables, s.hands, tidy(s.points), _num(s.per_hand), _num(s.ci_low),
            _num(s.ci_high), _num(s.duplicate), _num(s.rating), _num(s.mu), _num(s.sigma),
            s.wins, s.draws, s.fines, s.faults, s.stalls, s.errors]


def columns_of(standings: Standings) -> tuple[str, ...]:
    """The standings' columns: ``COLUMNS``, with ``rank_points`` before ``points`` when the
    ruleset ranks by rank points."""
    if all(s.rank_points is None for s in standings.rows):
        return COLUMNS
    k = COLUMNS.index("points")
    return (*COLUMNS[:k], RANK_POINTS, *COLUMNS[k:])


def row_dict(s: Standing) -> dict[str, Any]:
    """One row of the standings by column, ``rank_points`` included (None: not ranked by them)."""
    rank_points = None if s.rank_points is None else tidy(s.rank_points)
    row: dict[str, Any] = {}
    for column, value in zip(COLUMNS, row_values(s), strict=True):
        if column == "points":
            row[RANK_POINTS] = rank_points
        row[column] = value
    return row


@dataclass(frozen=True, slots=True)
class Handed:
    """One program a bot played: from which table, at how many tables."""

    entry: int
    hash: str
    command: tuple[str, ...]
    first: tuple[int, int]  # (round, table)
    tables: int


def handed_in(programs: Sequence[ProgramRow]) -> list[Handed]:
    """Each bot's programs in the order it played them: a row per run of tables played
    with one program and command, so every row after a bot's first is a hand-in."""
    runs: dict[int, list[Handed]] = {}
    for p in sorted(programs, key=lambda p: (p.round, p.table, p.player)):
        mine = runs.setdefault(p.entry, [])
        if mine and (mine[-1].hash, mine[-1].command) == (p.hash, p.command):
            last = mine[-1]
            mine[-1] = Handed(last.entry, last.hash, last.command, last.first, last.tables + 1)
        else:
            mine.append(Handed(p.entry, p.hash, p.command, (p.round, p.table), 1))
    return [h for entry in sorted(runs) for h in runs[entry]]


def _table_label(round_: int, table: int) -> str:
    return f"r{round_:02d}-t{table:02d}"


def _short(digest: str) -> str:
    """``sha256:3f2a9c1b5d7e…``: enough to tell two programs apart."""
    return digest[:19] + "…"


@dataclass(frozen=True, slots=True)
class Machines:
    """Where the tables were played: per node (node, tables, host stalls), and each
    attempt lost with its node (round, table, attempt, node, reason)."""

    nodes: Sequence[tuple[str, int, int]] = ()
    replays: Sequence[tuple[int, int, int, str, str]] = ()

    def as_json(self) -> dict[str, Any]:
        return {"nodes": [{"node": n, "tables": k, "host_stalls": st}
                          for n, k, st in self.nodes],
                "replays": [{"round": r, "table": t, "attempt": a, "node": n, "reason": why}
                            for r, t, a, n, why in self.replays]}

    def html(self, stalls: bool = True) -> str:
        """Folded away; ``stalls``: the ruleset has host stalls (the default)."""
        esc = html.escape
        nodes = "".join(f"<tr><td>{esc(n or '?')}</td><td class=num>{k}</td>"
                        + (f"<td class=num>{st}</td>" if stalls else "") + "</tr>"
                        for n, k, st in self.nodes)
        lost = "".join(f"<li>round {r} table {t}, attempt {a} on {esc(n)}: {esc(why)}; "
                       "played again from its start</li>" for r, t, a, n, why in self.replays)
        return ("<details class='machines'><summary>Machines: where the tables were played"
                "</summary><table class='nodes'><tr><th>node</th><th class=num>tables</th>"
                + ("<th class=num>host stalls</th>" if stalls else "") + f"</tr>{nodes}</table>"
                + (f"<p>Tables played again because their node died:</p><ul>{lost}</ul>"
                   if lost else "") + "</details>")


def as_json(standings: Standings, entries: list[Entry], plans: list[TablePlan],
            meta: dict[str, str], links: dict[tuple[int, int], str],
            host_stalls: int, programs: Sequence[ProgramRow] = (),
            machines: Machines = Machines(), out: Path | None = None,
            sealed: Collection[str] = (), over: bool = True) -> dict[str, Any]:
    """standings.json: typed values, and no absolute path (``exports``; ``out`` is the
    output folder, which paths are given relative to); a sealed table's seed (its
    round's deals) and, until the tournament is ``over``, the tournament's seed left
    out (null)."""
    names = [e.name for e in entries]
    portable = Portable.of(out, meta)
    rules = load(meta.get("ruleset", DEFAULT))
    by_table: dict[tuple[int, int], list[ProgramRow]] = {}
    for row in programs:
        by_table.setdefault((row.round, row.table), []).append(row)
    settings = typed_settings(meta, portable)
    if not over and "seed" in settings:
        settings["seed"] = None
    return {
        "settings": settings,
        "standings": [row_dict(s) for s in standings.rows],
        "rating_history": [{names[e]: round(v, 3) for e, v in h.items()}
                           for h in standings.rating_history],
        "head_to_head": [{"bot": names[a], "opponent": names[b], "ahead": w, "level": d,
                          "behind": lo} for (a, b), (w, d, lo) in sorted(
                              standings.head_to_head.items())],
        "tables": [{"round": p.round, "table": p.table,
                    "seed": None if _table_label(p.round, p.table) in sealed else p.seed,
                    "players": [names[e] for e in p.players],
                    "programs": [{"bot": names[r.entry], "hash": r.hash,
                                  "command": portable.command(r.command, rules)}
                                 for r in by_table.get((p.round, p.table), [])],
                    "report": links.get((p.round, p.table))} for p in plans],
        "programs": [{"bot": names[h.entry], "hash": h.hash,
                      "command": portable.command(h.command, rules),
                      "from": _table_label(*h.first), "tables": h.tables}
                     for h in handed_in(programs)],
        "host_stalls": host_stalls,
        **machines.as_json(),
    }


def add_stats(data: dict[str, Any], standings: Standings, stats: Sequence[BotStats]) -> None:
    """Each standings row of ``data`` gains its bot's ``"stats"`` (when they are known)."""
    if not stats:
        return
    for row, s in zip(data["standings"], standings.rows, strict=True):
        row["stats"] = stats[s.entry].as_json() if s.entry < len(stats) else None


def stats_html(standings: Standings, entries: list[Entry], stats: Sequence[BotStats],
               ruleset: str) -> str:
    """The per-bot statistics section of tournament.html, in the standings' order."""
    if not stats:
        return ""
    rules = load(ruleset)
    rows = [s.entry for s in standings.rows if s.entry < len(stats)]
    return stats_page.stats_section([entries[e].name for e in rows],
                                    [stats[e].as_json() for e in rows],
                                    unit=rules.stats_unit, fan=rules.win_worth)


def write_csv(standings: Standings, path: Path) -> None:
    columns = columns_of(standings)
    with path.open("w", newline="", encoding=CSV_ENCODING) as f:
        w = csv.writer(f)
        w.writerow(columns)
        for s in standings.rows:
            row = row_dict(s)
            w.writerow(["" if row[c] is None else row[c] for c in columns])


def write_match_reports(out: Path, plans: list[TablePlan],
                        log_dirs: dict[tuple[int, int], Path],
                        ruleset: str = DEFAULT,
                        names: Sequence[str] = (),
                        sealed: Collection[str] = ()) -> dict[tuple[int, int], str]:
    """Each finished table's match report (kept if already written), by the tournament's
    ruleset, titled with its round, table and players and linking back to
    tournament.html; links relative to ``out``. A sealed table's waits (its hands'
    pages show deals other tables still play): it is written once its round is over."""
    rules = load(ruleset)
    links: dict[tuple[int, int], str] = {}
    for p in plans:
        if _table_label(p.round, p.table) in sealed:
            continue
        root = log_dirs.get((p.round, p.table))
        if root is None or not (root / "match.json").exists():
            continue
        page = out / "matches" / f"{root.name}.html"
        if not page.exists():
            who = [names[e] if e < len(names) else f"entry {e}" for e in p.players]
            rules.match_report(root, page, title=table_title(p.round, p.table, who),
                               back=("../tournament.html", "tournament standings"))
        links[(p.round, p.table)] = f"matches/{page.name}"
    return links


def series_style(k: int) -> tuple[str, str, str]:
    """The colour, dash pattern and marker of the k-th series (best bot first): seven
    hues, then the same hues dashed, dotted, dash-dotted."""
    return (COLOURS[k % len(COLOURS)], DASHES[(k // len(COLOURS)) % len(DASHES)],
            MARKERS[(k // len(COLOURS)) % len(MARKERS)])


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    if kind == "square":
        return (f"<rect x='{x - 3.5:.1f}' y='{y - 3.5:.1f}' width='7' height='7' "
                f"fill='{colour}' stroke='#fff'/>")
    if kind == "diamond":
        return (f"<polygon points='{x:.1f},{y - 4.5:.1f} {x + 4.5:.1f},{y:.1f} {x:.1f},"
                f"{y + 4.5:.1f} {x - 4.5:.1f},{y:.1f}' fill='{colour}' stroke='#fff'/>")
    if kind == "triangle":
        return (f"<polygon points='{x:.1f},{y - 4.5:.1f} {x + 4.5:.1f},{y + 3.5:.1f} "
                f"{x - 4.5:.1f},{y + 3.5:.1f}' fill='{colour}' stroke='#fff'/>")
    return f"<circle cx='{x:.1f}' cy='{y:.1f}' r='3.5' fill='{colour}' stroke='#fff'/>"


def _spread(ys: list[float], gap: float) -> list[float]:
    """Label heights moved apart, in order, so that no two are closer than ``gap``."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    out = list(ys)
    for a, b in itertools.pairwise(order):
        out[b] = max(out[b], out[a] + gap)
    return out


def _label(name: str, most: int = 28) -> str:
    """A name as the chart writes it at a line's end: cut to ``most`` characters."""
    return name if len(name) <= most else name[:most - 1] + "…"


def rating_chart(standings: Standings, names: list[str]) -> str:
    """Each bot's rating after each round as an inline SVG line chart: a colour, dash and
    marker per bot, its name at its line's end, lines that coincide drawn a little apart,
    and a legend in rank order."""
    history = standings.rating_history
    rows = [s.entry for s in standings.rows]
    # Room on the right for the longest name at a line's end (a very long one is cut,
    # the whole name is the line's tooltip and in the legend).
    longest = max((len(_label(names[e])) for e in rows), default=0)
    left, right, top, plot = 56, 40 + 8 * longest, 16, 300
    width = 720 + right
    values = [v for h in history for v in h.values()] or [0.0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    n = max(1, len(history))
    gap = 16.0
    height = max(plot + 2 * top + 24, int(top + gap * (len(rows) + 1)))

    def xy(i: int, v: float) -> tuple[float, float]:
        x = left + (width - left - right) * (i / max(1, n - 1))
        y = top + plot * (1 - (v - lo) / span)
        return x, y

    # Lines on top of one another would hide each other: at each round, points closer
    # than 3 px are drawn 3 px apart (in rank order), so every line and marker shows.
    shift: dict[tuple[int, int], float] = {}
    for i, h in enumerate(history):
        at = sorted((xy(i, h[e])[1], k, e) for k, e in enumerate(rows) if e in h)
        groups: list[list[int]] = []
        last = -math.inf
        for y, _, e in at:
            if y - last >= 3.0 or not groups:
                groups.append([])
            groups[-1].append(e)
            last = y
        for group in groups:
            for j, e in enumerate(group):
                shift[(i, e)] = (j - (len(group) - 1) / 2) * 3.0
    parts = [f"<line x1='{left}' x2='{width - right}' y1='{top + plot}' y2='{top + plot}' "
             "stroke='#999'/>",
             f"<text x='{left - 6}' y='{top + 4}' text-anchor='end'>{hi:.1f}</text>",
             f"<text x='{left - 6}' y='{top + plot + 4}' text-anchor='end'>{lo:.1f}</text>"]
    ends: list[tuple[int, float, float]] = []
    for k, e in enumerate(rows):
        colour, dash, marker = series_style(k)
        pts = [(x, y + shift[(i, e)]) for i, x, y in
               ((i, *xy(i, h[e])) for i, h in enumerate(history) if e in h)]
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        name = html.escape(names[e])
        dashed = f" stroke-dasharray='{dash}'" if dash else ""
        parts.append(f"<g class='series' data-bot='{name}'><title>{name}</title>"
                     f"<polyline class='rating' data-bot='{name}' fill='none' "
                     f"stroke='{colour}' stroke-width='2.5'{dashed} points='{line}'/>"
                     + "".join(_marker(marker, x, y, colour) for x, y in pts) + "</g>")
        if pts:
            ends.append((k, pts[-1][0], pts[-1][1]))
    placed = _spread([y for _, _, y in ends], gap)
    for (k, x, y), label_y in zip(ends, placed, strict=True):
        colour = series_style(k)[0]
        name = html.escape(_label(names[rows[k]]))
        parts.append(f"<line x1='{x + 5:.1f}' y1='{y:.1f}' x2='{x + 16:.1f}' "
                     f"y2='{label_y:.1f}' stroke='{colour}' stroke-width='1'/>"
                     f"<text class='end-label' x='{x + 19:.1f}' y='{label_y + 4:.1f}' "
                     f"fill='{colour}'>{name}</text>")
    for i in range(len(history)):
        x, _ = xy(i, lo)
        parts.append(f"<a href='#round-{i + 1}'><text x='{x:.1f}' y='{top + plot + 18}' "
                     f"text-anchor='middle'>round {i + 1}</text></a>")
    height = max(height, int(max(placed, default=0) + 10))
    svg = (f"<svg class='chart' viewBox='0 0 {width} {height}' width='{width}' "
           f"height='{height}' role='img' aria-label='rating after each round' "
           "style='max-width:100%;height:auto'>" + "".join(parts) + "</svg>")
    return svg + chart_legend(rows, names)


def chart_legend(rows: Sequence[int], names: Sequence[str]) -> str:
    """The chart's key: each bot's line and marker beside its name, in rank order."""
    items = []
    for k, e in enumerate(rows):
        colour, dash, marker = series_style(k)
        dashed = f" stroke-dasharray='{dash}'" if dash else ""
        items.append(f"<li><svg width='34' height='12' aria-hidden='true'><line x1='1' "
                     f"x2='33' y1='6' y2='6' stroke='{colour}' stroke-width='2.5'{dashed}/>"
                     f"{_marker(marker, 17, 6, colour)}</svg> {html.escape(names[e])}</li>")
    return f"<ul class='legend'>{''.join(items)}</ul>"


def unit_of(ruleset: str) -> str:
    """What a table of the ruleset plays: the default ruleset's hands, the turn-based
    rulesets' (Botzone, NOI 2014) games."""
    return "hand" if ruleset == DEFAULT else "game"


def _fmt(v: float, sign: bool = False, digits: int = 2) -> str:
    if math.isinf(v) or math.isnan(v):
        return "–"
    return f"{v:+.{digits}f}" if sign else f"{v:.{digits}f}"


_RANK_POINTS_TIP = ("IJCAI rank points: 4/3/2/1 for each wall by the bots' summed scores "
                    "on it (ties share the places' mean)")


def _rank_points(s: Standing) -> str:
    return "" if s.rank_points is None else str(tidy(s.rank_points))


_ERRORS_TIP = ("decisions the bot's own framework answered for after its code raised or "
               "answered illegally: no fault, but a bug to fix (its stderr says where)")


def main_columns(unit: str, rank_points: bool = False,
                 errors: bool = False) -> list[tuple[str, str, Any]]:
    """The standings' columns on the page itself, so that 12 bots fit 1280 px: (header,
    hover text, cell). The rest are one click away (``details_table``). ``rank_points``:
    the ruleset ranks by them (Botzone), shown before the points; ``errors``: a bot's
    framework answered for its code (``protocol.bot_errors``), shown after the faults."""
    return [
        ("#", "rank", lambda s: str(s.rank)),
        ("bot", "", lambda s: s.name),
        *([("rank points", _RANK_POINTS_TIP, _rank_points)] if rank_points else []),
        ("points", f"the sum over every {unit} played", lambda s: str(tidy(s.points))),
        (f"per {unit}", f"mean points per {unit}", lambda s: _fmt(s.per_hand, True)),
        ("duplicate", f"points per {unit} against the others who played the same deals "
                      "from the same seats", lambda s: _fmt(s.duplicate, True)),
        ("rating", "OpenSkill rating (a cautious estimate: see the details)",
         lambda s: _fmt(s.rating)),
        (f"{unit}s", f"{unit}s played", lambda s: str(s.hands)),
        ("won", f"{unit}s won", lambda s: str(s.wins)),
        ("faults", f"{unit}s where the bot faulted", lambda s: str(s.faults)),
        *([("bot errors", _ERRORS_TIP, lambda s: str(s.errors))] if errors else []),
    ]


def detail_columns(unit: str, rank_points: bool = False) -> list[tuple[str, Any]]:
    """Every number of a row, for the details: the ruleset's own words (a turn-based
    ruleset has no fines and no host stalls)."""
    cols: list[tuple[str, Any]] = [
        ("#", lambda s: str(s.rank)), ("bot", lambda s: s.name),
        ("tables", lambda s: str(s.tables)), (f"{unit}s", lambda s: str(s.hands)),
        *([("rank points", _rank_points)] if rank_points else []),
        ("points", lambda s: str(tidy(s.points))),
        (f"per {unit}", lambda s: _fmt(s.per_hand, True, 3)),
        ("95% CI low", lambda s: _fmt(s.ci_low, True, 2)),
        ("95% CI high", lambda s: _fmt(s.ci_high, True, 2)),
        ("duplicate", lambda s: _fmt(s.duplicate, True, 3)),
        ("rating", lambda s: _fmt(s.rating, False, 3)), ("mu", lambda s: _fmt(s.mu, False, 3)),
        ("sigma", lambda s: _fmt(s.sigma, False, 3)), ("won", lambda s: str(s.wins)),
        ("drawn", lambda s: str(s.draws)),
    ]
    if unit == "hand":
        cols.append(("fines", lambda s: str(s.fines)))
    cols.append(("faults", lambda s: str(s.faults)))
    if unit == "hand":
        cols.append(("bot errors", lambda s: str(s.errors)))
        cols.append(("host stalls", lambda s: str(s.stalls)))
    return cols


def _by_rank_points(standings: Standings) -> bool:
    return any(s.rank_points is not None for s in standings.rows)


def standings_html(standings: Standings, unit: str) -> str:
    """The standings: the main columns, then every column a click away."""
    esc = html.escape
    cols = main_columns(unit, _by_rank_points(standings),
                        any(s.errors for s in standings.rows))
    head = "".join(f"<th{'' if h == 'bot' else ' class=num'}"
                   + (f" title='{esc(tip)}'" if tip else "") + f">{esc(h)}</th>"
                   for h, tip, _ in cols)
    body = "".join("<tr>" + "".join(
        f"<td class=bot>{esc(cell(s))}</td>" if h == "bot" else
        f"<td class=num>{esc(cell(s))}</td>" for h, _, cell in cols) + "</tr>"
        for s in standings.rows)
    note = rating_note(standings, unit)
    return (f"<table class='standings'><thead><tr>{head}</tr></thead><tbody>{body}</tbody>"
            f"</table>\n" + (f"<p class='note rating-note'>{esc(note)}</p>\n" if note else "")
            + details_table(standings, unit))


def rating_note(standings: Standings, unit: str = "hand") -> str:
    """A word when the rating orders two bots the other way round from the ranking (the
    first such pair), saying why: "" when the two orders agree."""
    rows = standings.rows
    for i, above in enumerate(rows):
        for below in rows[i + 1:]:
            if below.rank > above.rank and below.rating > above.rating:
                by = "rank points" if _by_rank_points(standings) else "points"
                return (f"{below.name} has the higher rating though {above.name} ranks above "
                        f"it: the ranking sums {by} over every {unit}, while the rating "
                        "(OpenSkill) counts only each table's finishing order, and less "
                        "for a bot seen at fewer tables: a bot that often finishes ahead "
                        "by a little can rate above one that wins less often by more.")
    return ""


def details_table(standings: Standings, unit: str) -> str:
    """Every column of the standings, folded away: confidence intervals, the rating's
    mu and sigma, draws, and (the default ruleset) fines and host stalls."""
    esc = html.escape
    cols = detail_columns(unit, _by_rank_points(standings))
    head = "".join(f"<th{'' if h == 'bot' else ' class=num'}>{esc(h)}</th>" for h, _ in cols)
    body = "".join("<tr>" + "".join(
        f"<td class=bot>{esc(cell(s))}</td>" if h == "bot" else
        f"<td class=num>{esc(cell(s))}</td>" for h, cell in cols) + "</tr>"
        for s in standings.rows)
    extra = "fines, host stalls, " if unit == "hand" else ""
    return (f"<details class='standings-details'><summary>Every number: 95% confidence "
            f"intervals, the rating's mu and sigma, {unit}s drawn, {extra}tables</summary>"
            f"<p>Points per {unit}: the mean, with its 95% confidence interval. Duplicate: "
            f"points per {unit} against the others who played the same deals from the same "
            "seats (the luck of the deal cancels out). Rating: OpenSkill (Plackett-Luce), "
            "one update per table, shown as mu - 3 sigma."
            + (" Host stalls: answers not fined because the host was late." if unit == "hand"
               else "")
            + f"</p><div class='wide'><table class='standings-full'><thead><tr>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table></div></details>")


def relative_command(command: Sequence[str], out: Path | None) -> str:
    """A command as the page shows it: paths inside the output folder relative to it,
    any other absolute path shortened (``…/bin/python``), so no page names a folder of
    the machine it ran on."""
    return shown_paths(" ".join(command), out)


def programs_section(programs: Sequence[ProgramRow], names: list[str],
                     out: Path | None = None) -> str:
    """Each bot's programs, in the order it played them: the later ones are hand-ins;
    folded away (hashes and commands are for the curious), commands with paths relative
    to ``out``."""
    esc = html.escape
    rows = handed_in(programs)
    if not rows:
        return ""
    count = {h.entry: 0 for h in rows}
    body = []
    for h in rows:
        count[h.entry] += 1
        note = "entered" if count[h.entry] == 1 else f"hand-in {count[h.entry] - 1}"
        body.append(f"<tr><td>{esc(names[h.entry])}</td><td>{note}</td>"
                    f"<td><code class=hash title='{esc(h.hash)}'>{esc(_short(h.hash))}</code>"
                    f"</td><td class=num>{_table_label(*h.first)}</td>"
                    f"<td class=num>{h.tables}</td><td><code>"
                    f"{esc(relative_command(h.command, out))}</code></td></tr>")
    handed = sum(1 for c in count.values() if c > 1)
    return (f"<details class='programs'><summary>Programs and hand-ins: {handed} bot(s) "
            "handed in a new program or command while the tournament ran</summary><p>Each "
            "bot's programs in the order it played them. The hash (sha256 of the program's "
            "files, shortened) is of the copy each table played.</p><div class='wide'>"
            "<table class=programs><tr><th>bot</th><th></th><th>program"
            "</th><th class=num>from table</th><th class=num>tables</th><th>command</th>"
            "</tr>" + "".join(body) + "</table></div></details>")


# The tournament page's own look, beside the shared one: the standings fit 1280 px,
# wide tables (folded away) scroll inside their box rather than widening the page.
_TOURNAMENT_STYLE = """
table.standings td.bot, table.standings-full td.bot { max-width: 18em;
  overflow-wrap: anywhere; }
table.standings { font-size: 1.05em; }
div.wide { max-width: 100%; overflow-x: auto; }
details { margin: .6em 0; } summary { cursor: pointer; color: #1a5276; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .3em 1.2em; }
ul.legend svg { vertical-align: middle; }
svg.chart text { font-size: 13px; }
ul.tables li { margin: .15em 0; }
table.h2h td { white-space: nowrap; }
"""


def html_page(standings: Standings, entries: list[Entry], plans: list[TablePlan],
              meta: dict[str, str], links: dict[tuple[int, int], str], host_stalls: int,
              programs: Sequence[ProgramRow] = (), machines: Machines = Machines(),
              out: Path | None = None, stats_section: str = "", over: bool = True) -> str:
    """tournament.html: what a class reads on a projector first (standings, chart,
    tables), the rest a click away; no path of the machine (``out``: the folder paths are
    shown relative to) and no hash on the main view; ``stats_section``: the per-bot
    statistics, under the standings; until the tournament is ``over``, no seed."""
    names = [e.name for e in entries]
    esc = html.escape
    unit = unit_of(meta.get("ruleset", DEFAULT))
    order = [s.entry for s in standings.rows]
    rank_of = {s.entry: s.rank for s in standings.rows}
    # Columns headed by rank (the name on hover): twelve long names would not fit.
    h2h_head = "".join(f"<th class=num title='{esc(names[e])}'>#{rank_of[e]}</th>"
                       for e in order)
    h2h_rows = []
    for a in order:
        cells = []
        for b in order:
            w, d, lo = standings.head_to_head.get((a, b), (0, 0, 0))
            cells.append("<td class=num>-</td>" if a == b else f"<td class=num>{w}-{d}-{lo}</td>")
        h2h_rows.append(f"<tr><th>#{rank_of[a]} {esc(names[a])}</th>{''.join(cells)}</tr>")
    rounds: dict[int, list[str]] = {}
    for p in plans:
        link = links.get((p.round, p.table))
        label = f"table {p.table}"
        cell = f"<a class='match' href='{esc(link)}'>{label}</a>" if link else label
        who = ", ".join(esc(names[e]) if e < len(names) else "?" for e in p.players)
        rounds.setdefault(p.round, []).append(f"<li>{cell}: {who}</li>")
    tables = "".join(f"<h3 id='round-{r}'>Round {r}</h3><ul class='tables'>{''.join(items)}"
                     "</ul>" for r, items in sorted(rounds.items()))
    title = f"{meta.get('title') or 'Tournament'} ({meta.get('format', '')}" + \
        (f", seed {meta.get('seed', '')})" if over else ")")
    stalls = f"; host stalls: {host_stalls}" if unit == "hand" else ""
    return page(title, f"""<style>{_TOURNAMENT_STYLE}</style>
<p>{len(plans)} tables{stalls}. Points: the sum over every {unit}. Duplicate: points per
{unit} against the others who played the same deals from the same seats. Rating: a
cautious skill estimate from every table's order. Hover over a header for more.</p>
<h2>Standings</h2>
{standings_html(standings, unit)}
{stats_section}
<h2>Rating after each round</h2>
{rating_chart(standings, names)}
<h2>Head to head</h2>
<p>Tables ahead-level-behind, row against column.</p>
<div class='wide'><table class="h2h"><tr><th></th>{h2h_head}</tr>{''.join(h2h_rows)}</table></div>
<h2>Tables</h2>
{tables}
{programs_section(programs, names, out)}
{machines.html(stalls=unit == "hand")}""")


def write_reports(out: Path, standings: Standings, entries: list[Entry],
                  plans: list[TablePlan], meta: dict[str, str],
                  log_dirs: dict[tuple[int, int], Path], host_stalls: int,
                  programs: Sequence[ProgramRow] = (),
                  machines: Machines = Machines(),
                  games: Sequence[tuple[HandRow, str]] | None = None,
                  stats: Sequence[BotStats] = (), sealed: Collection[str] = (),
                  over: bool = True) -> list[Path]:
    """standings.csv, standings.json, tournament.html and each match's report in ``out``;
    with ``games`` (every hand or game row and its result) hands.csv or games.csv too;
    ``stats``: each entry's per-bot statistics (``server.tournament.bot_stats``).
    ``sealed`` tables (``server.tournament.sealed``) get no report nor per-hand rows and
    no seed; the tournament's seed waits until it is ``over``."""
    ruleset = meta.get("ruleset", DEFAULT)
    links = write_match_reports(out, plans, log_dirs, ruleset, [e.name for e in entries],
                                sealed)
    if games is not None and sealed:
        games = [g for g in games if _table_label(g[0].round, g[0].table) not in sealed]
    write_csv(standings, out / "standings.csv")
    written = []
    if games is not None:
        written.append(out / games_file(ruleset))
        write_games_csv(written[0], games, [e.name for e in entries],
                        [e.fill_in for e in entries], ruleset)
    data = as_json(standings, entries, plans, meta, links, host_stalls, programs, machines,
                   out, sealed, over)
    add_stats(data, standings, stats)
    write_atomic(out / "standings.json", json.dumps(data, indent=1))
    section = stats_html(standings, entries, stats, ruleset)
    write_atomic(out / "tournament.html",
                 html_page(standings, entries, plans, meta, links, host_stalls, programs,
                           machines, out, section, over))
    return [out / "standings.csv", *written, out / "standings.json", out / "tournament.html"]
