"""The pure hooks of the shell's turn-based match for a NOI 2014 game (``NoiRules``).

Below ``play``, above ``records`` (a game's line); the engine is imported on
first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets.noi2014 import formats
from rulesets.noi2014.records import game_line
from server.seam.contract import GamePlan, StandingRow, TurnGame


class NoiRules:
    """The pure hooks of the shell's turn-based match (``server.seam.contract.TurnRules``)."""

    def new_game(self, plan: GamePlan) -> TurnGame:
        from rulesets.noi2014.engine import Game

        game: TurnGame = Game(formats.wall_of(plan.setup))
        return game

    def standings(self, plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
                  players: int) -> list[StandingRow]:
        return formats.standings(plans, records, players)

    def game_line(self, record: Mapping[str, Any], names: Sequence[str]) -> str:
        return game_line(record, names)
