"""The live page in a real browser (Debian's Chromium through ``tests.browser``): a real
small tournament run with ``--serve``, watched as it plays and opened again after it
ended with ``server serve``; a tiny Botzone match with ``--serve``, its game page served.

Screenshots at 1280 x 800 go to ``logs/test-screenshots/`` (kept as CI artifacts):
``live-standings.png``, ``live-table.png``, ``final-standings.png``, ``hand-page.png``,
``botzone-game-page.png``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.browser import open_page
from tests.signals import end_group

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
SHOTS = ROOT / "logs" / "test-screenshots"
VIEW = {"width": 1280, "height": 800}
WAIT_MS = 60_000
BOTZONE_BOT = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running"


@contextmanager
def running(*args: str, env: dict[str, str] | None = None
            ) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``server ARGS`` started (its own session, as from a shell), and the URL it serves."""
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, start_new_session=True, env=env)
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        url = ""
        while not url and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, f"server {' '.join(args)} ended without serving"
            if line.startswith("serving "):
                url = line.split()[1]
        yield process, url
    finally:
        end_group(process)


def shoot(page: Any, name: str, selector: str | None = None) -> None:
    """The 1280 x 800 view, scrolled to ``selector`` if given."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    if selector:
        page.evaluate("s => document.querySelector(s).scrollIntoView()", selector)
    page.screenshot(path=str(SHOTS / name))


def server_gone(error: str) -> bool:
    """The browser's note of the event stream cut, or of its tries to reconnect."""
    return "ERR_INCOMPLETE_CHUNKED_ENCODING" in error or "ERR_CONNECTION_REFUSED" in error


def text_of(page: Any, selector: str) -> str:
    return str(page.inner_text(selector))


def step_to_middle(page: Any) -> None:
    """A hand or game page shown halfway through (its step slider, ``server.output.pages``)."""
    page.evaluate("() => { const r = document.getElementById('step');"
                  " r.value = Math.floor(r.max / 2); r.oninput(); }")


def test_a_tournament_watched_live_and_after_and_a_botzone_game(tmp_path: Path) -> None:
    """One browser, one ``server serve`` afterwards of the folder holding both runs; the
    Botzone match plays beside the tournament."""
    out = tmp_path / "class"
    env = {**os.environ, "MAHJONG_RUN_DIR": str(tmp_path / "runs")}
    with running("match", "--ruleset", "botzone", "--log-dir", str(tmp_path), "--seed", "3",
                 "--serve", "127.0.0.1:0", *[BOTZONE_BOT] * 4, env=env) as (match, match_url):
        with urllib.request.urlopen(match_url + "api/standings", timeout=30) as r:
            assert json.load(r)["kind"] in ("match", "empty")
        watch_the_tournament(out, env)
        assert match.wait(120) == 0
    [folder] = [p for p in tmp_path.iterdir() if "botzone" in p.name]
    subprocess.run([sys.executable, "-m", "server.cli", "report", str(folder), "--html",
                    str(folder / "report.html")], cwd=ROOT, check=True, capture_output=True)
    final = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    with running("serve", str(tmp_path), "--bind", "127.0.0.1:0") as (_, url), \
            open_page(url) as (page, errors):
        page.set_viewport_size(VIEW)
        page.wait_for_selector(f"a[href='{folder.name}/']")
        page.click("a[href='class/']")
        page.wait_for_selector("#standings tr.row", timeout=WAIT_MS)
        page.wait_for_function("document.querySelector('#status').textContent.includes('over')",
                               timeout=WAIT_MS)
        rows = page.locator("#standings tr.row")
        assert rows.count() == len(final["standings"])
        for i, row in enumerate(final["standings"]):
            assert row["bot"] in rows.nth(i).inner_text()
            assert str(row["points"]) in rows.nth(i).inner_text()
        assert page.locator("#tables .card").count() == 0
        shoot(page, "final-standings.png")
        href = page.locator("#finished a[href*='-hands/']").first.get_attribute("href")
        page.goto(f"{url}class/{href}")
        step_to_middle(page)
        shoot(page, "hand-page.png")
        [game] = sorted((folder / "report-games").glob("*.html"))
        page.goto(f"{url}{folder.name}/report-games/{game.name}")
        step_to_middle(page)
        shoot(page, "botzone-game-page.png")
        assert errors == []


def bots_toml(folder: Path) -> Path:
    """Four students: two sample bots, carol's, which takes 0.2 s over each discard (so
    that a hand lasts long enough to be watched however fast or busy the machine is: the
    page must catch a hand in play), and dave's, which crashes in every hand."""
    py = sys.executable
    bots = {"alice": ["sample_ai/greedy.py", "--seed", "1"],
            "bob": ["sample_ai/random_bot.py", "--seed", "2"],
            "carol": ["tests/bots/slow.py", "--delay", "0.2"],
            "dave": ["tests/bots/crash_mid_hand.py", "6"]}
    path = folder / "bots.toml"
    path.write_text("".join(
        f'[[bot]]\nname = "{name}"\ncommand = {json.dumps([py, str(ROOT / a[0]), *a[1:]])}\n'
        for name, a in bots.items()), encoding="utf-8")
    return path


def watch_the_tournament(out: Path, env: dict[str, str]) -> None:
    """A small tournament run with --serve, its page open while it plays: the tables'
    pictures, the faults and the standings change without a reload; when it ends the page
    keeps the last data and says the tournament is over."""
    with running("tournament", str(bots_toml(out.parent)), "--out", str(out), "--rounds", "3",
                 "--hands", "3", "--seed", "5", "--serve", "127.0.0.1:0", env=env
                 ) as (tournament, url), open_page(url) as (page, errors):
        page.set_viewport_size(VIEW)
        page.evaluate("window.notReloaded = true")
        page.wait_for_selector("#tables .card .seat", timeout=WAIT_MS)
        standings_then = text_of(page, "#standings")
        picture_then = page.inner_html("#tables")
        page.wait_for_function("then => document.querySelector('#tables').innerHTML !== then",
                               arg=picture_then, timeout=WAIT_MS)
        page.wait_for_function("document.querySelectorAll('#tables .disc .t').length >= 8",
                               timeout=WAIT_MS)  # some moves into a hand
        shoot(page, "live-table.png", "#tables")
        page.wait_for_selector("#faults .fault .cause", timeout=WAIT_MS)
        assert "dave" in text_of(page, "#faults")
        # what a bot wrote is shown once its deal is played everywhere (the round is over)
        page.wait_for_selector("#faults .fault summary", timeout=WAIT_MS)
        page.click("#faults .fault summary")
        assert "crashing on prompt" in text_of(page, "#faults")
        page.wait_for_function(
            "then => document.querySelector('#standings').innerText !== then",
            arg=standings_then, timeout=WAIT_MS)
        page.wait_for_selector("#standings tr.row", timeout=WAIT_MS)
        assert page.evaluate("window.notReloaded") is True
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEW["width"]
        shoot(page, "live-standings.png", "header")
        assert tournament.wait(120) == 0
        # the server went with the tournament: the page keeps the last data and says so
        page.wait_for_function("document.querySelector('#status').textContent.includes("
                               "'the server has stopped')", timeout=WAIT_MS)
        assert "over" in text_of(page, "#status")
        assert page.locator("#standings tr.row").count() >= 2
        assert page.evaluate("window.notReloaded") is True
        assert [e for e in errors if not server_gone(e)] == []
