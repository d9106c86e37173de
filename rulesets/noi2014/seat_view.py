"""One NOI 2014 seat's view of its game, its legal actions and the action codec.

A ``SeatView`` is built only from what the seat's bot is told (SPEC-noi2014 §4):
the requests it receives (``see``) and its own responses (``did``). It never
reads the engine, so the same class runs inside a training environment and
inside a real bot process (``rulesets.noi2014.env.policy_bot``), and a policy
sees the same observation in both.

What it keeps, incrementally (lists of 27 counts in ``KINDS`` order):

* its seat, its concealed tiles (``hand``) and its melds;
* every seat's melded tiles (``melded``; a concealed kong is told as
  ``3 P GANG X`` too), every seat's discards still on the table (``pool``),
  and the whole discard sequence (``discards``: the positions of the chance
  value, SPEC §5; a player in the game is told every discard);
* who is still in (``active``; winners leave; a fault is never told, so a
  faulted player looks active), the winners in order;
* the tiles left in the wall (``left``), counted from what it is told: its own
  draws, and every other player's draw shown by what follows it (a discard not
  after a pung, a concealed or added kong, a self-drawn win). Exact unless a
  player faulted after drawing;
* the decision now asked (``decision``: ``DRAW``, ``CLAIM``, ``PUNG_DISCARD``
  once it chose to pung (``choose_pung``), ``TARGET``, or ``NONE`` for a request
  whose only answer is PASS) and its tile.

A claim of its own (pung, kong, win on a discard) is applied unless the very next
request says another player won on that same tile (a win beats a pung or a kong,
the nearest winner beats the others): the view settles it when that request comes.

The action space: 58 discrete actions, the same at every decision.

* 0-26, discard kind k (``KINDS[k]``: B1..B9, T1..T9, W1..W9): ``PLAY X``; at a
  draw (X held), and at the discard after a pung (X held once the pung is made).
* 27-53, kong of kind k on its own turn: ``GANG X``; at a draw, four X held
  (concealed) or one X held and a pung of X (added).
* 54, win: ``HU``; at a draw (its tiles win) or a discard (with it they win).
* 55, pass: ``PASS``; at a discard (``3 P PLAY X``).
* 56, pung the discard: ``PENG Y``, Y chosen next; at a discard, two X held.
* 57, kong the discard: ``GANG``; at a discard, three X held.

A pung's response (``PENG Y``) composes two choices, so it is two decisions: the
pung (56) at the claim, then, at once and by the same seat, the discard (0-26,
``PUNG_DISCARD``). The engine then checks the claims of all seats on that
discard together: a win beats a kong beats a pung, and of equal claims the
nearest seat after the discarder wins (``engine._apply_claim``); a claim that is
beaten is simply not applied.

The target hand (request ``4``) is no decision: ``target()`` answers the nearest
valid target (the smallest distance, found exactly: a target keeps as many of
its tiles as any can). Equally near targets are told apart, as far as cheaply
possible, by the chance value this seat can estimate: of the ways to share the
sets and the pair among the suits, the one whose needed kinds were last seen
latest (within a suit the first best found is kept). Requests whose only
answer is PASS are no decision either.

Pure: no trio, no numpy.
"""

from __future__ import annotations

from typing import Final

from rulesets.noi2014.hands import wins_list
from rulesets.noi2014.nearest import nearest
from rulesets.noi2014.tiles import KINDS

N_KINDS: Final = 27  # len(KINDS)
PLAYERS: Final = 4
INDEX = {kind: i for i, kind in enumerate(KINDS)}
WALL_AFTER_DEAL: Final = 56  # 108 - 13 * PLAYERS

# The actions.
PLAY: Final = 0  # + kind
GANG: Final = 27  # + kind
HU: Final = 54
PASS: Final = 55
PENG: Final = 56
KONG: Final = 57  # an exposed kong on a discard
N_ACTIONS: Final = 58

# The decisions.
NONE: Final = 0  # only PASS is allowed (or not asked at all)
DRAW: Final = 1  # "2 C": discard, kong or win
CLAIM: Final = 2  # "3 P PLAY X": pass, win, kong or pung
PUNG_DISCARD: Final = 3  # after choosing PENG: the discard that goes with it
TARGET: Final = 4  # "4": the target hand (answered by ``target()``)


def action_name(action: int) -> str:
    """A short name of an action id (for messages and docs)."""
    if PLAY <= action < PLAY + N_KINDS:
        return f"PLAY {KINDS[action - PLAY]}"
    if GANG <= action < GANG + N_KINDS:
        return f"GANG {KINDS[action - GANG]}"
    names = {HU: "HU", PASS: "PASS", PENG: "PENG", KONG: "GANG (on the discard)"}
    if action in names:
        return names[action]
    raise ValueError(f"no action {action} (0..{N_ACTIONS - 1})")


def response_of(action: int, discard: int | None = None) -> str:
    """The response text an action says, whatever the decision (at the wrong decision the
    engine refuses it): ``discard`` is the discard action (0-26) that follows a PENG."""
    if PLAY <= action < PLAY + N_KINDS:
        return f"PLAY {KINDS[action - PLAY]}"
    if GANG <= action < GANG + N_KINDS:
        return f"GANG {KINDS[action - GANG]}"
    if action == HU:
        return "HU"
    if action == PASS:
        return "PASS"
    if action == KONG:
        return "GANG"
    if action == PENG:
        if discard is None or not PLAY <= discard < PLAY + N_KINDS:
            raise ValueError("a PENG composes a discard (an action 0-26) after it")
        return f"PENG {KINDS[discard - PLAY]}"
    raise ValueError(f"no action {action} (0..{N_ACTIONS - 1})")


class SeatView:
    """What one seat knows, from its requests and its own responses."""

    __slots__ = ("_last_discard", "_pending", "_punged", "active", "decision", "discarder",
                 "discards", "hand", "left", "melded", "melds", "pool", "pung_of", "seat",
                 "tile", "winners")

    def __init__(self) -> None:
        self.seat = -1
        self.hand = [0] * N_KINDS
        self.melds: list[tuple[str, int]] = []  # ("PENG" | "GANG", kind), in order
        self.melded = [[0] * N_KINDS for _ in range(PLAYERS)]  # by absolute seat
        self.pung_of: list[set[int]] = [set() for _ in range(PLAYERS)]  # pungs still pungs
        self.pool = [[0] * N_KINDS for _ in range(PLAYERS)]  # discards not claimed
        self.discards: list[tuple[int, int]] = []  # (seat, kind), the whole sequence
        self.active = [True] * PLAYERS
        self.winners: list[int] = []
        self.left = WALL_AFTER_DEAL
        self.decision = NONE
        self.tile = -1  # the drawn tile (DRAW) or the discard (CLAIM)
        self.discarder = -1
        self._last_discard: tuple[int, int] | None = None  # a discard no one has taken yet
        self._punged = [False] * PLAYERS  # its next discard follows a pung (no draw)
        self._pending: tuple[str, int, int] | None = None  # own claim: verb, tile, discard

    # --- what it is told ------------------------------------------------------------------

    def see(self, request: str) -> None:
        """A request arrives (the next one to answer)."""
        self.see_words(request.split())

    def see_words(self, words: list[str]) -> None:
        """``see`` of a request already split into words (at white space)."""
        if self._pending is not None:
            self._settle(words)
        self.decision = NONE
        if not words:
            return
        head = words[0]
        if head == "2" and len(words) == 2:
            kind = INDEX[words[1]]
            self.hand[kind] += 1
            self.left -= 1
            self.decision, self.tile = DRAW, kind
            self._last_discard = None
        elif head == "3" and len(words) >= 3:
            self._notice(int(words[1]), words[2], words[3] if len(words) > 3 else "")
        elif head == "0" and len(words) == 2:
            self.seat = int(words[1])
        elif head == "1":
            self.hand = [0] * N_KINDS
            for code in words[1:]:
                self.hand[INDEX[code]] += 1
        elif head == "4":
            self.decision = TARGET

    def _notice(self, seat: int, verb: str, what: str) -> None:
        if verb == "PLAY":
            kind = INDEX[what]
            self.discards.append((seat, kind))
            self.pool[seat][kind] += 1
            if self._punged[seat]:
                self._punged[seat] = False
            else:
                self.left -= 1
            self._last_discard = (seat, kind)
            if seat != self.seat:
                self.decision, self.tile, self.discarder = CLAIM, kind, seat
            return
        if verb == "HU" and what == "SELF":
            self.left -= 1
            self._leaves(seat)
            self._last_discard = None
            return
        kind = INDEX[what]
        taken = self._last_discard is not None and self._last_discard[1] == kind
        if taken and verb in ("PENG", "GANG", "HU"):
            assert self._last_discard is not None
            self.pool[self._last_discard[0]][kind] -= 1
        if verb == "PENG":
            self.melded[seat][kind] += 3
            self.pung_of[seat].add(kind)
            self._punged[seat] = True
        elif verb == "GANG":
            if not taken:  # concealed or added: after a draw of its own
                self.left -= 1
            if kind in self.pung_of[seat] and not taken:
                self.pung_of[seat].discard(kind)
                self.melded[seat][kind] += 1
            else:
                self.melded[seat][kind] += 4
        elif verb == "HU":
            self._leaves(seat)
        self._last_discard = None

    def _leaves(self, seat: int) -> None:
        if self.active[seat]:
            self.active[seat] = False
            self.winners.append(seat)

    def did(self, request: str, response: str) -> None:
        """Its own answer to ``request`` (already seen)."""
        if response == "PASS":  # changes nothing but the decision, at every decision
            self.decision = NONE
            return
        said = response.split()
        if not said:
            return
        if self.decision == DRAW:
            if said[0] == "PLAY" and len(said) == 2:
                self._discard(INDEX[said[1]])
            elif said[0] == "GANG" and len(said) == 2:
                kind = INDEX[said[1]]
                me = self.seat
                if self.hand[kind] == 4:
                    self.hand[kind] = 0
                    self.melds.append(("GANG", kind))
                    self.melded[me][kind] += 4
                else:
                    self.hand[kind] -= 1
                    self.melds = [("GANG", k) if (v, k) == ("PENG", kind) else (v, k)
                                  for v, k in self.melds]
                    self.pung_of[me].discard(kind)
                    self.melded[me][kind] += 1
                self._last_discard = None
            elif said == ["HU"]:
                self._leaves(self.seat)
        elif self.decision in (CLAIM, PUNG_DISCARD) and said[0] in ("PENG", "GANG", "HU"):
            then = INDEX[said[1]] if said[0] == "PENG" and len(said) == 2 else -1
            self._pending = (said[0], self.tile, then)
        self.decision = NONE

    def _discard(self, kind: int) -> None:
        self.hand[kind] -= 1
        self.discards.append((self.seat, kind))
        self.pool[self.seat][kind] += 1
        self._last_discard = (self.seat, kind)

    def _settle(self, words: list[str]) -> None:
        """Was its own claim applied? Not if another player won on that tile."""
        assert self._pending is not None
        verb, kind, then = self._pending
        self._pending = None
        if len(words) == 4 and words[0] == "3" and words[2] == "HU" and words[3] == KINDS[kind]:
            return
        me = self.seat
        if self._last_discard is not None and self._last_discard[1] == kind:
            self.pool[self._last_discard[0]][kind] -= 1
        self._last_discard = None
        if verb == "PENG":
            self.hand[kind] -= 2
            self.melds.append(("PENG", kind))
            self.melded[me][kind] += 3
            self.pung_of[me].add(kind)
            self._discard(then)
        elif verb == "GANG":
            self.hand[kind] -= 3
            self.melds.append(("GANG", kind))
            self.melded[me][kind] += 4
        else:
            self._leaves(me)

    def claim_applied(self) -> None:
        """Settle a claim of its own now (the game told it nothing after: it won, or the
        game ended). A real bot never needs this; an environment's last observation does."""
        if self._pending is not None:
            self._settle([])

    # --- its legal actions ------------------------------------------------------------

    def legal(self) -> list[int]:
        """The actions the engine accepts at the decision now asked (none at NONE/TARGET)."""
        hand = self.hand
        if self.decision == DRAW:
            out = [PLAY + k for k in range(N_KINDS) if hand[k]]
            me = self.pung_of[self.seat]
            out += [GANG + k for k in range(N_KINDS)
                    if hand[k] == 4 or (hand[k] and k in me)]
            if wins_list(hand, len(self.melds)):
                out.append(HU)
            return out
        if self.decision == CLAIM:
            kind = self.tile
            out = [PASS]
            hand[kind] += 1
            if wins_list(hand, len(self.melds)):
                out.append(HU)
            hand[kind] -= 1
            if hand[kind] >= 2:
                out.append(PENG)
            if hand[kind] >= 3:
                out.append(KONG)
            out.sort()
            return out
        if self.decision == PUNG_DISCARD:
            kind = self.tile
            return [PLAY + k for k in range(N_KINDS) if hand[k] - (2 if k == kind else 0) > 0]
        return []

    def can_claim(self) -> bool:
        """At a claim: whether it has more than PASS (``len(legal()) > 1``, cheaper)."""
        hand, kind = self.hand, self.tile
        if hand[kind] >= 2:
            return True
        if not hand[kind]:  # a lone tile wins only in a run: it needs a neighbour held
            low, high = kind - kind % 9, kind - kind % 9 + 8
            if not any(hand[k] for k in range(max(low, kind - 2), min(high, kind + 2) + 1)):
                return False
        hand[kind] += 1
        won = wins_list(hand, len(self.melds))
        hand[kind] -= 1
        return won

    def choose_pung(self) -> None:
        """It chose PENG (56) at a claim: the next decision is the discard after it."""
        if self.decision != CLAIM or PENG not in self.legal():
            raise ValueError("a pung is chosen at a claim where it is legal")
        self.decision = PUNG_DISCARD

    # --- the target hand ----------------------------------------------------------------

    def target(self) -> str:
        """The nearest valid target hand (SPEC-noi2014 §5) as this seat answers ``4``."""
        pick = self.target_counts()
        lower = [KINDS[k].lower() for verb, k in self.melds
                 for _ in range(4 if verb == "GANG" else 3)]
        upper = [KINDS[k] for k in range(N_KINDS) for _ in range(pick[k])]
        return " ".join(lower + upper)

    def target_counts(self) -> tuple[int, ...]:
        """``target()``'s concealed (upper-case) tiles as 27 counts (``nearest``)."""
        mine = self.melded[self.seat]
        caps = [4 - mine[k] for k in range(N_KINDS)]
        return tuple(nearest(self.hand, caps, 4 - len(self.melds), self._last_seen()))

    def _last_seen(self) -> list[int]:
        """Each kind's last position in the chance sequence as far as this seat can tell:
        the end position if it or a meld holds one (or the wall is empty and a copy is
        unseen), else the last discard of it, else 0."""
        end = len(self.discards) + 1
        late = [0] * N_KINDS
        for position, (_, kind) in enumerate(self.discards, start=1):
            late[kind] = position
        hand = self.hand
        m0, m1, m2, m3 = self.melded
        p0, p1, p2, p3 = self.pool
        empty = self.left <= 0
        for k in range(N_KINDS):
            if hand[k] or m0[k] or m1[k] or m2[k] or m3[k] or \
                    (empty and hand[k] + m0[k] + m1[k] + m2[k] + m3[k] + p0[k] + p1[k] + p2[k]
                     + p3[k] < 4):
                late[k] = end
        return late

