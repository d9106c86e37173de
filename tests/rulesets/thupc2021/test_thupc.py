"""The THUPC 2021 Mahjong simulator: the official cases byte for byte, the CLI,
bad walls, the hand distance and the turn-order rules."""

from __future__ import annotations

import functools
import itertools
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from protocol.tiles import DEFAULT_CODEC, N_KINDS, Tile, TileError, tile_counts
from protocol.tiles import parse_tile as parse_tile_default
from rulesets.thupc2021 import (
    Special,
    WallError,
    format_event,
    parse_event,
    parse_wall,
    run,
    simulate,
)
from rulesets.thupc2021.events import Chow, EventError, Exhausted, In, Out, Pong, Ron, Win
from rulesets.thupc2021.rules import (
    Hand,
    Turn,
    choose_discard,
    chosen_chow,
    chow_runs,
    next_seat,
    pass_target,
    turn_after_special,
    wants_pong,
)
from rulesets.thupc2021.simulator import Game
from rulesets.thupc2021.tiles import THUPC_CODEC, parse_tile
from scoring.analysis import regular_shanten
from scoring.distance import regular_distance
from tests.datadir import THUPC, THUPC_CASES, files

CASES = range(1, 11)
REPO = Path(__file__).resolve().parents[3]
A, B, C, D = range(4)


@pytest.fixture
def data() -> Path:
    """The ten official cases, all of them: a missing file fails the test."""
    files(THUPC, "*.in", THUPC_CASES)
    files(THUPC, "*.ans", THUPC_CASES)
    return THUPC


def expected(data: Path, n: int) -> str:
    return (data / f"{n}.ans").read_bytes().decode("ascii")


def server(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-c", "from server.cli.app import main; main()", "thupc", *args],
        input=stdin, capture_output=True, cwd=REPO, timeout=60, check=False,
    )


def hand(text: str, melds: int = 0) -> Hand:
    h = Hand(melds=melds)
    for code in text.split():
        h.add(parse_tile(code))
    return h


def counts(text: str) -> list[int]:
    return tile_counts(THUPC_CODEC.parse(code) for code in text.split())


# --- the official cases ------------------------------------------------------------


@pytest.mark.parametrize("n", CASES)
def test_each_case_matches_the_official_output_byte_for_byte(data: Path, n: int) -> None:
    assert run((data / f"{n}.in").read_text()) == expected(data, n)


@pytest.mark.parametrize("n", CASES)
def test_every_official_log_line_parses_and_formats_back(data: Path, n: int) -> None:
    for line in expected(data, n).splitlines():
        assert format_event(parse_event(line)) == line


@pytest.mark.parametrize("n", CASES)
def test_the_cli_prints_each_case_exactly(data: Path, n: int) -> None:
    done = server(str(data / f"{n}.in"))
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (data / f"{n}.ans").read_bytes()


@pytest.mark.parametrize(("n", "args"), [(1, ()), (10, ()), (4, ("-",))])
def test_the_cli_reads_the_wall_from_stdin(data: Path, n: int, args: tuple[str, ...]) -> None:
    done = server(*args, stdin=(data / f"{n}.in").read_bytes())
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == (data / f"{n}.ans").read_bytes()


def test_the_sample_applies_pass_double_and_reverse_at_once(data: Path) -> None:
    lines = expected(data, 1).splitlines()
    after = {line: lines[i + 1] for i, line in enumerate(lines[:-1])}
    assert after["A OUT PASS B"] == "C IN Z"  # B is skipped
    assert after["C OUT DOUBLE"].startswith("C IN")  # an extra turn, with a draw
    assert after["C OUT REVERSE"] == "B IN S"  # C's old previous, now its next


# --- bad walls ---------------------------------------------------------------------

FULL = [t for t in range(N_KINDS + len(Special)) for _ in range(4)]


def wall_text(codes: list[str]) -> str:
    return "".join(code + "\n" for code in codes)


def good_codes() -> list[str]:
    return [THUPC_CODEC.code(t) if t < N_KINDS else Special(t).name for t in FULL]


CODES = good_codes()
BAD_WALLS = [
    ("one tile short", wall_text(CODES[:-1]),
     "expected 148 tiles (4 of each of 37 kinds), got 147"),
    ("one tile over", wall_text([*CODES, "1M"]), "got 149"),
    ("empty", "", "got 0"),
    ("the default ruleset's dots", wall_text(["1T", *CODES[1:]]), "line 1: unknown tile '1T'"),
    ("lower case", wall_text([*CODES[:4], "1m", *CODES[5:]]), "line 5: unknown tile '1m'"),
    ("a misspelt special", wall_text([*CODES[:-1], "DOUBEL"]),
     "line 148: unknown tile 'DOUBEL'"),
    ("five of a kind", wall_text(["5M", *CODES[1:]]),
     "more than 4 copies of 5M (5); too few of 1M (3)"),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_WALLS, ids=[b[0] for b in BAD_WALLS])
def test_a_bad_wall_is_a_wall_error_naming_the_problem(name: str, text: str, message: str) -> None:
    with pytest.raises(WallError) as info:
        parse_wall(text)
    assert message in str(info.value)


@pytest.mark.parametrize(("name", "text", "message"), BAD_WALLS, ids=[b[0] for b in BAD_WALLS])
def test_the_cli_rejects_a_bad_wall_with_status_2(name: str, text: str, message: str) -> None:
    done = server(stdin=text.encode())
    assert done.returncode == 2
    assert done.stdout == b""
    assert done.stderr.decode().startswith("error: ")
    assert message in done.stderr.decode()


def test_the_cli_rejects_a_missing_file_and_non_ascii_input(tmp_path: Path) -> None:
    done = server(str(tmp_path / "nowhere.in"))
    assert done.returncode == 2
    assert b"cannot read" in done.stderr and b"nowhere.in" in done.stderr
    done = server(stdin="中\n".encode())
    assert done.returncode == 2
    assert b"standard input is not ASCII text" in done.stderr


def test_a_wall_reads_with_crlf_and_blank_lines() -> None:
    codes = good_codes()
    assert parse_wall("\r\n".join(codes) + "\r\n\r\n") == parse_wall(wall_text(codes))


# --- a drawn game ------------------------------------------------------------------

DRAWN_WALL = """
7S S 8P 6M 8P N 4M B PASS 4S DOUBLE 9P 6S 6S 4P 6M N E PASS REVERSE 4M 3S 6S 1P Z 3S W 2P 2M E
2S 1S 6P 3M 7P 3M E 9S 4S 7P 6M 1M 7P 5M 2M Z 3P 8S 1M 8S REVERSE 7S 9M PASS 2S 5M 8P 2M 7P 7M F
3P 5S 9P W 8S 3P S 9M 5P 7S 5S 3P 9M W 3S 9M 4P 1M 7S 9S 1P 1P DOUBLE 5S B 2S 5P 8M 5P 7M 6P 5M
7M B Z 4P 6S 8M F 4S 9S F DOUBLE N 3S 2P 9P DOUBLE 2P 2M 8S 8M 5M 1S 6P 1S S 9S 1S 1M Z PASS
REVERSE 4P 7M 8M 3M 2P W 8P B E REVERSE 3M 4S 2S 4M 1P 5S N 9P 5P F S 6P 4M 6M
"""


def test_a_game_that_runs_out_of_tiles_ends_with_draw_alone() -> None:
    wall = parse_wall(DRAWN_WALL)
    events = simulate(wall)
    assert events[-1] == Exhausted()
    assert isinstance(events[-2], Out)
    assert not any(isinstance(e, Win) for e in events)
    assert [e.tile for e in events if isinstance(e, In)] == wall  # every tile, in order
    assert run(DRAWN_WALL).endswith("\nDRAW\n")


def test_random_walls_play_out_to_one_ending_with_the_wall_drawn_in_order() -> None:
    rng = random.Random(2021)
    for _ in range(30):
        wall = list(FULL)
        rng.shuffle(wall)
        events = simulate(wall)
        drawn = [e.tile for e in events if isinstance(e, In)]
        assert drawn == wall[: len(drawn)]
        assert isinstance(events[-1], Win | Exhausted)
        assert sum(isinstance(e, Win | Exhausted) for e in events) == 1


# --- the distance ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "melds", "distance"),
    [
        ("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E B B", 0, 0),  # complete
        ("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E B", 0, 1),  # ready
        ("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E B F", 0, 1),  # ready after a discard
        ("1M 1M 1M 1M", 3, 2),  # the statement: a fifth 1M does not exist
        ("1M", 4, 1),  # the statement: ready, though the wait may be gone
        ("E S W 1P 1P", 3, 2),  # honours make no runs
        ("8M 9M 1M 5P 5P", 3, 1),  # ... and runs do not wrap: 7M only
        ("1M 4M 7M 1P 4P 7P 1S 4S 7S E S W N", 0, 9),  # a set holds one at most
        ("", 4, 2),
    ],
)
def test_distance_counts_the_tiles_a_complete_hand_lacks(
    tiles: str, melds: int, distance: int
) -> None:
    assert regular_distance(counts(tiles), melds) == distance


def test_special_tiles_take_room_but_never_help() -> None:
    assert hand("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E PASS").distance() == 2
    assert not hand("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E B DOUBLE").wins_on(Tile.WHITE)
    assert not hand("1M 2M 3M 4M 5M 6M 7M 8M 9M E E E REVERSE B").is_complete()


ALL_SETS = [(t, t, t) for t in range(N_KINDS)] + [
    (t, t + 1, t + 2) for base in (0, 9, 18) for t in range(base, base + 7)
]


@functools.cache
def complete_hands(melds: int) -> list[list[tuple[int, int]]]:
    """Every complete hand of 4 - melds sets and a pair, as sparse (kind, count) lists."""
    found = []
    for pair in range(N_KINDS):
        for sets in itertools.combinations_with_replacement(ALL_SETS, 4 - melds):
            target = Counter([pair, pair, *itertools.chain.from_iterable(sets)])
            if max(target.values()) <= 4:
                found.append(list(target.items()))
    return found


def brute_distance(c: list[int], melds: int) -> int:
    return min(sum(n - c[k] for k, n in target if n > c[k]) for target in complete_hands(melds))


def random_counts(rng: random.Random, size: int, crowded: bool) -> list[int]:
    """Counts of ``size`` tiles from the full set, or from five kinds (where the cap bites)."""
    kinds = rng.sample(range(N_KINDS), 5) if crowded else range(N_KINDS)
    return tile_counts(rng.sample([t for t in kinds for _ in range(4)], size))


@pytest.mark.parametrize("melds", [4, 3, 2])
def test_distance_agrees_with_a_brute_force_search(melds: int) -> None:
    rng = random.Random(melds)
    for i in range(60 if melds > 2 else 8):
        c = random_counts(rng, 13 - 3 * melds + rng.randrange(2), crowded=i % 2 == 1)
        assert regular_distance(c, melds) == brute_distance(c, melds), c


def test_distance_is_shanten_plus_one_on_random_13_tile_hands() -> None:
    """Where the cap on copies does not bite, the two measures agree."""
    rng = random.Random(13)
    for _ in range(2000):
        c = random_counts(rng, 13, crowded=False)
        assert regular_distance(c) == regular_shanten(c) + 1, c


def test_distance_exceeds_shanten_plus_one_where_the_cap_bites() -> None:
    c = counts("1M 1M 1M 1M")
    assert regular_distance(c, 3) == 2 > regular_shanten(c, 3) + 1


def test_a_14_tile_distance_is_the_best_13_tile_distance_after_a_discard() -> None:
    rng = random.Random(14)
    for i in range(300):
        c = random_counts(rng, 14, crowded=i % 2 == 1)
        d = regular_distance(c)
        best = min(regular_distance([x - (i == t) for i, x in enumerate(c)])
                   for t in range(N_KINDS) if c[t])
        assert d == 0 or d == best, c


def test_distance_honours_a_different_cap_on_copies() -> None:
    assert regular_distance(counts("1M 1M 1M 1M"), 3) == 2
    assert regular_distance(counts("1M 1M 1M 1M"), 3, copies=5) == 1


# --- turn order --------------------------------------------------------------------


def test_next_seat_goes_abcd_or_adcb() -> None:
    assert [next_seat(A, 1, k) for k in range(5)] == [A, B, C, D, A]
    assert [next_seat(A, -1, k) for k in range(5)] == [A, D, C, B, A]


@pytest.mark.parametrize(
    ("seat", "direction", "special", "turn"),
    [
        (A, 1, Special.PASS, Turn(C, 1)),
        (A, -1, Special.PASS, Turn(C, -1)),
        (B, -1, Special.PASS, Turn(D, -1)),
        (A, 1, Special.REVERSE, Turn(D, -1)),
        (D, -1, Special.REVERSE, Turn(A, 1)),
        (C, -1, Special.REVERSE, Turn(D, 1)),
        (B, 1, Special.DOUBLE, Turn(B, 1)),
        (B, -1, Special.DOUBLE, Turn(B, -1)),
    ],
)
def test_special_tiles_move_the_turn_at_once(
    seat: int, direction: int, special: Special, turn: Turn
) -> None:
    assert turn_after_special(seat, direction, special) == turn
    assert turn.draws


def test_pass_targets_the_next_player_in_the_direction_of_play() -> None:
    assert pass_target(A, 1) == B
    assert pass_target(A, -1) == D
    assert format_event(Out(A, Special.PASS, pass_target(A, -1))) == "A OUT PASS D"


def test_runs_through_a_tile_are_tried_highest_first() -> None:
    assert chow_runs(Tile.M5) == (Tile.M5, Tile.M4, Tile.M3)
    assert chow_runs(Tile.S1) == (Tile.S1,)
    assert chow_runs(Tile.T9) == (Tile.T7,)
    assert chow_runs(Tile.T8) == (Tile.T7, Tile.T6)
    assert chow_runs(Tile.EAST) == ()


def test_a_special_tile_is_always_discarded_first_pass_reverse_double() -> None:
    complete = "1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S"
    assert choose_discard(hand(f"{complete} DOUBLE PASS REVERSE")) == Special.PASS
    assert choose_discard(hand(f"{complete} Z DOUBLE REVERSE")) == Special.REVERSE


def test_ties_are_broken_dragons_winds_bamboo_dots_characters() -> None:
    assert choose_discard(hand("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S Z F B")) == Tile.RED
    assert choose_discard(hand("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S B E N")) == Tile.WHITE
    assert choose_discard(hand("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S 9P 9S 9M")) == Tile.S9
    assert choose_discard(hand("1M 2M 3M 4M 5M 6M 7M 8M 9M 1S 1S 1M 1P 9M")) == Tile.T1


def test_the_discard_leaving_the_least_distance_beats_priority() -> None:
    # Z comes first by priority, but it is the pair: the lone 9P goes.
    assert choose_discard(hand("2M 3M 4M 5M 6M 7M 1S 2S 3S 4S 5S Z Z 9P")) == Tile.T9


def test_pong_and_chow_are_taken_only_when_they_lower_the_distance() -> None:
    ready = hand("1P 2P 3P 4P 5P 6P 7S 8S 9S 1M 2M 5M 5M")
    assert not wants_pong(ready, Tile.M5)
    far = hand("5M 5M 6M 7M 1P 2P 3P 4S 5S 6S 9P 9P E")
    assert wants_pong(far, Tile.M5)
    tanki = hand("1P 2P 3P 4P 5P 6P 7S 8S 9S 5M 6M 7M E")
    assert chosen_chow(tanki, Tile.M5) is None


def game(*hands: str, melds: tuple[int, ...] = (0, 0, 0, 0)) -> Game:
    g = Game([])
    g.hands = [hand(text, m) for text, m in zip(hands, melds, strict=True)]
    return g


# Hands that A's discard of 5M finds: two that ron on it, one that chows it
# (3M 4M), one whose distance a pong lowers, and two that can do nothing.
B_WAITS = "1P 2P 3P 4P 5P 6P 7P 8P 9P 1M 1M 1M 5M"
D_WAITS = "1S 2S 3S 4S 5S 6S 7S 8S 9S 9M 9M 9M 5M"
CHOWS = "3M 4M 1P 4P 7P 1S 4S 7S E S W N Z"
PONGS = "5M 5M 6M 7M 1P 2P 3P 4S 5S 6S 9P 9P E"
JUNK = "1M 9M 1P 9P 1S 9S E S W N Z F B"
JUNK2 = "2M 8M 2P 8P 2S 8S E S W N Z F B"


def test_the_first_able_player_in_the_direction_of_play_rons() -> None:
    g = game(JUNK, B_WAITS, JUNK2, D_WAITS)
    assert g.offer(A, 1, Tile.M5) is None
    assert g.events == [Ron(B), Win(B)]
    g = game(JUNK, B_WAITS, JUNK2, D_WAITS)
    assert g.offer(A, -1, Tile.M5) is None
    assert g.events == [Ron(D), Win(D)]


def test_ron_beats_pong_and_pong_beats_chow() -> None:
    g = game(JUNK, CHOWS, PONGS, D_WAITS)
    assert g.offer(A, 1, Tile.M5) is None
    assert g.events == [Ron(D), Win(D)]
    g = game(JUNK, CHOWS, PONGS, JUNK2)
    assert g.offer(A, 1, Tile.M5) == Turn(C, 1, draws=False)
    assert g.events == [Pong(C, Tile.M5)]
    assert (g.hands[C].counts[Tile.M5], g.hands[C].melds) == (0, 1)


def test_only_the_next_player_chows_and_the_highest_run_that_helps() -> None:
    helps = "3M 4M 6M 7M 1P 2P 3P 4S 5S 6S 9P 9P E"
    g = game(JUNK, JUNK2, helps, B_WAITS.replace("5M", "9S"))
    assert g.offer(A, 1, Tile.M5) == Turn(B, 1)
    assert g.events == []
    g = game(JUNK, B_WAITS.replace("5M", "9S"), JUNK2, helps)
    assert g.offer(A, -1, Tile.M5) == Turn(D, -1, draws=False)
    assert g.events == [Chow(D, Tile.M5)]
    assert format_event(g.events[0]) == "D CHOW 5M 6M 7M"


def test_log_lines_that_are_not_thupc_are_rejected() -> None:
    for line in ["", "A", "E IN 1M", "A IN 1T", "A OUT PASS", "A OUT 1M B", "A CHOW 8M 9M 1P",
                 "A CHOW E S W", "A PONG 1M 1M 2M", "A WIN B", "DRAW A"]:
        with pytest.raises(EventError):
            parse_event(line)


# --- the core's codec --------------------------------------------------------------


def test_the_thupc_codec_spells_dots_with_p_and_keeps_the_kinds() -> None:
    assert THUPC_CODEC.parse("1P") is Tile.T1
    assert THUPC_CODEC.parse("9S") is Tile.S9
    assert (THUPC_CODEC.parse("Z"), THUPC_CODEC.parse("F"), THUPC_CODEC.parse("B")) == (
        Tile.RED, Tile.GREEN, Tile.WHITE)
    assert [THUPC_CODEC.code(THUPC_CODEC.parse(c)) for c in THUPC_CODEC.codes()] == list(
        THUPC_CODEC.codes())
    with pytest.raises(TileError) as info:
        THUPC_CODEC.parse("1T")
    assert str(info.value) == "unknown tile '1T' (expected 1M..9M, 1S..9S, 1P..9P, E S W N Z F B)"


def test_the_default_codec_parses_as_parse_tile_does() -> None:
    for tile in Tile:
        assert DEFAULT_CODEC.parse(tile.code) is parse_tile_default(tile.code) is tile
        assert DEFAULT_CODEC.code(tile) == tile.code
    with pytest.raises(TileError):
        DEFAULT_CODEC.parse("1P")
