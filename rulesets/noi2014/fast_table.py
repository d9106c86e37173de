"""The NOI 2014 training environment's fast game: small ints and count arrays, no text.

Pure (no numpy, no PettingZoo), compiled by the install (``tools/build_mypyc.py``).
``rulesets.noi2014.env`` steps a ``FastTable``; the reference ``table.Table`` (the
exact engine, its requests and replies as text, one ``SeatView`` per seat) is
replayed from the fast table's ``log`` only when something reads text or views (a
record, a seat's history, a custom encoder, an observation of a seat not deciding),
so the strings are made only then.

A ``FastTable`` plays the game an environment plays (every action legal, so no
fault): the engine's turns (``engine.Game``: the deal, draws from the front and
after a kong from the back, discards and the claims on them, a win beating a kong
beating a pung, the nearest claimer first, the end when a draw is due with the wall
empty or at most one player is left) on one shared public state (the melds, the
discards still on the table, who is in, the wall) and four concealed hands. What
the deciding seat's ``SeatView`` would hold is exactly that state (an active seat is
told every public event, and a draw's follow-up tells the others of it), so its
observation codes (``codes``: the default encoder's, as ``planes.codes``; ``planes``:
the same as the float32 planes the environment returns) and its
legal actions are made from it; a winner's view stops at its win (it is told
nothing more), so its last observation is kept then (``final``). At the end each
remaining seat answers the nearest target (``nearest.nearest`` on the state, as its
``SeatView.target`` would) and the game is ranked as ``engine.Game`` ranks it (``result``).

``queue`` is the seats deciding now (the drawer, or the claimers of a discard in
turn order after the discarder), ``legal`` the first one's actions, ``act(seat,
action)`` its action; ``log`` holds every action as ``seat * N_ACTIONS + action``
(the reference ``Table`` replays them: same actions, same game).
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from rulesets.noi2014.engine import Remaining, Result, rank
from rulesets.noi2014.hands import (
    Chance,
    chance_value,
    check_target,
    distance,
    last_positions,
    needed,
    wins_list,
)
from rulesets.noi2014.nearest import nearest
from rulesets.noi2014.planes import (
    DECISION_F32,
    DECISION_PLANES,
    LEFT_F32,
    LEFT_PLANES,
    ONE,
    ONE_HOT,
    ONE_HOT_F32,
    ONES,
    ONES_F32,
    SEATS_F32,
    ZEROS,
    ZEROS_F32,
    count_plane,
    float_planes,
)
from rulesets.noi2014.seat_view import (
    CLAIM,
    DRAW,
    GANG,
    HU,
    INDEX,
    KONG,
    N_ACTIONS,
    N_KINDS,
    NONE,
    PASS,
    PENG,
    PLAY,
    PUNG_DISCARD,
)
from rulesets.noi2014.tiles import KINDS

PLAYERS: Final = 4
_CLAIM_RANK = {HU: 0, KONG: 1, PENG: 2}  # a win beats a kong beats a pung


class FastTable:
    """One NOI 2014 game for the environment (module docstring)."""

    def __init__(self, wall: list[str]) -> None:
        kinds = [INDEX[code] for code in wall]
        self.wall = kinds
        self.head = 0
        self.tail = len(kinds)
        hands = [[0] * N_KINDS for _ in range(PLAYERS)]
        head = 0
        for _ in range(3):
            for seat in range(PLAYERS):
                for _ in range(4):
                    hands[seat][kinds[head]] += 1
                    head += 1
        for seat in range(PLAYERS):
            hands[seat][kinds[head]] += 1
            head += 1
        self.head = head
        self.hands = hands
        self.melds: list[list[tuple[str, int]]] = [[] for _ in range(PLAYERS)]
        self.melded = [[0] * N_KINDS for _ in range(PLAYERS)]
        self.pung_of: list[set[int]] = [set() for _ in range(PLAYERS)]
        self.pool = [[0] * N_KINDS for _ in range(PLAYERS)]
        # shared by the four seats' observations: melded and pool as bytes, and each kind's
        # copies in melds or on the table (``seen``), kept as they change
        self.melded_bytes = [bytes(N_KINDS)] * PLAYERS
        self.pool_bytes = [bytes(N_KINDS)] * PLAYERS
        self.melded_f32 = [ZEROS_F32] * PLAYERS  # the same as float32 planes (``planes``)
        self.pool_f32 = [ZEROS_F32] * PLAYERS
        self.seen = [0] * N_KINDS
        self.discards: list[tuple[int, int]] = []
        self.active = [True] * PLAYERS
        self.winners: list[int] = []
        self.final: list[bytes | None] = [None] * PLAYERS  # a winner's last observation
        self.log: list[int] = []
        self.queue: list[int] = []
        self.legal: list[int] = []
        self.decision = NONE  # of queue[0]
        self.tile = -1
        self.discarder = -1
        self.claims: list[tuple[int, int, int, int]] = []  # on the discard now (``act``)
        self.result: Result | None = None
        self._draw(0, False)

    # --- the deciding seat ------------------------------------------------------------------

    def act(self, seat: int, action: int) -> None:
        """The first queued seat's (``seat``'s) legal ``action``; then on to the next
        decision (``queue`` empty: the game is over)."""
        self.log.append(seat * N_ACTIONS + action)
        decision = self.decision
        if decision == DRAW:
            self.queue = []
            if action < GANG:
                self._discard(seat, action - PLAY)
            elif action < HU:
                self._kong_on_turn(seat, action - GANG)
            else:
                self._win(seat, self.hands[seat])
                self._next_after(seat)
            return
        if decision == CLAIM and action == PENG:
            self.decision = PUNG_DISCARD
            tile = self.tile
            hand = self.hands[seat]
            self.legal = [PLAY + k for k in range(N_KINDS)
                          if hand[k] - (2 if k == tile else 0) > 0]
            return
        claims = self.claims
        if decision == PUNG_DISCARD:  # (rank, order asked, seat, the discard after a pung)
            claims.append((_CLAIM_RANK[PENG], len(claims), seat, action - PLAY))
        elif action != PASS:
            claims.append((_CLAIM_RANK[action], len(claims), seat, -1))
        queue = self.queue
        queue.pop(0)
        if queue:
            self._ask_claim(queue[0])
            return
        self._settle_claims()

    def _ask_claim(self, seat: int) -> None:
        self.decision = CLAIM
        kind = self.tile
        hand = self.hands[seat]
        out = [PASS]
        hand[kind] += 1
        won = wins_list(hand, len(self.melds[seat]))
        hand[kind] -= 1
        if won:
            out.insert(0, HU)
        if hand[kind] >= 2:
            out.append(PENG)
        if hand[kind] >= 3:
            out.append(KONG)
        self.legal = out

    def _draw_legal(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        out = [PLAY + k for k in range(N_KINDS) if hand[k]]
        mine = self.pung_of[seat]
        out += [GANG + k for k in range(N_KINDS) if hand[k] == 4 or (hand[k] and k in mine)]
        if wins_list(hand, len(self.melds[seat])):
            out.append(HU)
        return out

    def _can_claim(self, seat: int, kind: int) -> bool:
        """As ``SeatView.can_claim``: more than PASS on ``kind``."""
        hand = self.hands[seat]
        if hand[kind] >= 2:
            return True
        if not hand[kind]:
            low = kind - kind % 9
            high = low + 8
            start = kind - 2 if kind - 2 > low else low
            end = kind + 2 if kind + 2 < high else high
            if not any(hand[k] for k in range(start, end + 1)):
                return False
        hand[kind] += 1
        won = wins_list(hand, len(self.melds[seat]))
        hand[kind] -= 1
        return won

    # --- the turns ----------------------------------------------------------------------------

    def _others(self, seat: int) -> list[int]:
        active = self.active
        return [s for k in range(1, PLAYERS) if active[s := (seat + k) % PLAYERS]]

    def _over(self) -> bool:
        return sum(self.active) <= 1

    def _next_after(self, seat: int) -> None:
        if self._over():
            self._end("players")
            return
        self._draw(self._others(seat)[0], False)

    def _draw(self, seat: int, back: bool) -> None:
        if self._over():
            self._end("players")
            return
        if self.tail == self.head:
            self._end("wall")
            return
        if back:
            self.tail -= 1
            kind = self.wall[self.tail]
        else:
            kind = self.wall[self.head]
            self.head += 1
        self.hands[seat][kind] += 1
        self.queue = [seat]
        self.decision = DRAW
        self.tile = kind
        self.legal = self._draw_legal(seat)

    def _discard(self, seat: int, kind: int) -> None:
        self.hands[seat][kind] -= 1
        self.discards.append((seat, kind))
        self._to_pool(seat, kind, 1)
        queue = [s for s in self._others(seat) if self._can_claim(s, kind)]
        if not queue:
            self._next_after(seat)
            return
        self.queue = queue
        self.tile = kind
        self.discarder = seat
        self.claims = []
        self._ask_claim(queue[0])

    def _kong_on_turn(self, seat: int, kind: int) -> None:
        hand = self.hands[seat]
        if hand[kind] == 4:
            hand[kind] = 0
            self.melds[seat].append(("GANG", kind))
            self._meld(seat, kind, 4)
        else:
            hand[kind] -= 1
            self.melds[seat] = [("GANG", k) if (v, k) == ("PENG", kind) else (v, k)
                                for v, k in self.melds[seat]]
            self.pung_of[seat].discard(kind)
            self._meld(seat, kind, 1)
        self._draw(seat, True)

    def _to_pool(self, seat: int, kind: int, n: int) -> None:
        pool = self.pool[seat]
        pool[kind] += n
        self.pool_bytes[seat] = bytes(pool)
        self.pool_f32[seat] = count_plane(pool)
        self.seen[kind] += n

    def _meld(self, seat: int, kind: int, n: int) -> None:
        melded = self.melded[seat]
        melded[kind] += n
        self.melded_bytes[seat] = bytes(melded)
        self.melded_f32[seat] = count_plane(melded)
        self.seen[kind] += n

    def _settle_claims(self) -> None:
        kind, discarder = self.tile, self.discarder
        if not self.claims:
            self._next_after(discarder)
            return
        best, _, seat, then = min(self.claims)  # the best claim, then the nearest seat
        self._to_pool(discarder, kind, -1)
        hand = self.hands[seat]
        if best == _CLAIM_RANK[HU]:
            self._win(seat, hand)  # its view never adds the winning discard to its hand
            hand[kind] += 1
            self._next_after(seat)
        elif best == _CLAIM_RANK[KONG]:
            hand[kind] -= 3
            self.melds[seat].append(("GANG", kind))
            self._meld(seat, kind, 4)
            self._draw(seat, True)
        else:
            hand[kind] -= 2
            self.melds[seat].append(("PENG", kind))
            self._meld(seat, kind, 3)
            self.pung_of[seat].add(kind)
            self._discard(seat, then)

    def _win(self, seat: int, hand: list[int]) -> None:
        """``seat`` wins and leaves; its last observation is its view now (``hand`` as
        its view keeps it): it is told nothing more."""
        self.active[seat] = False
        self.winners.append(seat)
        self.final[seat] = self._codes(seat, hand, NONE)

    # --- the end ------------------------------------------------------------------------------

    def _end(self, why: str) -> None:
        """Each remaining seat's target, and the ranking (as ``engine.Game._settle``, on
        counts: its target is valid by construction, which is checked, else the text path
        decides)."""
        self.queue = []
        self.legal = []
        self.decision = NONE
        end = len(self.discards) + 1
        discarded = [0] * N_KINDS  # each kind's last discard (0: none)
        for position, (_, kind) in enumerate(self.discards, start=1):
            discarded[kind] = position
        last = [p if p else -1 for p in discarded]  # -1: nowhere (``last_positions``)
        hands, melded = self.hands, self.melded
        in_melds = [0] * N_KINDS
        for seat in range(PLAYERS):
            hand, mine = hands[seat], melded[seat]
            for k in range(N_KINDS):
                if hand[k] + mine[k]:
                    last[k] = end
                in_melds[k] += mine[k]
        rows: dict[int, Remaining] = {}
        empty = self.tail == self.head
        seen = self.seen
        for seat in range(PLAYERS):
            if self.active[seat]:
                hand = hands[seat]
                # what its view's ``_last_seen`` gives: the end for a kind it or a meld
                # holds (or, the wall empty, a kind with a copy it has not seen)
                late = [end if hand[k] or in_melds[k] or (empty and hand[k] + seen[k] < 4)
                        else discarded[k] for k in range(N_KINDS)]
                rows[seat] = self._remaining(seat, last, late)
        self.result = rank(self.winners, rows, [], why)

    def _remaining(self, seat: int, last: list[int], late: list[int]) -> Remaining:
        hand, mine, melds = self.hands[seat], self.melded[seat], self.melds[seat]
        pick = nearest(hand, [4 - mine[k] for k in range(N_KINDS)], 4 - len(melds), late)
        lower = [KINDS[k].lower() for verb, k in melds
                 for _ in range(4 if verb == "GANG" else 3)]
        upper = [KINDS[k] for k in range(N_KINDS) for _ in range(pick[k])]
        text = " ".join(lower + upper)
        if upper and all(pick[k] + mine[k] <= 4 for k in range(N_KINDS)) \
                and wins_list(pick, len(melds)):
            far = sum(abs(pick[k] - hand[k]) for k in range(N_KINDS))
            need = {KINDS[k]: (last[k] if last[k] >= 0 else 0)
                    for k in range(N_KINDS) if pick[k] > hand[k]}
            value = min(need.values()) if need else max(last)
            return Remaining(text, True, "", far, Chance(value if value > 0 else 0, need))
        return self._remaining_from_text(seat, text)

    def _remaining_from_text(self, seat: int, text: str) -> Remaining:
        """``engine.Game._settle``'s row of a target, read as text (never needed so far)."""
        held = [self._held(s) for s in range(PLAYERS)]
        discards = [KINDS[k] for _, k in self.discards]
        last = last_positions(discards, (t for s in range(PLAYERS) for t in held[s].elements()))
        melded = Counter({KINDS[k]: n for k, n in enumerate(self.melded[seat]) if n})
        check = check_target(text, melded, len(self.melds[seat]))
        if not check.valid:
            return Remaining(text, False, check.reason, None, None)
        current = held[seat]
        return Remaining(text, True, "", distance(check.tiles, current),
                         chance_value(needed(check.tiles, current), last))

    def _held(self, seat: int) -> Counter[str]:
        hand, melded = self.hands[seat], self.melded[seat]
        return Counter({KINDS[k]: hand[k] + melded[k] for k in range(N_KINDS)
                        if hand[k] + melded[k]})

    # --- observations ---------------------------------------------------------------------------

    def codes(self, seat: int) -> bytes | None:
        """The default encoding (``planes.codes``) of ``seat``'s view now: the deciding
        seat's, or at the end any seat's; None for a seat whose view lags (not deciding)."""
        if self.result is not None:
            final = self.final[seat]
            return final if final is not None else self._codes(seat, self.hands[seat], NONE)
        if not self.queue or self.queue[0] != seat:
            return None
        return self._codes(seat, self.hands[seat], self.decision)

    def _codes(self, me: int, hand: list[int], decision: int) -> bytes:
        o1, o2, o3 = (me + 1) % PLAYERS, (me + 2) % PLAYERS, (me + 3) % PLAYERS
        melded, pool, seen = self.melded_bytes, self.pool_bytes, self.seen
        left = self.tail - self.head
        counts = b"".join((bytes(hand), melded[me], melded[o1], melded[o2], melded[o3],
                           pool[me], pool[o1], pool[o2], pool[o3]))
        unseen = bytes([4 - hand[k] - seen[k] for k in range(N_KINDS)])
        tile = self.tile
        told = ONE_HOT[tile] if decision in (DRAW, CLAIM, PUNG_DISCARD) else ZEROS
        active = self.active
        seats = bytearray(N_KINDS)
        seats[me] = ONE
        if decision in (CLAIM, PUNG_DISCARD):
            seats[4 + (self.discarder - me) % PLAYERS] = ONE
        return b"".join((counts, unseen, told, DECISION_PLANES[decision],
                         LEFT_PLANES[left], ONES if active[me] else ZEROS,
                         ONES if active[o1] else ZEROS, ONES if active[o2] else ZEROS,
                         ONES if active[o3] else ZEROS, seats))

    def planes(self, seat: int) -> bytearray | None:
        """``codes(seat)`` as the default encoder's float32 planes (20 x 27, native byte
        order: ``np.frombuffer(..., np.float32)``), made directly from the state."""
        if self.result is not None:
            final = self.final[seat]
            return float_planes(final) if final is not None else \
                self._planes(seat, self.hands[seat], NONE)
        if not self.queue or self.queue[0] != seat:
            return None
        return self._planes(seat, self.hands[seat], self.decision)

    def _planes(self, me: int, hand: list[int], decision: int) -> bytearray:
        o1, o2, o3 = (me + 1) % PLAYERS, (me + 2) % PLAYERS, (me + 3) % PLAYERS
        melded, pool, seen = self.melded_f32, self.pool_f32, self.seen
        unseen = [4 - hand[k] - seen[k] for k in range(N_KINDS)]
        told = ZEROS_F32
        seats = SEATS_F32[me * 5]
        if decision == DRAW:
            told = ONE_HOT_F32[self.tile]
        elif decision in (CLAIM, PUNG_DISCARD):
            told = ONE_HOT_F32[self.tile]
            seats = SEATS_F32[me * 5 + 1 + (self.discarder - me) % PLAYERS]
        active = self.active
        return bytearray(b"").join((
            count_plane(hand), melded[me], melded[o1], melded[o2], melded[o3], pool[me],
            pool[o1], pool[o2], pool[o3], count_plane(unseen), told, DECISION_F32[decision],
            LEFT_F32[self.tail - self.head], ONES_F32 if active[me] else ZEROS_F32,
            ONES_F32 if active[o1] else ZEROS_F32, ONES_F32 if active[o2] else ZEROS_F32,
            ONES_F32 if active[o3] else ZEROS_F32, seats))
