"""The tournament's standings as CSV, JSON and an HTML page.

``tournament.html`` holds the standings, a chart of each bot's rating after
every round (inline SVG; each round's marker links to that round's tables),
the head-to-head table, every table with a link to its match report
(written by ``rulesets.default.pages.write_match_report`` into ``matches/``) and
the hash of the program each player played it with, and each bot's programs
in the order it handed them in (``programs``; ``standings.json`` has the same).
"""

from __future__ import annotations

import csv
import html
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.output import stats_page
from server.output.pages import page
from server.seam.bot_stats import BotStats
from server.seam.registry import DEFAULT, load
from server.tournament.schedule import TablePlan
from server.tournament.standings import Standing, Standings, tidy
from server.tournament.store import Entry, ProgramRow

COLUMNS = ("rank", "bot", "tables", "hands", "points", "per_hand", "ci_low", "ci_high",
           "duplicate", "rating", "mu", "sigma", "wins", "draws", "fines", "faults",
           "host_stalls")
# The standings' headers on the page (the CSV and JSON keep the keys above).
HEADERS = {
    "per_hand": "points per hand", "ci_low": "95% CI low", "ci_high": "95% CI high",
    "duplicate": "duplicate score", "host_stalls": "host stalls",
}
COLOURS = ("#c0392b", "#2471a3", "#1e8449", "#b9770e", "#7d3c98", "#117a65", "#a04000",
           "#2e4053", "#d4ac0d", "#cb4335", "#5dade2", "#58d68d")


def _num(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 3)


def row_values(s: Standing) -> list[Any]:
    return [s.rank, s.name, s.tables, s.hands, tidy(s.points), _num(s.per_hand), _num(s.ci_low),
            _num(s.ci_high), _num(s.duplicate), _num(s.rating), _num(s.mu), _num(s.sigma),
            s.wins, s.draws, s.fines, s.faults, s.stalls]


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

    def html(self) -> str:
        esc = html.escape
        nodes = "".join(f"<tr><td>{esc(n or '?')}</td><td class=num>{k}</td>"
                        f"<td class=num>{st}</td></tr>" for n, k, st in self.nodes)
        lost = "".join(f"<li>round {r} table {t}, attempt {a} on {esc(n)}: {esc(why)}; "
                       "played again from its start</li>" for r, t, a, n, why in self.replays)
        return ("<h2>Machines</h2><table class='nodes'><tr><th>node</th>"
                f"<th class=num>tables</th><th class=num>host stalls</th></tr>{nodes}</table>"
                + (f"<p>Tables played again because their node died:</p><ul>{lost}</ul>"
                   if lost else ""))


def as_json(standings: Standings, entries: list[Entry], plans: list[TablePlan],
            meta: dict[str, str], links: dict[tuple[int, int], str],
            host_stalls: int, programs: Sequence[ProgramRow] = (),
            machines: Machines = Machines()) -> dict[str, Any]:
    names = [e.name for e in entries]
    by_table: dict[tuple[int, int], list[ProgramRow]] = {}
    for row in programs:
        by_table.setdefault((row.round, row.table), []).append(row)
    return {
        "settings": meta,
        "standings": [dict(zip(COLUMNS, row_values(s), strict=True)) for s in standings.rows],
        "rating_history": [{names[e]: round(v, 3) for e, v in h.items()}
                           for h in standings.rating_history],
        "head_to_head": [{"bot": names[a], "opponent": names[b], "ahead": w, "level": d,
                          "behind": lo} for (a, b), (w, d, lo) in sorted(
                              standings.head_to_head.items())],
        "tables": [{"round": p.round, "table": p.table, "seed": p.seed,
                    "players": [names[e] for e in p.players],
                    "programs": [{"bot": names[r.entry], "hash": r.hash,
                                  "command": list(r.command)}
                                 for r in by_table.get((p.round, p.table), [])],
                    "report": links.get((p.round, p.table))} for p in plans],
        "programs": [{"bot": names[h.entry], "hash": h.hash, "command": list(h.command),
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
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(COLUMNS)
        for s in standings.rows:
            w.writerow(["" if v is None else v for v in row_values(s)])


def write_match_reports(out: Path, plans: list[TablePlan],
                        log_dirs: dict[tuple[int, int], Path],
                        ruleset: str = DEFAULT) -> dict[tuple[int, int], str]:
    """Each finished table's match report (kept if already written), by the tournament's
    ruleset; links relative to ``out``."""
    rules = load(ruleset)
    links: dict[tuple[int, int], str] = {}
    for p in plans:
        root = log_dirs.get((p.round, p.table))
        if root is None or not (root / "match.json").exists():
            continue
        page = out / "matches" / f"{root.name}.html"
        if not page.exists():
            rules.match_report(root, page)
        links[(p.round, p.table)] = f"matches/{page.name}"
    return links


def rating_chart(standings: Standings, names: list[str]) -> str:
    """Each bot's rating after each round as an inline SVG line chart."""
    history = standings.rating_history
    width, plot, pad = 760, 320, 44
    rows = [s.entry for s in standings.rows]
    height = plot + 18 * len(rows)
    values = [v for h in history for v in h.values()] or [0.0]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    n = max(1, len(history))

    def xy(i: int, v: float) -> tuple[float, float]:
        x = pad + (width - 2 * pad) * (i / max(1, n - 1))
        y = plot - pad - (plot - 2 * pad) * ((v - lo) / span)
        return x, y

    parts = []
    for k, e in enumerate(rows):
        colour = COLOURS[k % len(COLOURS)]
        pts = [xy(i, h[e]) for i, h in enumerate(history) if e in h]
        line = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        parts.append(f"<polyline class='rating' data-bot='{html.escape(names[e])}' fill='none' "
                     f"stroke='{colour}' stroke-width='2' points='{line}'>"
                     f"<title>{html.escape(names[e])}</title></polyline>")
        parts.append(f"<text x='{pad}' y='{plot + 18 * k}' fill='{colour}'>"
                     f"{html.escape(names[e])}</text>")
    for i in range(len(history)):
        x, _ = xy(i, lo)
        parts.append(f"<a href='#round-{i + 1}'><text x='{x:.1f}' y='{plot - pad + 16}' "
                     f"text-anchor='middle'>round {i + 1}</text></a>")
    return (f"<svg class='chart' width='{width}' height='{height}' role='img' "
            f"aria-label='rating after each round'>"
            f"<text x='4' y='{pad}'>{hi:.1f}</text><text x='4' y='{plot - pad}'>{lo:.1f}</text>"
            + "".join(parts) + "</svg>")


def programs_section(programs: Sequence[ProgramRow], names: list[str]) -> str:
    """Each bot's programs, in the order it played them: the later ones are hand-ins."""
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
                    f"<td class=num>{h.tables}</td><td><code>{esc(' '.join(h.command))}"
                    "</code></td></tr>")
    handed = sum(1 for c in count.values() if c > 1)
    return (f"<h2>Programs and hand-ins</h2><p>Each bot's programs in the order it played "
            f"them; {handed} bot(s) handed in a new program or command while the "
            "tournament ran. The hash (sha256 of the program's files) is of the copy each "
            "table played.</p><table class=programs><tr><th>bot</th><th></th><th>program"
            "</th><th class=num>from table</th><th class=num>tables</th><th>command</th>"
            "</tr>" + "".join(body) + "</table>")


def html_page(standings: Standings, entries: list[Entry], plans: list[TablePlan],
              meta: dict[str, str], links: dict[tuple[int, int], str], host_stalls: int,
              programs: Sequence[ProgramRow] = (), machines: Machines = Machines(),
              stats_section: str = "") -> str:
    names = [e.name for e in entries]
    esc = html.escape
    played = {(r.round, r.table, r.entry): r.hash for r in programs}
    head = "".join(f"<th{'' if c == 'bot' else ' class=num'}>{esc(HEADERS.get(c, c))}</th>"
                   for c in COLUMNS)
    body = "".join(
        "<tr>" + "".join(f"<td{'' if c == 'bot' else ' class=num'}>"
                         f"{esc('' if v is None else str(v))}</td>"
                         for c, v in zip(COLUMNS, row_values(s), strict=True))
        + "</tr>" for s in standings.rows)
    order = [s.entry for s in standings.rows]
    h2h_head = "".join(f"<th>{esc(names[e])}</th>" for e in order)
    h2h_rows = []
    for a in order:
        cells = []
        for b in order:
            w, d, lo = standings.head_to_head.get((a, b), (0, 0, 0))
            cells.append("<td class=num>-</td>" if a == b else f"<td class=num>{w}-{d}-{lo}</td>")
        h2h_rows.append(f"<tr><th>{esc(names[a])}</th>{''.join(cells)}</tr>")
    rounds: dict[int, list[str]] = {}
    for p in plans:
        link = links.get((p.round, p.table))
        label = f"table {p.table}"
        cell = f"<a class='match' href='{esc(link)}'>{label}</a>" if link else label
        who = ", ".join(esc(names[e]) + (
            f" <code class=hash title='{esc(h)}'>{esc(_short(h))}</code>"
            if (h := played.get((p.round, p.table, e))) else "") for e in p.players)
        rounds.setdefault(p.round, []).append(f"<li>{cell}: {who}</li>")
    tables = "".join(f"<h3 id='round-{r}'>Round {r}</h3><ul>{''.join(items)}</ul>"
                     for r, items in sorted(rounds.items()))
    title = f"Tournament ({meta.get('format', '')}, seed {meta.get('seed', '')})"
    return page(title, f"""<p>{len(plans)} tables; host stalls (answers not fined because
the host was late): {host_stalls}. Points per hand: the mean, with its 95% confidence
interval. Duplicate score: points per hand against the others who played the same
deals from the same seats. Rating: OpenSkill (Plackett-Luce) mu - 3 sigma.
Head to head: tables ahead-level-behind.</p>
<h2>Standings</h2>
<table class="standings"><tr>{head}</tr>{body}</table>
{stats_section}
<h2>Rating after each round</h2>
{rating_chart(standings, names)}
<h2>Head to head</h2>
<table class="h2h"><tr><th></th>{h2h_head}</tr>{''.join(h2h_rows)}</table>
<h2>Tables</h2>
{tables}
{programs_section(programs, names)}
{machines.html()}""")


def write_reports(out: Path, standings: Standings, entries: list[Entry],
                  plans: list[TablePlan], meta: dict[str, str],
                  log_dirs: dict[tuple[int, int], Path], host_stalls: int,
                  programs: Sequence[ProgramRow] = (),
                  machines: Machines = Machines(),
                  stats: Sequence[BotStats] = ()) -> list[Path]:
    """standings.csv, standings.json, tournament.html and each match's report in ``out``;
    ``stats``: each entry's per-bot statistics (``server.tournament.bot_stats``)."""
    links = write_match_reports(out, plans, log_dirs, meta.get("ruleset", DEFAULT))
    write_csv(standings, out / "standings.csv")
    data = as_json(standings, entries, plans, meta, links, host_stalls, programs, machines)
    add_stats(data, standings, stats)
    (out / "standings.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    section = stats_html(standings, entries, stats, meta.get("ruleset", DEFAULT))
    (out / "tournament.html").write_text(
        html_page(standings, entries, plans, meta, links, host_stalls, programs, machines,
                  section),
        encoding="utf-8")
    return [out / "standings.csv", out / "standings.json", out / "tournament.html"]
