"""The replay page and the match report, in a real headless browser."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.browser import open_page
from tests.datadir import LEGACY_LOGS

SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]


def _legacy(name: str) -> Path:
    path = LEGACY_LOGS / name
    assert path.is_file(), f"{path} is missing from the repository's test data"
    return path


def test_hand_page_steps_forward_and_back_and_ends_on_the_recorded_win(tmp_path: Path) -> None:
    out = tmp_path / "hand.html"
    subprocess.run([*SERVER, "replay", str(_legacy("f95b3edc.mahjong.log")), "--html", str(out)],
                   check=True, capture_output=True)
    with open_page(out.as_uri()) as (page, errors):
        assert page.text_content("#stepno").startswith("0 / ")
        first_note = page.text_content("#note")
        page.click("#next")
        assert page.text_content("#stepno").startswith("1 / ")
        assert page.text_content("#note") != first_note
        page.keyboard.press("ArrowRight")
        assert page.text_content("#stepno").startswith("2 / ")
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#stepno").startswith("1 / ")
        codes = "els => els.map(e => e.dataset.tile)"  # the tiles drawn, by code
        hand_before = page.eval_on_selector_all("#seat1 .hand .tile", codes)
        page.click("#last")
        assert not page.is_hidden("#result")
        result = page.inner_text("#result")
        assert re.search(r"Winner: \S+ \(seat 3, ", result), result
        assert page.locator("#result svg.zh[aria-label='断幺']").count() == 1
        assert page.eval_on_selector_all("#seat1 .hand .tile", codes) != hand_before
        page.screenshot(path=str(tmp_path / "hand.png"), full_page=True)
        assert errors == []
    assert (tmp_path / "hand.png").stat().st_size > 0


def _legacy_page(tmp_path: Path) -> Path:
    out = tmp_path / "hand.html"
    subprocess.run([*SERVER, "replay", str(_legacy("f95b3edc.mahjong.log")), "--html", str(out)],
                   check=True, capture_output=True)
    return out


def test_hand_page_opens_at_the_step_in_its_address_and_follows_the_steps(
        tmp_path: Path) -> None:
    out = _legacy_page(tmp_path)
    with open_page(out.as_uri() + "#step=5") as (page, errors):
        assert page.text_content("#stepno").startswith("5 / ")
        page.click("#next")
        assert page.url.endswith("#step=6")
        assert page.get_attribute("#steplink", "href") == "#step=6"
        page.reload()
        assert page.text_content("#stepno").startswith("6 / ")
        page.goto(out.as_uri() + "#step=2")  # a link within the page: hashchange
        assert page.text_content("#stepno").startswith("2 / ")
        page.goto(out.as_uri() + "#step=99999")
        page.reload()
        last = int(page.text_content("#stepno").split(" / ")[1])
        assert page.text_content("#stepno") == f"{last} / {last}"
        assert page.url.endswith(f"#step={last}")
        assert errors == []


def test_hand_page_names_each_fan_in_english_and_heads_its_value_fan(tmp_path: Path) -> None:
    out = _legacy_page(tmp_path)
    with open_page(out.as_uri()) as (page, errors):
        page.click("#last")
        headers = page.locator("#result table.fans tr").first.inner_text().split("\t")
        assert [h.strip() for h in headers] == ["fan", "in English", "value (fan)"]
        rows = page.locator("#result table.fans tr")
        # The Chinese is drawn as glyph paths (no font needed), named by its aria-label.
        pairs = [(rows.nth(i).locator("td svg.zh").get_attribute("aria-label"),
                  rows.nth(i).locator("td").nth(1).inner_text().strip())
                 for i in range(1, rows.count() - 1)]
        assert ("断幺", "All Simples") in pairs
        assert all(chinese and english for chinese, english in pairs)  # both names, each fan
        assert errors == []


def test_match_report_shows_standings_chart_and_links_every_hand(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    bots = ["sample_ai/greedy.py", "sample_ai/random_bot.py"] * 2
    # Four hands, not 16: the chart's four lines and a link per hand show as well.
    run = subprocess.run([*SERVER, *bots, "-d", "--seed", "3", "--hands", "4",
                          "--log-dir", str(logs)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    (match,) = logs.iterdir()
    out = tmp_path / "report.html"
    subprocess.run([*SERVER, "report", str(match), "--html", str(out)], check=True,
                   capture_output=True)
    with open_page(out.as_uri()) as (page, errors):
        assert page.locator("table.standings tr").count() == 5
        assert page.locator("svg.chart polyline").count() == 4
        links = page.locator("table.scoresheet a")
        assert links.count() == 4
        href = links.first.get_attribute("href")
        assert href and re.match(r"report-hands/001-\w{8}\.html", href)
        links.first.click()
        page.wait_for_selector("#stepno")
        assert page.text_content("#stepno").startswith("0 / ")
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        assert errors == []
