"""Every line of the protocol as a typed value (SPEC section 3).

``parse_line`` and ``format_line`` are exact inverses: for every message ``m``,
``parse_line(format_line(m)) == m``. A line that is not a message raises
``MalformedLine``, which names the line and the reason; nothing else escapes.

Server-to-AI messages and AI-to-server messages share one namespace (no keyword
is used in both directions); ``FROM_AI`` and ``TO_AI`` say which is which.
"""

from __future__ import annotations

from typing import ClassVar, NoReturn, TypeAlias

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


_set = object.__setattr__  # how a message's __init__ fills its frozen fields


class _Message:
    """What every message is: a frozen value, compared and hashed by its fields.

    This is what ``@dataclass(frozen=True, slots=True)`` made of each message (the
    same ``repr``, ``==``, ``hash``, ``__match_args__`` and ``FrozenInstanceError``),
    written once by hand: building the 23 dataclasses cost every bot process about
    15 ms of CPU at start, more than a short hand of play. A subclass names its
    fields in ``__slots__`` and ``__match_args__`` (the same, in order) and sets them
    in ``__init__`` with ``_set``.
    """

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    keyword: ClassVar[str]

    def _values(self) -> tuple[object, ...]:
        return tuple([getattr(self, name) for name in self.__match_args__])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.__match_args__])
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise _frozen(name)

    def __delattr__(self, name: str) -> NoReturn:
        raise _frozen(name)

    def __reduce__(self) -> tuple[type[_Message], tuple[object, ...]]:
        return self.__class__, self._values()  # pickle and copy: built again, not set


def _frozen(name: str) -> Exception:
    from dataclasses import FrozenInstanceError  # only on this mistake

    return FrozenInstanceError(f"cannot assign to field {name!r}")


# --- AI to server -------------------------------------------------------------


class Join(_Message):
    """``join``; over TCP ``join NAME TOKEN``."""

    __slots__ = ("name", "token")
    __match_args__ = ("name", "token")
    keyword: ClassVar[str] = "join"

    name: str | None
    token: str | None

    def __init__(self, name: str | None = None, token: str | None = None) -> None:
        _set(self, "name", name)
        _set(self, "token", token)


class Out(_Message):
    __slots__ = ("tile",)
    __match_args__ = ("tile",)
    keyword: ClassVar[str] = "out"

    tile: Tile

    def __init__(self, tile: Tile) -> None:
        _set(self, "tile", tile)


class Hu(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "hu"


class AGang(_Message):
    __slots__ = ("tile",)
    __match_args__ = ("tile",)
    keyword: ClassVar[str] = "agang"

    tile: Tile

    def __init__(self, tile: Tile) -> None:
        _set(self, "tile", tile)


class JGang(_Message):
    __slots__ = ("tile",)
    __match_args__ = ("tile",)
    keyword: ClassVar[str] = "jgang"

    tile: Tile

    def __init__(self, tile: Tile) -> None:
        _set(self, "tile", tile)


class Pass(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "pass"


class Peng(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "peng"


class Gang(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "gang"


class Chi(_Message):
    """``chi X``: X is the lowest tile of the run."""

    __slots__ = ("tile",)
    __match_args__ = ("tile",)
    keyword: ClassVar[str] = "chi"

    tile: Tile

    def __init__(self, tile: Tile) -> None:
        _set(self, "tile", tile)


class QGang(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "qgang"


# --- server to AI -------------------------------------------------------------


class Id(_Message):
    __slots__ = ("seat",)
    __match_args__ = ("seat",)
    keyword: ClassVar[str] = "id"

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class First(_Message):
    __slots__ = ("seat",)
    __match_args__ = ("seat",)
    keyword: ClassVar[str] = "first"

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class Init(_Message):
    __slots__ = ("tiles",)
    __match_args__ = ("tiles",)
    keyword: ClassVar[str] = "init"

    tiles: tuple[Tile, ...]

    def __init__(self, tiles: tuple[Tile, ...]) -> None:
        _set(self, "tiles", tiles)


class Pick(_Message):
    __slots__ = ("tile",)
    __match_args__ = ("tile",)
    keyword: ClassVar[str] = "pick"

    tile: Tile

    def __init__(self, tile: Tile) -> None:
        _set(self, "tile", tile)


class MPick(_Message):
    __slots__ = ("seat",)
    __match_args__ = ("seat",)
    keyword: ClassVar[str] = "mpick"

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class MOut(_Message):
    __slots__ = ("seat", "tile")
    __match_args__ = ("seat", "tile")
    keyword: ClassVar[str] = "mout"

    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        _set(self, "seat", seat)
        _set(self, "tile", tile)


class MPeng(_Message):
    __slots__ = ("seat", "tile")
    __match_args__ = ("seat", "tile")
    keyword: ClassVar[str] = "mpeng"

    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        _set(self, "seat", seat)
        _set(self, "tile", tile)


class MChi(_Message):
    __slots__ = ("seat", "tile")
    __match_args__ = ("seat", "tile")
    keyword: ClassVar[str] = "mchi"

    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        _set(self, "seat", seat)
        _set(self, "tile", tile)


class MGang(_Message):
    __slots__ = ("seat", "tile")
    __match_args__ = ("seat", "tile")
    keyword: ClassVar[str] = "mgang"

    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        _set(self, "seat", seat)
        _set(self, "tile", tile)


class MAGang(_Message):
    __slots__ = ("seat",)
    __match_args__ = ("seat",)
    keyword: ClassVar[str] = "magang"

    seat: int

    def __init__(self, seat: int) -> None:
        _set(self, "seat", seat)


class MJGang(_Message):
    __slots__ = ("seat", "tile")
    __match_args__ = ("seat", "tile")
    keyword: ClassVar[str] = "mjgang"

    seat: int
    tile: Tile

    def __init__(self, seat: int, tile: Tile) -> None:
        _set(self, "seat", seat)
        _set(self, "tile", tile)


class MFail(_Message):
    __slots__ = ()
    keyword: ClassVar[str] = "mfail"


class MHu(_Message):
    """Opt-in end-of-hand announcement (``--announce``)."""

    __slots__ = ("discarder", "fans", "winner")
    __match_args__ = ("winner", "discarder", "fans")
    keyword: ClassVar[str] = "mhu"

    winner: int
    discarder: int
    fans: int

    def __init__(self, winner: int, discarder: int, fans: int) -> None:
        _set(self, "winner", winner)
        _set(self, "discarder", discarder)
        _set(self, "fans", fans)


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
    for field in message.__match_args__:
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
