"""A person's seat in the default ruleset: the table as the seat sees it, and its legal answers.

``PersonBoard`` is this ruleset's ``server.seam.contract.SeatBoard``: fed the lines the
server sends the seat, exactly as a bot reads them, it keeps a ``SeatView`` (the same
view the training environment and the policy bot keep) and draws from it only: the
seat's own tiles face up, the other seats' concealed tiles as counts, every meld and
discard, the wall, whose turn it is and the last discard. ``choices`` are the view's
legal actions as protocol answers (``rulesets.default.actions``), so the page offers
exactly what the engine would accept.

Tiles are given in Botzone's notation, which the SVG faces of ``server.output.tiles``
draw. Pure: no trio, no I/O.
"""

from __future__ import annotations

from typing import Any

from protocol.messages import (
    AGang,
    Id,
    MAGang,
    MalformedLine,
    MChi,
    MGang,
    MHu,
    MJGang,
    MOut,
    MPeng,
    MPick,
    Pick,
    ToAI,
    parse_from_ai,
    parse_to_ai,
)
from protocol.tiles import Tile, parse_tile
from rulesets.default.actions import AGANG, CHI, GANG, HU, JGANG, PASS, PENG, QGANG, describe
from rulesets.default.engine.hand import SEATS, Expect
from rulesets.default.engine.picture import feed_code
from rulesets.default.seat_view import SeatView
from scoring.melds import MeldKind
from server.seam.contract import Choice

MAX_EVENTS = 12  # the last lines shown in words


def _name(tile: int) -> str:
    return Tile(tile).code


class PersonBoard:
    """One person's seat for one hand (a new board each hand)."""

    def __init__(self) -> None:
        self.view = SeatView()
        self.turn: int | None = None  # the seat holding an extra tile, about to discard
        self.result: str | None = None  # the announced end (``mhu``), in words
        self.events: list[str] = []

    # --- lines in ---------------------------------------------------------------------

    def feed(self, text: str) -> None:
        try:
            message = parse_to_ai(text)
        except MalformedLine:
            return  # the table sends only well-formed lines; nothing to draw otherwise
        self.view.receive(message)
        self._follow(message)

    def answered(self, answer: str) -> None:
        message = parse_from_ai(answer)
        self.view.answered(message)
        if isinstance(message, AGang):
            self._event(f"you: concealed kong of {_name(message.tile)}")
        elif answer.startswith("out "):
            self.turn = None
            self._event(f"you discard {answer[4:]}")

    def step(self, answer: str) -> None:
        raise ValueError("the line protocol has no two-part answers")

    def _who(self, seat: int) -> str:
        return "you" if seat == self.view.seat else f"seat {seat}"

    def _event(self, text: str) -> None:
        self.events = [*self.events, text][-MAX_EVENTS:]

    def _follow(self, message: ToAI) -> None:
        kind = type(message)
        if kind is Pick:
            assert isinstance(message, Pick)
            self.turn = self.view.seat
            self._event(f"you draw {_name(message.tile)}")
        elif kind is MPick:
            assert isinstance(message, MPick)
            self.turn = message.seat
        elif kind is MOut:
            assert isinstance(message, MOut)
            self.turn = None
            self._event(f"seat {message.seat} discards {_name(message.tile)}")
        elif kind in (MPeng, MChi):
            assert isinstance(message, MPeng | MChi)
            self.turn = message.seat
            what = "pung" if kind is MPeng else "chow from"
            self._event(f"{self._who(message.seat)}: {what} {_name(message.tile)}")
        elif kind in (MGang, MAGang, MJGang):
            assert isinstance(message, MGang | MAGang | MJGang)
            self.turn = None
            tile = getattr(message, "tile", None)
            self._event(f"{self._who(message.seat)}: kong"
                        + (f" of {_name(tile)}" if tile is not None else " (concealed)"))
        elif kind is MHu:
            assert isinstance(message, MHu)
            if message.winner == message.discarder:
                how = "by self-draw"
            else:
                how = f"on {self._who(message.discarder)}'s discard"
            self.result = f"{self._who(message.winner)} won {how}: {message.fans} fan"
            self._event(self.result)
        elif kind is Id:
            assert isinstance(message, Id)
            self._event(f"you are seat {message.seat}")

    # --- what the page draws ------------------------------------------------------------

    def picture(self) -> dict[str, Any]:
        view = self.view
        me = view.seat
        hand = [t for t in range(len(view.counts)) for _ in range(view.counts[t])]
        drawn = view.drawn if view.prompt is Expect.TURN else None
        if drawn is not None:
            hand.remove(drawn)
        seats = []
        for seat in range(SEATS):
            melds = [[feed_code(t) for t in meld.tiles] if
                     meld.kind is not MeldKind.CONCEALED_KONG or seat == me
                     else ["??"] * 4 for meld in view.melds[seat]]
            melds += [["??"] * 4] * view.hidden_kongs[seat]
            concealed = 13 - 3 * len(melds) + (self.turn == seat)
            seats.append({"seat": seat, "you": seat == me, "concealed": concealed, "melds": melds,
                          "discards": [feed_code(t) for t in view.rivers[seat]]})
        last = view.last_discard
        return {
            "seat": me, "first": view.first,
            "hand": [feed_code(t) for t in hand],
            "drawn": None if drawn is None else feed_code(drawn),
            "seats": seats, "wall": view.wall_left, "turn": self.turn,
            "last_discard": None if last is None else {"seat": last[0],
                                                        "tile": feed_code(last[1])},
            "asked": None if view.prompt is None else view.prompt.value,
            "about": None if view.about is None else {"seat": view.about[0],
                                                      "tile": feed_code(view.about[1])},
            "result": self.result, "events": self.events,
        }

    def choices(self) -> list[Choice]:
        view = self.view
        about = view.about
        out: list[Choice] = []
        for action in view.legal_actions():
            line = describe(action)
            if action < AGANG:
                out.append(Choice(line, "discard", f"discard {_name(action)}",
                                  feed_code(action)))
            elif action < JGANG:
                t = action - AGANG
                out.append(Choice(line, "kong", f"Concealed kong {_name(t)}", feed_code(t)))
            elif action < HU:
                t = action - JGANG
                out.append(Choice(line, "kong", f"Add {_name(t)} to its pung", feed_code(t)))
            elif action == HU:
                label = "Win (self-drawn)" if view.prompt is Expect.TURN else "Win"
                out.append(Choice(line, "win", label,
                                  None if about is None else feed_code(about[1])))
            elif action == PASS:
                out.append(Choice(line, "pass", "Pass"))
            elif action == PENG:
                assert about is not None
                out.append(Choice(line, "pung", f"Pung {_name(about[1])}", feed_code(about[1])))
            elif action == GANG:
                assert about is not None
                out.append(Choice(line, "kong", f"Kong {_name(about[1])}", feed_code(about[1])))
            elif CHI <= action < QGANG:
                low = parse_tile(line.split()[1])
                run = "-".join(Tile(low + i).code for i in range(3))
                out.append(Choice(line, "chow", f"Chow {run}", feed_code(low)))
            elif action == QGANG:
                out.append(Choice(line, "rob", "Rob the kong (win)",
                                  None if about is None else feed_code(about[1])))
        return out
