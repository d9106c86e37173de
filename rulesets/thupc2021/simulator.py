"""The THUPC 2021 game, played out from a wall. Pure: no I/O.

Theory of operation: the deal gives each seat 13 tiles, one at a time in seat
order. Then each turn is a ``Turn`` (seat, direction, draws):

1. If the turn draws: an empty wall ends the game (DRAW); else the seat draws,
   and a complete hand wins at once (SELFDRAWN).
2. The seat discards (``rules.choose_discard``).
3. A special tile moves the turn by ``rules.EFFECTS`` and cannot be claimed.
   A normal tile is offered, in this order, to: a RON by the first seat able,
   from the discarder's next in the direction of play; a PONG by any seat whose
   distance it lowers; a CHOW by the next seat, highest run first. A claim makes
   the claimer's the next turn, without a draw; else the next seat draws.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.tiles import Tile
from rulesets.thupc2021.events import (
    Chow,
    Event,
    Exhausted,
    In,
    Out,
    Pong,
    Ron,
    SelfDrawn,
    Win,
    format_event,
)
from rulesets.thupc2021.rules import (
    DEAL,
    SEATS,
    Hand,
    Turn,
    choose_discard,
    chosen_chow,
    next_seat,
    pass_target,
    turn_after_special,
    wants_pong,
)
from rulesets.thupc2021.tiles import Special, is_special, parse_wall


class Game:
    """One game over a wall; ``play`` returns its events."""

    def __init__(self, wall: Sequence[int]) -> None:
        self.wall = wall
        self.drawn = 0
        self.hands = [Hand() for _ in range(SEATS)]
        self.events: list[Event] = []

    def _draw(self, seat: int) -> bool:
        """Give ``seat`` the next tile; False when the wall is empty."""
        if self.drawn == len(self.wall):
            return False
        tile = self.wall[self.drawn]
        self.drawn += 1
        self.hands[seat].add(tile)
        self.events.append(In(seat, tile))
        return True

    def offer(self, seat: int, direction: int, tile: Tile) -> Turn | None:
        """Offer a normal discard to the others: the next turn, or None after a RON."""
        others = [next_seat(seat, direction, k) for k in range(1, SEATS)]
        for other in others:
            if self.hands[other].wins_on(tile):
                self.events += [Ron(other), Win(other)]
                return None
        for other in others:
            hand = self.hands[other]
            if wants_pong(hand, tile):
                hand.counts[tile] -= 2
                hand.melds += 1
                self.events.append(Pong(other, tile))
                return Turn(other, direction, draws=False)
        hand = self.hands[others[0]]
        low = chosen_chow(hand, tile)
        if low is not None:
            for t in (low, low + 1, low + 2):
                if t != tile:
                    hand.counts[t] -= 1
            hand.melds += 1
            self.events.append(Chow(others[0], low))
            return Turn(others[0], direction, draws=False)
        return Turn(others[0], direction)

    def play(self) -> list[Event]:
        for _ in range(DEAL):
            for seat in range(SEATS):
                if not self._draw(seat):
                    raise ValueError("the wall is too short to deal")
        turn: Turn | None = Turn(0)
        while turn is not None:
            seat, direction = turn.seat, turn.direction
            hand = self.hands[seat]
            if turn.draws:
                if not self._draw(seat):
                    self.events.append(Exhausted())
                    break
                if hand.is_complete():
                    self.events += [SelfDrawn(seat), Win(seat)]
                    break
            tile = choose_discard(hand)
            hand.remove(tile)
            if is_special(tile):
                special = Special(tile)
                target = pass_target(seat, direction) if special is Special.PASS else None
                self.events.append(Out(seat, tile, target))
                turn = turn_after_special(seat, direction, special)
            else:
                self.events.append(Out(seat, tile))
                turn = self.offer(seat, direction, Tile(tile))
        return self.events


def simulate(wall: Sequence[int]) -> list[Event]:
    """The events of the game played out from ``wall`` (front first)."""
    return Game(wall).play()


def run(text: str) -> str:
    """The exact log for a wall given as text; ``WallError`` for bad input."""
    return "".join(format_event(e) + "\n" for e in simulate(parse_wall(text)))
