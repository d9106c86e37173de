"""``server replay`` for a Botzone game: the table step by step in the terminal.

A Botzone game is one JSON record (our ``game.json`` or a data file of the
official judge's games); ``rulesets.botzone.view`` turns it into table states
and this module draws them with rich, in the default replay's look: a table
per shown step (seat, hand, melds, flowers, discards), one line per judge turn
with the answers that were not a plain PASS, and the result with every fan
named in Chinese and English.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from rulesets.botzone.records import read_record
from rulesets.botzone.view import (
    WINDS,
    Answer,
    Discard,
    GameView,
    Meld,
    Result,
    TableState,
    ViewError,
    game_view,
)
from server.output.say import one_line
from server.seam.errors import InputError

_SUIT_BASE = {"W": 0x1F007, "T": 0x1F010, "B": 0x1F019}  # characters, bamboo, dots
_HONOURS = {"F1": 0x1F000, "F2": 0x1F001, "F3": 0x1F002, "F4": 0x1F003,
            "J1": 0x1F004, "J2": 0x1F005, "J3": 0x1F006}
# H1-H8 are 春夏秋冬梅兰竹菊: the seasons, then the plants
_FLOWERS = {f"H{i + 1}": cp for i, cp in enumerate([*range(0x1F026, 0x1F02A),
                                                     *range(0x1F022, 0x1F026)])}


class GameFileError(InputError):
    """A path that is not a readable Botzone game record."""


def tile_glyph(code: str) -> str:
    """The Unicode Mahjong glyph of a tile code, or the code if it has none."""
    if code[:1] in _SUIT_BASE and code[1:].isdigit() and 1 <= int(code[1:]) <= 9:
        return chr(_SUIT_BASE[code[0]] + int(code[1:]) - 1)
    cp = _HONOURS.get(code) or _FLOWERS.get(code)
    return chr(cp) if cp else code


def tile_text(code: str, glyphs: bool) -> str:
    return tile_glyph(code) if glyphs else code


def tiles_text(codes: tuple[str, ...] | list[str], glyphs: bool) -> str:
    """Codes apart, glyphs side by side (the default replay's look)."""
    return ("" if glyphs else " ").join(tile_text(c, glyphs) for c in codes)


def load_game(path: Path) -> GameView:
    """A game record read and rebuilt, or one clear line of why not."""
    return view_of(read_record(path), str(path))


def view_of(record: Mapping[str, Any], where: str = "the record") -> GameView:
    try:
        return game_view(record)
    except ViewError as exc:
        raise GameFileError(f"{where}: {exc}") from None


def _wall(state: TableState) -> str:
    if len(state.wall) == 1:
        return f"wall {state.wall[0]}"
    return "walls " + " ".join(str(w) for w in state.wall)


def _meld_text(meld: Meld, glyphs: bool) -> str:
    return f"{meld.kind.lower()} {tiles_text(meld.tiles, glyphs)}" \
        + (f" <{meld.source}" if meld.source is not None else "")


def _discards_text(discards: tuple[Discard, ...], glyphs: bool) -> Text:
    text = Text()
    for i, d in enumerate(discards):
        if i:
            text.append(" ")
        if d.taken_by is None:
            text.append(tile_text(d.tile, glyphs))
        else:
            text.append(f"{tile_text(d.tile, glyphs)}>{d.taken_by}", style="dim strike")
    return text


def answer_text(answer: Answer) -> str:
    said = "-" if answer.response is None else answer.response
    extra = [answer.verdict] if answer.verdict != "OK" else []
    if answer.ms is not None:
        extra.append(f"{answer.ms} ms")
    if answer.cause:
        extra.append(answer.cause)
    if answer.debug:
        extra.append(f"debug: {answer.debug}")
    return one_line(said + (f" ({', '.join(extra)})" if extra else ""), 200)


def render_state(view: GameView, state: TableState, glyphs: bool) -> Table:
    last = len(view.states) - 1
    title = f"step {state.step}/{last}: {state.note}   {_wall(state)}" \
            f"   prevailing wind {WINDS[state.quan % 4]}"
    table = Table(title=Text(title), show_lines=True, title_justify="left")
    for col in ("seat", "hand", "melds", "flowers", "discards"):
        table.add_column(col)
    if state.answers:
        table.add_column("asked → answered")
    for seat in range(4):
        label = f"{seat} {WINDS[seat][0]}"
        if view.names[seat] != f"seat {seat}":
            label += f" {view.names[seat]}"
        concealed = tiles_text(state.hands[seat], glyphs)
        drawn = state.drawn[seat]
        if drawn is not None:
            concealed += "  + " + tile_text(drawn, glyphs)
        style = "bold" if state.actor == seat else ""
        # Text throughout: what a record holds is never read as rich markup
        row = [Text(label, style=style), Text(concealed),
               Text("  ".join(_meld_text(m, glyphs) for m in state.melds[seat])),
               Text(tiles_text(state.flowers[seat], glyphs)),
               _discards_text(state.discards[seat], glyphs)]
        if state.answers:
            a = state.answers[seat]
            row.append(Text(f"{one_line(a.request, 80)} → {answer_text(a)}"))
        table.add_row(*row)
    return table


def render_result(view: GameView, result: Result | None) -> Table:
    table = Table(title="result", title_justify="left")
    table.add_column("")
    table.add_column("")
    if result is None:
        table.add_row("result", "the game did not finish")
        return table
    table.add_row("result", Text(result.summary))
    if result.fans:
        fans = Table(show_header=True, box=None, pad_edge=False)
        for col in ("fan", "in English", "value", "count"):
            fans.add_column(col)
        for f in result.fans:
            fans.add_row(Text(f.chinese), Text(f.english), str(f.value), f"×{f.count}")
        table.add_row("fans", fans)
    if result.fan_total is not None:
        table.add_row("fan total", str(result.fan_total))
    if result.scores is not None:
        table.add_row("scores", "  ".join(f"{s}:{v:+d}" for s, v in enumerate(result.scores)))
    if result.fault and result.player is not None:
        table.add_row(f"fault seat {result.player}",
                      Text(f"{result.action}" + (f": {result.cause}" if result.cause else "")))
    return table


def _answer_lines(state: TableState) -> list[str]:
    lines = []
    for seat, a in enumerate(state.answers):
        if a.response != "PASS" or a.verdict != "OK":
            lines.append(f"seat {seat}: {answer_text(a)}")
    return lines


def choose_glyphs(console: Console, codes: bool | None) -> bool:
    """Glyphs on a UTF-8 terminal unless --codes; codes when asked or piped."""
    if codes is None:
        return console.is_terminal and (console.encoding or "").lower().startswith("utf")
    return not codes


def show_game(record: Mapping[str, Any] | GameView, at: int | None, codes: bool | None,
              console: Console, *, where: str = "") -> None:
    """The game in the terminal: every step, or with ``at`` the table at that step."""
    view = record if isinstance(record, GameView) else view_of(record, where or "the record")
    glyphs = choose_glyphs(console, codes)
    states = view.states
    if at is not None:
        if not 0 <= at < len(states):
            raise GameFileError(f"--at {at}: the game has steps 0..{len(states) - 1}")
        console.print(render_state(view, states[at], glyphs))
        if states[at].result is not None:
            console.print(render_result(view, states[at].result))
        return
    head = f"{where}: " if where else ""
    console.print(Text.assemble((head, "bold"), f"Botzone {view.variant}, prevailing wind "
                                f"{WINDS[view.quan % 4]}"))
    if view.about:
        console.print(Text(view.about))
    first = states[1] if len(states) > 1 and states[1].action == "DEAL" else states[0]
    console.print(render_state(view, first, glyphs))
    for state in states:
        console.print(f"{state.step:4d}  {state.action:<7} {state.note}", markup=False)
        for line in _answer_lines(state):
            console.print(f"        answer {line}", markup=False)
    console.print(render_state(view, states[-1], glyphs))
    console.print(render_result(view, view.result))
