"""Make ``server/output/glyphs.json``: the outlines of the Chinese characters the pages draw.

The pages draw Chinese (fan names, the characters on the tiles) as SVG paths, so no
CJK font is needed where they are shown. This tool reads a font FILE you point it
to (an OpenType/TrueType font or a collection, e.g. Noto Sans CJK, under the SIL
Open Font License), takes the outline of every character the project needs (the
tile faces, every fan name of every ruleset, the digits) and writes them, scaled
to an em of 200 units with integer coordinates, as compact relative SVG path data.
The font's licence must go beside the data (``glyphs-LICENSE.txt``).

Usage (fontTools is a development dependency only: ``pip install -e '.[glyphs]'``)::

    python -m tools.make_glyphs FONT [--face N] [--out server/output/glyphs.json]

A font collection (``.ttc``) holds several faces: ``--face`` picks one (by default
the first whose name says Simplified Chinese, "SC"). Bad input exits with status 2
and a message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

EM = 200  # the data's units per em: 0.2 px at a 40 px tile, fine at a projector's size
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "server" / "output" / "glyphs.json"
EXTRA = "0123456789×"  # flower numbers, and counts in recorded fan names (箭刻×2)


def needed_characters() -> str:
    """Every character the pages draw with ``chinese_svg``, sorted, without duplicates."""
    sys.path.insert(0, str(ROOT))
    from rulesets.botzone.fan_names import FAN_NAMES
    from rulesets.default.engine.legacy_log import LEGACY_NAMES
    from scoring.fans import FAN_TABLE
    from server.output.tiles import FACE_CHARACTERS

    texts: list[str] = [FACE_CHARACTERS, EXTRA]
    texts += [fan.name for fan in FAN_TABLE]
    texts += [fan.chinese for fan in FAN_NAMES]
    texts += [*LEGACY_NAMES, *LEGACY_NAMES.values()]
    return "".join(sorted(set("".join(texts))))


def _number(v: float) -> int:
    return round(v)


class _PathPen:
    """A fontTools pen writing relative SVG path data with integer coordinates.

    Coordinates are rounded first and the deltas taken between rounded points, so
    rounding errors do not add up along a contour.
    """

    def __init__(self, glyph_set: Any, transform: Callable[[float, float], tuple[int, int]]):
        from fontTools.pens.basePen import BasePen

        outer = self

        class Pen(BasePen):  # type: ignore[misc]
            def _moveTo(self, pt: tuple[float, float]) -> None:
                outer.move(transform(*pt))

            def _lineTo(self, pt: tuple[float, float]) -> None:
                outer.segment("l", [transform(*pt)])

            def _curveToOne(self, p1: tuple[float, float], p2: tuple[float, float],
                            p3: tuple[float, float]) -> None:
                outer.segment("c", [transform(*p) for p in (p1, p2, p3)])

            def _qCurveToOne(self, p1: tuple[float, float], p2: tuple[float, float]) -> None:
                outer.segment("q", [transform(*p) for p in (p1, p2)])

            def _closePath(self) -> None:
                outer.close()

            _endPath = _closePath

        self.pen = Pen(glyph_set)
        self.parts: list[str] = []
        self.command = ""
        self.at = self.start = (0, 0)

    def move(self, point: tuple[int, int]) -> None:
        dx, dy = point[0] - self.at[0], point[1] - self.at[1]
        self.parts.append(f"m{dx}" + (str(dy) if dy < 0 else f" {dy}"))
        self.at = self.start = point
        self.command = "m"  # the next segment writes its letter (bare pairs after m are lines)

    def segment(self, command: str, points: list[tuple[int, int]]) -> None:
        if all(p == self.at for p in points):
            return  # a segment rounded away
        base = self.at
        numbers = [(x - base[0], y - base[1]) for x, y in points]
        # Relative curves are relative to the segment's start, not to each point.
        text = ""
        for dx, dy in numbers:
            for n in (dx, dy):
                text += (str(n) if n < 0 or not text else f" {n}")
        if command == self.command:
            self.parts.append(text if text.startswith("-") else " " + text)
        else:
            self.parts.append(command + text)
        self.command = command
        self.at = points[-1]

    def close(self) -> None:
        self.parts.append("z")
        self.command = "z"
        self.at = self.start  # after z the pen is back at the contour's start (SVG)

    def path(self) -> str:
        return "".join(self.parts)


def _pick_face(path: Path, face: int | None) -> Any:
    from fontTools.ttLib import TTCollection, TTFont

    if path.suffix.lower() in (".ttc", ".otc"):
        fonts = TTCollection(str(path)).fonts
        if face is None:
            names = [f["name"].getDebugName(4) or "" for f in fonts]
            face = next((i for i, n in enumerate(names) if " SC" in n), 0)
        if not 0 <= face < len(fonts):
            raise ValueError(f"--face {face}: the collection has faces 0 to {len(fonts) - 1}")
        return fonts[face]
    return TTFont(str(path))


def make(font_path: Path, chars: str, face: int | None = None) -> dict[str, Any]:
    """The glyph data of ``chars`` from the font at ``font_path``."""
    font = _pick_face(font_path, face)
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    upem = font["head"].unitsPerEm
    top = font["OS/2"].sTypoAscender
    scale = EM / (font["OS/2"].sTypoAscender - font["OS/2"].sTypoDescender)

    def transform(x: float, y: float) -> tuple[int, int]:
        return _number(x * scale), _number((top - y) * scale)

    glyphs: dict[str, list[Any]] = {}
    missing = [c for c in chars if ord(c) not in cmap]
    if missing:
        raise ValueError(f"the font has no glyph for {''.join(missing)!r}")
    for char in chars:
        name = cmap[ord(char)]
        pen = _PathPen(glyph_set, transform)
        glyph_set[name].draw(pen.pen)
        glyphs[char] = [_number(glyph_set[name].width * scale), pen.path()]
    name_table = font["name"]
    return {
        "about": "Glyph outlines for server/output/tiles.py, made by tools/make_glyphs.py; "
                 "licence: glyphs-LICENSE.txt beside this file.",
        "font": name_table.getDebugName(4), "version": name_table.getDebugName(5),
        "copyright": name_table.getDebugName(0), "license": name_table.getDebugName(13),
        "em": EM, "units_per_em_of_font": upem, "glyphs": glyphs,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("font", type=Path, help="a font file (.otf, .ttf, .ttc)")
    parser.add_argument("--face", type=int, default=None, help="the face of a collection")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--extra", default="", help="more characters to include")
    args = parser.parse_args(argv)
    try:
        import fontTools  # noqa: F401
    except ImportError:
        print("make_glyphs: fontTools is missing: pip install -e '.[glyphs]' "
              "(or pip install fonttools)", file=sys.stderr)
        return 2
    if not args.font.is_file():
        print(f"make_glyphs: {args.font}: no such font file", file=sys.stderr)
        return 2
    chars = "".join(sorted(set(needed_characters() + args.extra)))
    try:
        data = make(args.font, chars, args.face)
    except Exception as error:  # a file fontTools cannot read, a face out of range
        print(f"make_glyphs: {args.font}: {error}", file=sys.stderr)
        return 2
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace('"glyphs":{', '"glyphs":{\n').replace('],"', '],\n"')
    args.out.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(chars)} characters, {len(text.encode())} bytes "
          f"from {data['font']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
