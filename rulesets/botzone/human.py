"""Botzone's human match records: the PKU course's text format, read and written.

A file holds many matches, one event a line, a blank line between matches::

    Match 1234
    Wind 0
    Player 0 Deal W1 W2 ... (13 tiles)     one line per seat
    Player 0 Draw T1                        Draw, Play, Chi (the chow's middle
    Player 0 Play W1                        tile), Peng, Gang (on a discard),
    Player 1 Peng W1 Ignore Player 2 Chi W2 AnGang, BuGang, Hu (the winning tile),
    Player 1 Play B5                        with the claims a higher one overrode
    ...
    Player 3 Hu B5                          or Huang (a draw)
    Fan 9 平和*1+...                         total, then NAME*COUNT joined by +
    Score -8 -8 -8 32

Records carry no wall and no flowers: the draws reveal the wall's tiles in the
order they were drawn. ``parse_file`` reads such text into ``HumanMatch``es
(every item keeps its line number, for messages) and ``format_file`` writes
them back; for a file ``format_file`` wrote, ``format_file(parse_file(text))``
is ``text``, byte for byte. Bad input raises ``HumanFormatError`` naming the
line. Pure: no trio, no I/O.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from rulesets.botzone.tiles import TILE_SET
from server.seam.errors import InputError

ACTIONS = ("Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "Hu")
"""What a ``Player P KIND T`` line may say after the deal."""
CLAIMS = ("Chi", "Peng", "Gang", "Hu")
"""What an ``Ignore Player Q KIND T`` clause may say."""


class HumanFormatError(InputError):
    """A line that is not in the format; the message names the line."""


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim another, higher one overrode (an ``Ignore`` clause)."""

    seat: int
    kind: str
    tile: str


@dataclass(frozen=True, slots=True)
class Action:
    """``Player SEAT KIND TILE``, with the claims it overrode."""

    seat: int
    kind: str
    tile: str
    ignored: tuple[Claim, ...] = ()
    line: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class HumanMatch:
    """One match as the record tells it; ``huang`` or a ``Hu`` action ends it."""

    match_id: str
    wind: int
    deals: tuple[tuple[int, tuple[str, ...]], ...]  # (seat, 13 tiles), in the file's order
    actions: tuple[Action, ...]
    huang: bool = False
    fan: tuple[int, tuple[tuple[str, int], ...]] | None = None
    score: tuple[int, ...] | None = None
    # line numbers: Match, Wind, each Deal (as deals), Huang, Fan, Score (0: absent)
    lines: dict[str, int] = field(default_factory=dict, compare=False)

    def deal_of(self, seat: int) -> tuple[str, ...]:
        for s, tiles in self.deals:
            if s == seat:
                return tiles
        raise KeyError(seat)


# --- reading --------------------------------------------------------------------------

def _tile(word: str, number: int) -> str:
    if word not in TILE_SET:
        raise HumanFormatError(f"line {number}: {word!r} is no tile (W1-W9, B1-B9, T1-T9, "
                               "F1-F4, J1-J3)")
    return word


def _seat(word: str, number: int) -> int:
    if word not in ("0", "1", "2", "3"):
        raise HumanFormatError(f"line {number}: {word!r} is no seat (0-3)")
    return int(word)


def _int(word: str, number: int, what: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise HumanFormatError(f"line {number}: {what} {word!r} is no integer") from None


def parse_action(words: Sequence[str], number: int) -> Action:
    """``Player P KIND T [Ignore Player Q KIND T]...`` (``words`` split at spaces)."""
    if len(words) < 4 or words[2] not in ACTIONS:
        raise HumanFormatError(f"line {number}: expected 'Player P KIND TILE' with KIND one "
                               f"of {', '.join(ACTIONS)}")
    seat, kind, tile = _seat(words[1], number), words[2], _tile(words[3], number)
    rest = list(words[4:])
    ignored: list[Claim] = []
    while rest:
        clause, rest = rest[:5], rest[5:]
        if len(clause) < 5 or clause[0] != "Ignore" or clause[1] != "Player" \
                or clause[3] not in CLAIMS:
            raise HumanFormatError(f"line {number}: expected 'Ignore Player Q KIND TILE' with "
                                   f"KIND one of {', '.join(CLAIMS)} after the action, got "
                                   f"{' '.join(clause)!r}")
        ignored.append(Claim(_seat(clause[2], number), clause[3], _tile(clause[4], number)))
    if ignored and kind not in CLAIMS:
        raise HumanFormatError(f"line {number}: an Ignore clause follows a claim ("
                               f"{', '.join(CLAIMS)}), not {kind}")
    return Action(seat, kind, tile, tuple(ignored), number)


def _fan(words: Sequence[str], number: int) -> tuple[int, tuple[tuple[str, int], ...]]:
    if len(words) not in (2, 3):
        raise HumanFormatError(f"line {number}: expected 'Fan TOTAL NAME*COUNT+...'")
    total = _int(words[1], number, "the fan total")
    fans: list[tuple[str, int]] = []
    for part in words[2].split("+") if len(words) == 3 else []:
        name, star, count = part.rpartition("*")
        if not star or not name:
            raise HumanFormatError(f"line {number}: {part!r} is no NAME*COUNT")
        fans.append((name, _int(count, number, "the fan count")))
    return total, tuple(fans)


def blocks(text: str) -> Iterator[list[tuple[int, str]]]:
    """The file's matches: each a list of (line number, line), blank lines between."""
    block: list[tuple[int, str]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.removesuffix("\r")
        if line.strip():
            block.append((number, line))
        elif block:
            yield block
            block = []
    if block:
        yield block


def parse_match(block: Sequence[tuple[int, str]]) -> HumanMatch:
    """One match from its numbered lines."""
    first_number, first = block[0]
    words = first.split()
    if words[0] != "Match" or len(words) != 2 or not words[1]:
        raise HumanFormatError(f"line {first_number}: a match starts with 'Match ID', got "
                               f"{first[:60]!r}")
    match_id = words[1]
    lines = {"Match": first_number}
    wind = -1
    deals: list[tuple[int, tuple[str, ...]]] = []
    actions: list[Action] = []
    huang = False
    fan: tuple[int, tuple[tuple[str, int], ...]] | None = None
    score: tuple[int, ...] | None = None
    for number, line in block[1:]:
        words = line.split()
        head = words[0]
        if score is not None:
            raise HumanFormatError(f"line {number}: match {match_id}: nothing may follow "
                                   "its Score line but a blank line")
        if head == "Wind":
            if wind >= 0 or len(words) != 2 or words[1] not in ("0", "1", "2", "3"):
                raise HumanFormatError(f"line {number}: expected one 'Wind W' (W 0-3)")
            wind, lines["Wind"] = int(words[1]), number
        elif head == "Player" and len(words) > 2 and words[2] == "Deal":
            seat = _seat(words[1], number)
            if len(words) != 16:
                raise HumanFormatError(f"line {number}: a deal is 13 tiles, got "
                                       f"{len(words) - 3}")
            if actions or any(s == seat for s, _ in deals):
                raise HumanFormatError(f"line {number}: seat {seat}'s deal comes once, "
                                       "before the play")
            deals.append((seat, tuple(_tile(w, number) for w in words[3:])))
            lines[f"Deal {seat}"] = number
        elif head == "Player":
            if len(deals) != 4 or wind < 0:
                raise HumanFormatError(f"line {number}: the play starts after 'Wind' and the "
                                       "four seats' deals")
            if huang or fan is not None:
                raise HumanFormatError(f"line {number}: no play after Huang or Fan")
            actions.append(parse_action(words, number))
        elif head == "Huang" and len(words) == 1:
            huang, lines["Huang"] = True, number
        elif head == "Fan":
            fan, lines["Fan"] = _fan(words, number), number
        elif head == "Score":
            if len(words) != 5:
                raise HumanFormatError(f"line {number}: expected 'Score S0 S1 S2 S3'")
            score = tuple(_int(w, number, "the score") for w in words[1:])
            lines["Score"] = number
        else:
            raise HumanFormatError(f"line {number}: match {match_id}: not a line of the "
                                   f"format: {line[:60]!r}")
    if wind < 0 or len(deals) != 4:
        raise HumanFormatError(f"line {first_number}: match {match_id} lacks its Wind line "
                               "or a seat's deal")
    return HumanMatch(match_id, wind, tuple(deals), tuple(actions), huang, fan, score, lines)


def iter_matches(text: str) -> Iterator[HumanMatch | HumanFormatError]:
    """Each match of a file, or the error of a match that cannot be read (the rest of the
    file is still read)."""
    for block in blocks(text):
        try:
            yield parse_match(block)
        except HumanFormatError as error:
            yield error


def parse_file(text: str) -> list[HumanMatch]:
    """Every match of a file; the first bad line raises ``HumanFormatError``."""
    matches: list[HumanMatch] = []
    for item in iter_matches(text):
        if isinstance(item, HumanFormatError):
            raise item
        matches.append(item)
    return matches


# --- writing --------------------------------------------------------------------------

def format_action(action: Action) -> str:
    text = f"Player {action.seat} {action.kind} {action.tile}"
    return text + "".join(f" Ignore Player {c.seat} {c.kind} {c.tile}" for c in action.ignored)


def format_match(match: HumanMatch) -> list[str]:
    """The match's lines, without line ends."""
    lines = [f"Match {match.match_id}", f"Wind {match.wind}"]
    lines += [f"Player {seat} Deal {' '.join(tiles)}" for seat, tiles in match.deals]
    lines += [format_action(action) for action in match.actions]
    if match.huang:
        lines.append("Huang")
    if match.fan is not None:
        total, fans = match.fan
        listed = "+".join(f"{name}*{count}" for name, count in fans)
        lines.append(f"Fan {total} {listed}" if listed else f"Fan {total}")
    if match.score is not None:
        lines.append("Score " + " ".join(str(s) for s in match.score))
    return lines


def format_file(matches: Sequence[HumanMatch]) -> str:
    """The file of ``matches``: each line ends in a newline, a blank line between matches."""
    return "\n".join("\n".join(format_match(m)) + "\n" for m in matches)
