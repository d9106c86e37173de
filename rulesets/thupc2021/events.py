"""The lines of a THUPC log, as frozen dataclasses; ``format_event`` and ``parse_event``
are inverses of each other.

    A IN 8M            a draw (the deal included)
    A OUT 9P           a discard; a PASS names its target: A OUT PASS B
    B CHOW 7P 8P 9P    a chow, tiles ascending
    A PONG Z Z Z       a pung
    A RON / A SELFDRAWN, then A WIN
    DRAW               the wall ran out
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.tiles import Tile, TileError
from rulesets.thupc2021.tiles import Special, parse_tile, tile_code

SEAT_NAMES = "ABCD"


@dataclass(frozen=True, slots=True)
class In:
    seat: int
    tile: int


@dataclass(frozen=True, slots=True)
class Out:
    seat: int
    tile: int
    target: int | None = None  # the skipped seat, for PASS only


@dataclass(frozen=True, slots=True)
class Chow:
    seat: int
    low: Tile  # the run's lowest tile

    @property
    def tiles(self) -> tuple[Tile, Tile, Tile]:
        return (self.low, Tile(self.low + 1), Tile(self.low + 2))


@dataclass(frozen=True, slots=True)
class Pong:
    seat: int
    tile: Tile


@dataclass(frozen=True, slots=True)
class Ron:
    seat: int


@dataclass(frozen=True, slots=True)
class SelfDrawn:
    seat: int


@dataclass(frozen=True, slots=True)
class Win:
    seat: int


@dataclass(frozen=True, slots=True)
class Exhausted:
    """A player had to draw from an empty wall: the game is drawn."""


Event = In | Out | Chow | Pong | Ron | SelfDrawn | Win | Exhausted


class EventError(ValueError):
    """A line that is not a THUPC log line."""


def format_event(event: Event) -> str:
    match event:
        case In(seat, tile):
            return f"{SEAT_NAMES[seat]} IN {tile_code(tile)}"
        case Out(seat, tile, None):
            return f"{SEAT_NAMES[seat]} OUT {tile_code(tile)}"
        case Out(seat, tile, int(target)):
            return f"{SEAT_NAMES[seat]} OUT {tile_code(tile)} {SEAT_NAMES[target]}"
        case Chow(seat, _):
            return f"{SEAT_NAMES[seat]} CHOW {' '.join(tile_code(t) for t in event.tiles)}"
        case Pong(seat, tile):
            return f"{SEAT_NAMES[seat]} PONG {' '.join([tile_code(tile)] * 3)}"
        case Ron(seat):
            return f"{SEAT_NAMES[seat]} RON"
        case SelfDrawn(seat):
            return f"{SEAT_NAMES[seat]} SELFDRAWN"
        case Win(seat):
            return f"{SEAT_NAMES[seat]} WIN"
        case Exhausted():
            return "DRAW"
    raise TypeError(f"not a THUPC event: {event!r}")


def _seat(name: str) -> int:
    if len(name) != 1 or name not in SEAT_NAMES:
        raise EventError(f"unknown player {name!r}")
    return SEAT_NAMES.index(name)


def _tiles(codes: list[str]) -> list[int]:
    try:
        return [parse_tile(code) for code in codes]
    except TileError as exc:
        raise EventError(str(exc)) from None


_ENDINGS: dict[str, type[Ron | SelfDrawn | Win]] = {"RON": Ron, "SELFDRAWN": SelfDrawn, "WIN": Win}


def parse_event(line: str) -> Event:
    """The event a log line states; ``EventError`` for anything else."""
    words = line.split(" ")
    if words == ["DRAW"]:
        return Exhausted()
    if len(words) < 2:
        raise EventError(f"not a THUPC log line: {line!r}")
    seat, verb, args = _seat(words[0]), words[1], words[2:]
    if verb in _ENDINGS and not args:
        return _ENDINGS[verb](seat)
    if verb == "IN" and len(args) == 1:
        return In(seat, _tiles(args)[0])
    if verb == "OUT" and args:
        tile = _tiles(args[:1])[0]
        if tile == Special.PASS and len(args) == 2:
            return Out(seat, tile, _seat(args[1]))
        if tile != Special.PASS and len(args) == 1:
            return Out(seat, tile)
    if verb in ("CHOW", "PONG") and len(args) == 3:
        tiles = _tiles(args)
        low = tiles[0]
        if verb == "PONG" and low < len(Tile) and tiles == [low] * 3:
            return Pong(seat, Tile(low))
        if verb == "CHOW" and low < Tile.EAST and low % 9 <= 6 and tiles == [low, low + 1, low + 2]:
            return Chow(seat, Tile(low))
    raise EventError(f"not a THUPC log line: {line!r}")
