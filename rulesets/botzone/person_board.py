"""A person's seat in Botzone's Mahjong: the table as the seat sees it, and its legal responses.

``PersonBoard`` is this ruleset's ``server.seam.contract.SeatBoard``. It is fed the
seat's Botzone requests one by one, as a bot reads them, into a ``SeatView`` (the view
the training environment and the policy bots keep), and offers exactly the view's
legal actions as Botzone responses. A PENG or a CHI is two choices, as in the action
codec: the claim first (a ``step``: nothing is sent), then the discard, which makes the
one response (``PENG W3``, ``CHI T4 B7``); ``back`` takes the claim back.

Pure: no trio, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.botzone.seat_view import (
    ANGANG,
    BUGANG,
    CHI,
    DRAW,
    GANG,
    HU,
    PASS,
    PENG,
    PLAY,
    TILE_LIST,
    SeatView,
    describe,
)
from server.seam.contract import Choice

MAX_EVENTS = 12
BACK = "back"


def _meld_tiles(kind: str, tile: str | None) -> list[str]:
    if tile is None:
        return ["??"] * 4
    if kind == "CHI":
        suit, middle = tile[0], int(tile[1:])
        return [f"{suit}{middle + k}" for k in (-1, 0, 1)]
    return [tile] * (3 if kind == "PENG" else 4)


class PersonBoard:
    """One person's seat for one game."""

    def __init__(self, variant: str, wall_sizes: Sequence[int] | None = None) -> None:
        self.view = SeatView(variant, wall_sizes)
        self.claimed: int | None = None  # a PENG or CHI chosen, its discard to come
        self.turn: int | None = None
        self.events: list[str] = []
        self.asked = False  # a request is waiting for this seat's response

    def _event(self, text: str) -> None:
        self.events = [*self.events, text][-MAX_EVENTS:]

    def _who(self, seat: int) -> str:
        return "you" if seat == self.view.seat else f"seat {seat}"

    def feed(self, text: str) -> None:
        self.claimed = None
        self.asked = True
        self.view.update(text)
        words = text.split(" ")
        if words[0] == "2":
            self.turn = self.view.seat
            self._event(f"you draw {words[1]}")
        elif words[0] == "3" and len(words) >= 3:
            seat, op = int(words[1]), words[2]
            if op in ("DRAW", "BUHUA"):
                self.turn = seat
                if op == "BUHUA":
                    self._event(f"{self._who(seat)}: flower {words[3]}")
                return
            self.turn = None
            who = self._who(seat)
            if op in ("PENG", "CHI"):
                meld = self.view.melds[seat][-1]
                what = "pung" if op == "PENG" else "chow"
                self._event(f"{who}: {what} {meld.claimed}, play {words[-1]}")
            else:
                self._event(f"{who}: {op.lower()} {' '.join(words[3:])}".rstrip())
        elif words[0] == "0":
            self._event(f"you are seat {words[1]}")

    def answered(self, answer: str) -> None:
        self.view.respond(answer)
        self.claimed = None
        self.asked = False

    def step(self, answer: str) -> None:
        view = self.view
        if answer == BACK:
            view.unclaim()
            self.claimed = None
            return
        action = next(a for a in view.legal_actions() if describe(a) == answer)
        view.claim(action)
        self.claimed = action

    def picture(self) -> dict[str, Any]:
        view = self.view
        me = view.seat
        hand = view.hand
        drawn = view.tile if view.kind == DRAW and self.claimed is None else None
        if drawn is not None:
            hand.remove(drawn)
        seats = []
        for seat in range(4):
            melds = [_meld_tiles(m.kind, m.tile) for m in view.melds[seat]]
            seats.append({"seat": seat, "you": seat == me,
                          "concealed": 13 - 3 * len(melds) + (self.turn == seat),
                          "melds": melds, "discards": list(view.discards[seat]),
                          "flowers": view.flowers[seat]})
        about = view.tile if view.kind != DRAW and view.tile else None
        return {
            "seat": me, "first": None, "hand": hand, "drawn": drawn, "seats": seats,
            "wall": view.wall_left(me) if me >= 0 else None, "turn": self.turn,
            "last_discard": None if about is None else {"seat": view.source, "tile": about},
            "asked": None, "about": None, "result": None, "events": self.events,
        }

    def choices(self) -> list[Choice]:
        view = self.view
        if view.seat < 0 or not self.asked:
            return []
        if self.claimed is not None:
            return [*(Choice(view.response(self.claimed, a), "discard",
                             f"discard {TILE_LIST[a - PLAY]}", TILE_LIST[a - PLAY])
                      for a in view.legal_actions()),
                    Choice(BACK, "back", "Back", step=True)]
        out: list[Choice] = []
        for action in view.legal_actions():
            words = describe(action)
            if action == PASS:
                out.append(Choice("PASS", "pass", "Pass"))
            elif action == HU:
                out.append(Choice("HU", "win", "Win (Hu)", view.tile or None))
            elif PLAY <= action < CHI:
                tile = TILE_LIST[action - PLAY]
                out.append(Choice(f"PLAY {tile}", "discard", f"discard {tile}", tile))
            elif CHI <= action < PENG:
                out.append(Choice(words, "chow", f"Chow {words[4:]}", view.tile, step=True))
            elif PENG <= action < GANG:
                out.append(Choice(words, "pung", f"Pung {view.tile}", view.tile, step=True))
            else:
                tile = words.split(" ")[1]
                answer = "GANG" if action < ANGANG else \
                    f"GANG {tile}" if action < BUGANG else f"BUGANG {tile}"
                out.append(Choice(answer, "kong", f"Kong {tile}", tile))
        return out
