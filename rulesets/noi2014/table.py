"""The NOI 2014 training environment's game table: the engine, the four seat views, who decides.

Pure (no numpy, no PettingZoo), so that the compiled core
(``tools/build_mypyc.py``) compiles the whole per-turn loop of the environment;
``rulesets.noi2014.env`` is the PettingZoo shell around a ``Table``.

A ``Table`` plays one game on the exact engine (``engine.Game``). Each engine
turn's requests go to the seat views (a request several seats are sent alike is
split once); the seats with a real choice (a draw, or a discard they can claim)
become the ``queue``, in turn order after the discarder; every other seat asked is
answered at once (PASS, or its target hand at the end). ``act`` takes the first
queued seat's action: a pung (PENG at a claim) keeps the seat first in the queue
for the discard after it; once the queue is empty the turn's replies go to the
engine together, which settles the claims. ``requests_of`` and ``responses_of``
are each seat's protocol history, ``turns`` each seat's requests turn by turn
(None: not asked), ``judge`` the engine's outputs (the record's ``judge``).
"""

from __future__ import annotations

from rulesets.noi2014.engine import Game
from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    PENG,
    PUNG_DISCARD,
    TARGET,
    SeatView,
    response_of,
)
from server.seam.contract import Reply

PLAYERS = 4
_NOBODY = Reply("OK", None)
_PASS = Reply("OK", "PASS")


class Table:
    """One NOI 2014 game driven decision by decision (module docstring)."""

    def __init__(self, wall: list[str]) -> None:
        self.game = Game(wall)
        self.views = [SeatView() for _ in range(PLAYERS)]
        self.requests_of: list[list[str]] = [[] for _ in range(PLAYERS)]
        self.responses_of: list[list[str]] = [[] for _ in range(PLAYERS)]
        self.turns: list[list[str | None]] = [[] for _ in range(PLAYERS)]
        self.judge: list[dict[str, object]] = [self.game.output()]
        self.asked: list[str | None] = [None] * PLAYERS
        self.replies: list[str | None] = [None] * PLAYERS
        self.queue: list[int] = []
        self.legal: list[int] = []
        self.advance()

    def act(self, seat: int, action: int) -> None:
        """The first queued seat's (``seat``'s) legal ``action``; then on to the next
        decision (``queue`` empty: the game is over)."""
        view = self.views[seat]
        decision = view.decision
        if decision == CLAIM and action == PENG:
            view.choose_pung()
            self.legal = view.legal()
            return
        self.replies[seat] = response_of(PENG, action) if decision == PUNG_DISCARD \
            else response_of(action)
        self.queue.pop(0)
        if self.queue:
            self.legal = self.views[self.queue[0]].legal()
            return
        self._play()
        self.advance()

    def advance(self) -> None:
        """Play the engine on until some seat has a real choice, or the game ends."""
        game = self.game
        views = self.views
        requests_of = self.requests_of
        while not game.finished:
            asked = game.requests()
            queue: list[int] = []
            replies: list[str | None] = [None] * PLAYERS
            said: str | None = None
            words: list[str] = []
            for seat in range(PLAYERS):
                request = asked[seat]
                if request is None:
                    continue
                requests_of[seat].append(request)
                if request != said:  # most turns tell three or four seats the same
                    words = request.split()
                    said = request
                view = views[seat]
                view.see_words(words)
                decision = view.decision
                if decision == DRAW or (decision == CLAIM and view.can_claim()):
                    queue.append(seat)
                elif decision == TARGET:
                    replies[seat] = view.target()
                else:
                    replies[seat] = "PASS"
            self.asked = asked
            self.replies = replies
            if queue:
                if len(queue) > 1:  # claims: in turn order after the discarder
                    first = views[queue[0]].discarder
                    queue.sort(key=lambda s: (s - first) % PLAYERS)
                self.queue = queue
                self.legal = views[queue[0]].legal()
                return
            self._play()
        self.queue = []
        self.legal = []

    def _play(self) -> None:
        """Give the engine this turn's replies (``asked``, ``replies``)."""
        asked = self.asked
        replies = self.replies
        out: list[Reply] = []
        for seat in range(PLAYERS):
            request = asked[seat]
            self.turns[seat].append(request)
            if request is None:
                out.append(_NOBODY)
                continue
            text = replies[seat]
            assert text is not None
            self.views[seat].did(request, text)
            self.responses_of[seat].append(text)
            out.append(_PASS if text == "PASS" else Reply("OK", text))
        self.judge.append(self.game.step(out))
