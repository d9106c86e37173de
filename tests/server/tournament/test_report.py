"""The tournament report: the match report's look, and headers people read."""

from __future__ import annotations

from pathlib import Path

from server.output import pages as html_pages
from server.tournament.report import COLUMNS, html_page
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow, TableResult, standings
from server.tournament.store import Entry
from tests.browser import open_page


def _page(tmp_path: Path) -> Path:
    names = ["alice", "bob", "cid", "dee"]
    tables = [TableResult(1, 1, (0, 1, 2, 3), (6, -2, -2, -2))]
    hands = [HandRow(1, 1, 0, 0, 0, seat, seat, pts, 0, False, 0, pts > 0, False)
             for seat, pts in enumerate((6, -2, -2, -2))]
    st = standings(names, tables, hands, 4)
    entries = [Entry(n, ("bot",)) for n in names]
    plans = [TablePlan(1, 1, (0, 1, 2, 3), 7)]
    path = tmp_path / "tournament.html"
    path.write_text(html_page(st, entries, plans, {"format": "swiss", "seed": "0"},
                              {}, 0), encoding="utf-8")
    return path


def test_standings_headers_are_words_not_keys(tmp_path: Path) -> None:
    with open_page(_page(tmp_path).as_uri()) as (page, errors):
        headers = [h.strip() for h in
                   page.locator("table.standings tr").first.inner_text().split("\t")]
        assert headers == ["rank", "bot", "tables", "hands", "points", "points per hand",
                           "95% CI low", "95% CI high", "duplicate score", "rating", "mu",
                           "sigma", "wins", "draws", "fines", "faults", "host stalls"]
        assert len(headers) == len(COLUMNS)
        assert errors == []


def test_the_report_has_the_match_reports_look(tmp_path: Path) -> None:
    """One stylesheet for every report: the page carries the match report's own."""
    path = _page(tmp_path)
    assert html_pages.STYLE in path.read_text(encoding="utf-8")
    with open_page(path.as_uri()) as (page, errors):
        look = page.evaluate("""() => {
            const s = (sel) => getComputedStyle(document.querySelector(sel));
            return [s('body').backgroundColor, s('table.standings td:nth-child(5)').textAlign,
                    s('table.standings td:nth-child(2)').textAlign];
        }""")
        assert look[:2] == ["rgb(246, 245, 239)", "right"] and look[2] in ("left", "start")
        assert errors == []
