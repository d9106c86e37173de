"""The original server's per-game text log, read and written exactly.

The format (``tests/data/legacy-logs/`` holds five real logs of it)::

    ver 1.0
    Mahjong Contest Round R Game G
    <four AI paths, one a line>
    <first actor seat>
    <four lines: the 13 initial tiles of seats 0..3>
    <blank line>
    pick S T | out S T | peng S FROM T | chi S FROM LOWEST | gang S FROM T
    agang S T | jgang S T | hu S        (a drawn hand ends them with: draw)
    <blank line>
    win S tsumo | win S ron FROM        (or: draw)
    fans N
    <N lines: fan name:value>
    score F

``parse_legacy_log`` and ``format_legacy_log`` are exact inverses on every log
the original wrote: the text comes back byte for byte. Malformed input raises
``ValueError`` naming the line. ``winning_hand`` rebuilds the winner's hand
from the events, so a recorded win can be scored again.

What the original server (sticnarf/Mahjong, ``server/src/main.rs``) does and
the five stored logs do not show: it ends lines with CRLF (the stored copies
have LF; both are read, and written back as found); a drawn hand ends the
events with a ``draw`` line (kept as ``result is None``, not as an event) and
the result is ``draw``, with no fan lines; a fan that
occurs more than once is one line ``name×N:points``; fan lines come in no
particular order (a hash map's); a robbed kong is ``win S ron OWNER`` after
the owner's ``jgang``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeAlias

from protocol.tiles import Tile, TileError, format_tiles, parse_tile
from scoring.fans import FanResult, WinningHand
from scoring.melds import Meld, MeldKind

SEATS = 4
HAND_SIZE = 13
WinHow: TypeAlias = Literal["tsumo", "ron"]


# --- events -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PickEvent:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "pick"


@dataclass(frozen=True, slots=True)
class OutEvent:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "out"


@dataclass(frozen=True, slots=True)
class PengEvent:
    seat: int
    source: int  # the discarder
    tile: Tile
    keyword: ClassVar[str] = "peng"


@dataclass(frozen=True, slots=True)
class ChiEvent:
    seat: int
    source: int
    tile: Tile  # the lowest tile of the run; the claimed tile is the last discard
    keyword: ClassVar[str] = "chi"


@dataclass(frozen=True, slots=True)
class GangEvent:
    """An exposed kong on a discard."""

    seat: int
    source: int
    tile: Tile
    keyword: ClassVar[str] = "gang"


@dataclass(frozen=True, slots=True)
class AGangEvent:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "agang"


@dataclass(frozen=True, slots=True)
class JGangEvent:
    """An added kong: a melded pung and the fourth tile."""

    seat: int
    tile: Tile
    keyword: ClassVar[str] = "jgang"


@dataclass(frozen=True, slots=True)
class HuEvent:
    seat: int
    keyword: ClassVar[str] = "hu"


LegacyEvent: TypeAlias = (
    PickEvent | OutEvent | PengEvent | ChiEvent | GangEvent | AGangEvent | JGangEvent | HuEvent
)
_FROM_EVENTS = (PengEvent, ChiEvent, GangEvent)
_TILE_EVENTS = (PickEvent, OutEvent, AGangEvent, JGangEvent)


# --- the log ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LegacyWin:
    winner: int
    how: WinHow
    source: int | None  # the discarder on "ron", None on "tsumo"
    fans: tuple[tuple[str, int], ...]  # (name, value) as recorded, in order
    score: int  # the fan total as recorded (not points)


REPEAT_MARK = "×"  # a fan counted N times is written ``name×N:points``


def legacy_fans(result: FanResult) -> tuple[tuple[str, int], ...]:
    """Fan lines as the original wrote them: a fan counted more than once is
    named ``name×N``, its value the points of all N together."""
    counts = dict(result.counts)
    return tuple((f"{name}{REPEAT_MARK}{counts[name]}" if counts.get(name, 1) > 1 else name,
                  points) for name, points in result.fans)


def fan_name(recorded: str) -> str:
    """A recorded fan line's name without its ``×N`` count."""
    name, mark, times = recorded.rpartition(REPEAT_MARK)
    return name if mark and times.isdigit() else recorded


# The original server spells 单钓将 as 单调将.
LEGACY_NAMES = {"单调将": "单钓将"}


def our_fan_name(recorded: str) -> str:
    """The name in this server's fan table of a recorded fan (``箭刻×2``, ``单调将``)."""
    name = fan_name(recorded)
    return LEGACY_NAMES.get(name, name)


@dataclass(frozen=True, slots=True)
class LegacyLog:
    round: int
    game: int
    ais: tuple[str, ...]  # four AI paths, seats 0..3
    first: int
    hands: tuple[tuple[Tile, ...], ...]  # four initial 13-tile hands, in dealt order
    events: tuple[LegacyEvent, ...]
    result: LegacyWin | None  # None for a draw
    version: str = "1.0"
    newline: str = "\n"  # "\r\n" as the original wrote; "\n" as the stored copies have


# --- parsing ----------------------------------------------------------------------


class _Lines:
    """The log's lines with a cursor, so errors can name the line they are about."""

    def __init__(self, text: str) -> None:
        if not text.endswith("\n"):
            raise ValueError("legacy log: the text does not end with a newline")
        self.newline = "\r\n" if text.endswith("\r\n") else "\n"
        self.lines = text[: -len(self.newline)].split(self.newline)
        self.read = 0  # lines read so far; the last one read is line number ``read``

    def error(self, reason: str) -> ValueError:
        return ValueError(f"legacy log line {self.read}: {reason}")

    def next(self, what: str) -> str:
        if self.read >= len(self.lines):
            raise ValueError(f"legacy log line {self.read + 1}: missing {what} (end of file)")
        self.read += 1
        return self.lines[self.read - 1]

    def rest(self) -> list[str]:
        return self.lines[self.read :]

    def number(self, text: str, what: str) -> int:
        if not text.isascii() or not text.isdigit() or text != str(int(text)):
            raise self.error(f"{what} {text!r} is not a number")
        return int(text)

    def seat(self, text: str) -> int:
        seat = self.number(text, "seat")
        if seat >= SEATS:
            raise self.error(f"seat {text!r} is not 0..{SEATS - 1}")
        return seat

    def tile(self, text: str) -> Tile:
        try:
            return parse_tile(text)
        except TileError as exc:
            raise self.error(str(exc)) from None

    def words(self, line: str, keyword: str, n_args: int) -> list[str]:
        """The fields after ``keyword`` in a line that must be ``keyword`` and n fields."""
        words = line.split(" ")
        if words[0] != keyword or len(words) != n_args + 1:
            raise self.error(f"expected '{keyword}' and {n_args} field(s), got {line!r}")
        return words[1:]


def _parse_event(lines: _Lines, line: str) -> LegacyEvent:
    keyword = line.split(" ")[0]
    if keyword == HuEvent.keyword:
        (seat,) = lines.words(line, keyword, 1)
        return HuEvent(lines.seat(seat))
    for cls in _FROM_EVENTS:
        if keyword == cls.keyword:
            seat, source, tile = lines.words(line, keyword, 3)
            return cls(lines.seat(seat), lines.seat(source), lines.tile(tile))
    for tcls in _TILE_EVENTS:
        if keyword == tcls.keyword:
            seat, tile = lines.words(line, keyword, 2)
            return tcls(lines.seat(seat), lines.tile(tile))
    raise lines.error(f"unknown event {line!r}")


def _parse_result(lines: _Lines) -> LegacyWin | None:
    line = lines.next("the result ('win ...' or 'draw')")
    if line == "draw":
        return None
    words = line.split(" ")
    if words[0] != "win" or len(words) < 3:
        raise lines.error(f"expected 'win S tsumo', 'win S ron FROM' or 'draw', got {line!r}")
    winner = lines.seat(words[1])
    source: int | None = None
    how: WinHow
    if words[2:] == ["tsumo"]:
        how = "tsumo"
    elif words[2] == "ron" and len(words) == 4:
        how = "ron"
        source = lines.seat(words[3])
    else:
        raise lines.error(f"expected 'win S tsumo' or 'win S ron FROM', got {line!r}")
    (count,) = lines.words(lines.next("'fans N'"), "fans", 1)
    fans = []
    for _ in range(lines.number(count, "fan count")):
        fan_line = lines.next("a 'name:value' fan line")
        name, colon, value = fan_line.rpartition(":")
        if not colon or not name:
            raise lines.error(f"expected 'name:value', got {fan_line!r}")
        fans.append((name, lines.number(value, "fan value")))
    (total,) = lines.words(lines.next("'score F'"), "score", 1)
    return LegacyWin(winner, how, source, tuple(fans), lines.number(total, "score"))


def parse_legacy_log(text: str) -> LegacyLog:
    """The log a text holds; ``ValueError`` naming the line if it is malformed."""
    lines = _Lines(text)
    (version,) = lines.words(lines.next("the version line"), "ver", 1)
    title = lines.next("the title line")
    words = title.split(" ")
    if words[:3] != ["Mahjong", "Contest", "Round"] or len(words) != 6 or words[4] != "Game":
        raise lines.error(f"expected 'Mahjong Contest Round R Game G', got {title!r}")
    round_no = lines.number(words[3], "round")
    game_no = lines.number(words[5], "game")
    ais = tuple(lines.next(f"the path of AI {seat}") for seat in range(SEATS))
    first = lines.seat(lines.next("the first actor"))
    hands = []
    for seat in range(SEATS):
        codes = lines.next(f"the initial hand of seat {seat}").split(" ")
        if len(codes) != HAND_SIZE:
            raise lines.error(f"seat {seat}'s initial hand has {len(codes)} tiles, not 13")
        hands.append(tuple(lines.tile(code) for code in codes))
    if (line := lines.next("a blank line after the initial hands")) != "":
        raise lines.error(f"expected a blank line after the initial hands, got {line!r}")
    events = []
    drawn = False  # the original ends a drawn hand's events with a "draw" line
    while (line := lines.next("the events and a blank line")) != "":
        if drawn:
            raise lines.error(f"an event after the 'draw' line: {line!r}")
        if line == "draw":
            drawn = True
        else:
            events.append(_parse_event(lines, line))
    result_line = lines.read + 1
    result = _parse_result(lines)
    if drawn != (result is None):
        raise ValueError(f"legacy log line {result_line}: a drawn hand's events end with a "
                         "'draw' line, and only a drawn hand's")
    if lines.rest():
        extra = lines.next("the end of the file")
        raise lines.error(f"unexpected text after the result: {extra!r}")
    return LegacyLog(round_no, game_no, ais, first, tuple(hands), tuple(events), result,
                     version, lines.newline)


# --- formatting -------------------------------------------------------------------


def format_event(event: LegacyEvent) -> str:
    if isinstance(event, HuEvent):
        return f"hu {event.seat}"
    if isinstance(event, PengEvent | ChiEvent | GangEvent):
        return f"{event.keyword} {event.seat} {event.source} {event.tile.code}"
    return f"{event.keyword} {event.seat} {event.tile.code}"


def format_legacy_log(log: LegacyLog) -> str:
    """The log's text, as the original server wrote it."""
    out = [f"ver {log.version}", f"Mahjong Contest Round {log.round} Game {log.game}"]
    out.extend(log.ais)
    out.append(str(log.first))
    out.extend(format_tiles(hand) for hand in log.hands)
    out.append("")
    out.extend(format_event(e) for e in log.events)
    win = log.result
    if win is None:
        out.extend(("draw", "", "draw"))
    else:
        tail = "tsumo" if win.how == "tsumo" else f"ron {win.source}"
        out.append("")
        out.append(f"win {win.winner} {tail}")
        out.append(f"fans {len(win.fans)}")
        out.extend(f"{name}:{value}" for name, value in win.fans)
        out.append(f"score {win.score}")
    return log.newline.join(out) + log.newline


# --- replay -----------------------------------------------------------------------


def winning_hand(log: LegacyLog) -> WinningHand:
    """The winner's hand at the moment of the win, rebuilt from the events.

    ``ValueError`` (naming the event) when the events are inconsistent: a tile
    played that the seat does not hold, a claim of a tile that was not the last
    discard, or a result that does not match the ``hu`` event.
    """
    if log.result is None:
        raise ValueError("the hand was a draw: there is no winning hand")
    concealed = [Counter(hand) for hand in log.hands]
    melds: list[list[Meld]] = [[] for _ in range(SEATS)]
    previous: LegacyEvent | None = None

    def take(n: int, seat: int, tile: Tile, where: int) -> None:
        if concealed[seat][tile] < n:
            raise ValueError(f"event {where}: seat {seat} holds {concealed[seat][tile]} "
                             f"{tile.code}, needs {n}")
        concealed[seat][tile] -= n

    def claimed(event: PengEvent | ChiEvent | GangEvent, where: int) -> Tile:
        if not isinstance(previous, OutEvent) or previous.seat != event.source:
            raise ValueError(f"event {where}: seat {event.source} did not just discard")
        return previous.tile

    for where, event in enumerate(log.events, start=1):
        if isinstance(event, PickEvent):
            concealed[event.seat][event.tile] += 1
        elif isinstance(event, OutEvent):
            take(1, event.seat, event.tile, where)
        elif isinstance(event, PengEvent | GangEvent):
            if claimed(event, where) != event.tile:
                raise ValueError(f"event {where}: the last discard was not {event.tile.code}")
            size = 2 if isinstance(event, PengEvent) else 3
            take(size, event.seat, event.tile, where)
            kind = MeldKind.PUNG if isinstance(event, PengEvent) else MeldKind.KONG
            melds[event.seat].append(Meld(kind, event.tile))
        elif isinstance(event, ChiEvent):
            tile = claimed(event, where)
            if event.tile.is_honor or event.tile.rank > 7 or not 0 <= tile - event.tile <= 2:
                raise ValueError(f"event {where}: no run from {event.tile.code} holds "
                                 f"{tile.code}")
            for t in range(event.tile, event.tile + 3):
                if t != tile:
                    take(1, event.seat, Tile(t), where)
            melds[event.seat].append(Meld(MeldKind.CHOW, event.tile))
        elif isinstance(event, AGangEvent):
            take(4, event.seat, event.tile, where)
            melds[event.seat].append(Meld(MeldKind.CONCEALED_KONG, event.tile))
        elif isinstance(event, JGangEvent):
            pung = Meld(MeldKind.PUNG, event.tile)
            if pung not in melds[event.seat]:
                raise ValueError(f"event {where}: seat {event.seat} has no pung of "
                                 f"{event.tile.code} to add to")
            take(1, event.seat, event.tile, where)
            i = melds[event.seat].index(pung)
            melds[event.seat][i] = Meld(MeldKind.KONG, event.tile)
        else:
            return _win(log, log.result, event, previous, concealed[event.seat],
                        melds[event.seat], where)
        previous = event
    raise ValueError("the events hold no 'hu'")


def _win(log: LegacyLog, result: LegacyWin, hu: HuEvent, previous: LegacyEvent | None,
         concealed: Counter[Tile], melds: list[Meld], where: int) -> WinningHand:
    if hu.seat != result.winner:
        raise ValueError(f"event {where}: seat {hu.seat} says hu, the result names "
                         f"seat {result.winner}")
    if where != len(log.events):
        raise ValueError(f"event {where}: events follow the 'hu'")
    if result.how == "tsumo":
        if not isinstance(previous, PickEvent) or previous.seat != hu.seat:
            raise ValueError(f"event {where}: a self-drawn win must follow the winner's pick")
        win = previous.tile
        concealed[win] -= 1
    elif isinstance(previous, OutEvent | JGangEvent) and previous.seat == result.source:
        win = previous.tile  # a discard, or a robbed added kong
    else:
        raise ValueError(f"event {where}: a win on a discard must follow seat "
                         f"{result.source}'s discard or added kong")
    tiles = tuple(sorted(concealed.elements()))
    return WinningHand(tiles, tuple(melds), win, result.how == "tsumo")
