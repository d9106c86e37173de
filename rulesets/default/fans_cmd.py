"""``server fans``: score one hand from the command line, or many as JSON lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from protocol.tiles import TileError, parse_tile, parse_tiles
from scoring.fans import FANS, FanResult, HandError, WinningHand, score
from scoring.melds import Meld, MeldKind, parse_meld
from server.seam.contract import CommandArgs
from server.seam.errors import InputError, reason

_BATCH_KINDS = {"chi": MeldKind.CHOW, "peng": MeldKind.PUNG, "gang": MeldKind.KONG,
                "agang": MeldKind.CONCEALED_KONG}


def parse_melds_text(text: str) -> list[Meld]:
    """``"chi 3M, peng E, agang Z"`` as melds."""
    return [parse_meld(part) for part in text.split(",") if part.strip()]


def hand_from_json(obj: Any) -> WinningHand:
    """A batch line's object as a hand; ``HandError`` names what is wrong."""
    if not isinstance(obj, dict):
        raise HandError("each line must be a JSON object")
    unknown = set(obj) - {"hand", "melds", "win", "self_drawn"}
    if unknown:
        raise HandError(f"unknown field(s): {', '.join(sorted(unknown))}")
    hand, melds, win = obj.get("hand"), obj.get("melds", []), obj.get("win")
    self_drawn = obj.get("self_drawn", False)
    if not isinstance(hand, list) or not all(isinstance(t, str) for t in hand):
        raise HandError("'hand' must be a list of tile codes")
    if not isinstance(win, str):
        raise HandError("'win' must be a tile code")
    if not isinstance(self_drawn, bool):
        raise HandError("'self_drawn' must be true or false")
    if not isinstance(melds, list):
        raise HandError("'melds' must be a list of [kind, tile] pairs")
    parsed = []
    try:
        for m in melds:
            if (not isinstance(m, list) or len(m) != 2 or not all(isinstance(x, str) for x in m)
                    or m[0] not in _BATCH_KINDS):
                raise HandError(f"meld {m!r} should be [kind, tile] with kind chi, peng, gang "
                                "or agang")
            parsed.append(Meld(_BATCH_KINDS[m[0]], parse_tile(m[1])))
        return WinningHand(tuple(parse_tiles(hand)), tuple(parsed), parse_tile(win), self_drawn)
    except TileError as exc:
        raise HandError(str(exc)) from None


def result_json(result: FanResult) -> dict[str, Any]:
    return {"total": result.total, "fans": [[name, pts] for name, pts in result.fans]}


def score_batch(lines: Iterable[str]) -> Iterator[str]:
    """One JSON answer per input line, in order; blank lines get an error too."""
    for line in lines:
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield json.dumps({"error": f"not JSON: {exc.msg}"}, ensure_ascii=False)
            continue
        try:
            yield json.dumps(result_json(score(hand_from_json(obj))), ensure_ascii=False)
        except HandError as exc:
            yield json.dumps({"error": str(exc)}, ensure_ascii=False)


def describe(result: FanResult) -> list[tuple[str, str, str, str]]:
    """Rows for a readable table: name, English name, count, value in fan."""
    counts = dict(result.counts)
    return [(name, FANS[name].english, str(counts[name]), str(points))
            for name, points in result.fans]


def fans_command(args: CommandArgs) -> int:
    """``server fans``: one hand's fans as a table (``hand``, ``melds``, ``win``,
    ``self_drawn``), or, with ``batch``, a JSON line for each JSON line on stdin."""
    hand: str = args["hand"]
    win: str = args["win"]
    self_drawn: bool = args["self_drawn"]
    if args["batch"]:
        for out in score_batch(sys.stdin):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        return 0
    console = Console(emoji=False)
    try:
        wh = WinningHand(tuple(parse_tiles(hand)), tuple(parse_melds_text(args["melds"])),
                         parse_tile(win), self_drawn)
        result = score(wh)
    except (TileError, HandError) as exc:
        raise InputError(reason(exc)) from None
    table = Table(title=f"{hand} + {win}{' (self-drawn)' if self_drawn else ''}")
    table.add_column("fan")
    table.add_column("English")
    table.add_column("count", justify="right")
    table.add_column("value (fan)", justify="right")
    for row in describe(result):
        table.add_row(*row)
    table.add_section()
    table.add_row("total", "", "", str(result.total))
    console.print(table)
    return 0
