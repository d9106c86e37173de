"""Human match records on the exact judge: checked, turned into game records, and back.

Theory of operation. A human record has no wall: its deals and draws reveal the
tiles in the order they left the wall. ``judge_match`` builds the wall from them
(the deals, then every draw in order, then the tiles never seen, so that it
holds the 136 tiles of a game without flowers, as human games are played) and
plays the record on ``judge.Judge`` (classic rules, one shared wall), turn by
turn: each turn the judge's requests say who may act, the record's next lines
say what was done, and these become that turn's four responses (a PENG or CHI
line and the discard after it are one response). The first line the judge does
not accept, a draw the wall cannot hold (a fifth copy), a turn the record skips,
or a Fan or Score line other than the judge's, is the match's ``Problem``. The
claims an ``Ignore`` clause lists must each be legal (the seat's own view says)
and outranked by the claim made (HU, then PENG or GANG, then CHI; between two
HUs the one nearer the discarder's right); the judge gets them as the seats'
responses (it never reads a claim behind the one made), so the game record
keeps them and ``to_match`` gives the clauses back.

``to_match`` goes the other way: a Botzone game record (``server match``'s
``game.json``, a tournament's, an environment's ``write_log``) as a human match.
Pure: no trio, no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.botzone.human import Action, Claim, HumanMatch, format_action
from rulesets.botzone.judge import Judge
from rulesets.botzone.seat_view import (
    GANG,
    HU,
    PENG,
    PLAY,
    SUIT_ORDER,
    TILE_INDEX,
    SeatView,
    action_of,
    chi_action,
    describe,
)
from rulesets.botzone.tiles import is_flower, standard_tiles
from server.seam.contract import Reply

WALL = 136
RANK = {"Hu": 3, "Peng": 2, "Gang": 2, "Chi": 1}
Observer = Callable[[int, SeatView, int], None]
"""Told each decision of a seat with a real choice: the seat, its view, the action taken."""


@dataclass(frozen=True, slots=True)
class Problem:
    """The first line of a match the judge disagrees with, and how."""

    line: int
    text: str


@dataclass(frozen=True, slots=True)
class Judged:
    """A match played on the judge: the game record (as far as it went) and its problem."""

    record: dict[str, Any]
    problem: Problem | None


class _Stop(Exception):
    def __init__(self, line: int, text: str) -> None:
        super().__init__(text)
        self.problem = Problem(line, text)


def build_wall(match: HumanMatch) -> tuple[str, tuple[int, str] | None]:
    """The walltiles the record reveals (drawn from the end), and the first draw (its line,
    what is wrong) the wall cannot hold; the wall is built no further than that draw."""
    counts: Counter[str] = Counter()
    order: list[str] = []
    bad: tuple[int, str] | None = None
    for seat in range(4):
        for tile in match.deal_of(seat):
            counts[tile] += 1
            if counts[tile] > 4 and bad is None:
                bad = (match.lines.get(f"Deal {seat}", 0), f"a fifth {tile} in the deals")
            order.append(tile)
    for action in match.actions if bad is None else ():
        if action.kind == "Draw":
            if counts[action.tile] == 4:
                bad = (action.line, f"a fifth {action.tile} drawn: the wall holds four")
                break
            if len(order) == WALL:
                bad = (action.line, f"a draw past the wall's {WALL} tiles")
                break
            counts[action.tile] += 1
            order.append(action.tile)
    unseen = Counter(standard_tiles("duplicate")) - counts
    order += sorted(unseen.elements())
    return " ".join(reversed(order)), bad


def claim_action(kind: str, tile: str, discard: str) -> int | None:
    """The 235-action codec's action for a claim of ``discard`` (None: no such claim)."""
    if kind == "Hu":
        return HU if tile == discard else None
    if kind in ("Peng", "Gang"):
        return (PENG if kind == "Peng" else GANG) + TILE_INDEX[tile] if tile == discard else None
    if tile[0] not in SUIT_ORDER or tile[0] != discard[0] or tile[1] in "19" \
            or abs(int(tile[1]) - int(discard[1])) > 1:
        return None
    return chi_action(SUIT_ORDER.index(tile[0]), int(tile[1]), int(discard[1]))


class _Player:
    """One match played on the judge (``judge_match``)."""

    def __init__(self, match: HumanMatch, observe: Observer | None,
                 display_fans: bool) -> None:
        self.match = match
        self.observe = observe
        walltiles, self.bad_draw = build_wall(match)
        self.initdata = {"srand": 0, "quan": match.wind, "walltiles": walltiles}
        self.judge = Judge("classic", self.initdata, display_fans=display_fans)
        self.outputs: list[dict[str, Any]] = [self.judge.output()]
        self.players: list[list[dict[str, Any]]] = [[], [], [], []]
        self.views = [SeatView("classic", (WALL,)) for _ in range(4)]
        self.next = 0  # the next action of the record
        self.last_line = match.lines.get("Match", 0)

    def record(self) -> dict[str, Any]:
        return {"ruleset": "botzone", "variant": "classic", "initdata": dict(self.initdata),
                "number": 1, "group": 1, "order": [0, 1, 2, 3],
                "about": f"human match {self.match.match_id}",
                "names": [f"seat {s}" for s in range(4)], "scores": self.judge.scores,
                "players": self.players, "judge": self.outputs}

    # --- the record's next lines --------------------------------------------------------

    def peek(self) -> Action | None:
        actions = self.match.actions
        return actions[self.next] if self.next < len(actions) else None

    def take(self, what: str) -> Action:
        action = self.peek()
        if action is None:
            line = self.match.lines.get("Huang") or self.last_line
            raise _Stop(line, f"the record ends, but the judge expects {what}")
        if self.bad_draw is not None and action.line == self.bad_draw[0]:
            raise _Stop(*self.bad_draw)
        self.next += 1
        self.last_line = action.line
        return action

    def decide(self, seat: int, action: int) -> None:
        view = self.views[seat]
        if self.observe is not None and view.has_choice() and action in view.legal_actions():
            self.observe(seat, view, action)

    # --- turns ------------------------------------------------------------------------

    def play(self) -> None:
        judge = self.judge
        lines: list[int] = []
        while not judge.finished:
            requests = judge.requests()
            for seat in range(4):
                self.views[seat].update(requests[seat])
            responses = ["PASS"] * 4
            lines = []
            words = [request.split(" ") for request in requests]
            drawer = next((s for s in range(4) if words[s][0] == "2"), None)
            notice = words[0] if words[0][0] == "3" else []
            if drawer is not None:
                lines = self.own_draw(drawer, words[drawer][1], responses)
            elif len(notice) > 3 and notice[2] in ("PLAY", "PENG", "CHI"):
                lines = self.discard(int(notice[1]), notice[-1], responses)
            elif len(notice) > 3 and notice[2] == "BUGANG":
                lines = self.rob(int(notice[1]), notice[3], responses)
            for seat in range(4):
                self.views[seat].respond(responses[seat])
                self.players[seat].append({"request": requests[seat],
                                           "response": responses[seat], "verdict": "OK",
                                           "ms": 0, "debug": None, "cause": None})
            self.outputs.append(judge.step([Reply("OK", r) for r in responses]))
        self.ending(lines)

    def own_draw(self, seat: int, tile: str, responses: list[str]) -> list[int]:
        if self.match.huang and self.peek() is None:
            raise _Stop(self.match.lines["Huang"], "Huang, but the wall still holds "
                        f"{self.judge_wall_left() + 1} tile(s)")
        draw = self.take(f"seat {seat} to draw {tile}")
        if (draw.seat, draw.kind) != (seat, "Draw"):
            raise _Stop(draw.line, f"the judge has seat {seat} draw next, the record says "
                        f"{format_action(draw)!r}")
        act = self.take(f"seat {seat}'s play after its draw")
        if act.seat != seat or act.kind not in ("Play", "AnGang", "BuGang", "Hu"):
            raise _Stop(act.line, f"after its draw seat {seat} plays, kongs or wins; the "
                        f"record says {format_action(act)!r}")
        if act.ignored:
            raise _Stop(act.line, "an Ignore clause follows a claim of another seat's tile; "
                        "nobody claims a seat's own draw")
        if act.kind == "Hu" and act.tile != tile:
            raise _Stop(act.line, f"seat {seat} wins on its draw {tile}, not {act.tile}")
        if act.kind == "Play" and act.tile not in self.views[seat].hand:
            raise _Stop(act.line, f"seat {seat} plays {act.tile}, which is not in its hand "
                        f"({' '.join(self.views[seat].hand)})")
        response = {"Play": f"PLAY {act.tile}", "AnGang": f"GANG {act.tile}",
                    "BuGang": f"BUGANG {act.tile}", "Hu": "HU"}[act.kind]
        responses[seat] = response
        action = self.codec(seat, response, act)
        self.check_legal(seat, action, act)
        self.decide(seat, action)
        return [act.line]

    def check_legal(self, seat: int, action: int, act: Action) -> None:
        """The seat's view says what the judge accepts now (the project's property tests
        hold the two equal); a record's action outside it is named with the legal ones."""
        legal = self.views[seat].legal_actions()
        if action not in legal:
            why = "; a HU needs 8 fan, flowers not counted" if action == HU else ""
            raise _Stop(act.line, f"{format_action(act)!r}: not an action the judge accepts "
                        f"now (seat {seat} may: {', '.join(describe(a) for a in legal)}){why}")

    def judge_wall_left(self) -> int:
        return self.views[0].wall_left(0)

    def codec(self, seat: int, response: str, act: Action) -> int:
        try:
            return action_of(response, self.views[seat])[0]
        except ValueError:
            raise _Stop(act.line, f"{format_action(act)!r} is no action here") from None

    def discard(self, discarder: int, tile: str, responses: list[str]) -> list[int]:
        claim = self.peek()
        claimers: dict[int, int] = {}
        lines: list[int] = []
        if claim is not None and claim.seat != discarder and claim.kind in RANK:
            self.take("a claim")
            lines.append(claim.line)
            action = claim_action(claim.kind, claim.tile, tile)
            if action is None:
                raise _Stop(claim.line, f"{format_action(claim)!r} does not claim the "
                            f"discard {tile}")
            self.check_legal(claim.seat, action, claim)
            claimers[claim.seat] = action
            self.check_ignored(claim, discarder, tile, claimers)
            for ignored in claim.ignored:
                responses[ignored.seat] = _lost_response(ignored)
            if claim.kind in ("Peng", "Chi"):
                play = self.take(f"seat {claim.seat}'s discard after its {claim.kind}")
                if (play.seat, play.kind) != (claim.seat, "Play"):
                    raise _Stop(play.line, f"after its {claim.kind} seat {claim.seat} "
                                f"discards; the record says {format_action(play)!r}")
                lines.append(play.line)
                middle = f" {claim.tile}" if claim.kind == "Chi" else ""
                responses[claim.seat] = f"{claim.kind.upper()}{middle} {play.tile}"
            else:
                responses[claim.seat] = "HU" if claim.kind == "Hu" else "GANG"
        for seat in range(4):
            if seat != discarder:
                self.decide(seat, claimers.get(seat, 0))
        if claim is not None and claim.kind in ("Peng", "Chi") and lines:
            self.views[claim.seat].claim(claimers[claim.seat])
            play = self.match.actions[self.next - 1]
            self.check_legal(claim.seat, PLAY + TILE_INDEX[play.tile], play)
            self.decide(claim.seat, PLAY + TILE_INDEX[play.tile])
        return lines

    def check_ignored(self, claim: Action, discarder: int, tile: str,
                      claimers: dict[int, int]) -> None:
        for ignored in claim.ignored:
            said = f"Ignore Player {ignored.seat} {ignored.kind} {ignored.tile}"
            action = claim_action(ignored.kind, ignored.tile, tile)
            if ignored.seat in claimers or ignored.seat == discarder or action is None \
                    or action not in self.views[ignored.seat].legal_actions():
                raise _Stop(claim.line, f"{said}: not a claim seat {ignored.seat} could make "
                            f"of {tile}")
            if not _outranks(claim, ignored, discarder):
                raise _Stop(claim.line, f"{said}: it outranks the claim made, "
                            f"{format_action(claim)!r}")
            claimers[ignored.seat] = action

    def rob(self, kong: int, tile: str, responses: list[str]) -> list[int]:
        claim = self.peek()
        claimers: dict[int, int] = {}
        lines: list[int] = []
        if claim is not None and claim.kind == "Hu" and claim.seat != kong:
            self.take("a robbing HU")
            if claim.tile != tile:
                raise _Stop(claim.line, f"seat {claim.seat} robs the kong of {tile}, not "
                            f"{claim.tile}")
            self.check_legal(claim.seat, HU, claim)
            claimers[claim.seat] = HU
            for ignored in claim.ignored:
                if ignored.kind != "Hu" or ignored.tile != tile or ignored.seat == kong \
                        or HU not in self.views[ignored.seat].legal_actions() \
                        or not _outranks(claim, ignored, kong):
                    raise _Stop(claim.line, f"Ignore Player {ignored.seat} {ignored.kind} "
                                f"{ignored.tile}: not a claim that lost to this robbing HU")
                claimers[ignored.seat] = HU
                responses[ignored.seat] = "HU"
            responses[claim.seat] = "HU"
            lines.append(claim.line)
        for seat in range(4):
            if seat != kong:
                self.decide(seat, claimers.get(seat, 0))
        return lines

    # --- the end ----------------------------------------------------------------------

    def ending(self, lines: list[int]) -> None:
        match = self.match
        display = self.judge.output()["display"]
        action = display.get("action")
        line = lines[-1] if lines else self.last_line
        if action == "HUANG":
            if not match.huang:
                rest = self.peek()
                raise _Stop(rest.line if rest else line, "the wall is empty: the judge "
                            "declares Huang here")
        elif action == "HU":
            if match.huang:
                raise _Stop(match.lines["Huang"], "Huang, but the game was won")
        else:
            said = {"WA": "a wrong answer", "WH": "a HU of fewer than 8 fan"}.get(
                str(action), str(action))
            raise _Stop(lines[0] if lines else line, f"the judge rules {action} ({said}) for "
                        f"seat {display.get('player')} here")
        rest = self.peek()
        if rest is not None:
            raise _Stop(rest.line, f"the game is over ({action}), the record goes on")
        if action == "HU":
            fans = tuple((f["name"], int(f["cnt"])) for f in display.get("fan", []))
            expected = (int(display["fanCnt"]), fans)
            if match.fan is None:
                raise _Stop(line, "no Fan line after the HU")
            if match.fan[0] != expected[0] or sorted(match.fan[1]) != sorted(fans):
                raise _Stop(match.lines["Fan"], f"Fan: recorded {_fans(match.fan)}, the "
                            f"judge counts {_fans(expected)}")
        elif match.fan is not None:
            raise _Stop(match.lines["Fan"], "a Fan line after Huang")
        scores = tuple(self.judge.scores or ())
        if match.score is None:
            raise _Stop(line, "no Score line")
        if match.score != scores:
            raise _Stop(match.lines["Score"], f"Score: recorded "
                        f"{' '.join(map(str, match.score))}, the judge scores "
                        f"{' '.join(map(str, scores))}")


def _lost_response(claim: Claim) -> str:
    """The response of a claim that lost, as the judge gets it (it never reads one behind
    the claim made). A PENG's or CHI's discard never happened: the claimed tile stands in."""
    if claim.kind == "Chi":
        return f"CHI {claim.tile} {claim.tile}"
    return {"Hu": "HU", "Gang": "GANG", "Peng": f"PENG {claim.tile}"}[claim.kind]


def _outranks(made: Action, lost: Claim, discarder: int) -> bool:
    if RANK[made.kind] != RANK[lost.kind]:
        return RANK[made.kind] > RANK[lost.kind]
    return made.kind == "Hu" and (made.seat - discarder) % 4 < (lost.seat - discarder) % 4


def _fans(fan: tuple[int, tuple[tuple[str, int], ...]]) -> str:
    return f"{fan[0]} ({'+'.join(f'{n}*{c}' for n, c in fan[1]) or 'none'})"


def judge_match(match: HumanMatch, observe: Observer | None = None, *,
                display_fans: bool = False) -> Judged:
    """Play ``match`` on the judge (module docstring); ``observe`` is told every decision.
    ``display_fans``: the record's displays show the display-only fan values (``canHu``)
    as ``server match`` records them (a page shows them), at about twice the time."""
    player = _Player(match, observe, display_fans)
    try:
        player.play()
    except _Stop as stop:
        return Judged(player.record(), stop.problem)
    return Judged(player.record(), None)


# --- a game record as a human match -----------------------------------------------------

_CLAIM_WORDS = {"HU": "Hu", "PENG": "Peng", "GANG": "Gang", "CHI": "Chi"}


def to_match(record: Mapping[str, Any], match_id: str) -> HumanMatch | None:
    """A finished Botzone game (HU or HUANG) as a human match; None for a game an error
    ended (the format has no such end). Flowers are left out: the format has none."""
    outputs: Sequence[Mapping[str, Any]] = record.get("judge") or []
    players: Sequence[Sequence[Mapping[str, Any] | None]] = record.get("players") or []
    if not outputs or outputs[-1].get("command") != "finish":
        return None
    final = outputs[-1].get("display") or {}
    if final.get("action") not in ("HU", "HUANG"):
        return None
    quan = int((outputs[0].get("display") or {}).get("quan", 0))
    deals: list[tuple[int, tuple[str, ...]]] = []
    actions: list[Action] = []
    last = ""  # the tile on the table: drawn, discarded or added to a kong
    for k in range(1, len(outputs)):
        display: Mapping[str, Any] = outputs[k].get("display") or {}
        kind = display.get("action")
        seat = int(display.get("player", -1))
        tile = str(display.get("tile", ""))
        replies = [_response(players, s, k - 1) for s in range(4)]
        if kind == "DEAL":
            for s, drawn in enumerate(display.get("hand") or []):
                deals.append((s, tuple(t for t in drawn if not is_flower(t))))
        elif kind == "DRAW":
            actions.append(Action(seat, "Draw", tile))
            last = tile
        elif kind == "PLAY":
            actions.append(Action(seat, "Play", tile))
            last = tile
        elif kind in ("PENG", "CHI"):
            claimed = display["tileCHI"] if kind == "CHI" else last
            actions.append(Action(seat, kind.capitalize(), claimed,
                                  _ignored(replies, seat, last)))
            actions.append(Action(seat, "Play", tile))
            last = tile
        elif kind == "GANG":
            if replies[seat] == "GANG":  # on a discard
                actions.append(Action(seat, "Gang", last, _ignored(replies, seat, last)))
            else:
                actions.append(Action(seat, "AnGang", tile))
        elif kind == "BUGANG":
            actions.append(Action(seat, "BuGang", tile))
            last = tile
        elif kind == "HU":
            actions.append(Action(seat, "Hu", last, _ignored(replies, seat, last)))
    if final.get("action") == "HUANG":
        return HumanMatch(match_id, quan, tuple(deals), tuple(actions), huang=True,
                          score=tuple(record.get("scores") or (0, 0, 0, 0)))
    fans = tuple((str(f["name"]), int(f["cnt"])) for f in final.get("fan", []))
    return HumanMatch(match_id, quan, tuple(deals), tuple(actions),
                      fan=(int(final["fanCnt"]), fans),
                      score=tuple(int(s) for s in record.get("scores") or ()))


def _response(players: Sequence[Sequence[Mapping[str, Any] | None]], seat: int,
              turn: int) -> str:
    turns = players[seat] if seat < len(players) else []
    entry = turns[turn] if turn < len(turns) else None
    response = (entry or {}).get("response")
    return response if isinstance(response, str) else "PASS"


def _ignored(replies: Sequence[str], made_by: int, tile: str) -> tuple[Claim, ...]:
    """The other seats' claims of the same turn: each lost to the one made."""
    claims: list[Claim] = []
    for seat, reply in enumerate(replies):
        words = reply.split(" ")
        if seat == made_by or words[0] not in _CLAIM_WORDS or (words[0] == "GANG"
                                                                 and len(words) > 1):
            continue
        claims.append(Claim(seat, _CLAIM_WORDS[words[0]],
                            words[1] if words[0] == "CHI" else tile))
    return tuple(claims)
