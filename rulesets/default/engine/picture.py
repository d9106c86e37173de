"""A hand in play as the live feed draws it: one picture after each engine event.

``HandPicture`` follows a ``Hand``'s events as they come (``picture_after``) and
keeps what the table shows: each seat's number of concealed tiles (never the
tiles: see ``server.output.live``), its melds with the seat that fed each, its
discards still on the table, the wall. ``ending`` says how the hand ended, the
hands revealed. Tiles are written in Botzone's notation, as every ruleset's
pictures are: the characters ``1M`` are ``W1``, the bamboo ``1S`` ``T1``, the dots
``1T`` ``B1``, the winds ``F1``..``F4``, the dragons Z F B ``J1`` ``J2`` ``J3``.

Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from protocol.tiles import Tile
from rulesets.default.engine.hand import HAND_SIZE, SEATS, WALL_SIZE, Event, Hand
from scoring.settlement import WinKind

FEED_CODES: tuple[str, ...] = (
    tuple(f"W{r}" for r in range(1, 10)) + tuple(f"T{r}" for r in range(1, 10))
    + tuple(f"B{r}" for r in range(1, 10)) + ("F1", "F2", "F3", "F4", "J1", "J2", "J3"))
HIDDEN = "??"
HOW = {WinKind.SELF_DRAWN: "self-drawn", WinKind.DISCARD: "on a discard",
       WinKind.ROBBED_KONG: "robbing a kong"}


def feed_code(tile: int) -> str:
    """A tile in the feed's (Botzone's) notation."""
    return FEED_CODES[tile]


def feed_tiles(tiles: Sequence[int]) -> list[str]:
    return [FEED_CODES[t] for t in sorted(tiles)]


@dataclass(frozen=True, slots=True)
class HandEnd:
    result: str  # how the log says it: tsumo, ron, qgang, draw (aborted: stopped)
    text: str
    hands: list[list[str]]  # by seat: concealed tiles, the tile won on a discard last
    kongs: list[list[str]]  # by seat: each concealed kong's tile


class HandPicture:
    """The table of one hand, event by event, for the live feed."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.concealed = [HAND_SIZE] * SEATS
        self.melds: list[list[dict[str, Any]]] = [[] for _ in range(SEATS)]
        self.discards: list[list[str]] = [[] for _ in range(SEATS)]
        self.wall = WALL_SIZE - SEATS * HAND_SIZE
        self.turn: int | None = None
        self.last: dict[str, Any] | None = None
        self.seen = 0  # engine events followed
        self.robbed = False  # a kong was robbed: the win that follows is on no discard
        self.kongs: list[list[str]] = [[] for _ in range(SEATS)]  # concealed kongs' tiles

    def picture(self) -> dict[str, Any]:
        return {"seats": [{"name": self.names[s], "wind": None, "concealed": self.concealed[s],
                           "melds": [dict(m, tiles=list(m["tiles"])) for m in self.melds[s]],
                           "discards": list(self.discards[s]), "flowers": None, "score": None}
                          for s in range(SEATS)],
                "turn": self.turn, "last": self.last, "wall": self.wall, "wind": None}

    def pending(self, engine: Hand) -> bool:
        return len(engine.events) > self.seen

    def picture_after(self, engine: Hand) -> list[dict[str, Any]]:
        """One picture after each event of ``engine`` not yet followed."""
        out = []
        events = engine.events
        while self.seen < len(events):
            self._apply(events[self.seen])
            self.seen += 1
            out.append(self.picture())
        return out

    def _apply(self, e: Event) -> None:
        s = e.seat
        who = self.names[s]
        tile = None if e.tile is None else feed_code(e.tile)
        src = "" if e.source is None else self.names[e.source]
        text = f"{who}: {e.kind}"
        kind = e.kind
        if kind == "pick":
            self.concealed[s] += 1
            self.wall -= 1
            tile = None  # the feed does not say which tile a seat drew
            text = f"{who} draws"
        elif kind == "out":
            self.concealed[s] -= 1
            self.discards[s].append(str(tile))
            text = f"{who} discards {tile}"
        elif kind in ("peng", "gang", "chi") and e.tile is not None and e.source is not None:
            self.discards[e.source].pop()
            if kind == "chi":
                run = [feed_code(Tile(e.tile + i)) for i in range(3)]
                self.concealed[s] -= 2
                text = f"{who} chows {' '.join(run)} on {src}'s discard"
            else:
                run = [str(tile)] * (3 if kind == "peng" else 4)
                self.concealed[s] -= len(run) - 1
                text = f"{who} {'pungs' if kind == 'peng' else 'kongs'} {src}'s {tile}"
            self.melds[s].append({"kind": kind, "tiles": run, "from": e.source})
        elif kind == "agang":
            self.concealed[s] -= 4
            self.melds[s].append({"kind": "angang", "tiles": [HIDDEN] * 4, "from": None})
            self.kongs[s].append(str(tile))
            tile = None
            text = f"{who} declares a concealed kong"
        elif kind == "jgang":
            self.concealed[s] -= 1
            for m in self.melds[s]:
                if m["kind"] == "peng" and m["tiles"][0] == tile:
                    m["kind"], m["tiles"] = "bugang", [str(tile)] * 4
                    break
            text = f"{who} adds {tile} to a pung (added kong)"
        elif kind == "qgang" and e.source is not None:
            for m in self.melds[e.source]:
                if m["kind"] == "bugang" and m["tiles"][0] == tile:
                    m["kind"], m["tiles"] = "peng", [str(tile)] * 3
                    break
            self.robbed = True
            text = f"{who} robs {src}'s added kong of {tile}"
        elif kind == "hu":
            if e.source is not None and not self.robbed:  # won on a discard: it leaves
                self.discards[e.source].pop()
            text = f"{who} declares hu" + (f" on {src}'s {tile}" if e.source is not None
                                           else f" with {tile}")
        elif kind == "draw":
            tile = None
            text = "the wall is empty: a draw"
        elif kind == "fault":
            text = f"{who} faults: {e.detail}"
        elif kind == "reject":
            text = f"{who}'s answer is refused: {e.detail}"
        if kind not in ("fault", "reject", "draw"):
            self.turn = s
        self.last = {"seat": None if kind == "draw" else s, "text": text, "tile": tile}

    def ending(self, engine: Hand, aborted: bool = False) -> HandEnd:
        result = engine.result
        hands = [feed_tiles(engine.hands[s]) for s in range(SEATS)]
        if aborted or result is None:
            return HandEnd("aborted", "the hand was stopped", hands, self.kongs)
        if result.winner is None or result.kind is None:
            return HandEnd("draw", "the wall is empty: a draw", hands, self.kongs)
        w = result.winner
        if result.kind is not WinKind.SELF_DRAWN and result.win_tile is not None:
            hands[w].append(feed_code(result.win_tile))
        how = HOW.get(result.kind, result.kind.value)
        if result.payer is not None and result.kind is not WinKind.SELF_DRAWN:
            verb = "on" if result.kind is WinKind.DISCARD else "robbing"
            how = f"{verb} {self.names[result.payer]}'s " + \
                ("discard" if result.kind is WinKind.DISCARD else "kong")
        return HandEnd(result.kind.value,
                       f"{self.names[w]} wins {how}: {result.fan_total} fan", hands,
                       self.kongs)
