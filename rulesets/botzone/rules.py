"""What the shell's turn driver needs of a Botzone game: the variants, ``--initdata``, the
pure hooks of a turn-based match (``BotzoneRules``) and a game record's header.

Below ``play`` and ``ruleset``, above ``records`` (a game's line); the judge is
imported on first use.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesets.botzone import formats
from rulesets.botzone.records import fault_causes, game_line
from rulesets.botzone.view import LiveTable
from server.seam.contract import GameEnd, GamePlan, StandingRow, TurnGame
from server.seam.errors import InputError

VARIANTS = ("classic", "duplicate")


def parse_initdata(text: str) -> dict[str, Any]:
    """``--initdata``: Botzone's initdata as JSON text, or a file holding it."""
    source = text
    if not text.lstrip().startswith(("{", "[", '"')):  # not JSON text: a file of it
        try:
            source = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise InputError(f"--initdata {text}: neither JSON nor a readable file "
                             f"({why})") from None
    try:
        value = json.loads(source)
    except json.JSONDecodeError as exc:
        raise InputError(f"--initdata: not JSON ({exc.msg} at character {exc.pos})") from None
    if isinstance(value, dict) and "initdata" in value:  # a whole game record: its initdata
        value = value["initdata"]
    if not isinstance(value, dict):
        raise InputError("--initdata: not a JSON object (srand, quan, walltiles)")
    return value


class BotzoneRules:
    """The pure hooks of the shell's turn-based match (``server.seam.contract.TurnRules``)."""

    def __init__(self, variant: str) -> None:
        self.variant = variant

    def new_game(self, plan: GamePlan) -> TurnGame:
        from rulesets.botzone.judge import Judge

        game: TurnGame = Judge(self.variant, plan.setup)
        return game

    def standings(self, plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
                  players: int) -> list[StandingRow]:
        return formats.standings(plans, records, players)

    def game_line(self, record: Mapping[str, Any], names: Sequence[str]) -> str:
        return game_line(record, names)

    def follow(self, plan: GamePlan, names: Sequence[str]) -> BotzoneFollower:
        return BotzoneFollower(self.variant, plan, names)


class BotzoneFollower:
    """A Botzone game drawn for the live feed (``server.seam.contract.GameFollower``):
    the judge's displays read by ``view.LiveTable`` as they come."""

    def __init__(self, variant: str, plan: GamePlan, names: Sequence[str]) -> None:
        self.variant = variant
        self.plan = plan
        self.names = list(names)
        self.live: LiveTable | None = None

    def picture(self, game: TurnGame, output: Mapping[str, Any],
                entries: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
        if self.live is None:  # the judge's settled initdata: the walls as dealt
            initdata = getattr(game, "initdata", None)
            self.live = LiveTable(self.variant, initdata if isinstance(initdata, Mapping)
                                  else self.plan.setup, self.names)
        self.live.feed(output, entries)
        return self.live.picture()

    def end(self, record: Mapping[str, Any]) -> GameEnd:
        display = formats.finish(record)
        last = self.live.last if self.live is not None else None
        text = str(last["text"]) if last and display else game_line(record, self.names)
        hands = self.live.hands() if self.live is not None else [[] for _ in self.names]
        kongs = self.live.kongs() if self.live is not None else []
        return GameEnd(str(display.get("action", "unfinished")), text, hands,
                       fault_causes(record), kongs)


def game_header(game: Any, plan: GamePlan) -> dict[str, Any]:
    """A game record's ``initdata`` is the one given to the judge, as in a game judged on
    Botzone (re-judging starts from it); the settled one, walltiles and all, is in the
    first judge output."""
    return {"variant": game.variant, "initdata": dict(plan.setup)}
