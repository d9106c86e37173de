"""The per-turn loop of the default ruleset's training environment: the engine, the
four seat views, each seat's lines, who decides next.

Pure (no numpy, no PettingZoo), so that the compiled core
(``tools/build_mypyc.py``) compiles it with the engine and the seat views;
``rulesets.default.env`` is the PettingZoo shell around an ``EnvTable``.

An ``EnvTable`` plays one hand of ``rulesets.default.engine.hand.Hand``. Every line
the engine sends goes to its seat's ``SeatView`` and is kept in ``lines``; a seat
asked about a discard or an added kong that may only pass is answered ``pass`` at
once (``SeatView.only_pass``); the first seat with a real choice (during a claim
window the nearest after the discarder) is ``seat``, its legal actions ``legal``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from protocol.messages import Pass, ToAI
from protocol.tiles import Tile
from rulesets.default.actions import ANSWERS, N_ACTIONS
from rulesets.default.engine.hand import ACCEPTED, SEATS, Answer, Hand, Verdict
from rulesets.default.seat_view import SeatView

_PASS: Final = Pass()
NOT_LEGAL: Final = -2  # ``act``'s answers when nothing was played
REFUSED: Final = -3


class EnvTable:
    """One hand driven decision by decision (module docstring)."""

    __slots__ = ("before_answer", "hand", "legal", "lines", "refused", "seat", "views")

    def __init__(self, wall: Sequence[Tile], first: int) -> None:
        self.hand = Hand(wall, first)
        self.views = [SeatView() for _ in range(SEATS)]
        self.lines: list[list[ToAI]] = [[] for _ in range(SEATS)]
        self.legal: list[int] = []  # the actions ``seat`` may take
        self.seat = -1  # the seat to decide; -1 once the hand is over
        # A check's hook (tests/rulesets/default/mask_check.py): called with the seat
        # before every answer the table gives the engine, the env's passes included.
        self.before_answer: Callable[[int], None] | None = None
        self.refused: Answer | None = None  # the engine's answer ``act`` returned REFUSED for
        self.hand.start()
        self._advance()

    def mask(self) -> bytearray:
        """``legal`` as 128 bytes, 1 for each legal action (all 0 once the hand is over)."""
        mask = bytearray(N_ACTIONS)
        for action in self.legal:
            mask[action] = 1
        return mask

    def act(self, action: int) -> int:
        """``seat`` plays ``action``, as ``play``: the seat to decide next (-1 once the
        hand is over), or ``NOT_LEGAL`` (``action`` is not in ``legal``) or ``REFUSED``
        (the engine refused it: ``refused`` says why), when nothing changed."""
        if action not in self.legal:
            return NOT_LEGAL
        verdict = self.play(self.seat, action)
        if verdict is not ACCEPTED:
            self.refused = verdict
            return REFUSED
        return self.seat

    def play(self, seat: int, action: int) -> Answer:
        """``seat`` (the one to decide) answers ``action`` (one of ``legal``); then the
        passes nobody need decide are played up to the next choice or the end. An
        answer the engine does not accept changes nothing and is returned as is."""
        answer = ANSWERS[action]
        if self.before_answer is not None:
            self.before_answer(seat)
        verdict = self.hand.answer(seat, answer)
        if verdict.verdict is not Verdict.ACCEPTED:
            return verdict
        self.views[seat].answered(answer)
        self._advance()
        return ACCEPTED

    def _advance(self) -> None:
        hand = self.hand
        views, lines = self.views, self.lines
        waiting = hand.waiting
        while True:
            for seat, message in hand.drain():
                views[seat].receive(message)
                lines[seat].append(message)
            if hand.result is not None:
                self.seat = -1
                self.legal = []
                return
            # During a claim window ``waiting`` lists the responders nearest first.
            seat = -1
            for waited in waiting:  # the first (a loop: ``next(iter())`` is slower compiled)
                seat = waited
                break
            view = views[seat]
            if view.only_pass():
                if self.before_answer is not None:
                    self.before_answer(seat)
                hand.answer(seat, _PASS)
                view.answered(_PASS)
                continue
            self.seat = seat
            self.legal = view.legal_actions()
            return
