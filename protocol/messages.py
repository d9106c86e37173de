"""Every line of the protocol as a typed value (SPEC section 3).

``parse_line`` and ``format_line`` are exact inverses: for every message ``m``,
``parse_line(format_line(m)) == m``. A line that is not a message raises
``MalformedLine``, which names the line and the reason; nothing else escapes.

Server-to-AI messages and AI-to-server messages share one namespace (no keyword
is used in both directions); ``FROM_AI`` and ``TO_AI`` say which is which.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import ClassVar, TypeAlias

from protocol.tiles import CODES, Tile, TileError, parse_tile

MAX_SEAT = 3
HAND_SIZE = 13


class MalformedLine(ValueError):
    """A line that is not a protocol message."""

    def __init__(self, line: str, reason: str) -> None:
        shown = line if len(line) <= 80 else line[:77] + "..."
        super().__init__(f"malformed line {shown!r}: {reason}")
        self.line = line
        self.reason = reason


# --- AI to server -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """``join``; over TCP ``join NAME TOKEN``."""

    name: str | None = None
    token: str | None = None
    keyword: ClassVar[str] = "join"


@dataclass(frozen=True, slots=True)
class Out:
    tile: Tile
    keyword: ClassVar[str] = "out"


@dataclass(frozen=True, slots=True)
class Hu:
    keyword: ClassVar[str] = "hu"


@dataclass(frozen=True, slots=True)
class AGang:
    tile: Tile
    keyword: ClassVar[str] = "agang"


@dataclass(frozen=True, slots=True)
class JGang:
    tile: Tile
    keyword: ClassVar[str] = "jgang"


@dataclass(frozen=True, slots=True)
class Pass:
    keyword: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Peng:
    keyword: ClassVar[str] = "peng"


@dataclass(frozen=True, slots=True)
class Gang:
    keyword: ClassVar[str] = "gang"


@dataclass(frozen=True, slots=True)
class Chi:
    """``chi X``: X is the lowest tile of the run."""

    tile: Tile
    keyword: ClassVar[str] = "chi"


@dataclass(frozen=True, slots=True)
class QGang:
    keyword: ClassVar[str] = "qgang"


# --- server to AI -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Id:
    seat: int
    keyword: ClassVar[str] = "id"


@dataclass(frozen=True, slots=True)
class First:
    seat: int
    keyword: ClassVar[str] = "first"


@dataclass(frozen=True, slots=True)
class Init:
    tiles: tuple[Tile, ...]
    keyword: ClassVar[str] = "init"


@dataclass(frozen=True, slots=True)
class Pick:
    tile: Tile
    keyword: ClassVar[str] = "pick"


@dataclass(frozen=True, slots=True)
class MPick:
    seat: int
    keyword: ClassVar[str] = "mpick"


@dataclass(frozen=True, slots=True)
class MOut:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "mout"


@dataclass(frozen=True, slots=True)
class MPeng:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "mpeng"


@dataclass(frozen=True, slots=True)
class MChi:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "mchi"


@dataclass(frozen=True, slots=True)
class MGang:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "mgang"


@dataclass(frozen=True, slots=True)
class MAGang:
    seat: int
    keyword: ClassVar[str] = "magang"


@dataclass(frozen=True, slots=True)
class MJGang:
    seat: int
    tile: Tile
    keyword: ClassVar[str] = "mjgang"


@dataclass(frozen=True, slots=True)
class MFail:
    keyword: ClassVar[str] = "mfail"


@dataclass(frozen=True, slots=True)
class MHu:
    """Opt-in end-of-hand announcement (``--announce``)."""

    winner: int
    discarder: int
    fans: int
    keyword: ClassVar[str] = "mhu"


FromAI: TypeAlias = Join | Out | Hu | AGang | JGang | Pass | Peng | Gang | Chi | QGang
ToAI: TypeAlias = (
    Id | First | Init | Pick | MPick | MOut | MPeng | MChi | MGang | MAGang | MJGang | MFail | MHu
)
Message: TypeAlias = FromAI | ToAI

FROM_AI: tuple[type[FromAI], ...] = (Join, Out, Hu, AGang, JGang, Pass, Peng, Gang, Chi, QGang)
TO_AI: tuple[type[ToAI], ...] = (
    Id, First, Init, Pick, MPick, MOut, MPeng, MChi, MGang, MAGang, MJGang, MFail, MHu,
)

# The argument shape of each keyword: "s" a seat, "t" a tile, "n" a count,
# "h" thirteen tiles. Join is special-cased (optional name and token).
_SHAPES: dict[type[Message], str] = {
    Out: "t", Hu: "", AGang: "t", JGang: "t", Pass: "", Peng: "", Gang: "", Chi: "t",
    QGang: "", Id: "s", First: "s", Init: "h", Pick: "t", MPick: "s", MOut: "st",
    MPeng: "st", MChi: "st", MGang: "st", MAGang: "s", MJGang: "st", MFail: "", MHu: "ssn",
}
_BY_KEYWORD: dict[str, type[Message]] = {cls.keyword: cls for cls in (*FROM_AI, *TO_AI)}
_FIELDS: dict[type[Message], tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in _BY_KEYWORD.values()
}
_MAX_TOKEN = 64


def _seat(line: str, text: str) -> int:
    if len(text) != 1 or not "0" <= text <= str(MAX_SEAT):
        raise MalformedLine(line, f"seat {text!r} is not 0..{MAX_SEAT}")
    return int(text)


def _tile(line: str, text: str) -> Tile:
    try:
        return parse_tile(text)
    except TileError as exc:
        raise MalformedLine(line, str(exc)) from None


def _count(line: str, text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 6:
        raise MalformedLine(line, f"{text!r} is not a small non-negative number")
    if text != str(int(text)):
        raise MalformedLine(line, f"{text!r} has leading zeros")
    return int(text)


def _name(line: str, text: str) -> str:
    if not 0 < len(text) <= _MAX_TOKEN or not text.isascii() or not text.isprintable():
        raise MalformedLine(line, f"name or token {text[:20]!r} is not 1..{_MAX_TOKEN} "
                                  "printable ASCII characters")
    return text


def parse_line(line: str) -> Message:
    """The message a line holds; surrounding blanks and a trailing CR are ignored."""
    fields = line.strip().split(" ")
    keyword, args = fields[0], fields[1:]
    if keyword == "":
        raise MalformedLine(line, "empty line")
    cls = _BY_KEYWORD.get(keyword)
    if cls is None:
        raise MalformedLine(line, f"unknown keyword {keyword[:20]!r}")
    if cls is Join:
        if len(args) not in (0, 2):
            raise MalformedLine(line, "join takes nothing, or a name and a token")
        if args:
            return Join(_name(line, args[0]), _name(line, args[1]))
        return Join()
    shape = _SHAPES[cls]
    if shape == "h":
        if len(args) != HAND_SIZE:
            raise MalformedLine(line, f"init needs {HAND_SIZE} tiles, got {len(args)}")
        return Init(tuple(_tile(line, a) for a in args))
    if len(args) != len(shape):
        raise MalformedLine(line, f"{keyword} takes {len(shape)} argument(s), got {len(args)}")
    values: list[object] = []
    for kind, text in zip(shape, args, strict=True):
        if kind == "s":
            values.append(_seat(line, text))
        elif kind == "t":
            values.append(_tile(line, text))
        else:
            values.append(_count(line, text))
    return cls(*values)  # type: ignore[arg-type]


def format_line(message: Message) -> str:
    """The line for a message, without a line terminator."""
    if isinstance(message, Join):
        if message.name is None or message.token is None:
            return "join"
        return f"join {message.name} {message.token}"
    if isinstance(message, Init):
        return "init " + " ".join(CODES[t] for t in message.tiles)
    parts = [message.keyword]
    for field in _FIELDS[type(message)]:
        value = getattr(message, field)
        parts.append(CODES[value] if isinstance(value, Tile) else str(value))
    return " ".join(parts)


def parse_from_ai(line: str) -> FromAI:
    """Like ``parse_line``, but only messages an AI may send."""
    message = parse_line(line)
    if not isinstance(message, FROM_AI):
        raise MalformedLine(line, f"{message.keyword!r} is a server message")
    return message


def parse_to_ai(line: str) -> ToAI:
    """Like ``parse_line``, but only messages a server may send."""
    message = parse_line(line)
    if not isinstance(message, TO_AI):
        raise MalformedLine(line, f"{message.keyword!r} is an AI message")
    return message
