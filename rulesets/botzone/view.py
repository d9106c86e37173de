"""The table at every step of a Botzone game, rebuilt from its record.

A reader of the game record (the data files' format, which our ``game.json``
extends): the judge's ``display`` records say what happened at each judge
turn, the DEAL display gives every seat's draws (flowers included), and the
requests and responses say what each seat was asked and answered. ``game_view``
gives one ``TableState`` per judge output: step k is the table after judge
output k (step 0 = INIT, before the deal; the last step is the finish), with
the answers the seats gave to that step's request.

Nothing here judges: the judge's displays are taken as they are. Where a claim
does not fit the hands (a broken record), ``ViewError`` names the step.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.botzone.fan_names import english

SEATS = 4
SUITS = "WBTFJH"
WINDS = ("East", "South", "West", "North")
CLAIMED_TURNS = ("PLAY", "PENG", "CHI")  # turns whose display tile is a fresh discard
VERDICT_WORDS = {
    "TLE": "no answer within the time limit",
    "MLE": "over the memory limit",
    "RE": "the bot exited with an error",
}


class ViewError(ValueError):
    """A record that cannot be shown: not a Botzone game, or tiles that do not add up."""


def tile_key(tile: str) -> tuple[int, str]:
    """Sort order: characters, dots, bamboo, winds, dragons, flowers."""
    suit = SUITS.find(tile[:1])
    return (suit if suit >= 0 else len(SUITS), tile[1:])


def sort_tiles(tiles: Sequence[str]) -> tuple[str, ...]:
    return tuple(sorted(tiles, key=tile_key))


def is_flower(tile: str) -> bool:
    return tile.startswith("H")


@dataclass(frozen=True, slots=True)
class Meld:
    kind: str  # CHI, PENG, GANG (claimed kong), ANGANG (concealed kong), BUGANG (added kong)
    tiles: tuple[str, ...]
    claimed: str | None  # the tile taken from another seat (None for a concealed kong)
    source: int | None  # the seat that fed it

    def describe(self) -> str:
        words = {"CHI": "chow", "PENG": "pung", "GANG": "kong", "ANGANG": "concealed kong",
                 "BUGANG": "added kong"}[self.kind]
        return words + (f" from seat {self.source}" if self.source is not None else "")


@dataclass(frozen=True, slots=True)
class Discard:
    tile: str
    taken_by: int | None = None  # the seat that claimed it (a meld or a win)


@dataclass(frozen=True, slots=True)
class Answer:
    """What one seat was asked at a step and what it answered."""

    request: str
    response: str | None
    verdict: str
    ms: int | None = None
    debug: str | None = None
    cause: str = ""


@dataclass(frozen=True, slots=True)
class Fan:
    chinese: str
    english: str
    count: int
    value: int


@dataclass(frozen=True, slots=True)
class Result:
    action: str  # HU, WH, HUANG, WA or a verdict (TLE, RE, ...)
    player: int | None  # the winner or the seat at fault
    summary: str  # in words
    fans: tuple[Fan, ...] = ()
    fan_total: int | None = None
    scores: tuple[int, ...] | None = None
    cause: str = ""  # why a seat was at fault

    @property
    def fault(self) -> bool:
        return self.action not in ("HU", "HUANG")


@dataclass(frozen=True, slots=True)
class TableState:
    step: int  # the judge turn
    action: str  # display action
    actor: int | None
    note: str  # what happened, in words
    hands: tuple[tuple[str, ...], ...]  # concealed tiles, sorted, without the drawn tile
    drawn: tuple[str | None, ...]  # a tile just drawn (or won), shown apart
    melds: tuple[tuple[Meld, ...], ...]
    flowers: tuple[tuple[str, ...], ...]
    discards: tuple[tuple[Discard, ...], ...]
    wall: tuple[int, ...]  # one count (classic) or four (duplicate)
    quan: int
    can_hu: tuple[int, ...]
    answers: tuple[Answer, ...]  # to this step's request; () at the finish
    result: Result | None  # at the finish

    def tiles_held(self, seat: int) -> int:
        """Concealed tiles (drawn one included) plus three per meld."""
        return len(self.hands[seat]) + (self.drawn[seat] is not None) \
            + 3 * len(self.melds[seat])


@dataclass(frozen=True, slots=True)
class GameView:
    variant: str
    about: str
    names: tuple[str, ...]
    quan: int
    walltiles: tuple[str, ...]
    states: tuple[TableState, ...]

    @property
    def result(self) -> Result | None:
        return self.states[-1].result if self.states else None


def is_botzone_record(data: object) -> bool:
    """A Botzone game record: our ``game.json`` or a data file (which names no ruleset;
    another ruleset's record does)."""
    if not isinstance(data, Mapping):
        return False
    if "ruleset" in data:
        return bool(data["ruleset"] == "botzone")
    return "judge" in data and "players" in data


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ViewError(f"{what} is not an integer")
    return value


def _answers(players: Sequence[Any], k: int) -> tuple[Answer, ...]:
    out = []
    for seat in range(SEATS):
        turns = players[seat] if seat < len(players) and isinstance(players[seat], list) else []
        if k >= len(turns) or not isinstance(turns[k], Mapping):
            return ()
        t = turns[k]
        ms = t.get("ms")
        debug = t.get("debug")
        out.append(Answer(
            str(t.get("request", "")),
            None if t.get("response") is None else str(t.get("response")),
            str(t.get("verdict", "OK")),
            ms if isinstance(ms, int) and not isinstance(ms, bool) else None,
            None if debug is None else str(debug),
            str(t.get("cause") or "")))
    return tuple(out)


class _Table:
    """The mutable table while the displays are read."""

    def __init__(self, variant: str, walltiles: tuple[str, ...], quan: int) -> None:
        self.variant = variant
        self.quan = quan
        self.hands: list[list[str]] = [[] for _ in range(SEATS)]
        self.drawn: list[str | None] = [None] * SEATS
        self.melds: list[list[Meld]] = [[] for _ in range(SEATS)]
        self.flowers: list[list[str]] = [[] for _ in range(SEATS)]
        self.discards: list[list[Discard]] = [[] for _ in range(SEATS)]
        if variant == "duplicate":
            self.wall: tuple[int, ...] = (len(walltiles) // SEATS,) * SEATS
        else:
            self.wall = (len(walltiles),)
        self.last: Mapping[str, Any] = {}  # the previous display
        self.can_hu: tuple[int, ...] = (-4,) * SEATS

    def settle(self, seat: int) -> None:
        tile = self.drawn[seat]
        if tile is not None:
            self.hands[seat].append(tile)
            self.drawn[seat] = None

    def take(self, seat: int, tile: str, count: int, step: int) -> None:
        for _ in range(count):
            if tile not in self.hands[seat]:
                raise ViewError(f"step {step}: seat {seat} uses {tile}, which it does not hold")
            self.hands[seat].remove(tile)

    def last_discard(self, step: int) -> tuple[int, str]:
        """The discard just made (a PLAY, PENG or CHI display before this one)."""
        if self.last.get("action") not in CLAIMED_TURNS:
            raise ViewError(f"step {step}: a claim with no discard before it")
        return int(self.last["player"]), str(self.last["tile"])

    def mark_taken(self, source: int, by: int, step: int) -> None:
        river = self.discards[source]
        if not river or river[-1].taken_by is not None:
            raise ViewError(f"step {step}: seat {by} claims a discard seat {source} did not make")
        river[-1] = Discard(river[-1].tile, by)

    def snapshot(self, step: int, action: str, actor: int | None, note: str,
                 answers: tuple[Answer, ...], result: Result | None) -> TableState:
        return TableState(
            step, action, actor, note,
            tuple(sort_tiles(h) for h in self.hands), tuple(self.drawn),
            tuple(tuple(m) for m in self.melds), tuple(tuple(f) for f in self.flowers),
            tuple(tuple(d) for d in self.discards), self.wall, self.quan, self.can_hu,
            answers, result)


def game_view(record: Mapping[str, Any]) -> GameView:
    """Every step of a game record as a table state."""
    if not is_botzone_record(record):
        raise ViewError("not a Botzone game record (no judge and players)")
    judge = record.get("judge")
    players = record.get("players")
    if not isinstance(judge, list) or not judge or not isinstance(players, list):
        raise ViewError("the record has no judge outputs")
    variant = str(record.get("variant", "classic"))
    if variant not in ("classic", "duplicate"):
        raise ViewError(f"unknown variant {variant!r}")
    initdata = record.get("initdata")
    if not isinstance(initdata, Mapping):
        initdata = judge[0].get("initdata") if isinstance(judge[0], Mapping) else None
    if not isinstance(initdata, Mapping):
        initdata = {}
    walltiles = tuple(str(initdata.get("walltiles", "")).split(" "))
    names_raw = record.get("names")
    names = tuple(str(n) for n in names_raw) if isinstance(names_raw, list) \
        and len(names_raw) == SEATS else tuple(f"seat {s}" for s in range(SEATS))
    quan = initdata.get("quan", 0)
    table = _Table(variant, walltiles, quan if isinstance(quan, int) else 0)
    states = []
    for k, output in enumerate(judge):
        if not isinstance(output, Mapping) or not isinstance(output.get("display"), Mapping):
            raise ViewError(f"step {k}: the judge output has no display")
        display: Mapping[str, Any] = output["display"]
        try:
            state = _apply(table, k, display, output, players)
        except (KeyError, TypeError, IndexError) as exc:
            raise ViewError(f"step {k}: a {display.get('action')!r} display without "
                            f"what it needs ({exc})") from None
        states.append(state)
        table.last = display
    return GameView(variant, str(record.get("about", "")), names, table.quan, walltiles,
                    tuple(states))


def _apply(table: _Table, k: int, d: Mapping[str, Any], output: Mapping[str, Any],
           players: Sequence[Any]) -> TableState:
    action = str(d.get("action", ""))
    player = d.get("player")
    p = _int(player, f"step {k}: player") if player is not None else None
    tile = str(d["tile"]) if "tile" in d else ""
    if "tileCnt" in d:
        cnt = d["tileCnt"]
        table.wall = tuple(_int(c, f"step {k}: tileCnt") for c in cnt) \
            if isinstance(cnt, list) else (_int(cnt, f"step {k}: tileCnt"),)
    if isinstance(d.get("canHu"), list):
        table.can_hu = tuple(int(c) for c in d["canHu"])
    answers = _answers(players, k)
    result: Result | None = None
    if action == "INIT":
        if isinstance(d.get("quan"), int):
            table.quan = d["quan"]
        note = f"the game starts: prevailing wind {WINDS[table.quan % 4]}"
    elif action == "DEAL":
        for seat, draws in enumerate(d["hand"]):
            table.hands[seat] = [str(t) for t in draws if not is_flower(str(t))]
            table.flowers[seat] = [str(t) for t in draws if is_flower(str(t))]
        counts = [len(f) for f in table.flowers]
        note = "the deal" + (f": flowers {' '.join(map(str, counts))}" if any(counts) else "")
    elif action == "DRAW" and p is not None:
        table.settle(p)
        table.drawn[p] = tile
        note = f"seat {p} draws {tile}"
    elif action == "BUHUA" and p is not None:
        table.flowers[p].append(tile)
        note = f"seat {p} draws the flower {tile}, sets it aside and draws again"
    elif action == "PLAY" and p is not None:
        table.settle(p)
        table.take(p, tile, 1, k)
        table.discards[p].append(Discard(tile))
        note = f"seat {p} discards {tile}"
    elif action in ("PENG", "CHI") and p is not None:
        source, claimed = table.last_discard(k)
        if action == "PENG":
            table.take(p, claimed, 2, k)
            meld = Meld("PENG", (claimed,) * 3, claimed, source)
            note = f"seat {p} pungs {claimed} from seat {source}, discards {tile}"
        else:
            middle = str(d["tileCHI"])
            run = tuple(f"{middle[0]}{int(middle[1:]) + i}" for i in (-1, 0, 1))
            for t in run:
                if t != claimed:
                    table.take(p, t, 1, k)
            meld = Meld("CHI", run, claimed, source)
            note = f"seat {p} chows {' '.join(run)} on seat {source}'s {claimed}, " \
                   f"discards {tile}"
        table.mark_taken(source, p, k)
        table.melds[p].append(meld)
        table.take(p, tile, 1, k)
        table.discards[p].append(Discard(tile))
    elif action == "GANG" and p is not None:
        if table.last.get("action") == "DRAW" and table.last.get("player") == p:
            table.settle(p)
            table.take(p, tile, 4, k)
            table.melds[p].append(Meld("ANGANG", (tile,) * 4, None, None))
            note = f"seat {p} declares a concealed kong of {tile}"
        else:
            source, claimed = table.last_discard(k)
            table.take(p, claimed, 3, k)
            table.mark_taken(source, p, k)
            table.melds[p].append(Meld("GANG", (claimed,) * 4, claimed, source))
            note = f"seat {p} kongs {claimed} from seat {source}"
    elif action == "BUGANG" and p is not None:
        table.settle(p)
        table.take(p, tile, 1, k)
        for i, m in enumerate(table.melds[p]):
            if m.kind == "PENG" and m.tiles[0] == tile:
                table.melds[p][i] = Meld("BUGANG", (tile,) * 4, m.claimed, m.source)
                break
        else:
            raise ViewError(f"step {k}: seat {p} adds {tile} to a pung it does not have")
        note = f"seat {p} adds {tile} to its pung (added kong)"
    elif output.get("command") == "finish" or action in ("HU", "WH", "HUANG"):
        result = _finish(table, k, action, p, d, output, players)
        note = result.summary
    else:
        raise ViewError(f"step {k}: an unknown display action {action!r}")
    return table.snapshot(k, action, p, note, answers, result)


def _fans(d: Mapping[str, Any]) -> tuple[Fan, ...]:
    fans = d.get("fan")
    if not isinstance(fans, list):
        return ()
    return tuple(Fan(str(f.get("name", "")), english(str(f.get("name", ""))),
                     int(f.get("cnt", 1)), int(f.get("value", 0)))
                 for f in fans if isinstance(f, Mapping))


def _scores(d: Mapping[str, Any], output: Mapping[str, Any]) -> tuple[int, ...] | None:
    score = d.get("score")
    if isinstance(score, list):
        return tuple(int(s) for s in score)
    content = output.get("content")
    if isinstance(content, Mapping) and all(str(s) in content for s in range(SEATS)):
        return tuple(int(content[str(s)]) for s in range(SEATS))
    return None


def _finish(table: _Table, k: int, action: str, p: int | None, d: Mapping[str, Any],
            output: Mapping[str, Any], players: Sequence[Any]) -> Result:
    scores = _scores(d, output)
    fans = _fans(d)
    fan_total = d.get("fanCnt") if isinstance(d.get("fanCnt"), int) else None
    last = table.last
    last_action = last.get("action")
    if action == "HUANG":
        return Result(action, None, "the wall is empty: a draw (HUANG)", scores=scores)
    if action == "HU" and p is not None:
        if last_action == "DRAW" and last.get("player") == p:
            how = "self-drawn"
            win_tile = table.drawn[p]
        elif last_action == "BUGANG":
            source, win_tile = int(last["player"]), str(last["tile"])
            how = f"robbing seat {source}'s added kong of {win_tile}"
            melds = table.melds[source]
            for i, m in enumerate(melds):
                if m.kind == "BUGANG" and m.tiles[0] == win_tile:
                    melds[i] = Meld("PENG", (win_tile,) * 3, m.claimed, m.source)
                    break
            table.settle(p)
            table.drawn[p] = win_tile
        elif last_action in CLAIMED_TURNS:
            source, win_tile = table.last_discard(k)
            how = f"on seat {source}'s discard {win_tile}"
            also = [s for s, a in enumerate(_answers(players, k - 1))
                    if s != p and a.response == "HU"]
            if also:
                how += f" (seat {', '.join(map(str, also))} also declared HU: the nearest " \
                       "seat after the discarder wins)"
            table.mark_taken(source, p, k)
            table.settle(p)
            table.drawn[p] = win_tile
        else:
            how, win_tile = "", None
        summary = f"seat {p} wins" + (f", {how}" if how else "") \
            + (f" ({win_tile})" if how == "self-drawn" and win_tile else "") \
            + (f": {fan_total} fan" if fan_total is not None else "")
        return Result(action, p, summary, fans, fan_total, scores)
    cause = _fault_cause(table, k, action, p, players)
    if action == "WH":
        flowers = sum(f.count for f in fans if f.chinese == "花牌")
        if fan_total is None or fan_total < 0:
            worth = "a hand that does not win"
        else:
            worth = f"{fan_total} fan" + (f", {fan_total - flowers} without flowers"
                                          if flowers else "") + ", short of 8"
        summary = f"seat {p} declares HU with {worth}: a wrong HU (WH)"
        return Result(action, p, summary, fans, fan_total, scores, cause)
    summary = f"seat {p} is at fault ({action})" + (f": {cause}" if cause else "")
    return Result(action, p, summary, fans, fan_total, scores, cause)


def _fault_cause(table: _Table, k: int, action: str, p: int | None,
                 players: Sequence[Any]) -> str:
    """Why the seat was at fault: our log's ``cause``, else what it answered."""
    if p is None or k == 0:
        return ""
    asked = _answers(players, k - 1)
    if not asked:
        return ""
    answer = asked[p]
    if answer.cause:
        return answer.cause
    if answer.verdict != "OK":
        return VERDICT_WORDS.get(answer.verdict, f"the platform's verdict {answer.verdict}")
    if action != "WA":
        return ""
    why = _why_wrong(table, p, answer)
    said = f"answered {answer.response!r} to {answer.request!r}"
    return f"{said}: {why}" if why else said


def _why_wrong(table: _Table, p: int, answer: Answer) -> str:
    """A plain reading of a WA answer against the table (the judge's verdict stands)."""
    words = (answer.response or "").split(" ")
    hand = list(table.hands[p]) + ([table.drawn[p]] if table.drawn[p] is not None else [])
    last = table.last
    empty = _claim_wall_empty(table)
    if words[0] == "PLAY" and len(words) == 2 and words[1] not in hand:
        return f"it does not hold {words[1]}"
    if last.get("action") in CLAIMED_TURNS and last.get("player") != p:
        discard = str(last.get("tile"))
        if words[0] == "PENG" and Counter(hand)[discard] < 2:
            return f"a pung without a pair of {discard}"
        if words[0] == "GANG" and Counter(hand)[discard] < 3:
            return f"a kong without three {discard}"
        if words[0] in ("PENG", "GANG", "CHI") and empty:
            return empty
    if answer.response == "":
        return "an empty answer"
    return ""


def _claim_wall_empty(table: _Table) -> str:
    if table.variant == "duplicate":
        nxt = (int(table.last.get("player", 0)) + 1) % SEATS
        if table.wall[nxt] == 0:
            return f"a claim while the wall of seat {nxt}, after the discarder, is empty"
        return ""
    return "a claim on an empty wall" if table.wall[0] == 0 else ""


def remaining_walls(view: GameView, state: TableState) -> list[list[str]]:
    """The tiles still in the wall(s) at a state, from ``walltiles`` and the counts."""
    tokens = view.walltiles
    if view.variant == "duplicate":
        size = len(tokens) // SEATS
        return [list(tokens[s * size: s * size + state.wall[s]]) for s in range(SEATS)]
    return [list(tokens[: state.wall[0]])]


# --- the live feed: a game drawn turn by turn as it is played -----------------------------

WIND_LETTERS = "ESWN"
HIDDEN = "??"
_SEAT_WORD = re.compile(r"\bseat (\d)\b")


class LiveTable:
    """A game in play, fed one judge output at a time (``feed``), drawn as the live feed's
    picture (``picture``: concealed tiles as counts, a concealed kong face down, a drawn
    tile unsaid) and, at the end, its hands revealed (``hands``). The same reading of the
    displays as ``game_view``'s, kept incrementally: a turn costs one display."""

    def __init__(self, variant: str, initdata: Mapping[str, Any], names: Sequence[str]) -> None:
        walltiles = tuple(str(initdata.get("walltiles", "")).split(" "))
        quan = initdata.get("quan", 0)
        self.table = _Table(variant, walltiles, quan if isinstance(quan, int) else 0)
        self.names = list(names)
        self.players: list[list[Any]] = [[] for _ in range(SEATS)]
        self.k = 0  # judge outputs read
        self.last: dict[str, Any] | None = None
        self.turn: int | None = None

    def feed(self, output: Mapping[str, Any], entries: Sequence[Mapping[str, Any] | None]
             ) -> None:
        """The next judge output and the seats' entries of the turn that led to it (none
        before the first output)."""
        if self.k > 0:
            for seat in range(SEATS):
                self.players[seat].append(entries[seat] if seat < len(entries) else None)
        display = output.get("display")
        if not isinstance(display, Mapping):
            raise ViewError(f"step {self.k}: the judge output has no display")
        state = _apply(self.table, self.k, display, output, self.players)
        self.table.last = display
        self.k += 1
        self._say(state, display)

    def _say(self, state: TableState, display: Mapping[str, Any]) -> None:
        action, p = state.action, state.actor
        tile: str | None = str(display["tile"]) if "tile" in display else None
        if action == "DRAW" and p is not None:
            text, tile = f"{self.names[p]} draws", None
        elif action == "GANG" and p is not None and self.table.melds[p] \
                and self.table.melds[p][-1].kind == "ANGANG":
            text, tile = f"{self.names[p]} declares a concealed kong", None
        else:
            text = _SEAT_WORD.sub(lambda m: self.names[int(m.group(1))], state.note)
            if action in ("INIT", "DEAL"):
                tile = None
        if p is not None and action not in ("INIT", "DEAL"):
            self.turn = p
        self.last = {"seat": p, "text": text, "tile": tile}

    def picture(self) -> dict[str, Any]:
        t = self.table
        seats = []
        for s in range(SEATS):
            melds = [{"kind": m.kind.lower(),
                      "tiles": [HIDDEN] * 4 if m.kind == "ANGANG" else list(m.tiles),
                      "from": m.source} for m in t.melds[s]]
            seats.append({"name": self.names[s], "wind": WIND_LETTERS[s],
                          "concealed": len(t.hands[s]) + (t.drawn[s] is not None),
                          "melds": melds,
                          "discards": [d.tile for d in t.discards[s] if d.taken_by is None],
                          "flowers": list(t.flowers[s]), "score": None})
        return {"seats": seats, "turn": self.turn, "last": self.last, "wall": sum(t.wall),
                "wind": WIND_LETTERS[t.quan % 4]}

    def kongs(self) -> list[list[str]]:
        """Each seat's concealed kongs, by their tile."""
        return [[m.tiles[0] for m in self.table.melds[s] if m.kind == "ANGANG"]
                for s in range(SEATS)]

    def hands(self) -> list[list[str]]:
        """Each seat's concealed tiles, sorted, the tile just drawn or won last."""
        t = self.table
        return [list(sort_tiles(t.hands[s])) + ([d] if (d := t.drawn[s]) is not None else [])
                for s in range(SEATS)]
