"""A person's seat in NOI 2014's Mahjong: the table as the seat sees it, and its legal responses.

``PersonBoard`` is this ruleset's ``server.seam.contract.SeatBoard``: the seat's requests,
one by one, go into a ``SeatView`` (the view of the training environment and the policy
bot), and its legal actions are offered as responses. A pung is two choices, as in the
action codec: ``PENG`` (a ``step``), then the discard that goes with it (``PENG Y``);
``back`` takes it back. The target hand (request ``4``) is no decision for a bot
either: the view's nearest target is answered by itself (kind ``auto``).

Other seats' discards are shown as the tiles still on the table (sorted), their melds
by kind. Pure: no trio, no I/O.
"""

from __future__ import annotations

from typing import Any

from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    GANG,
    HU,
    KONG,
    N_KINDS,
    PASS,
    PENG,
    PLAY,
    PUNG_DISCARD,
    TARGET,
    SeatView,
    response_of,
)
from rulesets.noi2014.tiles import KINDS
from server.seam.contract import Choice

MAX_EVENTS = 12
BACK = "back"


class PersonBoard:
    """One person's seat for one game."""

    def __init__(self) -> None:
        self.view = SeatView()
        self.request = ""
        self.asked = False
        self.events: list[str] = []

    def _event(self, text: str) -> None:
        self.events = [*self.events, text][-MAX_EVENTS:]

    def feed(self, text: str) -> None:
        self.request = text
        self.asked = True
        self.view.see(text)
        words = text.split()
        me = self.view.seat
        if words[:1] == ["2"] and len(words) == 2:
            self._event(f"you draw {words[1]}")
        elif words[:1] == ["3"] and len(words) >= 3:
            who = "you" if int(words[1]) == me else f"seat {words[1]}"
            self._event(f"{who}: {' '.join(words[2:]).lower()}")
        elif words[:1] == ["0"] and len(words) == 2:
            self._event(f"you are seat {words[1]}")

    def answered(self, answer: str) -> None:
        self.view.did(self.request, answer)
        self.asked = False

    def step(self, answer: str) -> None:
        if answer == BACK:
            self.view.decision = CLAIM
        else:
            self.view.choose_pung()

    def picture(self) -> dict[str, Any]:
        view = self.view
        me = view.seat
        hand = [KINDS[k] for k in range(N_KINDS) for _ in range(view.hand[k])]
        drawn = KINDS[view.tile] if view.decision == DRAW and view.tile >= 0 else None
        if drawn is not None:
            hand.remove(drawn)
        seats = []
        for seat in range(4):
            counts = view.melded[seat]
            melds = [[KINDS[k]] * counts[k] for k in range(N_KINDS) if counts[k]]
            seats.append({"seat": seat, "you": seat == me,
                          "concealed": 0 if not view.active[seat] and seat != me else
                          13 - 3 * len(melds) + (seat == me and drawn is not None),
                          "melds": melds,
                          "discards": [KINDS[k] for k in range(N_KINDS)
                                       for _ in range(view.pool[seat][k])]})
        last = None
        if view.decision in (CLAIM, PUNG_DISCARD) and view.tile >= 0:
            last = {"seat": view.discarder, "tile": KINDS[view.tile]}
        return {"seat": me, "first": None, "hand": hand, "drawn": drawn, "seats": seats,
                "wall": view.left, "turn": me if drawn is not None else None,
                "last_discard": last, "asked": None, "about": None,
                "result": ", ".join(f"seat {s} won" for s in view.winners) or None,
                "events": self.events}

    def choices(self) -> list[Choice]:
        view = self.view
        if view.seat < 0 or not self.asked:
            return []
        if view.decision == TARGET:
            return [Choice(view.target(), "auto", "the nearest target hand")]
        if view.decision == PUNG_DISCARD:
            return [*(Choice(response_of(PENG, a), "discard", f"discard {KINDS[a - PLAY]}",
                             KINDS[a - PLAY]) for a in view.legal()),
                    Choice(BACK, "back", "Back", step=True)]
        legal = view.legal() or [PASS]
        out: list[Choice] = []
        for action in legal:
            answer = response_of(action) if action != PENG else "PENG"
            if action < GANG:
                out.append(Choice(answer, "discard", f"discard {KINDS[action]}", KINDS[action]))
            elif action < HU:
                out.append(Choice(answer, "kong", f"Kong {KINDS[action - GANG]}",
                                  KINDS[action - GANG]))
            elif action == HU:
                out.append(Choice(answer, "win", "Win (Hu)",
                                  KINDS[view.tile] if view.tile >= 0 else None))
            elif action == PASS:
                out.append(Choice(answer, "pass", "Pass"))
            elif action == PENG:
                out.append(Choice(answer, "pung", f"Pung {KINDS[view.tile]}", KINDS[view.tile],
                                  step=True))
            elif action == KONG:
                out.append(Choice(answer, "kong", f"Kong {KINDS[view.tile]}", KINDS[view.tile]))
        return out
