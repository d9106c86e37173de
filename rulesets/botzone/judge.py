"""Botzone's Chinese Standard Mahjong judge, one turn at a time (SPEC-botzone).

Theory of operation. Botzone reruns its judge on the whole log every turn; this
judge keeps the game in memory and takes one turn's four replies per ``step``.
A turn is two halves, as in the official judge: the replies to the current
requests are checked and applied (``_take``), then the next requests are made
(``_give``). The stage says what the current requests are:

    -2 INIT          -1 DEAL            0..3 seat s drew (or got a flower)
    4..7 seat d discarded (after a draw, a pung or a chow)
    8..11 seat p declared a kong (concealed, claimed or added)

Any error (a verdict, WA, WH) or a valid HU ends the game at once: it raises
``_Over`` carrying the finish output, as the official judge exits. Everything
the displays show, the check order, the kong flags and the 4th-tile count follow
the official judge, including its quirks (SPEC sections 3-6, 10).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from rulesets.botzone.fans import Fan, Pack, calculate, calculator
from rulesets.botzone.tiles import (
    TILE_SET,
    check_variant,
    is_flower,
    settle,
    split_walls,
)
from server.seam.contract import Reply

NOT_EVALUATED = -4
PENALTY, COMPENSATION = -30, 10
BASE = 8
_PASSED = Reply("OK", "PASS")




class _Over(Exception):
    """The game ended during a turn (the official judge's exit(0))."""


class _Meld:
    """A meld as the judge keeps it: its offer is the provider seat (CHI: claimed - middle + 1)."""

    __slots__ = ("kind", "offer", "tile")

    def __init__(self, kind: str, tile: str, offer: int) -> None:
        self.kind = kind
        self.tile = tile
        self.offer = offer

    def pack(self, seat: int) -> Pack:
        if self.kind == "CHI":
            return ("CHI", self.tile, self.offer + 1)
        return (self.kind, self.tile, (self.offer - seat) % 4)


def _char(text: str, index: int) -> int:
    """The character code at ``index``, 0 past the end (std::string's terminator)."""
    return ord(text[index]) if index < len(text) else 0


class Judge:
    """One game of Botzone's judge: ``output()`` and ``requests()`` now, ``step`` to go on."""

    def __init__(
        self, variant: str, initdata: Mapping[str, object] | None, *, now: int | None = None,
        display_fans: bool = True, _twin_of: Judge | None = None,
    ) -> None:
        """``display_fans=False`` skips the display-only fan values (``canHu`` stays -4 where
        the official judge shows one): every request, score and other display field is the
        same, at a fraction of the cost (the training environment's judge). ``_twin_of`` is
        ``copy``'s (a compiled class has no ``__dict__`` to copy, nor a bare ``__new__``)."""
        if _twin_of is not None:
            self._copy_from(_twin_of)
            return
        check_variant(variant)
        self.display_fans = display_fans
        calculator()  # a missing PyMahjongGB is known before the game starts
        settled = settle(variant, initdata, int(time.time()) if now is None else now)
        self.variant = variant
        self.duplicate = variant == "duplicate"
        self.initdata: dict[str, Any] = settled.initdata()
        self.quan = settled.quan
        self._walls = split_walls(variant, settled.tokens())
        _check_deal(self._walls, self.duplicate)
        self.turn = 0
        self.finished = False
        self.scores: list[int] | None = None
        self._stage = -2
        self._last_stage = -2
        self._hands: list[list[str]] = [[], [], [], []]
        self._melds: list[list[_Meld]] = [[], [], [], []]
        self._flowers: list[list[str]] = [[], [], [], []]
        self._last_tile = ""
        self._last_op = ""
        self._tile_chi = ""
        # Kong flags as the official judge keeps them (SPEC section 4, isAboutKong). A kong
        # on one's own draw sets "cur", moved to "last" when its draw turn ends; a claimed
        # kong's "cur" lasts until the end of the next draw turn. (The judge's lastGANG is
        # never read and left out.)
        self._cur_bugang = self._last_bugang = False
        self._cur_angang = self._last_angang = False
        self._cur_gang = False
        self._shown: dict[str, int] = {}
        self._display: dict[str, Any] = {
            "action": "INIT", "canHu": [NOT_EVALUATED] * 4, "quan": self.quan,
            "srand": settled.srand, "strlen": settled.strlen,
        }
        self._strlen = settled.strlen
        self._content = [f"0 {i} {self.quan}" for i in range(4)]  # this turn's requests
        self._output: dict[str, Any] | None = {
            "command": "request",
            "content": {str(i): self._content[i] for i in range(4)},
            "display": self._display,
            "initdata": dict(self.initdata),
        }

    # --- the public turn ------------------------------------------------------------

    def copy(self) -> Judge:
        """An independent copy of the game as it stands (what-if steps, property tests)."""
        return Judge(self.variant, None, _twin_of=self)

    def _copy_from(self, other: Judge) -> None:
        """Every attribute of ``other``, its lists and dicts copied (``copy``)."""
        self.display_fans = other.display_fans
        self.variant = other.variant
        self.duplicate = other.duplicate
        self.quan = other.quan
        self.turn = other.turn
        self.finished = other.finished
        self._stage = other._stage
        self._last_stage = other._last_stage
        self._last_tile = other._last_tile
        self._last_op = other._last_op
        self._tile_chi = other._tile_chi
        self._cur_bugang, self._last_bugang = other._cur_bugang, other._last_bugang
        self._cur_angang, self._last_angang = other._cur_angang, other._last_angang
        self._cur_gang = other._cur_gang
        self._display = other._display
        self._strlen = other._strlen
        self._output = other._output
        self._content = other._content
        self.initdata = dict(other.initdata)
        self._walls = [list(wall) for wall in other._walls]
        self._hands = [list(hand) for hand in other._hands]
        self._melds = [[_Meld(m.kind, m.tile, m.offer) for m in melds] for melds in other._melds]
        self._flowers = [list(flowers) for flowers in other._flowers]
        self._shown = dict(other._shown)
        self.scores = None if other.scores is None else list(other.scores)

    def output(self) -> dict[str, Any]:
        """This turn's judge output, as Botzone's judge prints it (do not mutate)."""
        output = self._output
        if output is None:  # a request's output is made when it is first asked for
            content = self._content
            output = self._output = {
                "command": "request",
                "content": {"0": content[0], "1": content[1], "2": content[2],
                            "3": content[3]},
                "display": self._display,
            }
        return output

    def requests(self) -> list[str]:
        """The four requests of this turn; [] once the game is over."""
        if self.finished:
            return []
        return list(self._content)

    def step(self, replies: Sequence[Reply]) -> dict[str, Any]:
        """Judge this turn's four replies (seats 0-3) and return the next output."""
        self.play(replies)
        return self.output()

    def play(self, replies: Sequence[Reply]) -> None:
        """``step`` without making the output (``output()`` makes it when asked; the
        training tables read only ``requests()``)."""
        if self.finished:
            raise RuntimeError("the game is over: no more turns to judge")
        if len(replies) != 4:
            raise ValueError(f"a turn takes 4 replies, got {len(replies)}")
        self._display = {"canHu": [NOT_EVALUATED] * 4}
        if self._stage == -2:
            self._display["strlen"] = self._strlen  # kept by a finish on INIT replies only
        self.turn += 1
        try:
            self._take(replies)
            self._display.pop("strlen", None)
            self._give()
        except _Over:
            self.finished = True

    # --- checking replies (the official judge's roundInput) --------------------------

    def _take(self, replies: Sequence[Reply]) -> None:
        stage = self._last_stage = self._stage
        if stage < 0:
            for seat in range(4):
                self._expect_pass(replies[seat], seat)
            self._stage += 1
        elif stage < 4:
            buhua = self._last_op == "BUHUA"
            for seat in range(4):
                reply = replies[seat]
                if buhua or seat != stage:
                    if reply.verdict != "OK" or reply.response != "PASS":  # else: a pass
                        self._expect_pass(reply, seat)
                else:
                    self._take_own_draw(reply, seat)
            self._last_bugang, self._last_angang = self._cur_bugang, self._cur_angang
            self._cur_bugang = self._cur_gang = self._cur_angang = False
        elif stage < 8:
            self._take_discard(replies, stage - 4)
        else:
            kong = stage - 8
            for k in range(4):
                seat = (kong + k) % 4
                reply = replies[seat]
                if reply.verdict == "OK" and reply.response == "PASS":
                    continue
                self._check_verdict(reply, seat)
                text = _text(reply)
                if text == "PASS":
                    continue
                if self._last_bugang and seat != kong and text == "HU":
                    self._hu(seat)
                self._error(seat, "WA")
            self._stage -= 8

    def _take_discard(self, replies: Sequence[Reply], discarder: int) -> None:
        if list(replies).count(_PASSED) == 4:
            # everyone passed: the steps below would find nothing (the common turn, made short)
            self._stage = (discarder + 1) % 4
            self._show(self._last_tile, 1)
            return
        self._expect_pass(replies[discarder], discarder)
        for k in (1, 2, 3):
            seat = (discarder + k) % 4
            self._check_verdict(replies[seat], seat)
            if _text(replies[seat]) == "HU":
                self._hu(seat)
        for seat in range(4):
            if seat != discarder and self._claim_pung_or_kong(_text(replies[seat]), seat):
                return
        for seat in range(4):
            if seat != discarder and self._claim_chow(_text(replies[seat]), seat):
                return
        self._stage = (discarder + 1) % 4
        self._show(self._last_tile, 1)

    def _check_verdict(self, reply: Reply, seat: int) -> None:
        if reply.verdict != "OK":
            self._error(seat, str(reply.verdict))

    def _expect_pass(self, reply: Reply, seat: int) -> None:
        self._check_verdict(reply, seat)
        if _text(reply) != "PASS":
            self._error(seat, "WA")

    def _take_own_draw(self, reply: Reply, seat: int) -> None:
        if reply.verdict != "OK":
            self._error(seat, str(reply.verdict))  # _check_verdict
        words = _text(reply).split(" ")
        if len(words) == 1 and words[0] == "HU":
            self._hu(seat)
        if len(words) != 2:
            self._error(seat, "WA")
        hand = self._hands[seat]
        hand.append(self._last_tile)
        tile = self._last_tile = words[1]
        if words[0] == "PLAY":
            if tile in hand:
                hand.remove(tile)
                self._last_op = "PLAY"
                self._stage += 4
                return
        elif words[0] == "GANG":
            self._check_own_kong_walls(seat)
            if hand.count(tile) < 4:
                self._error(seat, "WA")
            for _ in range(4):
                hand.remove(tile)
            self._melds[seat].append(_Meld("GANG", tile, seat))
            self._last_op = "GANG"
            self._cur_angang = True
            self._cur_gang = self._cur_bugang = self._last_bugang = False
            self._stage = seat + 8
            return
        elif words[0] == "BUGANG":
            self._check_own_kong_walls(seat)
            for meld in self._melds[seat]:
                if meld.kind == "PENG" and meld.tile == tile:
                    # classic's judge erases end() here (undefined behaviour): WA as duplicate's
                    if tile not in hand:
                        self._error(seat, "WA")
                    meld.kind = "GANG"
                    hand.remove(tile)
                    self._shown[tile] = 4
                    self._last_op = "BUGANG"
                    self._cur_bugang = True
                    self._cur_angang = self._last_angang = False
                    self._cur_gang = False
                    self._stage = seat + 8
                    return
        self._error(seat, "WA")

    def _check_own_kong_walls(self, seat: int) -> None:
        """duplicate: a kong on one's own draw needs tiles in one's own and the next wall."""
        if self.duplicate and (not self._walls[seat] or not self._walls[(seat + 1) % 4]):
            self._error(seat, "WA")

    def _claim_pung_or_kong(self, text: str, seat: int) -> bool:
        """Step 3 of a discard's check order: True when a PENG or GANG was made."""
        words = text.split(" ")
        hand = self._hands[seat]
        tile = self._last_tile
        discarder = self._stage % 4
        if len(words) == 1:
            if words[0] == "PASS":
                return False
            if words[0] != "GANG" or hand.count(tile) < 3:
                self._error(seat, "WA")
            for _ in range(3):
                hand.remove(tile)
            self._shown[tile] = 4
            self._last_op = "GANG"
            self._cur_gang = True
            self._last_bugang = self._cur_bugang = self._last_angang = self._cur_angang = False
            self._melds[seat].append(_Meld("GANG", tile, discarder))
            self._stage = seat + 8
            return True
        if len(words) == 2:
            if words[0] != "PENG" or hand.count(tile) < 2:
                self._error(seat, "WA")
            hand.remove(tile)
            hand.remove(tile)
            self._show(tile, 3)
            self._last_op = "PENG"
            self._melds[seat].append(_Meld("PENG", tile, discarder))
            self._play_after_claim(words[1], seat)
            return True
        if len(words) != 3:
            self._error(seat, "WA")
        return False

    def _claim_chow(self, text: str, seat: int) -> bool:
        """Step 4 of a discard's check order: True when a CHI was made."""
        words = text.split(" ")
        if len(words) != 3:
            return False
        if words[0] != "CHI" or (self._stage - seat) % 4 != 3:
            self._error(seat, "WA")
        hand = self._hands[seat]
        discard = self._last_tile
        hand.append(discard)
        middle = words[1]
        if (
            middle not in TILE_SET
            or middle[0] not in "WBT"
            or middle[0] != discard[:1]
            or abs(ord(middle[1]) - _char(discard, 1)) > 1
        ):
            self._error(seat, "WA")
        suit, number = middle[0], ord(middle[1])
        for step in (-1, 0, 1):
            tile = suit + chr(number + step)
            self._show(tile, 1)
            if tile not in hand:
                self._error(seat, "WA")
            hand.remove(tile)
        self._last_op = "CHI"
        self._tile_chi = middle
        self._melds[seat].append(_Meld("CHI", middle, _char(discard, 1) - number + 1))
        self._play_after_claim(words[2], seat)
        return True

    def _play_after_claim(self, tile: str, seat: int) -> None:
        hand = self._hands[seat]
        self._last_tile = tile
        if tile not in hand:
            self._error(seat, "WA")
        hand.remove(tile)
        self._stage = 4 + seat

    def _show(self, tile: str, count: int) -> None:
        self._shown[tile] = self._shown.get(tile, 0) + count

    # --- making requests (the official judge's roundOutput) --------------------------

    def _give(self) -> None:
        stage = self._stage
        display = self._display
        if stage == -1:
            content = self._deal()
        elif stage < 4:
            wall = self._walls[stage] if self.duplicate else self._walls[0]  # _wall
            if not wall:
                display["action"] = "HUANG"
                display["tileCnt"] = self._tile_count()
                self._finish([0, 0, 0, 0])
            tile = self._last_tile = wall.pop()
            display["player"] = stage
            display["tile"] = tile
            if tile.startswith("H"):  # is_flower
                self._last_op = display["action"] = "BUHUA"
                self._flowers[stage].append(tile)
                text = f"3 {stage} BUHUA {tile}"
                content = [text] * 4
            else:
                self._last_op = display["action"] = "DRAW"
                others = f"3 {stage} DRAW"
                content = [others, others, others, others]
                content[stage] = f"2 {tile}"
                if self.display_fans:
                    display["canHu"][stage] = self._fan(stage)[0]
        elif stage < 8:
            player = stage - 4
            op = self._last_op
            if op in ("CHI", "PENG") and self._claim_wall_empty():
                self._error(player, "WA")
            display["action"] = op
            display["player"] = player
            display["tile"] = self._last_tile
            if op == "CHI":
                display["tileCHI"] = self._tile_chi
                text = f"3 {player} CHI {self._tile_chi} {self._last_tile}"
            else:
                text = f"3 {player} {op} {self._last_tile}"
            content = [text] * 4
            if self.display_fans:
                display["canHu"] = [self._fan(seat)[0] for seat in range(4)]
        else:
            player = stage - 8
            if self._claim_wall_empty():
                self._error(player, "WA")
            op = "GANG"
            if self._last_op != "GANG" and self._last_bugang:
                op = f"BUGANG {self._last_tile}"
                for seat in range(4 if self.display_fans else 0):
                    if seat != player:
                        display["canHu"][seat] = self._fan(seat)[0]
            display["action"] = "GANG" if self._last_op == "GANG" else "BUGANG"
            display["player"] = player
            display["tile"] = self._last_tile
            content = [f"3 {player} {op}"] * 4
        display["tileCnt"] = self._tile_count()
        self._content = content
        self._output = None  # made by output() when asked

    def _deal(self) -> list[str]:
        drawn: list[list[str]] = [[], [], [], []]
        for seat in range(4):
            wall = self._wall(seat)
            hand = self._hands[seat]
            chunk = wall[:-14:-1] if not hand and len(wall) >= 13 else []
            if len(chunk) == 13 and not any(tile.startswith("H") for tile in chunk):
                # no flower among the 13 tiles: they are the hand (the loop's pops, at once)
                del wall[-13:]
                drawn[seat] += chunk
                hand += chunk
            while len(hand) < 13:
                tile = wall.pop()
                drawn[seat].append(tile)
                (self._flowers[seat] if is_flower(tile) else hand).append(tile)
        self._display["action"] = "DEAL"
        self._display["hand"] = drawn
        counts = " ".join(str(len(flowers)) for flowers in self._flowers)
        flowers = "".join(f" {tile}" for seat in range(4) for tile in self._flowers[seat])
        return [f"1 {counts} {' '.join(self._hands[seat][:13])}{flowers}" for seat in range(4)]

    def _wall(self, seat: int) -> list[str]:
        return self._walls[seat] if self.duplicate else self._walls[0]

    def _claim_wall_empty(self) -> bool:
        """Claims and kongs are WA on an empty wall (duplicate: the wall after the discarder)."""
        if self.duplicate:
            return not self._walls[(self._last_stage + 1) % 4]
        return not self._walls[0]

    def _tile_count(self) -> int | list[int]:
        if self.duplicate:
            return list(map(len, self._walls))
        return len(self._walls[0])

    # --- winning and ending ----------------------------------------------------------

    def _fan(self, seat: int) -> tuple[int, tuple[Fan, ...]]:
        """The calculator's answer were ``seat`` to win on the last tile now (checkHu)."""
        stage = self._stage
        tile = self._last_tile
        wall_last = not self._walls[(stage + 1) % 4 if self.duplicate else 0]
        return calculate(
            [meld.pack(seat) for meld in self._melds[seat]],
            self._hands[seat],
            tile,
            flowers=len(self._flowers[seat]),
            self_drawn=stage == seat,
            fourth_tile=self._shown.get(tile, 0) == 3,
            about_kong=self._last_bugang or self._last_angang or self._cur_gang,
            wall_last=wall_last,
            seat=seat,
            quan=self.quan,
        )

    def _hu(self, seat: int) -> None:
        fan, fans = self._fan(seat)
        display = self._display
        display["action"] = "HU"
        display["player"] = seat
        display["fanCnt"] = fan
        if fans:
            display["fan"] = [{"cnt": f.cnt, "name": f.name, "value": f.value} for f in fans]
        if fan < BASE + len(self._flowers[seat]):
            self._error(seat, "WH")
        stage = self._stage
        if stage < 4:
            scores = [-(BASE + fan)] * 4
            scores[seat] = 3 * (BASE + fan)
        else:
            scores = [-BASE] * 4
            for other in range(4):
                if stage == other + 4 or (
                    stage == other + 8 and (self._last_bugang or self._last_angang)
                ):
                    scores[other] = -(BASE + fan)
            scores[seat] = 3 * BASE + fan
        display["score"] = scores
        self._finish(scores)

    def _error(self, seat: int, code: str) -> None:
        scores = [COMPENSATION] * 4
        scores[seat] = PENALTY
        self._display["action"] = code
        self._display["player"] = seat
        self._display["score"] = scores
        self._finish(scores)

    def _finish(self, scores: list[int]) -> None:
        self.scores = scores
        self._output = {
            "command": "finish",
            "content": {str(i): score for i, score in enumerate(scores)},
            "display": self._display,
        }
        raise _Over


def _text(reply: Reply) -> str:
    """The response as the judge reads it: a missing or non-string one reads as ''."""
    return reply.response if isinstance(reply.response, str) else ""


def _check_deal(walls: list[list[str]], duplicate: bool) -> None:
    """Refuse a walltiles too short to deal 13 tiles to every seat (the judge would crash)."""
    left = [len(wall) - [tile[:1] for tile in wall].count("H") for wall in walls]  # is_flower
    if duplicate:
        short = [seat for seat in range(4) if left[seat] < 13]
        if short:
            raise ValueError(
                f"walltiles too short: seat {short[0]}'s wall holds fewer than 13 non-flower tiles"
            )
    elif left[0] < 52:
        raise ValueError("walltiles too short: fewer than 52 non-flower tiles to deal")


def rejudge(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every judge output of a game, from its initdata and its players' recorded replies."""
    judge = Judge(str(record["variant"]), record.get("initdata"))
    outputs = [judge.output()]
    players = record["players"]
    turn = 0
    while not judge.finished and all(turn < len(players[seat]) for seat in range(4)):
        replies = [
            Reply(str(players[seat][turn].get("verdict")), players[seat][turn].get("response"))
            for seat in range(4)
        ]
        outputs.append(judge.step(replies))
        turn += 1
    return outputs
