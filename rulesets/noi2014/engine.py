"""One game of NOI 2014 Mahjong as a ``TurnGame`` (SPEC-noi2014 §2-§6).

Theory of operation. The game is a loop of *turns*; each turn sends a request
to some seats (``requests``) and needs one reply from each (``step``):

    SEAT    "0 N" to every player                        -> PASS
    HAND    "1 C1 .. C13" to every player still in       -> PASS
    DRAW    "2 C" to the drawer                          -> PLAY X | GANG X | HU
    CLAIM   "3 P PLAY X" to every other active player    -> PASS | PENG Y | GANG | HU
    TELL    "3 P PENG X" / "3 P GANG X" / "3 P HU SELF" / "3 P HU X"
            to every other active player                 -> PASS
    TARGET  "4" to every remaining player                -> a target hand

The deal (4 tiles to each seat, three times, then 1 each, from the front of
the wall) happens before the first turn. After SEAT and HAND the dealer
draws. A draw is from the front, a kong's replacement from the back; a draw
due with the wall empty ends the game. After a turn, ``_then`` (set when the
turn was asked) says what comes next: a turn is data (its requests) plus that
continuation, so ``step`` is: read every reply (a fault or an action), apply
the faults, then go on. A continuation is data too (a method's name and its
arguments, never a closure), so ``copy`` makes an independent game cheaply (a
training environment tries every answer on copies).

Replies are checked apart from being applied (``read_*`` return an action or
a fault's cause). A fault (anything but an allowed answer, a tile not held,
an impossible pung, kong or win, a verdict other than OK) takes the player out
of the game at once: it is ranked after every player without a fault, the
later fault first, faults of one turn tied (§3, §6). Winners leave too; the
game ends when at most one active player remains or a draw is due with the
wall empty. Then every remaining player is asked for its target hand, and the
game is ranked: winners in order, remaining players by distance then chance
value (larger first), then the faulted. Points 4/3/2/1, ties averaged.

``output()`` is the judge's record of a turn: the events it applied (a draw,
a discard with its position in the discard sequence, a meld, a win, a fault)
and the wall left; the last one carries the result. A log keeps every output,
so ``verify`` can re-run a game and compare them all.

Pure: no trio.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.noi2014.hands import (
    Chance,
    chance_value,
    check_target,
    distance,
    is_winning,
    last_positions,
    needed,
)
from rulesets.noi2014.tiles import check_wall, is_tile, sorted_tiles
from server.seam.contract import Reply

PLAYERS = 4
HAND = 13
POINTS = (4.0, 3.0, 2.0, 1.0)
PASS = "PASS"

# Why a verdict that is not OK is a fault (the transport's cause is in the log beside it).
VERDICT_SAID = {"TLE": "no answer in time (TLE)", "RE": "it crashed (RE)",
                "MLE": "it ran out of memory (MLE)",
                "BAD_OUTPUT": "output that is not the JSON answer (BAD_OUTPUT)"}


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # "PENG" or "GANG"
    tile: str
    how: str  # PENG: "exposed"; GANG: "exposed", "concealed" or "added"

    @property
    def size(self) -> int:
        return 4 if self.kind == "GANG" else 3


@dataclass(frozen=True, slots=True)
class Fault:
    seat: int
    turn: int
    cause: str


@dataclass(slots=True)
class Remaining:
    """A remaining player's target and how it ranks."""

    target: str | None
    valid: bool
    reason: str
    distance: int | None  # None: infinite (no valid target)
    chance: Chance | None


@dataclass(slots=True)
class Result:
    places: list[int]  # per seat, 1-based; tied seats share the first of their places
    points: list[float]
    winners: list[int]
    faulted: list[int]  # in the order they faulted
    remaining: dict[int, Remaining]
    end: str  # "wall": a draw was due with the wall empty; "players": one or none left

    def to_json(self) -> dict[str, Any]:
        return {"end": self.end, "places": self.places, "points": self.points,
                "winners": self.winners, "faulted": self.faulted,
                "remaining": {str(seat): {"target": r.target, "valid": r.valid,
                                          "reason": r.reason, "distance": r.distance,
                                          "chance": None if r.chance is None else r.chance.value,
                                          "needed": {} if r.chance is None else r.chance.last}
                              for seat, r in sorted(self.remaining.items())}}


@dataclass(slots=True)
class _Claim:
    seat: int
    action: str  # "PENG", "GANG", "HU"
    discard: str | None = None  # PENG: the tile it then discards


class Game:
    """One game from a wall (108 codes: the deal and the draws from the front, the
    replacement draws from the back)."""

    def __init__(self, wall: Sequence[str], _twin_of: Game | None = None) -> None:
        if _twin_of is not None:  # copy() (a compiled class has no __new__ without __init__)
            self._copy_from(_twin_of)
            return
        self.wall = check_wall(wall)
        self.head = 0  # next front draw
        self.tail = len(self.wall)  # one past the next back draw
        self.hands: list[Counter[str]] = [Counter() for _ in range(PLAYERS)]
        self.melds: list[list[Meld]] = [[] for _ in range(PLAYERS)]
        self.active = [True] * PLAYERS
        self.winners: list[int] = []
        self.faults: list[Fault] = []
        self.discards: list[str] = []  # every tile discarded, in order (claimed or not)
        self.pool: list[str] = []  # the discards on the table (not claimed)
        self.turn = 0
        self.result: Result | None = None
        self._requests: list[str | None] = [None] * PLAYERS
        self._asked: list[str | None] = [None] * PLAYERS  # the turn being stepped
        # What comes after the turn being asked: a method's name and its first arguments
        # (it is called with them and the turn's replies).
        self._then: tuple[str, tuple[Any, ...]] = ("_nothing", ())
        self._events: list[dict[str, Any]] = []
        for _ in range(3):
            for seat in range(PLAYERS):
                for _ in range(4):
                    self._take(seat)
        for seat in range(PLAYERS):
            self._take(seat)
        self._events.append({"act": "DEAL", "hands": [sorted_tiles(h.elements())
                                                       for h in self.hands]})
        self._ask({seat: f"0 {seat}" for seat in range(PLAYERS)}, "_after_seat")

    def copy(self) -> Game:
        """An independent copy of the game as it stands (the wall, which no turn changes,
        is shared): stepping it leaves this one as it was."""
        return Game(self.wall, _twin_of=self)

    def _copy_from(self, other: Game) -> None:
        """Every attribute of ``other``, its lists and counters copied (``copy``)."""
        self.wall = other.wall
        self.head, self.tail, self.turn = other.head, other.tail, other.turn
        self.hands = [Counter(hand) for hand in other.hands]
        self.melds = [list(melds) for melds in other.melds]
        self.active = list(other.active)
        self.winners = list(other.winners)
        self.faults = list(other.faults)
        self.discards = list(other.discards)
        self.pool = list(other.pool)
        self.result = other.result
        self._requests = list(other._requests)
        self._asked = list(other._asked)
        self._then = other._then
        self._events = list(other._events)

    # --- the seam (server.seam.contract.TurnGame) -------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def scores(self) -> list[float] | None:
        return None if self.result is None else list(self.result.points)

    def requests(self) -> list[str | None]:
        return list(self._requests) if self.result is None else [None] * PLAYERS

    def output(self) -> dict[str, Any]:
        out: dict[str, Any] = {"turn": self.turn, "events": list(self._events),
                               "wall": self.left}
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    def step(self, replies: Sequence[Reply]) -> dict[str, Any]:
        if self.result is not None:
            raise ValueError("the game is over")
        if len(replies) != PLAYERS:
            raise ValueError("a turn has one reply per seat")
        asked = self._requests
        self._asked = asked
        self._events = []
        self.turn += 1
        texts: list[str | None] = [None] * PLAYERS
        for seat, request in enumerate(asked):
            if request is None:
                continue
            reply = replies[seat]
            if reply.verdict != "OK" or reply.response is None:
                texts[seat] = None
                if request != "4":  # a missing target is no fault: an infinite distance
                    self._fault(seat, VERDICT_SAID.get(reply.verdict, reply.verdict))
            else:
                texts[seat] = reply.response.strip(" \t").removesuffix("\r").strip(" \t")
        name, args = self._then
        self._requests = [None] * PLAYERS
        getattr(self, name)(*args, texts)
        return self.output()

    # --- state ---------------------------------------------------------------------------

    @property
    def left(self) -> int:
        """Tiles left in the wall."""
        return self.tail - self.head

    def players_in(self) -> list[int]:
        return [seat for seat in range(PLAYERS) if self.active[seat]]

    def others(self, seat: int) -> list[int]:
        """The active players other than ``seat``, in turn order after it."""
        return [s for k in range(1, PLAYERS) if self.active[s := (seat + k) % PLAYERS]]

    def held(self, seat: int) -> Counter[str]:
        """A player's tiles: concealed and melded."""
        tiles = Counter(self.hands[seat])
        for meld in self.melds[seat]:
            tiles[meld.tile] += meld.size
        return tiles

    def melded(self, seat: int) -> Counter[str]:
        tiles: Counter[str] = Counter()
        for meld in self.melds[seat]:
            tiles[meld.tile] += meld.size
        return tiles

    def _take(self, seat: int, back: bool = False) -> str:
        if back:
            self.tail -= 1
            tile = self.wall[self.tail]
        else:
            tile = self.wall[self.head]
            self.head += 1
        self.hands[seat][tile] += 1
        return tile

    def _ask(self, requests: dict[int, str], then: str, *args: Any) -> None:
        """Send ``requests``; their replies go to method ``then`` after ``args``."""
        self._requests = [requests.get(seat) for seat in range(PLAYERS)]
        self._then = (then, args)

    def _nothing(self, texts: list[str | None]) -> None:
        """The continuation of a game that asks nothing more."""

    def _fault(self, seat: int, cause: str) -> None:
        if not self.active[seat]:
            return
        self.active[seat] = False
        self.faults.append(Fault(seat, self.turn, cause))
        self._events.append({"act": "FAULT", "seat": seat, "cause": cause})

    def _over(self) -> bool:
        return len(self.players_in()) <= 1

    def _tell(self, seat: int, message: str, then: str, *args: Any) -> None:
        """``3 seat message`` to every other active player, each to answer PASS; then
        method ``then`` with ``args``."""
        listeners = self.others(seat)
        if not listeners:
            getattr(self, then)(*args)
            return
        self._ask(dict.fromkeys(listeners, f"3 {seat} {message}"), "_told", then, args)

    def _told(self, then: str, args: tuple[Any, ...], texts: list[str | None]) -> None:
        self._expect_pass(texts, "a notice")
        getattr(self, then)(*args)

    # --- the turns -------------------------------------------------------------------------

    def _expect_pass(self, texts: list[str | None], what: str) -> None:
        for seat, request in enumerate(self._asked):
            if request is not None and self.active[seat] and texts[seat] is not None \
                    and texts[seat] != PASS:
                self._fault(seat, f"answered {_quote(texts[seat])} to {what} (only PASS)")

    def _after_seat(self, texts: list[str | None]) -> None:
        self._expect_pass(texts, "its seat number")
        if self._over():
            self._end("players")
            return
        hands = {s: "1 " + " ".join(sorted_tiles(self.hands[s].elements()))
                 for s in self.players_in()}
        self._ask(hands, "_after_hand")

    def _after_hand(self, texts: list[str | None]) -> None:
        self._expect_pass(texts, "its hand")
        self._next_after(PLAYERS - 1)  # the dealer draws first

    def _next_after(self, seat: int) -> None:
        """The first active player after ``seat`` draws (the game may be over)."""
        if self._over():
            self._end("players")
            return
        self._draw(self.others(seat)[0])

    def _draw(self, seat: int, back: bool = False) -> None:
        if self._over():
            self._end("players")
            return
        if self.left == 0:
            self._end("wall")
            return
        tile = self._take(seat, back)
        self._events.append({"act": "DRAW", "seat": seat, "tile": tile,
                             "from": "back" if back else "front"})
        self._ask({seat: f"2 {tile}"}, "_after_draw", seat)

    def _after_draw(self, seat: int, texts: list[str | None]) -> None:
        text = texts[seat]
        if not self.active[seat]:  # its verdict was a fault: the next player draws
            self._next_after(seat)
            return
        action = read_draw_reply(text or "", self.hands[seat], self.melds[seat])
        if isinstance(action, str):
            self._fault(seat, action)
            self._next_after(seat)
            return
        verb, tile = action
        if verb == "PLAY" and tile is not None:
            self._discard(seat, tile)
        elif verb == "GANG" and tile is not None:
            self._kong_on_turn(seat, tile)
        else:
            self._win(seat, None)
            self._tell(seat, "HU SELF", "_next_after", seat)

    def _discard(self, seat: int, tile: str) -> None:
        self.hands[seat][tile] -= 1
        self.discards.append(tile)
        self.pool.append(tile)
        self._events.append({"act": "PLAY", "seat": seat, "tile": tile,
                             "position": len(self.discards)})
        asked = self.others(seat)
        self._ask(dict.fromkeys(asked, f"3 {seat} PLAY {tile}"), "_after_claims", seat, tile,
                  asked)

    def _kong_on_turn(self, seat: int, tile: str) -> None:
        melds = self.melds[seat]
        if self.hands[seat][tile] == 4:
            self.hands[seat][tile] -= 4
            melds.append(Meld("GANG", tile, "concealed"))
            how = "concealed"
        else:
            self.hands[seat][tile] -= 1
            i = next(k for k, m in enumerate(melds) if m.kind == "PENG" and m.tile == tile)
            melds[i] = Meld("GANG", tile, "added")
            how = "added"
        self._events.append({"act": "GANG", "seat": seat, "tile": tile, "how": how})
        self._tell(seat, f"GANG {tile}", "_replacement", seat)

    def _replacement(self, seat: int) -> None:
        """After a kong its player draws from the back (if it is still in)."""
        if not self.active[seat]:
            self._next_after(seat)
            return
        self._draw(seat, back=True)

    def _after_claims(self, discarder: int, tile: str, asked: list[int],
                      texts: list[str | None]) -> None:
        claims: list[_Claim] = []
        for seat in asked:  # in turn order after the discarder: the nearest first
            if not self.active[seat] or texts[seat] == PASS:  # PASS: no claim, no fault
                continue
            claim = read_claim(texts[seat] or "", tile, self.hands[seat], len(self.melds[seat]))
            if isinstance(claim, str):
                self._fault(seat, claim)
            elif claim is not None:
                claims.append(_Claim(seat, *claim))
        best = min(claims, key=lambda c: ("HU", "GANG", "PENG").index(c.action), default=None)
        if best is None:
            self._next_after(discarder)
        else:
            self._apply_claim(best, tile, discarder)

    def _apply_claim(self, claim: _Claim, tile: str, discarder: int) -> None:
        """A win beats a kong beats a pung; of equal claims the nearest after the
        discarder (``min`` keeps the first of equals, and claims are in turn order)."""
        seat = claim.seat
        self.pool.pop()  # the discard is the claimer's
        if claim.action == "HU":
            self.hands[seat][tile] += 1
            self._win(seat, tile, discarder)
            self._tell(seat, f"HU {tile}", "_next_after", seat)
        elif claim.action == "GANG":
            self.hands[seat][tile] -= 3
            self.melds[seat].append(Meld("GANG", tile, "exposed"))
            self._events.append({"act": "GANG", "seat": seat, "tile": tile, "how": "exposed",
                                 "from": discarder})
            self._tell(seat, f"GANG {tile}", "_replacement", seat)
        else:
            then = claim.discard
            assert then is not None
            self.hands[seat][tile] -= 2
            self.melds[seat].append(Meld("PENG", tile, "exposed"))
            self._events.append({"act": "PENG", "seat": seat, "tile": tile, "from": discarder})
            self._tell(seat, f"PENG {tile}", "_discard_after_pung", seat, then)

    def _discard_after_pung(self, seat: int, tile: str) -> None:
        if self._over():
            self._end("players")
            return
        self._discard(seat, tile)

    def _win(self, seat: int, tile: str | None, discarder: int | None = None) -> None:
        self.active[seat] = False
        self.winners.append(seat)
        event: dict[str, Any] = {"act": "HU", "seat": seat, "place": len(self.winners)}
        if tile is None:
            event["self"] = True
        else:
            event.update(tile=tile, self=False, **{"from": discarder})
        self._events.append(event)

    # --- the end -----------------------------------------------------------------------------

    def _end(self, why: str) -> None:
        self._events.append({"act": "END", "why": why})
        remaining = self.players_in()
        if not remaining:
            self._settle(why, [None] * PLAYERS)
            return
        self._ask(dict.fromkeys(remaining, "4"), "_settle", why)

    def _settle(self, why: str, texts: list[str | None]) -> None:
        remaining = self.players_in()
        last = last_positions(self.discards, (t for s in range(PLAYERS)
                                              for t in self.held(s).elements()))
        rows: dict[int, Remaining] = {}
        for seat in remaining:
            check = check_target(texts[seat], self.melded(seat), len(self.melds[seat]))
            if check.valid:
                current = self.held(seat)
                rows[seat] = Remaining(texts[seat], True, "", distance(check.tiles, current),
                                       chance_value(needed(check.tiles, current), last))
            else:
                rows[seat] = Remaining(texts[seat], False, check.reason, None, None)
        self.result = rank(self.winners, rows, self.faults, why)
        self._events.append({"act": "RESULT"})


def rank(winners: Sequence[int], remaining: dict[int, Remaining], faults: Sequence[Fault],
         end: str) -> Result:
    """Places and points (SPEC-noi2014 §3): ``groups`` of tied seats, best first."""
    groups: list[list[int]] = [[seat] for seat in winners]
    keyed = sorted(remaining, key=lambda s: _remaining_key(remaining[s]))
    for seat in keyed:
        if groups and len(groups) > len(winners) and \
                _remaining_key(remaining[groups[-1][0]]) == _remaining_key(remaining[seat]):
            groups[-1].append(seat)
        else:
            groups.append([seat])
    by_turn: dict[int, list[int]] = {}
    for fault in faults:
        by_turn.setdefault(fault.turn, []).append(fault.seat)
    for turn in sorted(by_turn, reverse=True):  # the later fault first
        groups.append(sorted(by_turn[turn]))
    places = [0] * PLAYERS
    points = [0.0] * PLAYERS
    start = 0
    for group in groups:
        share = sum(POINTS[start:start + len(group)]) / len(group)
        for seat in group:
            places[seat] = start + 1
            points[seat] = share
        start += len(group)
    return Result(places, points, list(winners), [f.seat for f in faults], dict(remaining),
                  end)


def _remaining_key(row: Remaining) -> tuple[float, float]:
    """Smaller ranks first: the distance, then the chance value (larger first)."""
    dist = float("inf") if row.distance is None else float(row.distance)
    chance = float("-inf") if row.chance is None else float(row.chance.value)
    return dist, -chance


# --- reading replies (untrusted text -> an action, or a fault's cause) ----------------------


def _quote(text: str | None, width: int = 40) -> str:
    text = "" if text is None else text
    return repr(text if len(text) <= width else text[:width] + "...")


def read_draw_reply(text: str, hand: Counter[str], melds: Sequence[Meld]
                    ) -> tuple[str, str | None] | str:
    """The answer to ``2 C`` (the tile already in ``hand``): ("PLAY", X), ("GANG", X),
    ("HU", None), or why it is a fault."""
    words = text.split(" ")
    if words == ["HU"]:
        if is_winning(hand, len(melds)):
            return "HU", None
        return "a false HU: its tiles are no winning hand"
    if len(words) == 2 and words[0] in ("PLAY", "GANG"):
        verb, tile = words
        if not is_tile(tile):
            return f"{_quote(text)}: {tile[:12]!r} is not a tile code"
        if hand[tile] < 1:
            return f"{verb} {tile}: it holds no {tile}"
        if verb == "PLAY":
            return "PLAY", tile
        if hand[tile] == 4 or any(m.kind == "PENG" and m.tile == tile for m in melds):
            return "GANG", tile
        return f"GANG {tile}: neither four {tile} in hand nor a pung of {tile} to add to"
    return f"answered {_quote(text)} to a draw (PLAY X, GANG X or HU)"


def read_claim(text: str, tile: str, hand: Counter[str], melds: int
               ) -> tuple[str] | tuple[str, str] | str | None:
    """The answer to ``3 P PLAY tile``: None (PASS), ("HU",), ("GANG",), ("PENG", Y), or
    why it is a fault."""
    words = text.split(" ")
    if words == [PASS]:
        return None
    if words == ["HU"]:
        with_tile = Counter(hand)
        with_tile[tile] += 1
        if is_winning(with_tile, melds):
            return ("HU",)
        return f"a false HU on {tile}: its tiles and {tile} are no winning hand"
    if words == ["GANG"]:
        if hand[tile] >= 3:
            return ("GANG",)
        return f"GANG on {tile}: it holds {hand[tile]} {tile}, a kong needs 3"
    if len(words) == 2 and words[0] == "PENG":
        then = words[1]
        if hand[tile] < 2:
            return f"PENG on {tile}: it holds {hand[tile]} {tile}, a pung needs 2"
        if not is_tile(then):
            return f"{_quote(text)}: {then[:12]!r} is not a tile code"
        after = Counter(hand)
        after[tile] -= 2
        if after[then] < 1:
            return f"PENG {then}: after the pung it holds no {then} to discard"
        return "PENG", then
    return f"answered {_quote(text)} to a discard (PASS, PENG Y, GANG or HU)"
