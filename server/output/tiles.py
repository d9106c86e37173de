"""Mahjong tiles as inline SVG faces, and Chinese text drawn as SVG paths without a font.

Every page of every ruleset draws its tiles with ``tile_svg`` (or, in the browser,
with the faces ``tiles_js`` gives) and its Chinese words (fan names) with
``chinese_svg``. Nothing here needs a font: the Chinese characters are outlines
stored in ``glyphs.json`` beside this module (made once by ``tools/make_glyphs.py``
from an SIL Open Font License font; the licence is ``glyphs-LICENSE.txt``), so a
projector's machine without a CJK font shows them as well as any.

Tile codes are Botzone's notation (the interfaces of issue 26): ``W1``..``W9``
characters (万), ``B1``..``B9`` dots, ``T1``..``T9`` bamboo, ``F1``..``F4`` the winds
east, south, west, north, ``J1``..``J3`` the dragons red 中, green 发, white 白,
``H1``..``H8`` the flowers 春 夏 秋 冬 梅 兰 竹 菊, and ``??`` a tile face down.

A face is drawn on a 30 x 40 grid (a real tile's 3:4) and scaled to the height asked
for; colours are those of real tiles: red, green, blue and black on ivory.

Pure: no trio, no import of the project.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache
from pathlib import Path

SUIT_NAMES = {"W": "characters", "B": "dots", "T": "bamboo"}
WIND_NAMES = ("east", "south", "west", "north")
DRAGON_NAMES = ("red dragon", "green dragon", "white dragon")
FLOWER_NAMES = ("spring", "summer", "autumn", "winter", "plum", "orchid", "bamboo",
                "chrysanthemum")

TILE_CODES: tuple[str, ...] = (
    *(f"{suit}{rank}" for suit in "WBT" for rank in range(1, 10)),
    *(f"F{n}" for n in range(1, 5)), *(f"J{n}" for n in range(1, 4)),
    *(f"H{n}" for n in range(1, 9)), "??",
)

NUMERALS = "一二三四五六七八九"
WAN = "万"
WINDS = "东南西北"
DRAGONS = "中发白"
FLOWERS = "春夏秋冬梅兰竹菊"
FACE_CHARACTERS = NUMERALS + WAN + WINDS + DRAGONS + FLOWERS  # what the faces draw

RED, GREEN, BLUE, BLACK = "#c0262d", "#17733a", "#1d4c9c", "#1d1d1b"
IVORY, EDGE, LINE = "#fffdf3", "#d9d1b3", "#8d8776"
W, H = 30, 40  # the face's grid

GLYPHS_FILE = Path(__file__).with_name("glyphs.json")


@cache
def _glyph_data() -> dict[str, object]:
    data: dict[str, object] = json.loads(GLYPHS_FILE.read_text(encoding="utf-8"))
    return data


def _glyphs() -> dict[str, list[object]]:
    glyphs = _glyph_data()["glyphs"]
    assert isinstance(glyphs, dict)
    return glyphs


def _em() -> int:
    em = _glyph_data()["em"]
    assert isinstance(em, int)
    return em


def missing_glyphs(text: str) -> str:
    """The characters of ``text`` (but spaces) that the glyph data lacks, once each, in order."""
    glyphs = _glyphs()
    return "".join(dict.fromkeys(c for c in text if c not in glyphs and not c.isspace()))


def _glyph(char: str, x: float, y: float, size: float, colour: str) -> str:
    """One character in the square ``size`` wide at (x, y), on the face's grid."""
    advance, path = _glyphs()[char]
    assert isinstance(advance, int)
    s = size / _em()
    dx = x + (size - advance * s) / 2  # narrow glyphs (digits) centred in the square
    return (f'<path fill="{colour}" transform="translate({dx:g} {y:g}) scale({s:g})" '
            f'd="{path}"/>')


# --- the faces ---------------------------------------------------------------------


def _circle(x: float, y: float, r: float, colour: str) -> str:
    """A dot as on real tiles: a coloured disc, an ivory ring, a coloured centre."""
    return (f'<circle cx="{x:g}" cy="{y:g}" r="{r:g}" fill="{colour}"/>'
            f'<circle cx="{x:g}" cy="{y:g}" r="{r * .62:g}" fill="{IVORY}"/>'
            f'<circle cx="{x:g}" cy="{y:g}" r="{r * .36:g}" fill="{colour}"/>')


_DOTS: dict[int, list[tuple[float, float, float, str]]] = {
    2: [(15, 11, 6.6, GREEN), (15, 28, 6.6, BLUE)],
    3: [(7.6, 8.5, 5, BLUE), (15, 19.5, 5, RED), (22.4, 30.5, 5, GREEN)],
    4: [(9, 11, 5.4, BLUE), (21, 11, 5.4, GREEN), (9, 28, 5.4, GREEN), (21, 28, 5.4, BLUE)],
    5: [(8, 9, 4.7, BLUE), (22, 9, 4.7, GREEN), (15, 19.5, 4.7, RED), (8, 30, 4.7, GREEN),
        (22, 30, 4.7, BLUE)],
    6: [(9.5, 8, 4.4, GREEN), (20.5, 8, 4.4, GREEN), (9.5, 20.5, 4.4, RED),
        (20.5, 20.5, 4.4, RED), (9.5, 31, 4.4, RED), (20.5, 31, 4.4, RED)],
    7: [(6.8, 6.5, 3.7, GREEN), (15, 10, 3.7, GREEN), (23.2, 13.5, 3.7, GREEN),
        (10, 22.5, 4, RED), (20, 22.5, 4, RED), (10, 31.5, 4, RED), (20, 31.5, 4, RED)],
    8: [(x, y, 3.6, BLUE) for y in (7, 14.5, 22, 29.5) for x in (9.5, 20.5)],
    9: [(x, y, 3.9, colour) for y, colour in ((8, BLUE), (19.5, RED), (31, GREEN))
        for x in (7, 15, 23)],
}


def _dots(rank: int) -> str:
    if rank == 1:  # the one dot: a large ornate disc
        return (f'<circle cx="15" cy="19.5" r="11" fill="{GREEN}"/>'
                f'<circle cx="15" cy="19.5" r="9" fill="{IVORY}"/>'
                f'<circle cx="15" cy="19.5" r="7.4" fill="{BLUE}"/>'
                f'<circle cx="15" cy="19.5" r="5" fill="{IVORY}"/>'
                f'<circle cx="15" cy="19.5" r="3.3" fill="{RED}"/>')
    return "".join(_circle(*dot) for dot in _DOTS[rank])


def _stick(x: float, y: float, length: float, colour: str, turn: float = 0) -> str:
    """A bamboo stick centred at (x, y): a rounded rod with a node in the middle."""
    top = y - length / 2
    rotate = f' transform="rotate({turn:g} {x:g} {y:g})"' if turn else ""
    return (f'<g{rotate}><rect x="{x - 2.1:g}" y="{top:g}" width="4.2" height="{length:g}" '
            f'rx="1.8" fill="{colour}"/>'
            f'<rect x="{x - 2.5:g}" y="{y - .6:g}" width="5" height="1.2" rx=".5" '
            f'fill="{colour}"/>'
            f'<line x1="{x:g}" y1="{top + 1.5:g}" x2="{x:g}" y2="{y - 1.5:g}" stroke="{IVORY}" '
            f'stroke-width=".8"/>'
            f'<line x1="{x:g}" y1="{y + 1.5:g}" x2="{x:g}" y2="{top + length - 1.5:g}" '
            f'stroke="{IVORY}" stroke-width=".8"/></g>')


_STICKS: dict[int, list[tuple[float, float, float, str, float]]] = {
    2: [(15, 11.5, 13, GREEN, 0), (15, 28, 13, GREEN, 0)],
    3: [(15, 11.5, 13, GREEN, 0), (9.5, 28, 13, GREEN, 0), (20.5, 28, 13, GREEN, 0)],
    4: [(9.5, 11.5, 13, GREEN, 0), (20.5, 11.5, 13, BLUE, 0), (9.5, 28, 13, BLUE, 0),
        (20.5, 28, 13, GREEN, 0)],
    5: [(7.5, 11.5, 13, GREEN, 0), (22.5, 11.5, 13, BLUE, 0), (15, 19.75, 13, RED, 0),
        (7.5, 28, 13, BLUE, 0), (22.5, 28, 13, GREEN, 0)],
    6: [(x, y, 13, GREEN, 0) for y in (11.5, 28) for x in (8, 15, 22)],
    7: [(15, 7.5, 9, RED, 0), *((x, y, 9.6, GREEN, 0) for y in (19.2, 30.8) for x in (8, 15, 22))],
    8: [(5.5, 11.5, 13, GREEN, 0), (11.7, 11.5, 13, GREEN, 22), (18.3, 11.5, 13, GREEN, -22),
        (24.5, 11.5, 13, GREEN, 0), (5.5, 28, 13, GREEN, 0), (11.7, 28, 13, GREEN, -22),
        (18.3, 28, 13, GREEN, 22), (24.5, 28, 13, GREEN, 0)],
    9: [(x, y, 9.6, RED if x == 15 else GREEN, 0) for y in (8.5, 19.5, 30.5) for x in (8, 15, 22)],
}


def _bird() -> str:
    """The one bamboo: a simple green bird with a red crest, tail and beak."""
    return (f'<path fill="{RED}" d="M13 30 L8 36 L12 36 L15 31 L18 36 L22 36 L17 30 Z"/>'
            f'<ellipse cx="15" cy="22" rx="7" ry="8.5" fill="{GREEN}"/>'
            f'<path fill="{BLUE}" d="M10 20 Q15 28 20 20 Q17 25 15 25 Q13 25 10 20 Z"/>'
            f'<circle cx="15" cy="11" r="4.6" fill="{GREEN}"/>'
            f'<path fill="{RED}" d="M13 6.8 L14 3 L15.5 6.4 L17 3.4 L17.4 7.4 Z"/>'
            f'<path fill="{RED}" d="M19.2 10 L23.5 11.4 L19.2 12.8 Z"/>'
            f'<circle cx="16.4" cy="10.4" r="1.2" fill="{IVORY}"/>'
            f'<circle cx="16.6" cy="10.4" r=".55" fill="{BLACK}"/>')


def _bamboo(rank: int) -> str:
    if rank == 1:
        return _bird()
    return "".join(_stick(*stick) for stick in _STICKS[rank])


def _characters(rank: int) -> str:
    return _glyph(NUMERALS[rank - 1], 6, 1.8, 18, BLACK) + _glyph(WAN, 5, 17.5, 20, RED)


def _honour(code: str) -> str:
    n = int(code[1])
    if code[0] == "F":
        return _glyph(WINDS[n - 1], 3, 6.5, 24, BLACK)
    if n == 3:  # the white dragon: a blue frame, as on real tiles
        return (f'<rect x="5.5" y="6" width="19" height="27" rx="1.5" fill="none" '
                f'stroke="{BLUE}" stroke-width="2.2"/>'
                f'<rect x="8.6" y="9.1" width="12.8" height="20.8" fill="none" '
                f'stroke="{BLUE}" stroke-width=".8"/>')
    return _glyph(DRAGONS[n - 1], 3, 6.5, 24, RED if n == 1 else GREEN)


def _flower(n: int) -> str:
    colour = GREEN if n <= 4 else RED  # the seasons, then the plants
    number = str(n if n <= 4 else n - 4)
    return (_glyph(FLOWERS[n - 1], 4, 9, 22, colour) + _glyph(number, 1.5, 1, 10, BLUE)
            + f'<path fill="none" stroke="{colour}" stroke-width="1.1" '
              f'd="M7 34 Q11 31 15 34 T23 34"/>')


def _back() -> str:
    return (f'<rect x=".6" y=".6" width="28.8" height="38.8" rx="3.4" fill="#1f6b45" '
            f'stroke="{LINE}" stroke-width=".8"/>'
            f'<rect x="3.5" y="3.5" width="23" height="33" rx="2" fill="none" stroke="#8cc7a2" '
            f'stroke-width=".8"/>')


def _face(code: str) -> str:
    kind, rest = code[0], code[1:]
    if code == "??":
        return _back()
    body = (f'<rect x=".6" y=".6" width="28.8" height="38.8" rx="3.4" fill="{EDGE}" '
            f'stroke="{LINE}" stroke-width=".8"/>'
            f'<rect x="1" y="1" width="28" height="37" rx="3" fill="{IVORY}"/>')
    rank = int(rest)
    if kind == "W":
        return body + _characters(rank)
    if kind == "B":
        return body + _dots(rank)
    if kind == "T":
        return body + _bamboo(rank)
    if kind == "H":
        return body + _flower(rank)
    return body + _honour(code)


def tile_name(code: str) -> str:
    """A tile's name in English: "3 characters", "east wind", "plum (flower 5)"."""
    _check(code)
    kind, rest = code[0], code[1:]
    if code == "??":
        return "a tile face down"
    if kind in SUIT_NAMES:
        return f"{rest} {SUIT_NAMES[kind]}"
    n = int(rest)
    if kind == "F":
        return f"{WIND_NAMES[n - 1]} wind"
    if kind == "J":
        return DRAGON_NAMES[n - 1]
    return f"{FLOWER_NAMES[n - 1]} (flower {n})"


_CODE_SET = frozenset(TILE_CODES)


def _check(code: str) -> None:
    if code not in _CODE_SET:
        raise ValueError(f"not a tile code: {code!r} (W1..W9, B1..B9, T1..T9, F1..F4, "
                         "J1..J3, H1..H8 or ??)")


@cache
def _face_markup(code: str) -> str:
    return _face(code)


def tile_svg(code: str, *, height: int = 40, title: str | None = None) -> str:
    """An inline ``<svg>`` of one tile face ``height`` pixels high, three quarters as wide.

    Self-contained: shapes and glyph paths only, no ``<text>``, no font. ``title`` is
    the tooltip (the tile's English name by default, "W3 · 3 characters").
    """
    _check(code)
    label = html.escape(title if title is not None else f"{code} · {tile_name(code)}")
    width = round(height * W / H)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile-svg" viewBox="0 0 {W} {H}" '
            f'width="{width}" height="{height}" role="img" aria-label="{label}">'
            f'<title>{label}</title>{_face_markup(code)}</svg>')


def tiles_svg(codes: list[str] | tuple[str, ...], *, height: int = 40) -> str:
    """A row of tiles, each ``tile_svg``."""
    return "".join(tile_svg(code, height=height) for code in codes)


def tiles_js(*, height: int = 40) -> str:
    """A JavaScript object literal: each code of ``TILE_CODES`` to its ``tile_svg`` markup.

    Safe inside a ``<script>`` element (no ``</`` in it).
    """
    faces = {code: tile_svg(code, height=height) for code in TILE_CODES}
    return json.dumps(faces, ensure_ascii=False).replace("</", "<\\/")


def chinese_svg(text: str, *, height: int = 16) -> str:
    """``text`` drawn as one inline ``<svg>`` of glyph outlines, ``height`` pixels high.

    The characters sit on the text's baseline and take the current text colour.
    A character the glyph data lacks (not one any page of the project uses: a test
    checks) falls back to a ``<text>`` element, which a font may or may not draw.
    """
    glyphs, em = _glyphs(), _em()
    parts, x = [], 0
    for char in text:
        found = glyphs.get(char)
        if found is not None:
            advance, path = found
            assert isinstance(advance, int)
            parts.append(f'<path transform="translate({x} 0)" d="{path}"/>')
        else:
            advance = em if ord(char) > 0x2e7f else em // 2
            if not char.isspace():
                parts.append(f'<text x="{x + advance / 2:g}" y="{em * .86:g}" '
                             f'font-size="{em * .9:g}" text-anchor="middle">'
                             f'{html.escape(char)}</text>')
        x += advance
    width = max(1, x) * height / em
    label = html.escape(text)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="zh" viewBox="0 0 {max(1, x)} {em}" '
            f'width="{width:.1f}" height="{height}" fill="currentColor" role="img" '
            f'aria-label="{label}" style="vertical-align:{-0.12 * height:.1f}px">'
            f'{"".join(parts)}</svg>')


_CHINESE_RUN = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]+")


def text_html(text: str, *, height: int = 16) -> str:
    """Plain ``text`` as HTML (escaped) with each run of Chinese in it drawn by
    ``chinese_svg``, so a sentence like "seat 2 robs the kong (抢杠和)" needs no font.
    A run with a character the glyph data lacks stays text (no worse than before)."""
    parts, at = [], 0
    for found in _CHINESE_RUN.finditer(text):
        run = found.group()
        if missing_glyphs(run):
            continue
        parts.append(html.escape(text[at:found.start()]))
        parts.append(chinese_svg(run, height=height))
        at = found.end()
    parts.append(html.escape(text[at:]))
    return "".join(parts)
