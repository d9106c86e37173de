"""One seat's view of a Botzone Mahjong game, its legal actions, and the 235-action codec.

Pure (no numpy). A ``SeatView`` is built only from what a Botzone bot is told:
the requests it receives, in order (``update``), and its own responses
(``respond``; only a concealed kong's tile is learnt from one). It keeps the
hand, every seat's melds (with who offered), discards and flowers, the
prevailing and seat winds, the tiles left in each wall as a bot can count them,
the judge's visible count of each tile (for 和绝张), the tile being decided on
and whether this draw follows one's own kong. The same class runs inside the
training environment and inside a policy bot playing a real match.

The legal actions (``legal_actions``) are exactly what the judge accepts from
this seat at this request when the other seats pass (SPEC-botzone sections
3-6 and 10): HU only when the judge's own fan calculator, with the judge's
flags (self-drawn, fourth tile, about kong, wall last, seat and prevailing
wind), counts at least 8 fans besides the flowers; kongs and claims refused on
an empty wall (classic: the one wall; duplicate: a claim needs the wall of the
seat after the discarder, a kong on one's own draw one's own wall and the
next); CHI only from the seat after the discarder; HU on a kong only to rob an
added kong.

The action codec is the PKU course's layout (tiles in the order W1-9, T1-9,
B1-9, F1-4, J1-3, index t = 0..33):

    0          PASS
    1          HU
    2 + t      PLAY t          (on one's own draw, or the discard after PENG/CHI)
    36 + 21s + 3(m-2) + k      CHI: suit s in W, T, B; middle number m = 2..8;
               k = claimed number - m + 1 (0: the claimed tile is the lowest)
    99 + t     PENG t          (the discard t)
    133 + t    GANG t          (a kong claimed on the discard t)
    167 + t    ANGANG t        (a concealed kong on one's own draw)
    201 + t    BUGANG t        (an added kong on one's own draw)

A PENG or CHI is two decisions: the claim, then the discard from the view
after the claim (``claim`` applies it, ``unclaim`` takes it back when another
seat's claim won); ``response`` composes Botzone's one response
("PENG X" / "CHI M X") from both.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesets.botzone.fans import Pack, calculate

N_ACTIONS = 235
PASS, HU, PLAY, CHI, PENG, GANG, ANGANG, BUGANG = 0, 1, 2, 36, 99, 133, 167, 201
TILE_LIST = tuple(
    [f"W{n}" for n in range(1, 10)] + [f"T{n}" for n in range(1, 10)]
    + [f"B{n}" for n in range(1, 10)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
)
"""The 34 tiles in the course's order: index t of PLAY/PENG/... and of every tile plane."""
TILE_INDEX = {tile: i for i, tile in enumerate(TILE_LIST)}
SUIT_ORDER = "WTB"
N_TILES = 34
MIN_FAN = 8

# Decision kinds: what the current request asks of this seat.
NONE, DRAW, DISCARD, ROB, AFTER_CLAIM = 0, 1, 2, 3, 4
# the decision one-hot and the about-kong flag (index 5: a draw after one's own kong)
_KIND_BYTES = (bytes(5), b"\1\0\0\0\0", b"\0\1\0\0\0", b"\0\0\1\0\0", b"\0\0\0\1\0",
               b"\1\0\0\0\1")

# The rows of ``planes`` (each 34 wide; see encoders.DefaultEncoder).
ROW_HAND, ROW_DISCARDS, ROW_MELDS, ROW_TILE, ROW_SCALARS = 0, 1, 5, 9, 10
N_ROWS = 11
S_SEAT, S_QUAN, S_FLOWERS, S_WALLS, S_CONCEALED, S_KIND, S_ABOUT_KONG = 0, 4, 8, 12, 16, 20, 24

STANDARD_WALLS = {"classic": (144,), "duplicate": (34, 34, 34, 34)}


def chi_action(suit: int, middle: int, claimed: int) -> int:
    """The CHI action of a chow in suit index ``suit`` (W, T, B) around ``middle``."""
    return CHI + 21 * suit + 3 * (middle - 2) + claimed - middle + 1


def claimed_tile(action: int) -> str:
    """The discard a CHI, PENG or GANG (claimed kong) action takes."""
    if CHI <= action < PENG:
        suit, rest = divmod(action - CHI, 21)
        middle, k = divmod(rest, 3)
        return f"{SUIT_ORDER[suit]}{middle + 1 + k}"
    if PENG <= action < ANGANG:
        return TILE_LIST[(action - PENG) % N_TILES]
    raise ValueError(f"{action} is no claim of a discard")


def describe(action: int) -> str:
    """An action as words: ``PLAY W1``, ``CHI T3 (claimed T2)``, ``PENG J1``..."""
    if action == PASS:
        return "PASS"
    if action == HU:
        return "HU"
    if PLAY <= action < CHI:
        return f"PLAY {TILE_LIST[action - PLAY]}"
    if CHI <= action < PENG:
        suit, rest = divmod(action - CHI, 21)
        middle, k = divmod(rest, 3)
        s = SUIT_ORDER[suit]
        return f"CHI {s}{middle + 2} (claimed {s}{middle + 1 + k})"
    for name, base in (("PENG", PENG), ("GANG", GANG), ("ANGANG", ANGANG), ("BUGANG", BUGANG)):
        if base <= action < base + N_TILES:
            return f"{name} {TILE_LIST[action - base]}"
    raise ValueError(f"no action {action} (0..{N_ACTIONS - 1})")


# --- a fast test for a complete hand shape (before asking the fan calculator) -------------


_SHAPES: dict[tuple[bytes, bool], int] = {}


def _shapes(counts: bytes, chows: bool) -> int:
    """Bits: 1 = melds only, 2 = melds and one pair (chows only in a suit); each answer
    kept, so that a new suit's test reuses those of the counts it splits into."""
    key = (counts, chows)
    bits = _SHAPES.get(key)
    if bits is None:
        bits = _SHAPES[key] = _split(counts, chows)
    return bits


def _split(counts: bytes, chows: bool) -> int:
    """``_shapes`` worked out: take out the first tile's pung, chow or pair and recurse."""
    if not any(counts):
        return 1
    bits = 0
    i = next(k for k, c in enumerate(counts) if c)
    rest = bytearray(counts)
    if rest[i] >= 3:
        rest[i] -= 3
        bits |= _shapes(bytes(rest), chows)
        rest[i] += 3
    if chows and i <= 6 and rest[i + 1] and rest[i + 2]:
        rest[i] -= 1
        rest[i + 1] -= 1
        rest[i + 2] -= 1
        bits |= _shapes(bytes(rest), chows)
        rest[i] += 1
        rest[i + 1] += 1
        rest[i + 2] += 1
    if rest[i] >= 2:
        rest[i] -= 2
        if _shapes(bytes(rest), chows) & 1:
            bits |= 2
    return bits


_KNITS = (frozenset((0, 3, 6)), frozenset((1, 4, 7)), frozenset((2, 5, 8)))


_SUITS: dict[bytes, tuple[int, int, int]] = {}
_HONORS: dict[bytes, int] = {}


def _suit(counts: bytes) -> tuple[int, int, int]:
    """A suit's counts -> (shape bits, knitted patterns fully held, patterns covering every
    tile held), computed once per distinct counts."""
    value = _SUITS.get(counts)
    if value is None:
        held = {i for i, c in enumerate(counts) if c}
        full = sum(1 << k for k, p in enumerate(_KNITS) if p <= held)
        cover = sum(1 << k for k, p in enumerate(_KNITS) if held <= p)
        value = _SUITS[counts] = (_shapes(counts, True), full, cover)
    return value


def _honors(counts: bytes) -> int:
    """The honours' counts -> shape bits, computed once per distinct counts."""
    value = _HONORS.get(counts)
    if value is None:
        value = _HONORS[counts] = _shapes(counts, False)
    return value


_PERMS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))
# (w, t, b) pattern bit sets -> some assignment of 147/258/369 to the three suits fits
_KNIT_FITS = [any(w >> p[0] & 1 and t >> p[1] & 1 and b >> p[2] & 1 for p in _PERMS)
              for w in range(8) for t in range(8) for b in range(8)]
_ODD = bytes(c & 1 for c in range(256))


def could_win(counts: bytes | bytearray, melds: int) -> bool:
    """Whether concealed ``counts`` (14 - 3 x melds tiles) can be a complete hand: a
    necessary condition, exact for the usual shape; the calculator decides the rest."""
    hand = bytes(counts)  # one copy; its slices are the tables' keys
    suits = _SUITS  # the tables read in place (a call each only for a new key)
    key = hand[0:9]
    sw, fw, cw = suits.get(key) or _suit(key)
    key = hand[9:18]
    st, ft, ct = suits.get(key) or _suit(key)
    key = hand[18:27]
    sb, fb, cb = suits.get(key) or _suit(key)
    key = hand[27:34]
    sh = _HONORS.get(key)
    if sh is None:
        sh = _honors(key)
    if sw and st and sb and sh and (sw == 2) + (st == 2) + (sb == 2) + (sh == 2) == 1:
        return True
    if melds == 0:
        if 1 not in hand.translate(_ODD):
            return True  # seven pairs
        if not (any(hand[1:8]) or any(hand[10:17]) or any(hand[19:26])) and \
                0 not in (hand[0], hand[8], hand[9], hand[17], hand[18],
                          hand[26]) and 0 not in hand[27:34]:
            return True  # thirteen orphans
        if max(hand) <= 1 and _KNIT_FITS[cw * 64 + ct * 8 + cb]:
            return True  # honors and knitted tiles
    return melds <= 1 and _KNIT_FITS[fw * 64 + ft * 8 + fb]  # a knitted straight


def _chi_shape(planes: bytearray, t: int) -> bool:
    """Whether a hand holds two tiles making a chow with the suited tile ``t``."""
    n = t % 9
    return bool((n >= 2 and planes[t - 2] and planes[t - 1])
                or (1 <= n <= 7 and planes[t - 1] and planes[t + 1])
                or (n <= 6 and planes[t + 1] and planes[t + 2]))


# --- the view -----------------------------------------------------------------------------


class Meld:
    """A meld as a bot sees it. ``tile``: PENG/GANG/ANGANG/BUGANG the tile (None for another
    seat's concealed kong), CHI the middle; ``source`` the seat that fed it (None: concealed);
    ``claimed`` the tile taken (CHI: which of the three)."""

    __slots__ = ("claimed", "kind", "source", "tile")

    def __init__(self, kind: str, tile: str | None, source: int | None,
                 claimed: str | None) -> None:
        self.kind = kind
        self.tile = tile
        self.source = source
        self.claimed = claimed

    def __repr__(self) -> str:
        return f"Meld({self.kind}, {self.tile}, from {self.source})"


class SeatView:
    """What one seat knows, request by request; ``legal_actions`` at the current request."""

    def __init__(self, variant: str, wall_sizes: Sequence[int] | None = None) -> None:
        if variant not in STANDARD_WALLS:
            raise ValueError(f"unknown Botzone variant {variant!r}")
        self.variant = variant
        self.duplicate = variant == "duplicate"
        sizes = tuple(wall_sizes) if wall_sizes is not None else STANDARD_WALLS[variant]
        if len(sizes) != (4 if self.duplicate else 1):
            raise ValueError(f"{variant} has {4 if self.duplicate else 1} wall(s), "
                             f"got sizes {sizes}")
        self.walls = list(sizes)
        self.seat = -1
        self.quan = -1
        self._planes = bytearray(N_ROWS * N_TILES)  # ``planes``: the decision made current
        self.melds: list[list[Meld]] = [[], [], [], []]
        self.packs: list[list[object]] = []  # my melds as the calculator takes them
        self.discards: list[list[str]] = [[], [], [], []]
        self.flowers = [0, 0, 0, 0]
        self.shown = bytearray(N_TILES)  # the judge's visible count (和绝张)
        self.kind = NONE
        self.tile = ""  # the tile of the decision: drawn, discarded or added to a kong
        self.source = -1  # who discarded it / who is adding the kong
        self.about_kong = False  # my draw follows my own kong notice
        self.turn = 0
        self._pending: tuple[int, str] | None = None  # a discard not yet claimed or passed
        self._pending_t = -1  # its tile's index
        self._my_kong_notice = False
        self._last_response = ""
        self._legal: list[int] | None = None
        self._undo: tuple[int, int, bytearray, int, int] | None = None
        self._tile_at = -1  # the index of the tile of the decision, -1: none
        self._tile_shown = -1  # the tile row's one in _planes, -1: none
        self._kind_shown = 0  # the decision code in _planes
        self._walls_shown = False  # since the deal, ``planes`` writes the walls' counts
        self._facts_of = b""  # the concealed hand _shape_possible's facts are about
        self._incomplete = self._unknitted = self._odd = self._most = 0
        self._middle = False

    # --- what the view holds --------------------------------------------------------

    @property
    def hand(self) -> list[str]:
        """My concealed tiles, sorted (the drawn tile included on my draw)."""
        planes = self._planes
        return [TILE_LIST[t] for t in range(N_TILES) for _ in range(planes[t])]

    @property
    def planes(self) -> bytearray:
        """The rows of the default encoding (``encoders.DefaultEncoder``), current. The
        tile row and the decision one-hot change at almost every request of every seat
        but are read only when an observation is made: they are written here, from
        ``kind``, ``about_kong`` and the decision's tile, when asked for."""
        planes = self._planes
        if self._walls_shown:
            base = ROW_SCALARS * N_TILES + S_WALLS
            me = self.seat
            for rel in range(4):
                planes[base + rel] = max(0, min(self.wall_left((me + rel) % 4), 255))
        t = self._tile_at
        shown = self._tile_shown
        if t != shown:
            row = ROW_TILE * N_TILES
            if shown >= 0:
                planes[row + shown] = 0
            if t >= 0:
                planes[row + t] = 1
            self._tile_shown = t
        kind = self.kind
        code = kind if kind != DRAW or not self.about_kong else 5
        if code != self._kind_shown:
            base = ROW_SCALARS * N_TILES + S_KIND
            planes[base:base + 5] = _KIND_BYTES[code]
            self._kind_shown = code
        return planes

    def wall_left(self, seat: int) -> int:
        """Tiles left in the wall ``seat`` draws from (classic: the one wall)."""
        return self.walls[seat] if self.duplicate else self.walls[0]

    # --- requests and responses -------------------------------------------------------

    def update(self, request: str) -> None:
        """Take the next request this seat receives."""
        self.update_words(request.split(" "))

    def update_words(self, words: list[str]) -> None:
        """``update`` with the request already split at its spaces (the training table
        splits each distinct request of a turn once for the four seats); ``words`` is
        left unchanged."""
        planes = self._planes
        me = self.seat
        if self._undo is not None and not (
            len(words) > 2 and words[0] == "3" and words[1] == str(me)
            and words[2] in ("PENG", "CHI")
        ):
            self.unclaim()
        self._legal = None
        self.turn += 1
        code = words[0]
        kong_notice, self._my_kong_notice = self._my_kong_notice, False
        self.kind = NONE
        if code == "2":
            tile = words[1]
            t = TILE_INDEX[tile]
            self._settle()
            planes[t] += 1
            self._draw(me)
            self.kind = DRAW
            self.tile = tile
            self.source = me
            self.about_kong = kong_notice
            self._tile_at = t
        elif code == "3":
            self._notice(int(words[1]), words[2], words[3:])
        elif code == "0":
            self.seat = me = int(words[1])
            self.quan = int(words[2])
            base = ROW_SCALARS * N_TILES
            planes[base + S_SEAT + me] = 1
            planes[base + S_QUAN + self.quan] = 1
        elif code == "1":
            counts = [int(words[k]) for k in range(1, 5)]
            for tile in words[5:18]:
                planes[TILE_INDEX[tile]] += 1
            for seat in range(4):
                self.flowers[seat] = counts[seat]
            if self.duplicate:
                for seat in range(4):
                    self.walls[seat] -= 13 + counts[seat]
            else:
                self.walls[0] -= 52 + sum(counts)
            self._scalars()
            return
        else:
            raise ValueError(f"not a Botzone Mahjong request: {' '.join(words)!r}")
        if self.kind == NONE:
            self._tile_at = -1

    # The training table's fast paths: the two commonest requests, told as the tile's code
    # and index instead of text (the same as ``update`` of the text, without parsing it).

    def drew(self, tile: str, t: int) -> None:
        """``update("2 " + tile)``: I drew ``tile`` (index ``t``)."""
        if self._undo is not None:
            self.unclaim()
        self._legal = None
        self.turn += 1
        self.about_kong = self._my_kong_notice
        self._my_kong_notice = False
        self._settle()
        self._planes[t] += 1
        self._draw(self.seat)
        self.kind = DRAW
        self.tile = tile
        self.source = self.seat
        self._tile_at = t

    def _next_turn(self) -> None:
        """Another seat's draw or discard: a claim not taken is undone, a new turn."""
        if self._undo is not None:
            self.unclaim()
        self._legal = None
        self.turn += 1
        self._my_kong_notice = False
        self.kind = NONE

    def saw_draw(self, player: int) -> None:
        """``update(f"3 {player} DRAW")``: another seat drew."""
        self._next_turn()
        self._settle()
        self._draw(player)
        self._tile_at = -1

    def saw_play(self, player: int, tile: str, t: int) -> None:
        """``update(f"3 {player} PLAY {tile}")``: ``player`` discarded ``tile`` (index ``t``)."""
        self._next_turn()
        self._discard_at(player, tile, t)
        if self.kind == NONE:
            self._tile_at = -1

    def unseated_flowers(self, count: int) -> None:
        """``count`` flowers were dealt, to seats not told (the course's Botzone bot lists
        the deal's flowers without their seats): the wall lost them all the same."""
        if count and not self.duplicate:
            self.walls[0] -= count
            self._scalars()

    def respond(self, response: str) -> None:
        """Take this seat's own response to the current request."""
        self._last_response = response

    def _notice(self, player: int, op: str, rest: list[str]) -> None:
        planes = self._planes
        me = self.seat
        rel = (player - me) % 4
        if op == "DRAW":
            self._settle()
            self._draw(player)
            return
        if op == "BUHUA":
            self._settle()
            self._draw(player)
            self.flowers[player] += 1
            rel = (player - me) % 4
            planes[ROW_SCALARS * N_TILES + S_FLOWERS + rel] = min(self.flowers[player], 255)
            return
        if op == "PLAY":
            self._discard(player, rest[0])
            return
        if op in ("PENG", "CHI"):
            pending = self._pending
            if pending is None:
                raise ValueError(f"{op} with no discard on the table")
            source, claimed = pending
            self._pending = None
            pre_claimed = self._undo is not None and player == me
            self._undo = None
            if op == "PENG":
                if not pre_claimed:
                    self._add_meld(player, "PENG", claimed, source, claimed)
                self.shown[TILE_INDEX[claimed]] += 3
                discard = rest[0]
            else:
                middle = rest[0]
                if not pre_claimed:
                    self._add_meld(player, "CHI", middle, source, claimed)
                m = TILE_INDEX[middle]
                for t in (m - 1, m, m + 1):
                    self.shown[t] += 1
                discard = rest[1]
            self._discard(player, discard)
            return
        if op == "GANG":
            pending = self._pending
            self._pending = None
            if pending is not None:  # a kong claimed on the discard
                source, tile = pending
                self._add_meld(player, "GANG", tile, source, tile)
                self.shown[TILE_INDEX[tile]] = 4
            elif player == me:
                words = self._last_response.split(" ")
                if len(words) != 2 or words[0] != "GANG" or words[1] not in TILE_INDEX:
                    raise ValueError("a concealed kong of mine, but my response was "
                                     f"{self._last_response!r}")
                self._add_meld(player, "ANGANG", words[1], None, None)
            else:
                self._add_meld(player, "ANGANG", None, None, None)
                planes[ROW_SCALARS * N_TILES + S_CONCEALED + rel] += 1
            if player == me:
                self._my_kong_notice = True
            return
        if op == "BUGANG":
            tile = rest[0]
            t = TILE_INDEX[tile]
            for meld in self.melds[player]:
                if meld.kind == "PENG" and meld.tile == tile:
                    meld.kind = "BUGANG"
                    break
            else:
                raise ValueError(f"BUGANG {tile} by seat {player} without its PENG")
            if player == me:
                planes[t] -= 1
                for pack in self.packs:
                    if pack[0] == "PENG" and pack[1] == tile:
                        pack[0] = "GANG"
                self._my_kong_notice = True
            else:
                self.kind = ROB
                self.tile = tile
                self.source = player
                self._tile_at = t
            planes[(ROW_MELDS + rel) * N_TILES + t] += 1
            self.shown[t] = 4
            return
        raise ValueError(f"not a Botzone Mahjong notice: {op!r}")

    def _settle(self) -> None:
        """The discard on the table was not claimed: the judge now counts it as visible."""
        if self._pending is not None:
            self.shown[self._pending_t] += 1
            self._pending = None

    def _draw(self, player: int) -> None:
        walls = self.walls
        if self.duplicate:
            walls[player] -= 1
        else:
            walls[0] -= 1
        if not self._walls_shown:  # before the deal (``planes`` writes them after it)
            base = ROW_SCALARS * N_TILES + S_WALLS
            planes = self._planes
            if self.duplicate:
                planes[base + (player - self.seat) % 4] = max(0, min(walls[player], 255))
            else:
                planes[base:base + 4] = bytes((max(0, min(walls[0], 255)),)) * 4

    def _discard(self, player: int, tile: str) -> None:
        self._discard_at(player, tile, TILE_INDEX[tile])

    def _discard_at(self, player: int, tile: str, t: int) -> None:
        rel = (player - self.seat) % 4
        self.discards[player].append(tile)
        self._planes[(ROW_DISCARDS + rel) * N_TILES + t] += 1
        self._pending = (player, tile)
        self._pending_t = t
        if player == self.seat:
            self._planes[t] -= 1
        else:
            self.kind = DISCARD
            self.tile = tile
            self.source = player
            self._tile_at = t

    def _add_meld(self, player: int, kind: str, tile: str | None, source: int | None,
                  claimed: str | None) -> None:
        me = self.seat
        planes = self._planes
        self.melds[player].append(Meld(kind, tile, source, claimed))
        if tile is None:
            return
        row = (ROW_MELDS + (player - me) % 4) * N_TILES
        t = TILE_INDEX[tile]
        if kind == "CHI":
            for k in (t - 1, t, t + 1):
                planes[row + k] += 1
        else:
            planes[row + t] += 4 if kind in ("GANG", "ANGANG") else 3
        if player != me:
            return
        # my hand loses the meld's tiles, except the claimed one it never held
        if kind == "CHI":
            assert claimed is not None
            planes[TILE_INDEX[claimed]] += 1
            for k in (t - 1, t, t + 1):
                planes[k] -= 1
            self.packs.append(["CHI", tile, TILE_INDEX[claimed] - t + 2])
        elif kind == "PENG":
            planes[t] -= 2
            self.packs.append(["PENG", tile, (me - source) % 4 if source is not None else 0])
        elif kind == "GANG":
            planes[t] -= 3
            self.packs.append(["GANG", tile, (me - source) % 4 if source is not None else 0])
        else:
            planes[t] -= 4
            self.packs.append(["GANG", tile, 0])

    def _scalars(self) -> None:
        """Every scalar of the planes (after the deal; the flowers change in place later,
        the walls' counts are written by ``planes`` from then on)."""
        base = ROW_SCALARS * N_TILES
        planes = self._planes
        me = self.seat
        for rel in range(4):
            seat = (me + rel) % 4
            planes[base + S_FLOWERS + rel] = min(self.flowers[seat], 255)
            planes[base + S_WALLS + rel] = max(0, min(self.wall_left(seat), 255))
        self._walls_shown = True

    # --- claims: the first of a claim's two decisions ---------------------------------

    def claim(self, action: int) -> None:
        """Apply my PENG or CHI of the discard on the table (before choosing my discard)."""
        if self.kind != DISCARD or self._pending is None:
            raise ValueError("no discard to claim")
        source, claimed = self._pending
        saved = (len(self.melds[self.seat]), len(self.packs), bytearray(self._planes),
                 self._tile_shown, self._kind_shown)
        if PENG <= action < GANG and TILE_LIST[action - PENG] == claimed:
            self._add_meld(self.seat, "PENG", claimed, source, claimed)
        elif CHI <= action < PENG:
            suit, rest = divmod(action - CHI, 21)
            middle = f"{SUIT_ORDER[suit]}{rest // 3 + 2}"
            self._add_meld(self.seat, "CHI", middle, source, claimed)
        else:
            raise ValueError(f"{describe(action)} is no PENG or CHI of {claimed}")
        self._undo = saved
        self.kind = AFTER_CLAIM
        self._legal = None

    def unclaim(self) -> None:
        """Take back a claim that another seat's claim beat."""
        if self._undo is None:
            return
        melds, packs, planes, self._tile_shown, self._kind_shown = self._undo
        del self.melds[self.seat][melds:]
        del self.packs[packs:]
        self._planes[:] = planes  # with the tile row and the decision as they were written
        self.kind = DISCARD
        self._undo = None
        self._legal = None

    # --- legal actions ----------------------------------------------------------------

    def legal_actions(self) -> list[int]:
        """The actions the judge accepts from this seat now, ascending ([PASS] when it can
        only pass)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def mask(self) -> bytearray:
        """The legal actions as N_ACTIONS bytes, one where an action is legal."""
        mask = bytearray(N_ACTIONS)
        for action in self.legal_actions():
            mask[action] = 1
        return mask

    def has_choice(self) -> bool:
        """Whether this seat has a real choice now (``legal_actions() != [PASS]``), found
        cheaply for the common case: a discard this seat cannot claim at all."""
        if self._legal is None and self.kind == DISCARD:
            t = self._tile_at  # the discard's index (the tile row's one)
            planes = self._planes
            if planes[t] < 2 and not (
                t < 27 and (self.source + 1) % 4 == self.seat and _chi_shape(planes, t)
            ):
                # no PENG, GANG or CHI: a HU at most, which needs a complete shape
                counts = planes[0:N_TILES]
                melds = len(self.packs)
                if not self._shape_possible(counts, t, melds):
                    self._legal = [PASS]
                    return False
                counts[t] += 1
                if not could_win(counts, melds):
                    self._legal = [PASS]
                    return False
        legal = self.legal_actions()
        return len(legal) > 1 or legal[0] != PASS

    def _shape_possible(self, hand: bytearray, t: int, melds: int) -> bool:
        """False when ``could_win(hand + t, melds)`` is surely False, from what is kept of
        the concealed ``hand`` while it stays the same (between my own turns a seat sees
        three discards): a group (W, T, B, honours) other than ``t``'s that is no complete
        shape as it is rules out the usual shape, and so on for each shape ``could_win``
        knows (``_hand_facts``); True: ask ``could_win``."""
        if hand != self._facts_of:
            self._hand_facts(hand)
        others = ~(1 << (t // 9))  # t // 9: W 0, T 1, B 2, honours 3
        if not self._incomplete & others:
            return True  # the usual shape
        if melds <= 1 and not self._unknitted & others:
            return True  # a knitted straight
        return melds == 0 and (
            (self._odd == 1 and (hand[t] & 1) == 1)  # seven pairs: t is the one odd count
            or not self._middle  # thirteen orphans
            or (self._most <= 1 and hand[t] == 0)  # honours and knitted tiles
        )

    def _hand_facts(self, hand: bytearray) -> None:
        """What ``_shape_possible`` keeps of a concealed hand: the groups that are no
        complete shape (bits W 1, T 2, B 4, honours 8), the suits holding no full
        147/258/369 pattern, the number of odd counts, whether any suited 2-8 is held,
        and the largest count."""
        key = bytes(hand)
        self._facts_of = key
        incomplete = unknitted = 0
        for suit in range(3):
            shape, full, _ = _suit(key[9 * suit:9 * suit + 9])
            if not shape:
                incomplete |= 1 << suit
            if not full:
                unknitted |= 1 << suit
        if not _honors(key[27:34]):
            incomplete |= 8
        self._incomplete = incomplete
        self._unknitted = unknitted
        self._odd = key.translate(_ODD).count(1)
        self._middle = any(key[1:8]) or any(key[10:17]) or any(key[19:26])
        self._most = max(key)

    def _compute_legal(self) -> list[int]:
        kind = self.kind
        planes = self._planes
        if kind == DRAW:
            me = self.seat
            legal = []
            if self._can_hu(self.tile, True, self.about_kong,
                            self.wall_left((me + 1) % 4) == 0):
                legal.append(HU)
            held = [t for t in range(N_TILES) if planes[t]]
            legal += [PLAY + t for t in held]
            kong_ok = self.wall_left(me) > 0 and (
                not self.duplicate or self.walls[(me + 1) % 4] > 0)
            if kong_ok:
                legal += [ANGANG + t for t in held if planes[t] == 4]
                legal += [BUGANG + TILE_INDEX[str(p[1])] for p in self.packs
                          if p[0] == "PENG" and planes[TILE_INDEX[str(p[1])]]]
            return sorted(legal)
        if kind == AFTER_CLAIM:
            return [PLAY + t for t in range(N_TILES) if planes[t]]
        if kind == ROB:
            after = (self.source + 1) % 4
            if self._can_hu(self.tile, False, True, self.wall_left(after) == 0):
                return [PASS, HU]
            return [PASS]
        if kind != DISCARD:
            return [PASS]
        legal = [PASS]
        tile = self.tile
        t = TILE_INDEX[tile]
        after = (self.source + 1) % 4
        if self._can_hu(tile, False, False, self.wall_left(after) == 0):
            legal.append(HU)
        if self.wall_left(after) > 0:
            count = planes[t]
            if t < 27 and after == self.seat:
                suit, n = divmod(t, 9)
                base = 9 * suit
                for m in (n - 1, n, n + 1):  # the middle's index in its suit
                    if 1 <= m <= 7 and all(k == t or planes[k]
                                           for k in (base + m - 1, base + m, base + m + 1)):
                        legal.append(chi_action(suit, m + 1, n + 1))
            if count >= 2:
                legal.append(PENG + t)
            if count >= 3:
                legal.append(GANG + t)
        return sorted(legal)

    def _can_hu(self, tile: str, self_drawn: bool, about_kong: bool, wall_last: bool) -> bool:
        t = TILE_INDEX[tile]
        counts = self._planes[0:N_TILES]
        melds = len(self.packs)
        if not self_drawn:
            if not self._shape_possible(counts, t, melds):
                return False
            counts[t] += 1
        elif counts[t]:  # the hand before the draw: the one the facts were kept of
            counts[t] -= 1
            if not self._shape_possible(counts, t, melds):
                return False
            counts[t] += 1
        if not could_win(counts, melds):
            return False
        counts[t] -= 1
        hand = [TILE_LIST[k] for k in range(N_TILES) for _ in range(counts[k])]
        packs: list[Pack] = [(str(p[0]), str(p[1]), int(str(p[2]))) for p in self.packs]
        fan, _ = calculate(
            packs, hand, tile, flowers=self.flowers[self.seat], self_drawn=self_drawn,
            fourth_tile=self.shown[t] == 3, about_kong=about_kong, wall_last=wall_last,
            seat=self.seat, quan=self.quan,
        )
        return fan - self.flowers[self.seat] >= MIN_FAN

    # --- the codec --------------------------------------------------------------------

    def response(self, action: int, discard: int | None = None) -> str:
        """Botzone's response for ``action`` (a PENG or CHI with its ``discard`` PLAY action)."""
        if action == PASS:
            return "PASS"
        if action == HU:
            return "HU"
        if PLAY <= action < CHI:
            return f"PLAY {TILE_LIST[action - PLAY]}"
        if CHI <= action < ANGANG and claimed_tile(action) != self.tile:
            raise ValueError(f"{describe(action)} claims another tile than the discard "
                             f"{self.tile or '(none)'}: no response says it")
        if CHI <= action < GANG:
            if discard is None or not PLAY <= discard < CHI:
                raise ValueError(f"{describe(action)} needs its discard (a PLAY action)")
            tile = TILE_LIST[discard - PLAY]
            if action >= PENG:
                return f"PENG {tile}"
            suit, rest = divmod(action - CHI, 21)
            return f"CHI {SUIT_ORDER[suit]}{rest // 3 + 2} {tile}"
        if GANG <= action < ANGANG:
            return "GANG"
        if ANGANG <= action < BUGANG:
            return f"GANG {TILE_LIST[action - ANGANG]}"
        if BUGANG <= action < N_ACTIONS:
            return f"BUGANG {TILE_LIST[action - BUGANG]}"
        raise ValueError(f"no action {action} (0..{N_ACTIONS - 1})")


def action_of(response: str, view: SeatView) -> tuple[int, int | None]:
    """The action (and a PENG's or CHI's discard action) of a Botzone response, as seen by
    ``view`` at the request it answers; ValueError if it is no action of the codec."""
    words = response.split(" ")
    head = words[0]
    if response == "PASS":
        return PASS, None
    if response == "HU":
        return HU, None
    if head == "PLAY" and len(words) == 2 and words[1] in TILE_INDEX:
        return PLAY + TILE_INDEX[words[1]], None
    if head == "GANG" and len(words) == 1 and view.kind == DISCARD:
        return GANG + TILE_INDEX[view.tile], None
    if head == "GANG" and len(words) == 2 and words[1] in TILE_INDEX:
        return ANGANG + TILE_INDEX[words[1]], None
    if head == "BUGANG" and len(words) == 2 and words[1] in TILE_INDEX:
        return BUGANG + TILE_INDEX[words[1]], None
    if head == "PENG" and len(words) == 2 and words[1] in TILE_INDEX and view.kind == DISCARD:
        return PENG + TILE_INDEX[view.tile], PLAY + TILE_INDEX[words[1]]
    if head == "CHI" and len(words) == 3 and words[1] in TILE_INDEX and \
            words[2] in TILE_INDEX and view.kind == DISCARD and view.tile[0] in SUIT_ORDER \
            and words[1][0] == view.tile[0] and words[1][1] in "2345678":
        suit = SUIT_ORDER.index(words[1][0])
        middle, claimed = int(words[1][1]), int(view.tile[1])
        if abs(middle - claimed) <= 1:
            return chi_action(suit, middle, claimed), PLAY + TILE_INDEX[words[2]]
    raise ValueError(f"{response!r} is no action of the 235-action codec here")
