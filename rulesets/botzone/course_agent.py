"""``CourseAgent``: the PKU course's ``FeatureAgent`` interface on the seat view.

Its masks are exactly the judge's legal actions (``SeatView.legal_actions``), its
observation the course's (``encoders.CourseFeatures``: 6 x 4 x 9). It offers the
whole interface of the course's agent, so the course's environment, its supervised
pipeline (``preprocess.py``) and its Botzone bot (``__main__.py``) run with it:

* ``CourseAgent(seatWind)``; class attributes ``OBS_SIZE``, ``ACT_SIZE``,
  ``OFFSET_OBS``, ``OFFSET_ACT``, ``TILE_LIST``, ``OFFSET_TILE``,
  ``observation_space``, ``action_space``;
* ``request2obs(request)``: ``{'observation', 'action_mask'}`` when the request asks
  this seat to decide (and when the game ends), None otherwise;
* ``action2response(action)`` and its inverse ``response2action(response)``, which
  also takes the forms the course's ``preprocess.py`` writes (``Chi CLAIMED MIDDLE``,
  ``Peng X``, ``Gang X``, ``AnGang X``);
* what the course's agent keeps as attributes, read from the view: ``seatWind``,
  ``prevalentWind``, ``hand``, ``packs``, ``history``, ``tileWall``, ``shownTiles``,
  ``wallLast``, ``isAboutKong``, ``curTile``, ``tileFrom``, ``valid``, ``obs``.

Requests (the course's words; N a seat, X a tile, M a chow's middle tile):

    Wind W, Deal X1 .. X13 [flowers]       the prevailing wind; my hand
    Draw X, Player N Draw                  a draw (mine, another seat's)
    Player N Play X                        a discard (a flower X: a flower shown)
    Player N Peng, Player N Chi M          a claim; its discard comes as Play
    Player N UnPeng, Player N UnChi M      that claim taken back
    Player N Gang, Player N AnGang [X]     a claimed kong; a concealed kong
    Player N BuGang X                      an added kong (the others may rob it)
    Player N BuHua X                       a flower shown (classic)
    Player N Hu, Player N Invalid, Huang   the end

The course's Botzone bot tells its agent its own claim (``Player me Peng``), asks for
the discard, then always takes the claim back (``Player me UnPeng``) before the judge
answers; if the judge grants it, the bot tells it again with its discard. Taking a
claim back restores the view as it was before (the discard still to be claimed).

Flowers (classic only; the course has none): the drop-in environment tells an agent
with ``set_variant`` each flower as ``Player N BuHua X`` (the deal's too, right after
``Deal``), so its walls count them and its masks stay the judge's. The course's
Botzone bot instead appends the deal's flowers to ``Deal`` and turns a flower shown
into ``Player N Play X``; both are understood (the deal's flowers then belong to no
seat, which changes no mask).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces

from rulesets.botzone.encoders import CourseFeatures
from rulesets.botzone.seat_view import (
    AFTER_CLAIM,
    ANGANG,
    BUGANG,
    CHI,
    DISCARD,
    DRAW,
    GANG,
    HU,
    N_ACTIONS,
    N_TILES,
    PASS,
    PENG,
    PLAY,
    STANDARD_WALLS,
    SUIT_ORDER,
    TILE_INDEX,
    TILE_LIST,
    Meld,
    SeatView,
    chi_action,
)

_NO_ACTION = np.zeros(N_ACTIONS, dtype=np.float32)
_PASS_ONLY = np.zeros(N_ACTIONS, dtype=np.float32)
_PASS_ONLY[PASS] = 1
_OFFSET_ACT = {"Pass": PASS, "Hu": HU, "Play": PLAY, "Chi": CHI, "Peng": PENG, "Gang": GANG,
               "AnGang": ANGANG, "BuGang": BUGANG}


class CourseAgent:
    """The course's ``FeatureAgent`` on the seat view (module docstring). ``variant``
    and ``wall_sizes`` (class attributes: duplicate, standard walls) are the game an
    agent counts walls for until ``set_variant`` says otherwise; the drop-in
    environment calls it."""

    OBS_SIZE = 6
    ACT_SIZE = N_ACTIONS
    OFFSET_OBS: ClassVar[dict[str, int]] = {"SEAT_WIND": 0, "PREVALENT_WIND": 1, "HAND": 2}
    OFFSET_ACT: ClassVar[dict[str, int]] = dict(_OFFSET_ACT)
    TILE_LIST: ClassVar[list[str]] = list(TILE_LIST)
    OFFSET_TILE: ClassVar[dict[str, int]] = dict(TILE_INDEX)
    variant = "duplicate"
    wall_sizes: ClassVar[tuple[int, ...] | None] = None
    """The walls' sizes when not the variant's standard ones: ``(136,)`` for classic
    records without flowers (the course's human data), which ``preprocess.py`` feeds
    to agents it makes itself (set ``variant`` and this on the class, or a subclass)."""
    observation_space = spaces.Dict({
        "observation": spaces.Box(0, 1, (6, 4, 9), np.float32),
        "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.float32),
    })
    action_space = spaces.Discrete(N_ACTIONS)
    encoder = CourseFeatures()

    def __init__(self, seatWind: int) -> None:
        self.seatWind = seatWind
        self._view = SeatView(self.variant, self.wall_sizes)
        self._log: list[tuple[int, str, str | None]] | None = None  # a table's events
        self._cursor = 0  # the first event of the log not yet in the view
        self._quiet = False  # replaying the log: no observation to make
        self._claimed: str | None = None  # another seat's "PENG" or "CHI M", its Play to come
        self._done = False
        self._seen: np.ndarray | None = None  # the last observation, and the hand it shows
        self._hand_seen = b""

    def set_variant(self, variant: str, wall_sizes: tuple[int, ...] | None = None) -> None:
        """Count walls as ``variant`` does (``duplicate`` or ``classic``; ``wall_sizes``
        for a given wall); before the first request. An agent with this method is also
        told the flowers (``Player N BuHua X``)."""
        view = self._view
        if view.turn or view.seat >= 0:
            raise ValueError("set_variant comes before the first request")
        self.variant = variant
        sizes = STANDARD_WALLS.get(variant) if wall_sizes is None else wall_sizes
        if variant != view.variant or sizes is None or list(sizes) != view.walls:
            self._view = SeatView(variant, wall_sizes)  # else the view is that game's already
        self._seen = None

    @property
    def view(self) -> SeatView:
        """What this seat knows (``SeatView``), every request so far taken."""
        if self._log is not None and self._cursor < len(self._log):
            self._sync()
        return self._view

    @view.setter
    def view(self, view: SeatView) -> None:
        self._view = view

    # --- requests -----------------------------------------------------------------------

    def request2obs(self, request: str) -> dict[str, Any] | None:
        """Take the next request (module docstring); the observation and mask when this
        seat is to decide or the game has ended, else None."""
        if self._log is not None and self._cursor < len(self._log):
            self._sync()
        t = request.split()
        try:
            return self._request(t)
        except (IndexError, KeyError, ValueError) as error:
            raise ValueError(f"seat {self.seatWind} cannot take the request {request!r}: "
                             f"{error}") from None

    def _request(self, t: list[str]) -> dict[str, Any] | None:
        view = self._view
        me = self.seatWind
        head = t[0]
        if head == "Draw":
            view.update_words(["2", t[1]])
            return self._obs()
        if head == "Player":
            player, op = int(t[1]), t[2]
            if not 0 <= player < 4:
                raise ValueError(f"no seat {player}")
            if op == "Draw":
                view.update_words(["3", t[1], "DRAW"])
                return None
            if op == "Play":
                if t[3][0] == "H":  # the course's bot says a flower shown so
                    view.update_words(["3", t[1], "BUHUA", t[3]])
                    return None
                if self._claimed is not None:
                    view.update_words(["3", t[1], *self._claimed.split(" "), t[3]])
                    self._claimed = None
                else:
                    view.update_words(["3", t[1], "PLAY", t[3]])
                return None if player == me else self._obs()
            if op == "Peng" or op == "Chi":
                return self._claim(player, op, t[3] if op == "Chi" else "")
            if op == "UnPeng" or op == "UnChi":
                if player == me:
                    view.unclaim()
                self._claimed = None
                return None
            if op == "Gang":
                view.update_words(["3", t[1], "GANG"])
                return None
            if op == "AnGang":
                if player == me:
                    view.respond(f"GANG {t[3]}")
                view.update_words(["3", t[1], "GANG"])
                return None
            if op == "BuGang":
                view.update_words(["3", t[1], "BUGANG", t[3]])
                return None if player == me else self._obs()
            if op == "BuHua":
                view.update_words(["3", t[1], "BUHUA", t[3]])
                return None
            if op == "Hu" or op == "Invalid":
                return self._end()
        elif head == "Wind":
            view.update_words(["0", str(me), t[1]])
            return None
        elif head == "Deal":
            tiles = [tile for tile in t[1:] if tile[0] != "H"]
            flowers = len(t) - 1 - len(tiles)
            if len(tiles) != 13:
                raise ValueError(f"a deal of {len(tiles)} tiles")
            view.update_words(["1", "0", "0", "0", "0", *tiles])
            if flowers:
                view.unseated_flowers(flowers)
            return None
        elif head == "Huang":
            return self._end()
        raise ValueError("unknown request")

    def _follow(self, log: list[tuple[int, str, str | None]]) -> None:
        """Be told the game by ``log`` instead of ``request2obs``: the drop-in environment's
        events as ``(player, text to player, text to the others or None)``, appended as
        they happen (``course_table``), taken into the view when anything reads it."""
        self._log = log
        self._cursor = 0

    def _sync(self) -> None:
        """Take the log's new events into the view, as the requests they are."""
        log = self._log
        assert log is not None
        me = self.seatWind
        self._quiet = True
        try:
            while self._cursor < len(log):
                player, own, others = log[self._cursor]
                self._cursor += 1
                text = own if player == me else others
                if text is not None:
                    self._request(text.split())
        finally:
            self._quiet = False

    def _claim(self, player: int, op: str, middle: str) -> dict[str, Any] | None:
        """A PENG or CHI announced: mine is applied now (its discard to choose), another
        seat's when its discard comes."""
        self._claimed = "PENG" if op == "Peng" else f"CHI {middle}"
        if player != self.seatWind:
            return None
        view = self._view
        if view.kind == AFTER_CLAIM:  # told twice without UnPeng: keep the first
            return self._obs()
        if op == "Peng":
            view.claim(PENG + TILE_INDEX[view.tile])
        else:
            if middle not in TILE_INDEX or middle[0] not in SUIT_ORDER:
                raise ValueError(f"no chow around {middle!r}")
            view.claim(chi_action(SUIT_ORDER.index(middle[0]), int(middle[1]),
                                  int(view.tile[1])))
        return self._obs()

    def _end(self) -> dict[str, Any] | None:
        self._done = True
        return self._obs()

    def _obs(self) -> dict[str, Any] | None:
        if self._quiet:
            return None
        view = self._view
        # the course's observation changes with my hand only: most decisions (others'
        # discards) reuse the last one (another encoder is asked each time); the caller
        # gets its own copy, as from the course's agent
        hand = bytes(view.planes[:N_TILES]) if type(self.encoder) is CourseFeatures else b""
        if hand != self._hand_seen or not hand or self._seen is None:
            self._seen = self.encoder.encode(view)
            self._hand_seen = hand
        if self._done or not view.has_choice():
            mask = _NO_ACTION if self._done else _PASS_ONLY
            return {"observation": self._seen.copy(), "action_mask": mask.copy()}
        mask = np.zeros(N_ACTIONS, dtype=np.float32)
        mask[view.legal_actions()] = 1
        return {"observation": self._seen.copy(), "action_mask": mask}

    # --- actions and responses ----------------------------------------------------------

    def action2response(self, action: int) -> str:
        """The course's response of ``action``: ``Pass``, ``Hu``, ``Play X``, ``Chi M``,
        ``Peng``, ``Gang`` (a claimed kong), ``Gang X`` (a concealed one), ``BuGang X``."""
        return course_response(action)

    def response2action(self, response: str) -> int:
        """The action of a course response: what ``action2response`` gives (a claim's
        tile is the discard on the table; ``Gang X`` on my draw is a concealed kong)
        and the forms of the course's ``preprocess.py``: ``Chi CLAIMED MIDDLE``,
        ``Peng X``, ``Gang X`` (claimed), ``AnGang X``."""
        t = response.split()
        head = t[0] if t else ""
        try:
            return self._action(head, t)
        except (IndexError, KeyError, ValueError):
            pass
        raise ValueError(f"{response!r} is no course response (Pass, Hu, Play X, Chi M, "
                         f"Chi X M, Peng [X], Gang [X], AnGang X, BuGang X)")

    def _action(self, head: str, t: list[str]) -> int:
        view = self.view
        if head == "Pass" and len(t) == 1:
            return PASS
        if head == "Hu" and len(t) == 1:
            return HU
        if head == "Play" and len(t) == 2:
            return PLAY + TILE_INDEX[t[1]]
        if head == "Chi" and len(t) in (2, 3):
            claimed, middle = (view.tile, t[1]) if len(t) == 2 else (t[1], t[2])
            if claimed not in TILE_INDEX or middle not in TILE_INDEX or \
                    claimed[0] != middle[0] or middle[0] not in SUIT_ORDER or \
                    not 2 <= int(middle[1]) <= 8 or abs(int(claimed[1]) - int(middle[1])) > 1:
                raise ValueError("no chow")
            return chi_action(SUIT_ORDER.index(middle[0]), int(middle[1]), int(claimed[1]))
        if head == "Peng" and len(t) <= 2:
            return PENG + TILE_INDEX[t[1] if len(t) == 2 else view.tile]
        if head == "Gang" and len(t) == 1:
            return GANG + TILE_INDEX[view.tile]
        if head == "Gang" and len(t) == 2:
            return (ANGANG if view.kind == DRAW else GANG) + TILE_INDEX[t[1]]
        if head == "AnGang" and len(t) == 2:
            return ANGANG + TILE_INDEX[t[1]]
        if head == "BuGang" and len(t) == 2:
            return BUGANG + TILE_INDEX[t[1]]
        raise ValueError("no response")

    # --- the course agent's attributes, read from the view --------------------------------

    @property
    def prevalentWind(self) -> int:
        return self.view.quan

    @property
    def hand(self) -> list[str]:
        """My concealed tiles, sorted (the drawn tile included)."""
        return self.view.hand

    @property
    def valid(self) -> list[int]:
        """The legal actions now ([] once the game has ended)."""
        view = self.view
        return [] if self._done else list(view.legal_actions())

    @property
    def packs(self) -> list[list[tuple[str, str, int]]]:
        """Each seat's melds, seats counted from me (0 = me), as the course keeps them:
        ``(PENG|GANG|CHI, tile, offer)``; another seat's concealed kong is
        ``('GANG', 'CONCEALED', 0)``."""
        me = self.seatWind
        return [[_pack(meld, (me + rel) % 4) for meld in self.view.melds[(me + rel) % 4]]
                for rel in range(4)]

    @property
    def history(self) -> list[list[str]]:
        """Each seat's discards in order, seats counted from me (claimed ones included)."""
        me = self.seatWind
        return [list(self.view.discards[(me + rel) % 4]) for rel in range(4)]

    @property
    def tileWall(self) -> list[int]:
        """Tiles left in the wall each seat draws from, seats counted from me (classic: the
        one wall four times)."""
        me = self.seatWind
        return [self.view.wall_left((me + rel) % 4) for rel in range(4)]

    @property
    def shownTiles(self) -> dict[str, int]:
        """How many of each tile the judge counts as shown (for 和绝张)."""
        return {tile: n for tile, n in zip(TILE_LIST, self.view.shown, strict=True) if n}

    @property
    def wallLast(self) -> bool:
        """Whether the wall the next draw would come from is empty (the last-tile fans)."""
        view = self.view
        source = view.source if view.source >= 0 else self.seatWind
        return view.wall_left((source + 1) % 4) == 0

    @property
    def isAboutKong(self) -> bool:
        """Whether my draw is the replacement after my own kong."""
        return self.view.about_kong

    @property
    def curTile(self) -> str:
        """The tile of the current decision: drawn, discarded or added to a kong."""
        return self.view.tile

    @property
    def tileFrom(self) -> int:
        """Who gave the current tile, counted from me (0: my own draw)."""
        return (self.view.source - self.seatWind) % 4 if self.view.source >= 0 else 0

    @property
    def obs(self) -> np.ndarray:
        """The observation as the course keeps it, (OBS_SIZE, 36)."""
        return self.encoder.encode(self.view).reshape(self.OBS_SIZE, 36)

    @property
    def in_claim(self) -> bool:
        """Whether my claim is applied and its discard still to choose."""
        return self.view.kind == AFTER_CLAIM

    @property
    def to_claim(self) -> bool:
        """Whether another seat's discard is before me to claim or pass."""
        return self.view.kind == DISCARD


def course_response(action: int) -> str:
    """``CourseAgent.action2response``: the course's response of ``action``."""
    action = int(action)
    if not 0 <= action < N_ACTIONS:
        raise ValueError(f"no action {action} (0..{N_ACTIONS - 1})")
    if action == PASS:
        return "Pass"
    if action == HU:
        return "Hu"
    if PLAY <= action < CHI:
        return f"Play {TILE_LIST[action - PLAY]}"
    if CHI <= action < PENG:
        t = (action - CHI) // 3
        return f"Chi {SUIT_ORDER[t // 7]}{t % 7 + 2}"
    if PENG <= action < GANG:
        return "Peng"
    if GANG <= action < ANGANG:
        return "Gang"
    if ANGANG <= action < BUGANG:
        return f"Gang {TILE_LIST[action - ANGANG]}"
    return f"BuGang {TILE_LIST[action - BUGANG]}"


def _pack(meld: Meld, seat: int) -> tuple[str, str, int]:
    """One meld in the course's form (``packs``)."""
    offer = (seat - meld.source) % 4 if meld.source is not None else 0
    if meld.kind == "CHI":
        assert meld.tile is not None and meld.claimed is not None
        return ("CHI", meld.tile, int(meld.claimed[1]) - int(meld.tile[1]) + 2)
    if meld.kind == "PENG":
        return ("PENG", str(meld.tile), offer)
    return ("GANG", meld.tile if meld.tile is not None else "CONCEALED", offer)
