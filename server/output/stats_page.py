"""Per-bot statistics as a compact HTML table, for the tournament's page and every
ruleset's match report: one row per bot, from the ``"stats"`` objects that
standings.json and match.json hold (``server.seam.bot_stats.BotStats.as_json``).
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any

# Fits 1280 px (a projector) with every column: the numbers stay on one line, while
# the headers, the histograms and the fault counts wrap and a long name is cut (whole on
# hover), so a bot with thirty kinds of fan widens nothing.
STYLE = ("<style>table.botstats td, table.botstats th{padding:2px 6px;white-space:nowrap}"
         "table.botstats th{white-space:normal;vertical-align:bottom}"
         "table.botstats .small{font-size:85%}"
         "table.botstats td.small{white-space:normal;min-width:7em;max-width:13em}"
         "table.botstats td.name{max-width:10em;overflow:hidden;text-overflow:ellipsis}"
         "</style>")


def _num(value: Any, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _ms(value: Any) -> str:
    """Milliseconds: a tenth below 100 ms, whole beyond (1235, not 1234.5)."""
    return _num(value, 1 if isinstance(value, float) and value < 100 else 0)


def _pairs(counts: Mapping[str, int], sep: str) -> str:
    """``k{sep}v`` for each count, escaped; a line breaks between pairs, never inside one."""
    return " ".join(f"<span style='white-space:nowrap'>{html.escape(f'{k}{sep}{v}')}</span>"
                    for k, v in counts.items()) or "–"


def stats_section(names: Sequence[str], stats: Sequence[Mapping[str, Any] | None], *,
                  unit: str = "hands", fan: str = "fan", heading: str = "h2") -> str:
    """The table of ``stats`` (one per name, None for a bot without any); ``unit`` is what
    the ruleset plays ("hands", "games"), ``fan`` what a win is worth in its words."""
    esc = html.escape
    rows = []
    for name, s in zip(names, stats, strict=True):
        if s is None:
            continue
        times = s.get("answer_ms") or {}
        answer = ("–" if not times else
                  f"{_ms(times['median'])} / {_ms(times['p95'])} / {_ms(times['max'])}")
        rows.append(
            f"<tr><td class=name title='{esc(name)}'>{esc(name)}</td>"
            f"<td class=num>{s['games']}</td>"
            f"<td class=num>{s['wins']}</td><td class=num>{s['self_drawn']}</td>"
            f"<td class=num>{s['on_discard']}</td><td class=num>{s['dealt_in']}</td>"
            f"<td class=num>{s['claims']}</td><td class=num>{_num(s['mean_fan'], 2)}</td>"
            f"<td class=small>{_pairs(s['fan_histogram'], '×')}</td>"
            f"<td class=small>{_pairs(s['faults'], ' ')}</td>"
            f"<td class=num>{esc(answer)}</td><td class=num>{_num(s['peak_memory_mb'])}</td>"
            f"<td class=num>{_num(s['cpu_seconds'], 2)}</td></tr>")
    if not rows:
        return ""
    return (f"{STYLE}<{heading}>Bot statistics</{heading}><p class=small>Won: self-drawn + on "
            f"another's tile (a discard or a robbed kong). Dealt in: another won on the bot's "
            f"tile. Claims: chows, pungs and kongs made of a discard. {esc(fan.capitalize())}"
            f" histogram: {esc(fan)} × wins. Faults by kind. Answer time: median / p95 / max "
            "of every answer. Peak memory: the most its processes used at once; CPU: their "
            f"user and system time, over all its {esc(unit)}.</p>"
            f"<table class=botstats><tr><th>bot</th><th class=num>{esc(unit)}</th>"
            "<th class=num>won</th><th class=num>self-drawn</th><th class=num>on discard</th>"
            f"<th class=num>dealt in</th><th class=num>claims</th>"
            f"<th class=num>mean {esc(fan)}</th><th>{esc(fan)} × wins</th><th>faults</th>"
            "<th class=num>answer ms</th><th class=num>peak MB</th><th class=num>CPU s</th>"
            "</tr>" + "".join(rows) + "</table>")
