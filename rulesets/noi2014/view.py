"""A NOI 2014 game step by step, from its record: the engine re-run turn by turn
(``formats``), each step's table as plain data for the terminal and the page.

Pure: no trio, no rich.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rulesets.noi2014.engine import PLAYERS, Game
from rulesets.noi2014.formats import result_of, wall_of
from rulesets.noi2014.tiles import sorted_tiles
from server.seam.contract import Reply

SEATS = "ESWN"


@dataclass(slots=True)
class SeatState:
    hand: list[str]
    melds: list[tuple[str, str, str]]  # (PENG/GANG, tile, how)
    status: str  # "in", "won 1", "fault", ...
    asked: str | None = None  # the request of the turn that led here
    answer: str | None = None  # its response, or its verdict and cause


@dataclass(slots=True)
class Step:
    number: int
    wall: int
    pool: list[str]
    events: list[str]
    seats: list[SeatState]


@dataclass(slots=True)
class ChanceRow:
    """How a remaining player's chance value came out: its needed kinds' last positions."""

    seat: int
    target: str | None
    valid: bool
    reason: str
    distance: int | None
    chance: int | None
    needed: dict[str, int]


@dataclass(slots=True)
class GameView:
    names: list[str]
    about: str
    steps: list[Step] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)  # the sequence, positions 1, 2, ...
    result: Mapping[str, Any] = field(default_factory=dict)
    chances: list[ChanceRow] = field(default_factory=list)
    final_tiles: list[list[str]] = field(default_factory=list)  # each seat's, melds included

    @property
    def hand_position(self) -> int:
        return len(self.discards) + 1


def describe(event: Mapping[str, Any], names: Sequence[str]) -> str:
    act = event.get("act")
    who = f"{SEATS[event['seat']]} {names[event['seat']]}" if "seat" in event else ""
    if act == "DEAL":
        return "the deal"
    if act == "DRAW":
        return f"{who} draws {event['tile']}" + (" from the back" if event["from"] == "back"
                                                  else "")
    if act == "PLAY":
        return f"{who} plays {event['tile']} (discard {event['position']})"
    if act == "PENG":
        return f"{who} pungs {event['tile']}"
    if act == "GANG":
        return f"{who} kongs {event['tile']} ({event['how']})"
    if act == "HU":
        how = "self-drawn" if event.get("self") else f"on {event.get('tile')}"
        return f"{who} wins {how}: place {event['place']}"
    if act == "FAULT":
        return f"{who} faults: {event['cause']}"
    if act == "END":
        return "the game ends: " + ("the wall is empty" if event["why"] == "wall"
                                    else "one player is left")
    if act == "RESULT":
        return "the result"
    return str(dict(event))


def _seats(game: Game) -> list[SeatState]:
    out = []
    for seat in range(PLAYERS):
        if seat in game.winners:
            status = f"won {game.winners.index(seat) + 1}"
        elif any(f.seat == seat for f in game.faults):
            status = "fault"
        else:
            status = "in"
        out.append(SeatState(sorted_tiles(game.hands[seat].elements()),
                             [(m.kind, m.tile, m.how) for m in game.melds[seat]], status))
    return out


def view_of(record: Mapping[str, Any]) -> GameView:
    """Every step of a recorded game (as far as it was recorded)."""
    names = list(record.get("names") or [f"seat {s}" for s in range(PLAYERS)])
    view = GameView(names, str(record.get("about", "")))
    game = Game(wall_of({"wall": record["wall"]}))
    first = game.output()
    view.steps.append(Step(0, game.left, [], [describe(e, names) for e in first["events"]],
                           _seats(game)))
    players = record.get("players") or []
    turns = len(record.get("judge") or []) - 1
    for turn in range(turns):
        asked = game.requests()
        replies = []
        said: list[tuple[str | None, str | None]] = []
        for seat, request in enumerate(asked):
            entry = players[seat][turn] if request is not None and seat < len(players) \
                and turn < len(players[seat]) else None
            if not isinstance(entry, Mapping):
                replies.append(Reply("OK", None))
                said.append((None, None))
                continue
            verdict = str(entry.get("verdict", "OK"))
            replies.append(Reply(verdict, entry.get("response")))
            answer = entry.get("response") if verdict == "OK" else \
                f"{verdict}: {entry.get('cause', '')}"
            said.append((request, None if answer is None else str(answer)))
        output = game.step(replies)
        seats = _seats(game)
        for seat, (request, answer) in enumerate(said):
            seats[seat].asked, seats[seat].answer = request, answer
        view.steps.append(Step(turn + 1, game.left, list(game.pool),
                               [describe(e, names) for e in output["events"]], seats))
        if game.finished:
            break
    view.discards = list(game.discards)
    view.final_tiles = [sorted_tiles(game.held(s).elements()) for s in range(PLAYERS)]
    view.result = result_of(record)
    for key, row in sorted((view.result.get("remaining") or {}).items()):
        view.chances.append(ChanceRow(int(key), row.get("target"), bool(row.get("valid")),
                                      str(row.get("reason", "")), row.get("distance"),
                                      row.get("chance"), dict(row.get("needed") or {})))
    return view


# --- the live feed: a game drawn turn by turn as it is played -----------------------------

HIDDEN = "??"
MELD_KINDS = {("PENG", "exposed"): "peng", ("GANG", "exposed"): "gang",
              ("GANG", "concealed"): "angang", ("GANG", "added"): "bugang"}


class LiveGame:
    """A game in play drawn as the live feed's picture, from the engine that plays it and
    the events of each turn (``feed``): each seat's concealed tiles as a count, its melds
    (a concealed kong face down) and its discards still on the table; no winds, no
    flowers in NOI 2014."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = list(names)
        self.discards: list[list[str]] = [[] for _ in range(PLAYERS)]
        self.sources: dict[tuple[int, str], int] = {}  # (seat, tile) -> who fed its meld
        self.last: dict[str, Any] | None = None
        self.turn: int | None = None

    def _say(self, event: Mapping[str, Any]) -> tuple[str, str | None]:
        """An event in words, and its tile, hiding what the table does not show."""
        act, seat = event.get("act"), event.get("seat")
        who = self.names[seat] if isinstance(seat, int) else ""
        if act == "DRAW":
            return f"{who} draws" + (" from the back" if event.get("from") == "back" else ""), \
                None
        if act == "GANG" and event.get("how") == "concealed":
            return f"{who} declares a concealed kong", None
        tile = event.get("tile")
        return describe(event, self.names), None if tile is None else str(tile)

    def feed(self, events: Sequence[Mapping[str, Any]]) -> None:
        said = []
        for event in events:
            act, seat = event.get("act"), event.get("seat")
            source = event.get("from")
            if act == "PLAY" and isinstance(seat, int):
                self.discards[seat].append(str(event["tile"]))
            elif act in ("PENG", "GANG", "HU") and isinstance(seat, int) \
                    and isinstance(source, int):
                if self.discards[source]:
                    self.discards[source].pop()
                self.sources[(seat, str(event["tile"]))] = source
            if act == "RESULT":  # the end's own words say it
                continue
            text, tile = self._say(event)
            said.append(text)
            self.last = {"seat": seat if isinstance(seat, int) else None, "text": text,
                         "tile": tile}
            if isinstance(seat, int):
                self.turn = seat
        if self.last is not None and len(said) > 1:  # a turn's events in one line
            self.last["text"] = "; ".join(said)

    def picture(self, game: Game) -> dict[str, Any]:
        seats = []
        for s in range(PLAYERS):
            melds = []
            for m in game.melds[s]:
                kind = MELD_KINDS.get((m.kind, m.how), m.kind.lower())
                melds.append({"kind": kind,
                              "tiles": [HIDDEN if kind == "angang" else m.tile] * m.size,
                              "from": self.sources.get((s, m.tile))})
            seats.append({"name": self.names[s], "wind": None,
                          "concealed": sum(game.hands[s].values()), "melds": melds,
                          "discards": list(self.discards[s]), "flowers": None, "score": None})
        return {"seats": seats, "turn": self.turn, "last": self.last, "wall": game.left,
                "wind": None}


def kongs_of(game: Game) -> list[list[str]]:
    """Each seat's concealed kongs, by their tile."""
    return [[m.tile for m in game.melds[s] if m.how == "concealed"] for s in range(PLAYERS)]


def hands_of(game: Game) -> list[list[str]]:
    """Each seat's concealed tiles, sorted (a winner's winning tile among them)."""
    return [sorted_tiles(game.hands[s].elements()) for s in range(PLAYERS)]
