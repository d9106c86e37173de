"""What a teacher sees of a class tournament, from one short real run (``--title``, a bot
whose framework answers for its errors, a slow bot fined for a late answer, a bot that
crashes in every hand, a sample bot): the titles, the hand pages, and in a real browser
(Debian's Chromium through ``tests.browser``) the live page, a table's page, a hand
page, the report and the hand-in page, each at 1280 x 800.

The browser test writes its screenshots to ``logs/screenshots/`` (printed):
``live.png``, ``table.png``, ``hand.png`` (at its fault), ``hand-late.png`` (at a late
answer, with its fine), ``hand-end.png`` (its settlement), ``report.png``,
``handin.png``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from server.output.pages import page as html_page
from server.output.stats_page import stats_section
from server.web.feeds import folder_title
from server.web.tokens import make_tokens
from tests.browser import open_page
from tests.signals import end_group

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
SHOTS = ROOT / "logs" / "screenshots"
VIEW = {"width": 1280, "height": 800}
TITLE = "CS 101 contest"
WAIT_MS = 30_000


@pytest.fixture(scope="module")
def class_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One table of two hands; the slow bot is 1.1 s late on its first turn of each hand
    (fined 1), the crashing one exits on its 6th prompt."""
    folder = tmp_path_factory.mktemp("class")
    bots = {"typo": ["tests/bots/framework_bug.py"],
            "slow": ["tests/bots/slow.py", "--delay", "1.1", "--turns", "1"],
            "crash": ["tests/bots/crash_mid_hand.py", "6"],
            "greedy": ["sample_ai/greedy.py", "--seed", "1"]}
    toml = folder / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "{name}"\n'
                            f"command = {json.dumps([PY, str(ROOT / a[0]), *a[1:]])}\n"
                            for name, a in bots.items()), encoding="utf-8")
    out = folder / "out"
    run = subprocess.run([PY, "-m", "server.cli.app", "tournament", str(toml), "--out", str(out),
                          "--rounds", "1", "--hands", "2", "--jobs", "1", "--seed", "3",
                          "--sandbox", "none", "--title", TITLE], cwd=ROOT,
                         capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, run.stderr[-3000:]
    return out


def test_the_title_names_the_report_and_the_live_page(class_run: Path) -> None:
    report = (class_run / "tournament.html").read_text(encoding="utf-8")
    assert f"<title>{TITLE} (swiss, seed 3)</title>" in report
    assert folder_title(class_run) == TITLE


def test_a_folder_without_a_title_is_named_by_the_folder(tmp_path: Path) -> None:
    match = tmp_path / "20261129-seed1"
    match.mkdir()
    (match / "match.json").write_text(json.dumps({"players": []}), encoding="utf-8")
    assert folder_title(match) == "20261129-seed1"
    (match / "match.json").write_text(json.dumps({"title": "Lab 3", "players": []}),
                                      encoding="utf-8")
    assert folder_title(match) == "Lab 3"


def test_a_hand_page_names_the_tournaments_round_table_and_hand_and_totals_the_settlement(
        class_run: Path) -> None:
    pages = sorted((class_run / "matches" / "r01-t01-hands").glob("*.html"))
    assert len(pages) == 2
    text = pages[1].read_text(encoding="utf-8")
    assert "<title>Round 1, table 1, hand 2 · " in text and "Game" not in text.split("</h1>")[0]
    settlement = text.split("<table class='settlement'>")[1].split("</table>")[0]
    assert "<th>fines</th>" in settlement and "<th>total</th>" in settlement
    # the slow bot: its points less its fine
    events = [json.loads(line) for line in
              next(p for p in sorted((class_run / "matches" / "r01-t01").iterdir())
                   if p.name.startswith("002-")).joinpath("events.jsonl").read_text().splitlines()]
    result = events[-1]
    assert result["type"] == "result" and any(result["fines"])
    totals = [d - f for d, f in zip(result["deltas"] or [0] * 4, result["fines"], strict=True)]
    for total in totals:
        assert f"<b>{total:+d}</b>" in settlement


@contextmanager
def serving(folder: Path) -> Iterator[str]:
    """``server serve FOLDER --handins`` (its own session), and its URL."""
    process = subprocess.Popen([PY, "-m", "server.cli", "serve", str(folder), "--bind",
                                "127.0.0.1:0", "--handins"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("serving "), line
        yield line.split()[1]
    finally:
        end_group(process)


def shoot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / name))


def fits(page: Any) -> bool:
    return int(page.evaluate("document.documentElement.scrollWidth")) <= VIEW["width"]


# The widest statistics a bot can have: thirty kinds of fan won, five kinds of fault,
# slow answers, a long name. The report of a class showed 1,540 px of them.
WIDE = {"games": 96, "wins": 31, "self_drawn": 12, "on_discard": 19, "dealt_in": 22,
        "claims": 140, "mean_fan": 11.25, "fan_histogram": {str(f): 3 for f in range(8, 38)},
        "faults": {"timeout": 3, "crash": 54, "malformed": 2, "illegal": 7, "no-join": 1},
        "answer_ms": {"median": 123.4, "p95": 987.6, "max": 4321.5},
        "peak_memory_mb": 1234.5, "cpu_seconds": 123.45}


@pytest.mark.slow  # a browser and a web server: about 15 s
def test_the_teachers_pages_fit_1280_px_and_say_what_happened(class_run: Path,
                                                             tmp_path: Path) -> None:
    """One browser over one ``server serve``: the live page while the last table is
    still being stored and after, a table's page, a hand page, the report, a hand-in."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    print(f"screenshots in {SHOTS}")
    folder = tmp_path / "class"  # a copy: the test changes its standings.json
    subprocess.run(["cp", "-r", str(class_run), str(folder)], check=True)
    standings = folder / "standings.json"
    final = standings.read_text(encoding="utf-8")
    finishing = json.loads(final)
    for table in finishing["tables"]:
        table["report"] = None  # stored, its reports not written yet
    standings.write_text(json.dumps(finishing), encoding="utf-8")
    [token] = [t for _, t, _ in make_tokens(folder, ["greedy"], iterations=1000)]
    with serving(folder) as url, open_page(url) as (page, errors):
        page.set_viewport_size(VIEW)
        assert page.title() == f"{TITLE} (live)" and page.inner_text("h1") == TITLE
        page.wait_for_selector("#standings tr.row", timeout=WAIT_MS)
        assert "finishing" in page.inner_text("#tables")
        assert "No table is in play" not in page.inner_text("#tables")
        standings.write_text(final, encoding="utf-8")  # the reports are written
        page.wait_for_function("document.querySelector('#tables').innerText.includes("
                               "'No table is in play')", timeout=WAIT_MS)
        head = page.locator("#standings tr").first.inner_text()
        assert "fines" in head and "bot errors" in head, head
        row = {r["bot"]: r for r in json.loads(final)["standings"]}
        assert row["slow"]["fines"] > 0 and row["typo"]["bot_errors"] > 0
        crash = page.locator("#faults .fault", has_text="crash")
        assert crash.count() == 1 and "2 times" in crash.inner_text()
        assert fits(page)
        assert page.evaluate("(() => { const s = document.querySelector('#standings');"
                             " return s.scrollWidth <= s.clientWidth; })()"), "cut off"
        shoot(page, "live.png")

        page.goto(f"{url}matches/r01-t01.html")
        assert fits(page)
        page.evaluate("document.querySelector('table.botstats').scrollIntoView()")
        shoot(page, "table.png")

        hand = sorted((folder / "matches" / "r01-t01-hands").glob("001-*"))[0].name
        page.goto(f"{url}matches/r01-t01-hands/{hand}")
        assert page.title().startswith("Round 1, table 1, hand 1")
        step = page.locator("#result a[href^='#step=']").first.get_attribute("href")
        page.goto(f"{url}matches/r01-t01-hands/{hand}{step}")  # at the fault's step
        assert "crash" in page.inner_text("#faults")
        assert fits(page)
        shoot(page, "hand.png")
        page.evaluate("() => { const r = document.getElementById('step');"
                      " r.value = r.max; r.oninput(); }")
        assert "total" in page.inner_text("#result")
        page.evaluate("document.querySelector('#result').scrollIntoView()")
        shoot(page, "hand-end.png")
        # slow's late answer, at its step (in the first hand that fined it: a host stall
        # may forgive one, never both, since the page's fines column shows one at least)
        for late_hand in sorted((folder / "matches" / "r01-t01-hands").glob("0*-*")):
            page.goto(f"{url}matches/r01-t01-hands/{late_hand.name}")
            if page.locator("#result p.late a").count():
                break
        late = page.locator("#result p.late a").first.get_attribute("href")
        page.goto(f"{url}matches/r01-t01-hands/{late_hand.name}{late}")
        assert "fined 1" in page.inner_text(".late-box")
        shoot(page, "hand-late.png")

        page.goto(f"{url}tournament.html")
        assert page.title().startswith(TITLE)
        assert "bot errors" in page.inner_text("table.standings")
        assert fits(page)
        shoot(page, "report.png")

        # The widest bot statistics still fit: the numbers whole, the rest wrapped.
        page.set_content(html_page("wide", stats_section(["a-rather-long-student-bot-v2",
                                                          "bob"], [WIDE, WIDE])))
        width = page.evaluate("document.querySelector('table.botstats')"
                              ".getBoundingClientRect().right")
        assert width <= VIEW["width"] and fits(page), width
        assert "4322" in page.inner_text("table.botstats")  # answer ms: max not cut off

        page.goto(f"{url}handin")
        assert page.locator("h1").count() == 1
        page.fill("input[name=token]", token)
        bot = tmp_path / "bot.py"
        bot.write_text((ROOT / "sample_ai" / "random_bot.py").read_text(), encoding="utf-8")
        page.set_input_files("input[name=file]", str(bot))
        page.click("button[type=submit]")
        page.wait_for_selector("text=Taken greedy's bot", timeout=120_000)
        assert page.locator("h1").count() == 1
        shoot(page, "handin.png")
        page.click("p.back a")
        page.wait_for_selector("#standings tr.row", timeout=WAIT_MS)
        assert errors == [], errors
    for name in ("live.png", "table.png", "hand.png", "hand-late.png", "hand-end.png",
                 "report.png", "handin.png"):
        assert (SHOTS / name).stat().st_size > 0


def test_a_match_given_a_title_keeps_it_for_its_pages(tmp_path: Path) -> None:
    """A Botzone match of one game, and the default ruleset's match.json."""
    from rulesets.default.match import MatchConfig, MatchResult

    bot = f"json+keep-running:{PY} sample_ai/botzone/random_bot.py --keep-running"
    run = subprocess.run([PY, "-m", "server.cli.app", "match", "--ruleset", "botzone",
                          "--format", "one", "--seed", "1", "-d", "--log-dir", str(tmp_path),
                          "--title", "Lab 3", bot, bot, bot, bot], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    [folder] = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert folder_title(folder) == "Lab 3"
    assert MatchResult(MatchConfig((), 1, heading="Lab 3"), []).summary()["title"] == "Lab 3"
    assert "title" not in MatchResult(MatchConfig((), 1), []).summary()


def test_a_tournament_whose_file_is_still_being_made_is_named_by_the_folder(
        tmp_path: Path) -> None:
    """The page is served from the tournament's first moment: its SQLite file may exist
    before its settings table does (a 500 on the live page, once, under load)."""
    import sqlite3

    out = tmp_path / "class"
    out.mkdir()
    sqlite3.connect(out / "tournament.sqlite").close()  # an empty file: no meta yet
    assert folder_title(out) == "class"
