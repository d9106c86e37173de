"""A person plays a whole hand in Chromium against three sample AIs (``server play``):
clicks only, no fault, and ``server verify`` agrees with the log. The page is reloaded
mid-hand and the seat goes on where it was.

The person's rule: take a win when it is offered, else discard the tile just drawn
(any tile after a claim), pass on every claim. Screenshots at 1280 x 800 go to
``logs/test-screenshots/``: ``seat-mid-hand.png`` (a claim offered if the hand offers
one), ``seat-end.png``; a Botzone game and a NOI 2014 game clicked the same way
(``seat-botzone.png``, ``seat-noi2014.png``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import open_page
from tests.person_seats import started, verify
from tests.server.web.test_browser import SHOTS, VIEW

pytestmark = pytest.mark.slow

ACTIONABLE = ("(v) => document.body.dataset.version !== v && (document.body.dataset.over === '1'"
              " || document.querySelector('#choices button, #hand-tiles button.can') !== null)")


def act(page: Any) -> str:
    """One click by the person's rule; what was clicked."""
    win = page.query_selector("#choices button[data-kind=win], #choices button[data-kind=rob]")
    if win is not None:
        win.click()
        return "win"
    drawn = page.query_selector("#hand-tiles button.drawn.can")
    tile = drawn or page.query_selector("#hand-tiles button.can")
    if tile is not None:
        tile.click()
        return "discard"
    page.click("#choices button[data-kind=pass]")
    return "pass"


def test_a_person_plays_a_hand_by_clicking_and_verify_agrees(tmp_path: Path) -> None:
    args = ("play", "--name", "ann", "--hands", "1", "--seed", "3", "--log-dir", str(tmp_path))
    with started(*args) as (process, links):
        with open_page(links["ann"]) as (page, errors):
            page.set_viewport_size(VIEW)
            clicks: list[str] = []
            version = None
            claim_shot = reloaded = False
            while True:
                page.wait_for_function(ACTIONABLE, arg=version, timeout=30_000)
                version = page.evaluate("document.body.dataset.version")
                if page.evaluate("document.body.dataset.over") == "1":
                    break
                claim = page.query_selector("#choices button[data-kind=pung], "
                                            "#choices button[data-kind=chow]")
                if claim is not None and not claim_shot:
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / "seat-mid-hand.png"))
                    claim_shot = True
                if len(clicks) == 4 and not reloaded:  # leave and come back mid-hand
                    page.reload()
                    reloaded = True
                    version = None
                    continue
                clicks.append(act(page))
                if len(clicks) == 6 and not claim_shot:
                    page.screenshot(path=str(SHOTS / "seat-mid-hand.png"))
            page.screenshot(path=str(SHOTS / "seat-end.png"))
            note = page.inner_text("#note")
            assert errors == []
        assert process.wait(30) == 0
    assert reloaded and clicks.count("discard") >= 3, clicks
    assert "over" in note
    folder = next(tmp_path.glob("*-seed3"))
    assert '"faults": {}' in next(folder.glob("001-*/events.jsonl")).read_text()
    assert "all agree" in verify(folder)


BOTZONE_BOT = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running"
NOI_BOT = "json+keep-running:python3 sample_ai/noi2014/greedy_bot.py --keep-running"


@pytest.mark.parametrize(("ruleset", "bot", "extra", "shot"), [
    ("botzone", BOTZONE_BOT, ("--format", "one"), "seat-botzone.png"),
    ("noi2014", NOI_BOT, (), "seat-noi2014.png"),
])
def test_a_person_plays_a_turn_based_game_by_clicking(tmp_path: Path, ruleset: str, bot: str,
                                                       extra: tuple[str, ...], shot: str) -> None:
    args = ("match", "--ruleset", ruleset, "web:ann", bot, bot, bot, *extra, "--seed", "4",
            "-d", "--log-dir", str(tmp_path))
    with started(*args) as (process, links):
        with open_page(links["ann"]) as (page, errors):
            page.set_viewport_size(VIEW)
            version = None
            clicks = 0
            while True:
                page.wait_for_function(ACTIONABLE, arg=version, timeout=30_000)
                version = page.evaluate("document.body.dataset.version")
                if page.evaluate("document.body.dataset.over") == "1":
                    break
                if clicks == 3:
                    SHOTS.mkdir(parents=True, exist_ok=True)
                    page.screenshot(path=str(SHOTS / shot))
                act(page)
                clicks += 1
            assert errors == []
        assert process.wait(30) == 0
    assert clicks >= 3
    assert "all agree" in verify(next(tmp_path.glob("*-seed4")))
