"""Protocol messages (SPEC section 3): one case table drives parse and format."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.messages import (
    FROM_AI,
    TO_AI,
    AGang,
    Chi,
    First,
    Gang,
    Hu,
    Id,
    Init,
    JGang,
    Join,
    MAGang,
    MalformedLine,
    MChi,
    Message,
    MFail,
    MGang,
    MHu,
    MJGang,
    MOut,
    MPeng,
    MPick,
    Out,
    Pass,
    Peng,
    Pick,
    QGang,
    format_line,
    parse_from_ai,
    parse_line,
    parse_to_ai,
)
from protocol.tiles import ALL_TILES, Tile, parse_tiles

# Deterministic property tests: the same examples on every run, no database.
PROPERTY = settings(derandomize=True, database=None, max_examples=200, deadline=None)

HAND = tuple(parse_tiles("1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 6T"))

# (line, message): every message type of both directions, in canonical form.
CASES: list[tuple[str, Message]] = [
    # AI to server
    ("join", Join()),
    ("join alice s3cret", Join("alice", "s3cret")),
    ("out 9M", Out(Tile.M9)),
    ("out S", Out(Tile.SOUTH)),
    ("hu", Hu()),
    ("agang W", AGang(Tile.WEST)),
    ("jgang 5S", JGang(Tile.S5)),
    ("pass", Pass()),
    ("peng", Peng()),
    ("gang", Gang()),
    ("chi 7M", Chi(Tile.M7)),
    ("qgang", QGang()),
    # server to AI
    ("id 3", Id(3)),
    ("first 0", First(0)),
    ("init 1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 6T", Init(HAND)),
    ("pick 5T", Pick(Tile.T5)),
    ("mpick 0", MPick(0)),
    ("mout 2 9M", MOut(2, Tile.M9)),
    ("mpeng 2 9M", MPeng(2, Tile.M9)),
    ("mchi 1 7M", MChi(1, Tile.M7)),
    ("mgang 3 5S", MGang(3, Tile.S5)),
    ("magang 3", MAGang(3)),
    ("mjgang 3 5S", MJGang(3, Tile.S5)),
    ("mfail", MFail()),
    ("mhu 1 3 25", MHu(1, 3, 25)),
    ("mhu 2 2 0", MHu(2, 2, 0)),
]
FROM_AI_CASES = [(line, m) for line, m in CASES if isinstance(m, FROM_AI)]
TO_AI_CASES = [(line, m) for line, m in CASES if isinstance(m, TO_AI)]


def test_case_table_covers_every_message_type():
    assert {type(m) for _, m in CASES} == set(FROM_AI) | set(TO_AI)


def test_no_keyword_is_used_in_both_directions():
    assert not {c.keyword for c in FROM_AI} & {c.keyword for c in TO_AI}


@pytest.mark.parametrize(("line", "message"), CASES)
def test_parse_line_reads_each_case(line, message):
    assert parse_line(line) == message


@pytest.mark.parametrize(("line", "message"), CASES)
def test_format_line_writes_each_case(line, message):
    assert format_line(message) == line


@pytest.mark.parametrize(("line", "message"), CASES)
@pytest.mark.parametrize(
    "dressed",
    ["{}\r\n", "{}\n", "{}\r", "  {}  ", "\t{}\t", " {} \r\n"],
    ids=["crlf", "lf", "cr", "spaces", "tabs", "blanks-and-crlf"],
)
def test_crlf_and_surrounding_blanks_are_accepted(line, message, dressed):
    assert parse_line(dressed.format(line)) == message


@pytest.mark.parametrize(("line", "message"), FROM_AI_CASES)
def test_parse_from_ai_accepts_ai_messages(line, message):
    assert parse_from_ai(line) == message


@pytest.mark.parametrize(("line", "message"), TO_AI_CASES)
def test_parse_from_ai_rejects_server_messages(line, message):
    with pytest.raises(MalformedLine, match="server message"):
        parse_from_ai(line)


@pytest.mark.parametrize(("line", "message"), TO_AI_CASES)
def test_parse_to_ai_accepts_server_messages(line, message):
    assert parse_to_ai(line) == message


@pytest.mark.parametrize(("line", "message"), FROM_AI_CASES)
def test_parse_to_ai_rejects_ai_messages(line, message):
    with pytest.raises(MalformedLine, match="AI message"):
        parse_to_ai(line)


# (line, a fragment of the reason)
MALFORMED = [
    ("", "empty line"),
    ("   \r\n", "empty line"),
    ("dance", "unknown keyword"),
    ("OUT 1M", "unknown keyword"),
    ("Hu", "unknown keyword"),
    ("out", "takes 1 argument"),
    ("out 1M 2M", "takes 1 argument"),
    ("out  1M", "takes 1 argument"),  # fields are separated by exactly one space
    ("out\t1M", "unknown keyword"),
    ("out 0M", "unknown tile"),
    ("out 1m", "unknown tile"),
    ("chi E X", "takes 1 argument"),
    ("hu now", "takes 0 argument"),
    ("pass 1", "takes 0 argument"),
    ("id 4", "seat"),
    ("id -1", "seat"),
    ("id 01", "seat"),
    ("id x", "seat"),
    ("mout 2", "takes 2 argument"),
    ("mout 9M 2", "seat"),
    ("mout 2 10M", "unknown tile"),
    ("mhu 1 3 025", "leading zeros"),
    ("mhu 1 3 -5", "not a small non-negative number"),
    ("mhu 1 3 1234567", "not a small non-negative number"),
    ("mhu 1 3 ٣", "not a small non-negative number"),
    ("init 1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S", "init needs 13 tiles, got 12"),
    ("init 1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 6T 6T", "init needs 13 tiles, got 14"),
    ("init 1S 1S 2T 5M 9S 4T W Z 1T 8M 9M 5S 0T", "unknown tile"),
    ("join alice", "join takes nothing, or a name and a token"),
    ("join a b c", "join takes nothing, or a name and a token"),
    ("join  token", "name or token"),  # an empty name
    ("join alicé token", "name or token"),
    ("join " + "a" * 65 + " token", "name or token"),
]


@pytest.mark.parametrize(("line", "reason"), MALFORMED)
def test_malformed_line_raises_naming_the_line_and_the_reason(line, reason):
    with pytest.raises(MalformedLine) as info:
        parse_line(line)
    assert info.value.line == line
    assert reason in info.value.reason
    assert reason in str(info.value)


def test_malformed_line_message_shortens_a_long_line():
    line = "x" * 5000
    with pytest.raises(MalformedLine) as info:
        parse_line(line)
    assert len(str(info.value)) < 200
    assert info.value.line == line


def test_join_name_of_64_characters_is_accepted():
    name = "n" * 64
    assert parse_line(f"join {name} t") == Join(name, "t")


# --- properties ------------------------------------------------------------------

tiles = st.sampled_from(ALL_TILES)
seats = st.integers(0, 3)
names = st.text(
    alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=1, max_size=64
)


def _from_class(cls: type) -> st.SearchStrategy[Message]:
    """Every valid instance of one message class."""
    if cls is Join:
        return st.just(Join()) | st.builds(Join, names, names)
    if cls is Init:
        return st.builds(Init, st.tuples(*[tiles] * 13))
    if cls is MHu:
        return st.builds(MHu, seats, seats, st.integers(0, 999_999))
    shapes = {"tile": tiles, "seat": seats}
    return st.builds(cls, *[shapes[name] for name in cls.__match_args__])


messages = st.one_of([_from_class(cls) for cls in (*FROM_AI, *TO_AI)])


@PROPERTY
@given(messages)
def test_parse_line_inverts_format_line_for_every_message(message):
    line = format_line(message)
    assert parse_line(line) == message
    assert line.isascii() and line.isprintable() and line == line.strip()


@PROPERTY
@given(messages)
def test_direction_parsers_agree_with_the_message_direction(message):
    line = format_line(message)
    if isinstance(message, FROM_AI):
        assert parse_from_ai(line) == message
        with pytest.raises(MalformedLine):
            parse_to_ai(line)
    else:
        assert parse_to_ai(line) == message
        with pytest.raises(MalformedLine):
            parse_from_ai(line)


def _parse_or_malformed(line: str) -> None:
    """Parse a line; only MalformedLine may escape, and a parse is canonical."""
    try:
        message = parse_line(line)
    except MalformedLine as exc:
        assert exc.line == line
        return
    assert format_line(message) == line.strip()


@PROPERTY
@given(st.text())
def test_arbitrary_unicode_never_raises_anything_but_malformed_line(line):
    _parse_or_malformed(line)


@PROPERTY
@given(st.binary().map(lambda b: b.decode("latin-1")))
def test_arbitrary_bytes_as_text_never_raise_anything_but_malformed_line(line):
    _parse_or_malformed(line)


# Near-misses: real keywords and fields, shuffled, doubled and mangled.
tokens = st.sampled_from(
    [c.keyword for c in (*FROM_AI, *TO_AI)]
    + [t.code for t in ALL_TILES]
    + ["0", "3", "4", "9", "01", "-1", "999999", "1000000", "", " ", "\t", "\r", "\x00",
       "1m", "10M", "alice", "é", "٣", "x" * 70]
)


@PROPERTY
@given(st.lists(tokens, max_size=16).map(" ".join))
def test_near_miss_lines_never_raise_anything_but_malformed_line(line):
    _parse_or_malformed(line)


def test_a_message_is_a_frozen_value_compared_hashed_and_shown_by_its_fields() -> None:
    """What the dataclasses gave, kept by the plain classes (protocol.messages._Message)."""
    move = MOut(2, Tile.M5)
    assert move == MOut(2, Tile.M5) and move != MOut(1, Tile.M5) and move != MPeng(2, Tile.M5)
    assert hash(move) == hash((2, Tile.M5)) and hash(Hu()) == hash(())
    assert repr(move) == "MOut(seat=2, tile=<Tile.M5: 4>)"
    assert repr(Join()) == "Join(name=None, token=None)" and repr(Pass()) == "Pass()"
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'tile'"):
        move.tile = Tile.M6  # type: ignore[misc]
    deal = Init(tuple(ALL_TILES[:13]))
    assert pickle.loads(pickle.dumps(move)) == move and copy.deepcopy(deal) == deal
    match move:
        case MOut(seat, tile):
            assert (seat, tile) == (2, Tile.M5)
