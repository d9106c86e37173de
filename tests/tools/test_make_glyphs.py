"""tools/make_glyphs.py: outlines read from a font file, scaled to integers, and every
character the project draws covered by the data it wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.output.tiles import missing_glyphs
from tools import make_glyphs


def _font(path: Path) -> Path:
    """A tiny TrueType font: 中 is a 500-unit square with a square hole, upem 1000."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen

    def square(pen: TTGlyphPen, x: int, y: int, size: int, clockwise: bool) -> None:
        points = [(x, y), (x, y + size), (x + size, y + size), (x + size, y)]
        if not clockwise:
            points.reverse()
        pen.moveTo(points[0])
        for p in points[1:]:
            pen.lineTo(p)
        pen.closePath()

    pen = TTGlyphPen(None)
    square(pen, 100, 0, 500, True)
    square(pen, 200, 100, 100, False)
    glyph = pen.glyph()
    builder = FontBuilder(1000, isTTF=True)
    builder.setupGlyphOrder([".notdef", "zhong"])
    builder.setupCharacterMap({ord("中"): "zhong"})
    builder.setupGlyf({".notdef": TTGlyphPen(None).glyph(), "zhong": glyph})
    builder.setupHorizontalMetrics({".notdef": (1000, 0), "zhong": (1000, 100)})
    builder.setupHorizontalHeader(ascent=880, descent=-120)
    builder.setupOS2(sTypoAscender=880, sTypoDescender=-120)
    builder.setupNameTable({"familyName": "Test", "styleName": "Bold",
                            "copyright": "test copyright", "licenseDescription": "test licence"})
    builder.setupPost()
    builder.save(str(path))
    return path


def test_an_outline_is_scaled_to_the_em_flipped_and_written_in_relative_integers(
        tmp_path: Path) -> None:
    pytest.importorskip("fontTools")
    data = make_glyphs.make(_font(tmp_path / "t.ttf"), "中")
    assert data["em"] == 200 and data["copyright"] == "test copyright"
    advance, path = data["glyphs"]["中"]
    assert advance == 200
    # The square from (100, 0) to (600, 500) in font units is (20, 176)-(120, 76) at em 200
    # (y down from the ascender, 880); after z each contour starts from its first point.
    # The hole (200, 100)-(300, 200), drawn the other way round, starts 40 right and 20 up
    # of the first contour's start, where z left the pen.
    assert path == "m20 176l0-100 100 0 0 100zm40-20l0-20-20 0 0 20z"

def test_a_character_the_font_lacks_is_named(tmp_path: Path) -> None:
    pytest.importorskip("fontTools")
    with pytest.raises(ValueError, match="'发'"):
        make_glyphs.make(_font(tmp_path / "t.ttf"), "中发")


def test_a_missing_or_unreadable_font_file_exits_2_with_a_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert make_glyphs.main([str(tmp_path / "none.ttf")]) == 2
    assert "none.ttf" in capsys.readouterr().err
    bad = tmp_path / "bad.ttf"
    bad.write_bytes(b"not a font")
    assert make_glyphs.main([str(bad), "--out", str(tmp_path / "g.json")]) == 2
    assert "bad.ttf" in capsys.readouterr().err
    assert not (tmp_path / "g.json").exists()


def test_the_stored_data_has_every_character_the_tool_would_extract() -> None:
    assert missing_glyphs(make_glyphs.needed_characters()) == ""
