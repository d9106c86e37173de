"""The THUPC 2021 Mahjong simulator (problem L): a pure game over a 148-tile wall."""

from rulesets.thupc2021.events import Event, EventError, format_event, parse_event
from rulesets.thupc2021.rules import EFFECTS, Hand, Turn, choose_discard, turn_after_special
from rulesets.thupc2021.simulator import Game, run, simulate
from rulesets.thupc2021.tiles import THUPC_CODEC, Special, WallError, parse_wall, tile_code

__all__ = [
    "EFFECTS", "THUPC_CODEC", "Event", "EventError", "Game", "Hand", "Special", "Turn",
    "WallError", "choose_discard", "format_event", "parse_event", "parse_wall", "run",
    "simulate", "tile_code", "turn_after_special",
]
