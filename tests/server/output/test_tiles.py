"""Tile faces and Chinese as SVG: every code drawn, no font needed, small integer glyph data."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from server.output import tiles
from server.output.tiles import (
    TILE_CODES,
    chinese_svg,
    missing_glyphs,
    tile_name,
    tile_svg,
    tiles_js,
)

SVG = "{http://www.w3.org/2000/svg}"


def test_there_is_a_code_for_every_tile_of_the_interfaces() -> None:
    assert len(TILE_CODES) == 27 + 4 + 3 + 8 + 1 == len(set(TILE_CODES))
    assert {"W1", "B9", "T5", "F4", "J3", "H8", "??"} <= set(TILE_CODES)


@pytest.mark.parametrize("code", TILE_CODES)
def test_every_face_is_well_formed_svg_of_its_size_without_text(code: str) -> None:
    root = ET.fromstring(tile_svg(code, height=40))
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == ("30", "40")
    assert root.get("viewBox") == "0 0 30 40"
    assert not list(root.iter(f"{SVG}text"))  # nothing a font has to draw
    shapes = [e for e in root.iter() if e.tag[len(SVG):] in ("path", "circle", "rect", "line")]
    assert len(shapes) >= 2  # the tile and what is on it


def test_all_faces_differ_and_the_height_scales_the_width() -> None:
    faces = [tile_svg(code, title="") for code in TILE_CODES]
    assert len(set(faces)) == len(faces)
    root = ET.fromstring(tile_svg("W5", height=80))
    assert (root.get("width"), root.get("height")) == ("60", "80")


def test_the_chinese_faces_carry_the_glyph_outlines_of_their_characters() -> None:
    glyphs = tiles._glyphs()
    assert glyphs["万"][1] in tile_svg("W3") and glyphs["三"][1] in tile_svg("W3")
    assert glyphs["中"][1] in tile_svg("J1") and glyphs["北"][1] in tile_svg("F4")
    assert glyphs["菊"][1] in tile_svg("H8") and glyphs["4"][1] in tile_svg("H8")


def test_a_face_is_titled_in_english_or_as_asked() -> None:
    assert "<title>W3 · 3 characters</title>" in tile_svg("W3")
    assert tile_name("F1") == "east wind" and tile_name("J2") == "green dragon"
    assert tile_name("H5") == "plum (flower 5)" and tile_name("??") == "a tile face down"
    assert "<title>taken by &lt;bob&gt;</title>" in tile_svg("B2", title="taken by <bob>")


@pytest.mark.parametrize("code", ["W0", "B10", "X1", "1M", "", "??x", "w1"])
def test_a_wrong_code_is_refused_naming_it(code: str) -> None:
    with pytest.raises(ValueError, match=re.escape(repr(code))):
        tile_svg(code)


def test_tiles_js_maps_every_code_to_its_face_and_is_safe_in_a_script() -> None:
    js = tiles_js()
    assert "</" not in js
    faces = json.loads(js)
    assert list(faces) == list(TILE_CODES)
    assert faces["T1"] == tile_svg("T1")
    assert json.loads(tiles_js(height=24))["B1"] == tile_svg("B1", height=24)


def test_chinese_is_drawn_as_paths_one_em_per_character() -> None:
    svg = chinese_svg("大四喜", height=20)
    root = ET.fromstring(svg)
    assert not list(root.iter(f"{SVG}text"))
    assert len(list(root.iter(f"{SVG}path"))) == 3
    assert (root.get("width"), root.get("height")) == ("60.0", "20")
    assert root.get("aria-label") == "大四喜" and root.get("fill") == "currentColor"


def test_a_character_without_a_glyph_falls_back_to_text_and_is_reported() -> None:
    assert missing_glyphs("箭刻×2 麻雀") == "麻雀"
    root = ET.fromstring(chinese_svg("麻a"))
    assert [t.text for t in root.iter(f"{SVG}text")] == ["麻", "a"]


def test_the_glyph_data_is_small_integer_path_data_with_its_licence_beside() -> None:
    data = json.loads(tiles.GLYPHS_FILE.read_text(encoding="utf-8"))
    assert data["em"] == 200 and "Open Font License" in data["license"]
    assert tiles.GLYPHS_FILE.stat().st_size < 80_000
    for char, (advance, path) in data["glyphs"].items():
        assert isinstance(advance, int) and 0 < advance <= 200, char
        assert re.fullmatch(r"(?:[mlcqz]|-?\d+| )+", path), char  # integers, relative commands
    licence = tiles.GLYPHS_FILE.with_name("glyphs-LICENSE.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert data["copyright"].strip("© .") in licence
