"""``server replay``: a recorded hand in the terminal, step by step.

A hand is a folder the server wrote (``game.log`` plus ``events.jsonl``) or a
single original-format ``.log`` file. The table comes from ``table_view``;
the folder's structured events add the claims each seat made, fines and faults.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from protocol.tiles import Tile
from rulesets.default.engine.legacy_log import LegacyLog, parse_legacy_log
from rulesets.default.engine.table_view import Snapshot, snapshots
from rulesets.default.logs import unfinished
from server.bots.sandbox import BotLimits
from server.seam.errors import InputError, reason

GLYPHS: tuple[str, ...] = tuple(
    [chr(0x1F007 + i) for i in range(9)]  # characters
    + [chr(0x1F010 + i) for i in range(9)]  # bamboo
    + [chr(0x1F019 + i) for i in range(9)]  # dots
    + [chr(0x1F000 + i) for i in range(4)]  # E S W N
    + [chr(0x1F004), chr(0x1F005), chr(0x1F006)]  # 中 发 白
)


class HandFileError(InputError):
    """A path that is not a readable hand record."""


@dataclass(slots=True)
class RecordedHand:
    path: Path
    log: LegacyLog
    structured: list[dict[str, Any]] = field(default_factory=list)  # events.jsonl, if any

    @property
    def header(self) -> dict[str, Any]:
        return next((r for r in self.structured if r.get("type") == "hand"), {})

    @property
    def result(self) -> dict[str, Any]:
        return next((r for r in self.structured if r.get("type") == "result"), {})


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise HandFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise HandFileError(f"{path}:{number}: not a JSON object")
        rows.append(row)
    return rows


def load_hand(path: Path) -> RecordedHand:
    """A hand folder or an original ``.log`` file."""
    if path.is_dir():
        game_log = path / "game.log"
        if (why := unfinished(path)) is not None:
            raise HandFileError(f"{path}: {why}")
        if not game_log.exists():
            raise HandFileError(f"{path}: no game.log (is this a hand folder?)")
        structured = read_jsonl(path / "events.jsonl") if (path / "events.jsonl").exists() \
            else []
        return RecordedHand(path, _parse(game_log), structured)
    if not path.exists():
        raise HandFileError(f"{path}: no such file or folder")
    return RecordedHand(path, _parse(path))


def _parse(path: Path) -> LegacyLog:
    try:
        return parse_legacy_log(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise HandFileError(f"{path}: not a text file") from None
    except ValueError as exc:
        raise HandFileError(f"{path}: {reason(exc)}") from None


def tile_text(tile: Tile, glyphs: bool) -> str:
    return GLYPHS[tile] if glyphs else tile.code


def tiles_text(tiles: tuple[Tile, ...] | list[Tile], glyphs: bool) -> str:
    return (" " if not glyphs else "").join(tile_text(t, glyphs) for t in tiles) if glyphs \
        else " ".join(t.code for t in tiles)


def render_table(hand: RecordedHand, snap: Snapshot, glyphs: bool) -> Table:
    title = f"step {snap.step}/{len(hand.log.events)}: {snap.note}   wall {snap.wall_left}"
    table = Table(title=Text(title), show_lines=True, title_justify="left")
    for col in ("seat", "hand", "melds", "discards"):
        table.add_column(col)
    seats = hand.header.get("seats")
    for seat in range(4):
        label = f"{seat}"
        if seats and seat < len(seats):
            label += f" P{seats[seat]['player']}"
        elif seat < len(hand.log.ais):
            label += f" {Path(hand.log.ais[seat]).name}"
        if seat == hand.log.first:
            label += " *"
        concealed = tiles_text(snap.hands[seat], glyphs)
        drawn = snap.drawn[seat]
        if drawn is not None:
            concealed += "  + " + tile_text(drawn, glyphs)
        melds = "  ".join(f"{m.kind} {tiles_text(m.tiles, glyphs)}"
                          + (f" <{m.source}" if m.source is not None else "")
                          for m in snap.melds[seat])
        style = "bold" if snap.actor == seat else ""
        table.add_row(Text(label, style=style), concealed, melds,
                      tiles_text(snap.rivers[seat], glyphs))
    return table


def render_result(hand: RecordedHand) -> Table:
    log = hand.log
    table = Table(title="result", title_justify="left")
    table.add_column("")
    table.add_column("")
    if log.result is None:
        table.add_row("result", "draw (the wall ran out)")
    else:
        how = "self-drawn" if log.result.how == "tsumo" else f"on seat {log.result.source}'s tile"
        table.add_row("winner", f"seat {log.result.winner}, {how}")
        table.add_row("fans", ", ".join(f"{n} {v}" for n, v in log.result.fans) or "none")
        table.add_row("fan total", str(log.result.score))
    res = hand.result
    if res:
        if res.get("deltas") is not None:
            table.add_row("points by seat", " ".join(f"{d:+d}" for d in res["deltas"]))
        fines = res.get("fines") or []
        if any(fines):
            table.add_row("fines by seat", " ".join(str(f) for f in fines))
        for seat, cause in (res.get("faults") or {}).items():
            table.add_row(f"fault seat {seat}", Text(str(cause)))
    return table


def claims_by_step(hand: RecordedHand) -> dict[int, list[str]]:
    """The answers seats gave in each claim window, keyed by the step they follow."""
    out: dict[int, list[str]] = {}
    for row in hand.structured:
        if row.get("type") == "input" and "after" in row and row.get("line") is not None:
            line = str(row["line"])
            if line.split(" ")[0] in ("pass", "peng", "gang", "chi", "hu", "qgang"):
                out.setdefault(int(row["after"]), []).append(f"seat {row['seat']}: {line}")
        if row.get("type") == "input" and row.get("fault") and row.get("fault") != "auto":
            out.setdefault(int(row.get("after", 0)), []).append(
                f"seat {row['seat']} FAULT: {row['fault']}")
    return out


def print_replay(hand: RecordedHand, console: Console, at: int | None, glyphs: bool) -> None:
    shots = snapshots(hand.log)
    if at is not None:
        if not 0 <= at < len(shots):
            raise HandFileError(f"--at {at}: the hand has steps 0..{len(shots) - 1}")
        console.print(render_table(hand, shots[at], glyphs))
        return
    console.print(Text.assemble((str(hand.path), "bold"), f": round {hand.log.round} game "
                                f"{hand.log.game}, first actor seat {hand.log.first}"))
    console.print(render_table(hand, shots[0], glyphs))
    claims = claims_by_step(hand)
    for snap in shots[1:]:
        console.print(f"{snap.step:4d}  {snap.event:<14} {snap.note}", markup=False)
        for line in claims.get(snap.step, []):
            if not line.endswith(": pass"):
                console.print(f"        claim {line}", markup=False)
    console.print(render_table(hand, shots[-1], glyphs))
    console.print(render_result(hand))


def replay_bot_command(hand: Path, seat: int | None, bot: str | None, console: Console,
                       limits: BotLimits | None = None, answer_seconds: float = 5.0) -> int:
    """``replay --seat N --bot CMD``: feed a bot what a seat received, compare answers;
    the bot runs with ``limits``, as in a match."""
    import trio

    from rulesets.default.replay_bot import read_transcript, replay_to_bot
    from server.bots.processes import BotCommandError, parse_command

    if seat is None or bot is None:
        raise InputError("--seat and --bot go together")
    path = hand / f"seat{seat}.transcript"
    try:
        argv = parse_command(bot)
        transcript = read_transcript(path)
    except (BotCommandError, OSError, ValueError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(reason(exc)) from None
    result = trio.run(replay_to_bot, transcript, argv, answer_seconds, limits)
    table = Table(title=Text(f"{bot} as seat {seat} of {hand}"))
    for col in ("#", "after", "recorded", "bot", ""):
        table.add_column(col)
    for i, d in enumerate(result.decisions, start=1):
        table.add_row(str(i), Text(d.prompt), Text(d.recorded), Text(d.got),
                      "" if d.same else Text("differs", style="red"))
    console.print(table)
    for prompt, line in result.extra:
        console.print(Text.assemble(("extra", "yellow"), f" after {prompt!r}: {line!r}"))
    if result.ended_early:
        console.print(Text(result.ended_early, style="yellow"))
    same = sum(1 for d in result.decisions if d.same)
    console.print(f"{same} of {len(result.decisions)} answers as recorded")
    return 0 if result.differences == 0 else 1
