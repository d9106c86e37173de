"""Tile codes (SPEC section 1): every code parses and formats, nothing else does."""

from __future__ import annotations

import pytest

from protocol.tiles import (
    ALL_TILES,
    N_KINDS,
    Suit,
    Tile,
    TileError,
    check_copies,
    format_tiles,
    full_set,
    parse_tile,
    parse_tiles,
    tile_counts,
)

SPEC_CODES = (
    [f"{rank}M" for rank in range(1, 10)]
    + [f"{rank}S" for rank in range(1, 10)]
    + [f"{rank}T" for rank in range(1, 10)]
    + ["E", "S", "W", "N", "Z", "F", "B"]
)


def test_there_are_34_kinds_in_spec_order():
    assert N_KINDS == 34
    assert [t.code for t in ALL_TILES] == SPEC_CODES


@pytest.mark.parametrize("code", SPEC_CODES)
def test_every_tile_code_parses_and_formats_back(code):
    tile = parse_tile(code)
    assert tile.code == code
    assert str(tile) == code
    assert format_tiles([tile]) == code


def test_south_wind_and_bamboo_are_different_tiles():
    assert parse_tile("S") is Tile.SOUTH
    assert parse_tile("1S") is Tile.S1
    assert parse_tile("S").suit is Suit.WINDS
    assert parse_tile("1S").suit is Suit.BAMBOO


@pytest.mark.parametrize(
    ("code", "suit", "rank", "honor", "terminal"),
    [
        ("1M", Suit.CHARACTERS, 1, False, True),
        ("5M", Suit.CHARACTERS, 5, False, False),
        ("9S", Suit.BAMBOO, 9, False, True),
        ("2T", Suit.DOTS, 2, False, False),
        ("E", Suit.WINDS, 0, True, False),
        ("N", Suit.WINDS, 0, True, False),
        ("Z", Suit.DRAGONS, 0, True, False),
        ("F", Suit.DRAGONS, 0, True, False),
        ("B", Suit.DRAGONS, 0, True, False),
    ],
)
def test_tile_traits(code, suit, rank, honor, terminal):
    tile = parse_tile(code)
    assert (tile.suit, tile.rank, tile.is_honor, tile.is_terminal) == (suit, rank, honor, terminal)


def test_dragons_are_red_green_white():
    assert (parse_tile("Z"), parse_tile("F"), parse_tile("B")) == (Tile.RED, Tile.GREEN, Tile.WHITE)


BAD_CODES = [
    "", " ", "0M", "10M", "1m", "1s", "e", "M1", "M", "T", "1Z", "1E", "EE", " 1M", "1M ",
    "1M\n", "1M\r", "1 M", "中", "１M", "5m", "P", "X", "None",
]


@pytest.mark.parametrize("code", BAD_CODES)
def test_bad_code_raises_tile_error_naming_the_code(code):
    with pytest.raises(TileError) as info:
        parse_tile(code)
    assert repr(code) in str(info.value)


def test_tile_error_is_a_value_error():
    with pytest.raises(ValueError, match="unknown tile"):
        parse_tile("0M")


def test_non_string_code_raises_tile_error():
    with pytest.raises(TileError):
        parse_tile(None)  # type: ignore[arg-type]
    with pytest.raises(TileError):
        parse_tile(["1M"])  # type: ignore[arg-type]


def test_parse_tiles_reads_blank_separated_text_and_code_lists():
    expected = [Tile.M1, Tile.SOUTH, Tile.S9, Tile.WHITE]
    assert parse_tiles("1M S 9S B") == expected
    assert parse_tiles("  1M  S\t9S B \n") == expected
    assert parse_tiles(["1M", "S", "9S", "B"]) == expected
    assert parse_tiles("") == []


def test_parse_tiles_names_the_bad_code():
    with pytest.raises(TileError, match="'0T'"):
        parse_tiles("1M 2M 0T")


def test_format_tiles_is_the_inverse_of_parse_tiles():
    text = " ".join(SPEC_CODES)
    assert format_tiles(parse_tiles(text)) == text


def test_full_set_holds_four_of_each_of_136_tiles():
    tiles = full_set()
    assert len(tiles) == 136
    assert tile_counts(tiles) == [4] * N_KINDS


def test_tile_counts_is_a_34_slot_vector():
    counts = tile_counts(parse_tiles("1M 1M B"))
    assert len(counts) == N_KINDS
    assert counts[Tile.M1] == 2 and counts[Tile.WHITE] == 1 and sum(counts) == 3


def test_check_copies_accepts_four_and_names_every_kind_over_four():
    check_copies(parse_tiles("E E E E 1M"))
    with pytest.raises(TileError, match="E, F"):
        check_copies(parse_tiles("E E E E E F F F F F 1M"))
