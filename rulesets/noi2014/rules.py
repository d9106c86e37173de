"""The pure hooks of the shell's turn-based match for a NOI 2014 game (``NoiRules``).

Below ``play``, above ``records`` (a game's line); the engine is imported on
first use.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets.noi2014 import formats
from rulesets.noi2014.records import fault_causes, game_line
from rulesets.noi2014.view import LiveGame, hands_of, kongs_of
from server.seam.contract import GameEnd, GamePlan, StandingRow, TurnGame


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

    def follow(self, plan: GamePlan, names: Sequence[str]) -> NoiFollower:
        return NoiFollower(names)


class NoiFollower:
    """A NOI 2014 game drawn for the live feed (``server.seam.contract.GameFollower``):
    the engine's state after each turn, its events for the discards and who fed a meld."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.live = LiveGame(names)
        self.game: Any = None

    def picture(self, game: TurnGame, output: Mapping[str, Any],
                entries: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
        from rulesets.noi2014.engine import Game

        assert isinstance(game, Game)
        self.game = game
        self.live.feed(output.get("events") or [])
        return self.live.picture(game)

    def end(self, record: Mapping[str, Any]) -> GameEnd:
        result = formats.result_of(record)
        winners, faulted = result.get("winners") or [], result.get("faulted") or []
        word = "HU" if winners else ("FAULT" if faulted else "HUANG")
        hands = hands_of(self.game) if self.game is not None else [[] for _ in self.names]
        return GameEnd(word, game_line(record, self.names), hands,
                       {seat: cause.removeprefix("(").removesuffix(")")
                        for seat, cause in fault_causes(record).items()},
                       kongs_of(self.game) if self.game is not None else [])
