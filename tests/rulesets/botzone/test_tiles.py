"""Botzone's tiles and walls: the judge's tile order, glibc's rand, random_shuffle, initdata."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from rulesets.botzone.tiles import (
    FLOWERS,
    TILES,
    GlibcRandom,
    json_int,
    random_shuffle,
    settle,
    split_walls,
    standard_tiles,
)
from tests.datadir import botzone_games


def real_games() -> list[Path]:
    """The reference games played by public Botzone bots: walls the judge shuffled itself."""
    return [path for path in botzone_games() if "_real_" in path.name]


def test_standard_tiles_are_the_judges_list_in_its_order() -> None:
    classic = standard_tiles("classic")
    assert classic[:6] == ["W1", "B1", "T1", "W1", "B1", "T1"]
    assert classic[36:39] == ["W4", "B4", "T4"]
    assert classic[108:112] == ["F1"] * 4
    assert classic[-8:] == list(FLOWERS)
    assert len(classic) == 144
    duplicate = standard_tiles("duplicate")
    assert duplicate == classic[:136]
    assert Counter(duplicate) == {tile: 4 for tile in TILES}


def test_unknown_variant_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown Botzone variant 'riichi'"):
        standard_tiles("riichi")


def test_glibc_rand_gives_glibcs_well_known_first_values() -> None:
    rng = GlibcRandom(1)
    assert [rng.rand() for _ in range(3)] == [1804289383, 846930886, 1681692777]
    zero = GlibcRandom(0)  # glibc seeds 0 as 1
    assert [zero.rand() for _ in range(3)] == [1804289383, 846930886, 1681692777]
    rng = GlibcRandom(42)
    assert [rng.rand() for _ in range(2)] == [71876166, 708592740]


def test_glibc_rand_takes_seeds_as_unsigned_32_bit() -> None:
    a, b = GlibcRandom(-1), GlibcRandom(2**32 - 1)
    assert [a.rand() for _ in range(5)] == [b.rand() for _ in range(5)]
    big = GlibcRandom(2**31 + 5)
    assert all(0 <= big.rand() < 2**31 for _ in range(100))


def test_random_shuffle_swaps_each_index_with_rand_mod_i_plus_one() -> None:
    items = list(range(5))
    rng, mirror = GlibcRandom(7), GlibcRandom(7)
    random_shuffle(items, rng)
    expected = list(range(5))
    for i in range(1, 5):
        j = mirror.rand() % (i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


@pytest.mark.parametrize("path", real_games(), ids=lambda path: path.name)
def test_srand_alone_regenerates_the_judges_wall_of_a_real_game(path: Path) -> None:
    """Those games were played with quan given, so no rand() went to the quan."""
    game = json.loads(path.read_text(encoding="utf-8"))
    initdata = game["initdata"]
    settled = settle(game["variant"], {"srand": initdata["srand"], "quan": initdata["quan"]}, 0)
    assert settled.walltiles == initdata["walltiles"]
    assert settled.strlen == 0


def test_a_missing_quan_takes_the_first_rand_before_the_shuffle() -> None:
    seeded = GlibcRandom(11)
    quan = seeded.rand() % 4
    wall = standard_tiles("classic")
    random_shuffle(wall, seeded)
    settled = settle("classic", {"srand": 11}, 0)
    assert (settled.quan, settled.walltiles) == (quan, " ".join(wall))
    assert settle("classic", {"srand": 11, "quan": 7}, 0) == settled
    assert settle("classic", {"srand": 11, "quan": "1"}, 0) == settled
    assert settle("classic", {"srand": 11, "quan": 2}, 0).walltiles != settled.walltiles


@pytest.mark.parametrize("initdata", [None, "", {}, [], {"srand": "5"}, {"srand": True}])
def test_initdata_without_an_int_srand_seeds_with_the_time(initdata: object) -> None:
    settled = settle("duplicate", initdata, 1234)
    assert settled == settle("duplicate", {"srand": 1234}, 99)
    assert settled.srand == 1234
    assert settled.strlen == 0
    assert len(settled.tokens()) == 136


def test_srand_is_shown_unsigned_and_walltiles_given_are_kept_verbatim() -> None:
    wall = "W1 W2  x"
    settled = settle("classic", {"srand": -1, "quan": 3, "walltiles": wall}, 0)
    assert settled.initdata() == {"srand": 2**32 - 1, "quan": 3, "walltiles": wall}
    assert settled.strlen == len(wall)
    assert settled.tokens() == ["W1", "W2", "", "x"]
    assert settle("classic", {"srand": 1, "walltiles": "花 W1"}, 0).strlen == 6  # UTF-8 bytes


def test_json_int_reads_numbers_as_jsoncpp_isint_does() -> None:
    assert json_int(5) == 5
    assert json_int(5.0) == 5
    assert json_int(5.5) is None
    assert json_int(True) is None
    assert json_int(2**31) is None
    assert json_int(-(2**31)) == -(2**31)
    assert json_int("5") is None


def test_duplicate_walls_are_four_segments_and_extras_are_ignored() -> None:
    tokens = [str(i) for i in range(139)]
    walls = split_walls("duplicate", tokens)
    assert [len(wall) for wall in walls] == [34] * 4
    assert walls[1][0] == "34"
    assert walls[3][-1] == "135"
    assert split_walls("classic", tokens) == [tokens]
