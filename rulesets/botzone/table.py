"""The game table of the Botzone training environment: the judge, the four seat views, who decides.

Pure (no numpy, no PettingZoo), so that the compiled core
(``tools/build_mypyc.py``) compiles the whole per-turn loop of the environment;
``rulesets.botzone.env`` is the PettingZoo shell around a ``Table``.

A ``Table`` plays one game on the exact judge (``judge.Judge`` without its
display-only fan values). Each judge turn's four requests go to the four
``SeatView``s; the seats with a real choice (``SeatView.has_choice``), nearest
to the seat the request is about first, become the ``deciders``; a turn where
nobody has a choice is answered PASS by all four at once. ``act`` takes the
first decider's action: a draw's action or a discard after one's own PENG/CHI
is one response; a claim of a discard is kept in ``choices`` until every
decider has chosen, then the judge's check order picks the claim that is made
(``_resolve_claims``, see the env's module docstring). ``requests`` and
``responses`` are each seat's Botzone protocol history.

A draw and a discard, most of a game's requests, reach the views from the judge's
state as the tile's code and index (``SeatView.drew``, ``saw_draw``, ``saw_play``: the
same as ``update`` of the request's text, without each view parsing it); the judge
turns with ``Judge.play``, which makes no output dict that nobody reads here.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import (
    AFTER_CLAIM,
    CHI,
    DISCARD,
    DRAW,
    GANG,
    HU,
    PASS,
    PENG,
    STANDARD_WALLS,
    TILE_INDEX,
    SeatView,
)
from server.seam.contract import Reply

_PASSES = [Reply("OK", "PASS")] * 4


class Table:
    """One Botzone game driven decision by decision (module docstring)."""

    def __init__(self, variant: str, initdata: Mapping[str, object]) -> None:
        judge = self.judge = Judge(variant, initdata, display_fans=False)
        sizes = [len(wall) for wall in judge._walls]
        standard = list(STANDARD_WALLS[variant])
        self.views = [SeatView(variant, None if sizes == standard else sizes)
                      for _ in range(4)]
        self.requests: list[list[str]] = [[], [], [], []]
        self.responses: list[list[str]] = [[], [], [], []]
        self.deciders: list[int] = []
        self.choices: dict[int, int] = {}
        self._replies: dict[str, Reply] = {"PASS": _PASSES[0]}
        self._advance()

    def act(self, seat: int, action: int) -> bool:
        """Take the first decider's (``seat``'s) legal ``action``. False when it was a claim
        and another seat still decides on the same discard (nothing else happened yet)."""
        view = self.views[seat]
        self.deciders.pop(0)
        kind = view.kind
        if kind == AFTER_CLAIM:
            responses = ["PASS", "PASS", "PASS", "PASS"]
            responses[seat] = view.response(self.choices[seat], action)
            self._play(responses)
        elif kind == DRAW:
            responses = ["PASS", "PASS", "PASS", "PASS"]
            responses[seat] = view.response(action)
            self._play(responses)
        else:
            self.choices[seat] = action
            if self.deciders:
                return False
            self._resolve_claims(view.source, kind)
        return True

    def _resolve_claims(self, source: int, kind: int) -> None:
        """All claims are in: the judge's check order picks the one that is made."""
        choices = self.choices
        responses = ["PASS", "PASS", "PASS", "PASS"]
        for k in (1, 2, 3):
            seat = (source + k) % 4
            if choices.get(seat) == HU:
                responses[seat] = "HU"
                self._play(responses)
                return
        if kind == DISCARD:
            for seat in range(4):
                action = choices.get(seat, PASS)
                if GANG <= action < GANG + 34:
                    responses[seat] = "GANG"
                    self._play(responses)
                    return
            claimer = -1
            for seat in range(4):
                if PENG <= choices.get(seat, PASS) < GANG:
                    claimer = seat
                    break
            if claimer < 0:
                for seat in range(4):
                    if CHI <= choices.get(seat, PASS) < PENG:
                        claimer = seat
                        break
            if claimer >= 0:
                self.views[claimer].claim(choices[claimer])
                self.deciders = [claimer]
                return
        self._play(responses)

    def _play(self, responses: list[str]) -> None:
        """Give the judge this turn's four responses, then go on to the next decision."""
        views = self.views
        history = self.responses
        replies = self._replies
        turn: list[Reply] = []
        for seat in range(4):
            text = responses[seat]
            views[seat].respond(text)
            history[seat].append(text)
            reply = replies.get(text)
            if reply is None:
                reply = replies[text] = Reply("OK", text)
            turn.append(reply)
        self.judge.play(turn)
        self._advance()

    def _advance(self) -> None:
        """Judge turns until some seat has a real choice (``deciders``) or the game ends."""
        judge = self.judge
        views = self.views
        history = self.requests
        answers = self.responses
        while not judge.finished:
            requests = judge._content  # ``requests()`` without its copy (only read here)
            stage = judge._stage
            op = judge._last_op
            first = -1
            if 0 <= stage < 4 and op == "DRAW":  # the commonest requests, told without the text
                tile = judge._last_tile
                t = TILE_INDEX[tile]
                for seat in range(4):
                    if seat == stage:
                        views[seat].drew(tile, t)
                    else:
                        views[seat].saw_draw(stage)
                    history[seat].append(requests[seat])
                first = stage
            elif 4 <= stage < 8 and op == "PLAY":
                tile = judge._last_tile
                t = TILE_INDEX[tile]
                player = stage - 4
                for seat in range(4):
                    view = views[seat]
                    view.saw_play(player, tile, t)
                    history[seat].append(requests[seat])
                    if first < 0 and view.kind:
                        first = seat
            else:
                said: str | None = None
                words: list[str] = []
                for seat in range(4):
                    view = views[seat]
                    request = requests[seat]
                    if request != said:  # most turns tell all four, or three, the same
                        words = request.split(" ")
                        said = request
                    view.update_words(words)
                    history[seat].append(request)
                    if first < 0 and view.kind:
                        first = seat
            if first >= 0:
                source = views[first].source
                deciders: list[int] = []
                for k in (1, 2, 3, 4):
                    seat = (source + k) % 4
                    view = views[seat]
                    if view.kind and view.has_choice():
                        deciders.append(seat)
                if deciders:
                    self.deciders = deciders
                    self.choices = {}
                    return
            for seat in range(4):
                views[seat].respond("PASS")
                answers[seat].append("PASS")
            judge.play(_PASSES)
        self.deciders = []
