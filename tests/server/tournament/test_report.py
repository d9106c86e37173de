"""The tournament report and the pages under it, as a class reads them on a projector.

Two kinds of check: tournament.html built from made-up standings (14 bots with long
names: the standings fit 1280 px, the chart tells every bot apart), and the pages of
two real small tournaments of sample bots and a crashing bot, one of the default
ruleset and one of Botzone's (about 5 s of CPU together): titles and links back, the
players named in the scoresheet and the reports, each fault at its step with its
cause and the bot's stderr, the ruleset's own words, and no path of the machine.
"""

from __future__ import annotations

import csv
import html
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.output import pages as html_pages
from server.tournament.report import COLOURS, html_page, series_style
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow, TableResult, standings
from server.tournament.store import Entry
from tests.browser import open_page

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable


def _page(tmp_path: Path, names: list[str] | None = None, rounds: int = 1,
          meta: dict[str, str] | None = None) -> Path:
    """tournament.html of a made-up field: every table of four, ``rounds`` rounds."""
    names = names or ["alice", "bob", "cid", "dee"]
    tables, hands, plans = [], [], []
    for r in range(1, rounds + 1):
        for t in range(len(names) // 4):
            players = tuple((4 * t + r * k) % len(names) for k in range(4))
            if len(set(players)) < 4:
                players = tuple(range(4 * t, 4 * t + 4))
            pts = (6 + t, -2, -2, -2 - t)
            tables.append(TableResult(r, t + 1, players, pts))
            plans.append(TablePlan(r, t + 1, players, 7))
            hands += [HandRow(r, t + 1, 0, 0, t, seat, e, p, 0, False, 0, p > 0, False)
                      for seat, (e, p) in enumerate(zip(players, pts, strict=True))]
    st = standings(names, tables, hands, len(names))
    entries = [Entry(n, ("bot",)) for n in names]
    path = tmp_path / "tournament.html"
    path.write_text(html_page(st, entries, plans, meta or {"format": "swiss", "seed": "0"},
                              {}, 0), encoding="utf-8")
    return path


def test_the_standings_show_the_main_columns_and_the_rest_a_click_away(
        tmp_path: Path) -> None:
    with open_page(_page(tmp_path).as_uri()) as (page, errors):
        headers = [h.strip() for h in
                   page.locator("table.standings tr").first.inner_text().split("\t")]
        assert headers == ["#", "bot", "points", "per hand", "duplicate", "rating", "hands",
                           "won", "faults"]
        main = page.inner_text("table.standings")
        assert "mu" not in main and "sigma" not in main and "CI" not in main
        full = page.locator("table.standings-full")
        assert not full.is_visible()
        page.click("details.standings-details summary")
        assert full.is_visible()
        headers = full.locator("tr").first.inner_text().split("\t")
        assert {"mu", "sigma", "95% CI low", "95% CI high", "drawn", "fines",
                "host stalls"} <= {h.strip() for h in headers}
        assert errors == []


def test_the_report_has_the_match_reports_look(tmp_path: Path) -> None:
    """One stylesheet for every report: the page carries the match report's own."""
    path = _page(tmp_path)
    assert html_pages.STYLE in path.read_text(encoding="utf-8")
    with open_page(path.as_uri()) as (page, errors):
        look = page.evaluate("""() => {
            const s = (sel) => getComputedStyle(document.querySelector(sel));
            return [s('body').backgroundColor, s('table.standings td:nth-child(3)').textAlign,
                    s('table.standings td:nth-child(2)').textAlign];
        }""")
        assert look[:2] == ["rgb(246, 245, 239)", "right"] and look[2] in ("left", "start")
        assert errors == []


LONG = [f"{who}-the-{what}-bot-v{n}" for n, (who, what) in enumerate(
    [("alice", "aggressive"), ("bob", "defensive"), ("carol", "greedy-discarder"),
     ("dave", "seven-pairs-hunter"), ("erin", "random"), ("frank", "monte-carlo-tree"),
     ("grace", "shanten-counter"), ("heidi", "neural"), ("ivan", "rule-based"),
     ("judy", "expectimax"), ("mallory", "cheater"), ("niaj", "copycat"),
     ("olivia", "bandit"), ("peggy", "tabu-search")], start=1)]


def test_fourteen_bots_with_long_names_fit_1280_px(tmp_path: Path) -> None:
    path = _page(tmp_path, [*LONG, "quentin", "rupert"], rounds=3)
    with open_page(path.as_uri()) as (page, errors):
        page.set_viewport_size({"width": 1280, "height": 800})
        assert page.locator("table.standings tbody tr").count() == 16
        width = page.evaluate("document.querySelector('table.standings').scrollWidth")
        assert width <= 1280
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        page.click("details.standings-details summary")  # it scrolls in its own box
        assert page.evaluate("document.documentElement.scrollWidth") <= 1280
        page.screenshot(path=str(tmp_path / "standings-1280.png"), full_page=True)
        assert errors == []


def test_every_series_of_the_chart_is_told_apart_and_named_at_its_end(tmp_path: Path) -> None:
    names = [*LONG, "quentin", "rupert"]
    styles = [series_style(k) for k in range(len(names))]
    assert len({(c, d) for c, d, _ in styles}) == len(names)  # colour or dash differ
    assert len(set(COLOURS)) == len(COLOURS) >= 7
    # Rounds where some bots never play: their lines stay level, and equal lines coincide.
    path = _page(tmp_path, names, rounds=2)
    text = path.read_text(encoding="utf-8")
    assert "/tmp" not in text
    with open_page(path.as_uri()) as (page, errors):
        lines = page.locator("svg.chart polyline.rating")
        assert lines.count() == len(names)
        labels = page.locator("svg.chart text.end-label").all_text_contents()
        assert sorted(labels) == sorted(n if len(n) <= 28 else n[:27] + "…" for n in names)
        legend = page.locator("ul.legend li").all_inner_texts()
        assert [t.strip() for t in legend] == \
            [page.locator("table.standings tbody tr").nth(i).locator("td").nth(1).inner_text()
             for i in range(len(names))]
        points = [lines.nth(i).get_attribute("points") for i in range(lines.count())]
        assert len(set(points)) == len(points)  # no line drawn on top of another
        # End labels never overlap one another.
        boxes = sorted(page.evaluate("""() => [...document.querySelectorAll(
            'svg.chart text.end-label')].map(t => t.getBBox().y)"""))
        assert all(b - a >= 12 for a, b in itertools.pairwise(boxes))
        assert errors == []


# --- real tournaments ------------------------------------------------------------------------


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "server.cli.app", "tournament", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "160"})


@pytest.fixture(scope="module")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """Three sample bots and one that crashes on its 3rd prompt of every hand."""
    folder = tmp_path_factory.mktemp("default")
    bots = [("alice", "sample_ai/greedy.py", "--seed", "1"),
            ("bob", "sample_ai/random_bot.py"), ("carol", "sample_ai/greedy.py", "--seed", "3"),
            ("crash", "tests/bots/crash_mid_hand.py")]
    toml = folder / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "{name}"\n'
                            f"command = {json.dumps([PY, str(ROOT / script), *args])}\n"
                            for name, script, *args in bots), encoding="utf-8")
    out = folder / "out"
    done = _run(str(toml), "--format", "round-robin", "--rounds", "2", "--hands", "2",
                "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    yield out, done.stdout + done.stderr


@pytest.fixture(scope="module")
def botzone_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """Three random Botzone bots and one that raises on its first turn."""
    folder = tmp_path_factory.mktemp("botzone")
    random = f'["{PY}", "{ROOT}/sample_ai/botzone/random_bot.py", "--keep-running"]'
    crash = f'["{PY}", "{ROOT}/tests/bots/botzone/hostile.py", "json", "crash"]'
    toml = folder / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "{n}"\ncommand = {random}\nkeep_running = true\n'
                            for n in ("alice", "bob", "carol"))
                    + f'[[bot]]\nname = "crash"\ncommand = {crash}\n', encoding="utf-8")
    out = folder / "out"
    done = _run(str(toml), "--ruleset", "botzone", "--walls", "1", "--orders", "2",
                "--format", "round-robin", "--rounds", "1", "--jobs", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    yield out, done.stdout + done.stderr


def _pages(out: Path) -> list[Path]:
    return sorted(out.rglob("*.html"))


@pytest.mark.parametrize("which", ["default_run", "botzone_run"])
def test_no_page_names_a_folder_of_the_machine(which: str,
                                               request: pytest.FixtureRequest) -> None:
    out, _ = request.getfixturevalue(which)
    written = [*_pages(out), *out.glob("matches/*/scoresheet.csv"), out / "standings.csv"]
    assert len(written) > 5
    for path in written:
        text = path.read_text(encoding="utf-8")
        for folder in {str(out.parent), str(out.parent.resolve()), str(ROOT)}:
            assert folder not in text, f"{path.relative_to(out)} names {folder}"


def test_tournament_html_keeps_hashes_in_the_details(default_run: tuple[Path, str]) -> None:
    out, _ = default_run
    with open_page((out / "tournament.html").as_uri()) as (page, errors):
        visible = page.inner_text("body")
        assert "sha256:" not in visible
        page.click("details.programs summary")
        shown = page.inner_text("details.programs")
        assert re.search(r"sha256:[0-9a-f]{12}…", shown)
        assert "…/bots/crash_mid_hand.py" in shown  # no folder of the machine
        assert errors == []


@pytest.mark.parametrize("which", ["default_run", "botzone_run"])
def test_table_pages_are_titled_by_round_and_table_and_link_back(
        which: str, request: pytest.FixtureRequest) -> None:
    out, _ = request.getfixturevalue(which)
    summary = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    tables = summary["tables"]
    assert tables
    for t in tables:
        page = out / t["report"]
        text = page.read_text(encoding="utf-8")
        title = f"Round {t['round']}, table {t['table']} — {', '.join(t['players'])}"
        assert f"<title>{title}</title>" in text
        assert "href='../tournament.html'" in text
        sub = page.parent / (page.stem + ("-hands" if which == "default_run" else "-games"))
        children = sorted(sub.glob("*.html"))
        assert children
        for child in children:
            assert f"href='../{page.name}'" in child.read_text(encoding="utf-8")


def test_the_scoresheet_and_match_report_name_the_players(default_run: tuple[Path, str],
                                                          ) -> None:
    out, _ = default_run
    for folder in sorted(p.parent for p in (out / "matches").glob("*/match.json")):
        players = [p["name"] for p in json.loads((folder / "match.json").read_text())["players"]]
        with (folder / "scoresheet.csv").open(newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
        assert rows[0][2:6] == players and rows[0][11:15] == [f"Fines {n}" for n in players]
        assert any(row[8] for row in rows[1:-1])  # a hand won, its winner named
        for row in rows[1:-1]:
            assert row[8] in (*players, "") and row[9] in (*players, "")  # winner, payer
            assert row[15] == "crash: closed-output: exit status 1"
        report = (out / "matches" / f"{folder.name}.html").read_text(encoding="utf-8")
        assert "Player0" not in report and "P0" not in report
        assert "crash: closed-output: exit status 1" in report
    # `server verify` still reads the scoresheet written by name.
    check = subprocess.run([PY, "-m", "server.cli.app", "verify", str(out / "matches" /
                                                                      "r01-t01")],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_hand_page_shows_the_fault_at_its_step_with_the_bots_stderr(
        default_run: tuple[Path, str]) -> None:
    out, _ = default_run
    folder = next(p for p in sorted((out / "matches" / "r01-t01").iterdir()) if p.is_dir())
    rows = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    fault = next(r for r in rows if r["type"] == "input" and r.get("fault") not in (None, "auto"))
    step, seat = fault["after"], fault["seat"]
    said = (folder / f"seat{seat}.stderr").read_text().strip()
    assert said.startswith("crashing on prompt 3")
    page_path = out / "matches" / "r01-t01-hands" / f"{folder.name}.html"
    with open_page(page_path.as_uri() + f"#step={step}") as (page, errors):
        box = page.inner_text("#faults")
        assert "crash: closed-output: exit status 1" in box and said in box
        labels = page.locator(".seat .label").all_inner_texts()
        assert all(n in " ".join(labels) for n in ("alice", "bob", "carol", "crash"))
        page.click("#prev")
        assert page.inner_text("#faults") == ""
        page.click("#last")
        assert page.inner_text("#faults") == ""
        result = page.inner_text("#result")
        assert f"Fault: crash (step {step}): closed-output: exit status 1" in result
        assert said in result
        assert errors == []


def test_a_botzone_game_page_shows_the_fault_at_its_step_with_the_bots_stderr(
        botzone_run: tuple[Path, str]) -> None:
    out, _ = botzone_run
    page_path = out / "matches" / "r01-t01-games" / "game001.html"
    with open_page(page_path.as_uri() + "#step=0") as (page, errors):
        box = page.inner_text("#faults")
        assert "Fault: crash: RE: exit status 1" in box and "RuntimeError: boom" in box
        assert 'File "programs/' in box  # the bot's own path, relative to the output folder
        page.click("#last")
        assert "RuntimeError: boom" in page.inner_text("#result")
        assert errors == []


def test_botzone_says_games_and_has_no_fines_or_host_stalls(botzone_run: tuple[Path, str],
                                                             default_run: tuple[Path, str],
                                                             ) -> None:
    out, console = botzone_run
    with open_page((out / "tournament.html").as_uri()) as (page, errors):
        headers = page.locator("table.standings tr").first.inner_text().split("\t")
        assert [h.strip() for h in headers] == ["#", "bot", "rank points", "points", "per game",
                                                "duplicate", "rating", "games", "won", "faults"]
        page.click("details.standings-details summary")
        text = page.inner_text("body").lower()
        assert "fines" not in text and "host stall" not in text
        assert not re.search(r"\bhands?\b(?!-)", text)  # "hand-ins" are another thing
        assert errors == []
    table = [line for line in console.splitlines() if "┃" in line]
    assert table and "games" in table[0] and "/game" in table[0]
    assert "fines" not in console and "stall" not in console and "hands" not in console
    _, default_console = default_run
    head = next(line for line in default_console.splitlines() if "┃" in line)
    assert "hands" in head and "fines" in head and "stalls" in head


def test_a_rating_that_orders_two_bots_the_other_way_from_the_points_is_explained() -> None:
    """alice has the most points from one big win; bob finished ahead at more tables."""
    from server.tournament.report import rating_note, standings_html

    names = ["alice", "bob", "cid", "dee"]
    tables = [TableResult(1, 1, (0, 1, 2, 3), (60, -10, -20, -30)),
              TableResult(2, 1, (0, 1, 2, 3), (-8, 2, 3, 3)),
              TableResult(3, 1, (0, 1, 2, 3), (-8, 4, 2, 2)),
              TableResult(4, 1, (0, 1, 2, 3), (-8, 4, 2, 2))]
    hands = [HandRow(t.round, 1, 0, 0, 0, s, s, p, 0, False, 0, p > 0, False)
             for t in tables for s, p in enumerate(t.points)]
    st = standings(names, tables, hands, 4)
    assert [s.name for s in st.rows][:2] == ["alice", "bob"]
    assert st.rows[1].rating > st.rows[0].rating
    note = rating_note(st)
    assert note.startswith("bob has the higher rating though alice ranks above it")
    assert "finishing order" in note
    assert html.escape(note) in standings_html(st, "hand")
    agreeing = standings(names, tables[:1], hands[:4], 4)
    assert rating_note(agreeing) == "" and "rating-note" not in standings_html(agreeing, "hand")
