"""The table at every step of a recorded hand, rebuilt from its log.

A reader of the original log format (which every hand folder also holds as
``game.log``): starting from the dealt hands, each event moves tiles between
the wall, the hands, the melds and the discards. ``snapshots`` gives the table
before the first event (step 0) and after each event (step i), which is what
the terminal replay, the HTML page and ``--at N`` show.
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.tiles import Tile
from rulesets.default.engine.legacy_log import (
    AGangEvent,
    ChiEvent,
    GangEvent,
    HuEvent,
    JGangEvent,
    LegacyEvent,
    LegacyLog,
    OutEvent,
    PengEvent,
    PickEvent,
)
from rulesets.default.engine.legacy_log import format_event as format_legacy_event

SEATS = 4
WALL_AFTER_DEAL = 136 - 52


@dataclass(frozen=True, slots=True)
class ShownMeld:
    kind: str  # chi, peng, gang, agang, jgang
    tiles: tuple[Tile, ...]
    source: int | None  # who discarded the claimed tile


@dataclass(frozen=True, slots=True)
class Snapshot:
    step: int  # 0 = as dealt; i = after event i
    event: str  # the event's log line ("" at step 0)
    actor: int | None
    hands: tuple[tuple[Tile, ...], ...]  # concealed, sorted
    drawn: tuple[Tile | None, ...]  # each seat's tile just drawn, shown apart
    melds: tuple[tuple[ShownMeld, ...], ...]
    rivers: tuple[tuple[Tile, ...], ...]  # discards still on the table, in order
    wall_left: int
    note: str  # what happened, in words


def _describe(event: LegacyEvent) -> str:
    if isinstance(event, PickEvent):
        return f"seat {event.seat} draws {event.tile}"
    if isinstance(event, OutEvent):
        return f"seat {event.seat} discards {event.tile}"
    if isinstance(event, PengEvent):
        return f"seat {event.seat} pungs {event.tile} from seat {event.source}"
    if isinstance(event, ChiEvent):
        return f"seat {event.seat} chows from seat {event.source} ({event.tile} run)"
    if isinstance(event, GangEvent):
        return f"seat {event.seat} kongs {event.tile} from seat {event.source}"
    if isinstance(event, AGangEvent):
        return f"seat {event.seat} declares a concealed kong"
    if isinstance(event, JGangEvent):
        return f"seat {event.seat} adds {event.tile} to its pung"
    return f"seat {event.seat} declares hu"


def snapshots(log: LegacyLog) -> list[Snapshot]:
    """The table as dealt and after each event."""
    hands = [list(h) for h in log.hands]
    drawn: list[Tile | None] = [None] * SEATS
    melds: list[list[ShownMeld]] = [[] for _ in range(SEATS)]
    rivers: list[list[Tile]] = [[] for _ in range(SEATS)]
    wall = WALL_AFTER_DEAL
    last_out: tuple[int, Tile] | None = None

    def shot(step: int, event: LegacyEvent | None, actor: int | None) -> Snapshot:
        return Snapshot(
            step, format_legacy_event(event) if event else "", actor,
            tuple(tuple(sorted(h)) for h in hands), tuple(drawn),
            tuple(tuple(m) for m in melds), tuple(tuple(r) for r in rivers), wall,
            _describe(event) if event else "the deal",
        )

    out = [shot(0, None, None)]
    for step, event in enumerate(log.events, start=1):
        seat = event.seat
        if isinstance(event, PickEvent):
            wall -= 1
            _settle(hands, drawn, seat)
            drawn[seat] = event.tile
        elif isinstance(event, OutEvent):
            _settle(hands, drawn, seat)
            _take(hands[seat], event.tile)
            rivers[seat].append(event.tile)
            last_out = (seat, event.tile)
        elif isinstance(event, PengEvent | GangEvent):
            _claim(rivers, last_out)
            n = 2 if isinstance(event, PengEvent) else 3
            for _ in range(n):
                _take(hands[seat], event.tile)
            kind = "peng" if isinstance(event, PengEvent) else "gang"
            melds[seat].append(ShownMeld(kind, (event.tile,) * (n + 1), event.source))
        elif isinstance(event, ChiEvent):
            claimed = _claim(rivers, last_out)
            run = tuple(Tile(event.tile + i) for i in range(3))
            for t in run:
                if t != claimed:
                    _take(hands[seat], t)
            melds[seat].append(ShownMeld("chi", run, event.source))
        elif isinstance(event, AGangEvent):
            _settle(hands, drawn, seat)
            for _ in range(4):
                _take(hands[seat], event.tile)
            melds[seat].append(ShownMeld("agang", (event.tile,) * 4, None))
        elif isinstance(event, JGangEvent):
            _settle(hands, drawn, seat)
            _take(hands[seat], event.tile)
            for i, m in enumerate(melds[seat]):
                if m.kind == "peng" and m.tiles[0] == event.tile:
                    melds[seat][i] = ShownMeld("jgang", (event.tile,) * 4, m.source)
                    break
        elif isinstance(event, HuEvent) and log.result is not None and log.result.source \
                is not None and last_out is not None and last_out[0] == log.result.source:
            pass  # a win on a discard: the tile stays shown in the discarder's river
        out.append(shot(step, event, seat))
    return out


def _settle(hands: list[list[Tile]], drawn: list[Tile | None], seat: int) -> None:
    tile = drawn[seat]
    if tile is not None:
        hands[seat].append(tile)
        drawn[seat] = None


def _take(hand: list[Tile], tile: Tile) -> None:
    if tile not in hand:
        raise ValueError(f"the log plays {tile} from a hand that does not hold it")
    hand.remove(tile)


def _claim(rivers: list[list[Tile]], last_out: tuple[int, Tile] | None) -> Tile:
    if last_out is None or not rivers[last_out[0]]:
        raise ValueError("a claim with no discard before it")
    return rivers[last_out[0]].pop()
