"""Every ruleset's pages draw tiles as SVG faces and Chinese as glyph paths: every fan
has an English name, every Chinese character a page draws is in the glyph data, and a
real browser gives the faces their size without a console error (no CJK font needed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rulesets.botzone.fan_names import FAN_NAMES
from rulesets.botzone.page import game_page
from rulesets.botzone.replay import view_of
from rulesets.default.engine.legacy_log import LEGACY_NAMES
from rulesets.default.pages import botzone_code, hand_page
from rulesets.default.replay import load_hand
from scoring.fans import FAN_TABLE, FANS
from server.output.pages import page, tiles_script
from server.output.tiles import (
    TILE_CODES,
    chinese_svg,
    missing_glyphs,
    text_html,
    tiles_svg,
)
from tests.browser import open_page
from tests.datadir import LEGACY_LOGS, botzone_games

ROOT = Path(__file__).resolve().parents[3]
CHINESE = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]")
ENGLISH = re.compile(r"[A-Za-z][A-Za-z' -]*[a-z]")
# The modules that write pages, and what they import words from.
PAGE_SOURCES = ["rulesets/default/pages.py", "rulesets/botzone/page.py",
                "rulesets/botzone/report.py", "rulesets/noi2014/replay.py",
                "rulesets/noi2014/report.py", "server/turns/report.py", "server/output/pages.py",
                "server/tournament/report.py"]


def test_every_fan_of_every_ruleset_has_an_english_name() -> None:
    # The default ruleset's table (SPEC section 4), Botzone's 81 GB fans and the
    # calculator's extra one; NOI 2014 has no fan table (a win is a win: SPEC-noi2014).
    assert len(FAN_TABLE) == 32 and len(FAN_NAMES) == 82
    for chinese, english in [*((f.name, f.english) for f in FAN_TABLE),
                             *((f.chinese, f.english) for f in FAN_NAMES)]:
        assert ENGLISH.fullmatch(english), (chinese, english)
    assert all(FANS[ours].english for ours in LEGACY_NAMES.values())


def test_every_chinese_character_a_page_draws_is_in_the_glyph_data() -> None:
    names = [f.name for f in FAN_TABLE] + [f.chinese for f in FAN_NAMES] + [*LEGACY_NAMES]
    assert missing_glyphs("".join(names)) == ""
    for source in PAGE_SOURCES:  # words written into the pages' code
        text = (ROOT / source).read_text(encoding="utf-8")
        assert missing_glyphs("".join(CHINESE.findall(text))) == "", source
    for path in botzone_games():  # the recorded games' descriptions, shown on their pages
        about = json.loads(path.read_text(encoding="utf-8")).get("about", "")
        assert missing_glyphs("".join(CHINESE.findall(about))) == "", path.name


def _outside_svg(page_html: str) -> str:
    """The page without its SVG elements and its JSON data: what a font would draw."""
    page_html = re.sub(r"<svg\b.*?</svg>", "", page_html, flags=re.S)
    return re.sub(r"<script\b.*?</script>", "", page_html, flags=re.S)


def test_the_pages_write_no_chinese_that_needs_a_font() -> None:
    hand = hand_page(load_hand(LEGACY_LOGS / "f95b3edc.mahjong.log"))
    (c05,) = [p for p in botzone_games() if p.name.startswith("c05_")]
    game = game_page(view_of(json.loads(c05.read_text(encoding="utf-8"))))
    for written in (hand, game):
        assert 'class="zh"' in written  # the fan names, drawn
        assert CHINESE.findall(_outside_svg(written)) == []
    # The tiles go to the browser as Botzone codes the faces know, never letter codes.
    steps = json.loads(re.search(r'id="hand-data">(.*?)</script>', hand, re.S)[1])["steps"]
    assert {t for s in steps for h in s["hands"] for t in h} <= set(TILE_CODES)
    assert [botzone_code(c) for c in ("6M", "1S", "9T", "E", "N", "Z", "F", "B")] == \
        ["W6", "T1", "B9", "F1", "F4", "J1", "J2", "J3"]
    assert text_html("robs the kong (抢杠和) <b>") == \
        f"robs the kong ({chinese_svg('抢杠和')}) &lt;b&gt;"


def test_a_browser_draws_every_face_and_fan_name_with_its_size(tmp_path: Path) -> None:
    body = (f"<div id='row'>{tiles_svg(TILE_CODES)}</div>"
            f"<p id='fan'>{chinese_svg('大四喜', height=20)} Big Four Winds</p>"
            "<div id='drawn'></div>"
            "<script>" + tiles_script(height=32) + "document.getElementById('drawn')"
            ".append(tileEl('H5', 'drawn', 'test'), tileEl('X9'));</script>")
    out = tmp_path / "tiles.html"
    out.write_text(page("Tiles", body), encoding="utf-8")
    with open_page(out.as_uri()) as (browser, errors):
        boxes = browser.eval_on_selector_all(
            "#row svg", "els => els.map(e => [e.getBoundingClientRect().width,"
            " e.getBoundingClientRect().height, e.getBBox().width])")
        assert len(boxes) == len(TILE_CODES)
        assert all(w == 30 and h == 40 and inner > 20 for w, h, inner in boxes)
        # Each glyph path of the fan name has ink inside the 1-em square of its place.
        glyphs = browser.eval_on_selector_all(
            "#fan svg path", "els => els.map(e => [e.getBBox().width, e.getBBox().height])")
        assert len(glyphs) == 3 and all(50 < w <= 200 and 50 < h <= 200 for w, h in glyphs)
        fan = browser.locator("#fan svg").bounding_box()
        assert fan is not None and (fan["width"], fan["height"]) == (60, 20)
        drawn = browser.locator("#drawn .tile.drawn svg").bounding_box()
        assert drawn is not None and (drawn["width"], drawn["height"]) == (24, 32)
        assert "test" in (browser.locator("#drawn .tile.drawn title").text_content() or "")
        assert browser.locator("#drawn .tile").nth(1).inner_text() == "X9"
        browser.screenshot(path=str(tmp_path / "tiles.png"))
        assert errors == []
