"""The original server's game logs: read, rewritten byte for byte, and re-scored.

Five logs of a real 2015 contest (``tests/data/legacy-logs``)
record the fans the original server gave each win. Every win is rebuilt from
the log's events and scored again under SPEC; where the original's fan code
differs from SPEC, the difference is listed below with its reason, not copied.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from protocol.tiles import parse_tile, parse_tiles, tile_counts
from rulesets.default.engine.legacy_log import (
    HuEvent,
    LegacyLog,
    OutEvent,
    PickEvent,
    format_legacy_log,
    parse_legacy_log,
    winning_hand,
)
from scoring.analysis import waiting_tiles
from scoring.fans import WinningHand, score
from scoring.melds import parse_meld
from tests.datadir import LEGACY_LOGS as LOG_DIR
from tests.datadir import legacy_logs

# Where the original server's fan code differs from SPEC, and why. Read from its
# source (sticnarf/Mahjong, server/src/main.rs, ``cal_fan``, ``_cal_fan``); none of
# these but the first shows in the five logs, whose fans all agree with SPEC.
# (fan, what the original does, what SPEC does)
ORIGINAL_VS_SPEC = [
    ("单钓将",
     "spelled 单调将, and reported whenever no other tile kind completes the hand: any "
     "single wait, closed (13M on 2M) and edge (12M on 3M) included",
     "only when the winning tile completes the pair and is the only tile waited on"),
    ("三暗刻, 四暗刻",
     "every pung formed in the concealed hand is concealed, even one completed by the "
     "discard the hand won on",
     "a pung completed by a discard is exposed (GB), unless the tile can sit in a chow"),
    ("门前清",
     "counted beside 四暗刻",
     "四暗刻 excludes 门前清"),
    ("混幺九",
     "counted beside 十三幺",
     "十三幺 excludes 混幺九"),
    ("平和",
     "any hand of chows only, whatever the pair (an honour pair too)",
     "four chows and a suited pair"),
    ("十三幺",
     "any 14 terminals and honours with exactly one kind repeated, so a triplet or "
     "four of a kind can stand in for the pair and the missing kinds",
     "all thirteen kinds and one pair"),
    ("箭刻, 暗杠, 一般高, 喜相逢, 明杠 (each)",
     "one line 'name×N:points' for N > 1",
     "counted the same; FanResult gives the points per fan"),
    ("all fans",
     "listed in no particular order (a hash map's)",
     "table order"),
]
RENAMED = {"单调将": "单钓将"}


def recorded_points(fans: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """The recorded fans as {SPEC name: points}: 单调将 renamed, '×N' dropped."""
    points: dict[str, int] = {}
    for name, value in fans:
        base = name.split("×")[0]
        base = RENAMED.get(base, base)
        points[base] = points.get(base, 0) + value
    return points


# Every log: the winner's hand rebuilt from the events (concealed before the win,
# melds, winning tile, self-drawn), the fans recorded, and the fans under SPEC.
# The last column lists where the two differ, as {fan: (recorded, ours)} with why.
# All five agree: the two 单调将 wins are pair-completing single waits as well.
LOGS = [
    ("123a0501.mahjong.log",
     ("9M 9M 2S 2S", "peng 7T, peng 7M, peng 1T", "2S", True),
     {"自摸": 1, "碰碰和": 6}, 7,
     {"碰碰和": 6, "自摸": 1}, {}),
    ("d3f72a60.mahjong.log",
     ("7T 8T 8T 9T", "peng 9T, chi 6M, peng 2S", "8T", False),
     {"单调将": 1}, 1,
     {"单钓将": 1}, {}),  # 7889T waits on 8T alone, which 789T + 88T takes as the pair
    ("e40e880e.mahjong.log",  # the same deal and play as 123a0501, another round
     ("9M 9M 2S 2S", "peng 7T, peng 7M, peng 1T", "2S", True),
     {"自摸": 1, "碰碰和": 6}, 7,
     {"碰碰和": 6, "自摸": 1}, {}),
    ("f95b3edc.mahjong.log",
     ("4M 4T 5T 6T", "chi 6S, peng 3T, peng 2S", "4M", False),
     {"单调将": 1, "断幺": 2}, 3,
     {"断幺": 2, "单钓将": 1}, {}),
    ("fa6ce586.mahjong.log",
     ("5S 6S 9S 9S 7T 8T 9T", "peng N, chi 4S", "4S", False),
     {"一般高": 1}, 1,
     {"一般高": 1}, {}),
]
NAMES = [row[0] for row in LOGS]


def read_log(name: str) -> str:
    return (LOG_DIR / name).read_bytes().decode("utf-8")


def rebuilt(concealed: str, melds: str, win: str, self_drawn: bool) -> WinningHand:
    return WinningHand(tuple(sorted(parse_tiles(concealed))),
                       tuple(parse_meld(m) for m in melds.split(",") if m.strip()),
                       parse_tile(win),
                       self_drawn)


def test_the_log_folder_holds_the_five_logs():
    assert [p.name for p in legacy_logs()] == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_log_round_trips_byte_for_byte(name):
    text = read_log(name)
    assert format_legacy_log(parse_legacy_log(text)).encode("utf-8") == text.encode("utf-8")


@pytest.mark.parametrize("name", NAMES)
def test_log_header_and_events_are_read(name):
    log = parse_legacy_log(read_log(name))
    assert log.version == "1.0"
    assert log.ais == ("main.exe",) * 4
    assert 0 <= log.first <= 3
    assert [len(h) for h in log.hands] == [13] * 4
    assert isinstance(log.events[0], PickEvent) and log.events[0].seat == log.first
    assert isinstance(log.events[-1], HuEvent)
    assert log.result is not None and log.events[-1].seat == log.result.winner


@pytest.mark.parametrize(("name", "hand", "recorded", "recorded_total"),
                         [row[:4] for row in LOGS], ids=NAMES)
def test_win_is_rebuilt_from_the_events(name, hand, recorded, recorded_total):
    log = parse_legacy_log(read_log(name))
    assert log.result is not None
    assert dict(log.result.fans) == recorded
    assert log.result.score == recorded_total == sum(recorded.values())
    assert winning_hand(log) == rebuilt(*hand)


@pytest.mark.parametrize(("hand", "ours"), [(row[1], row[4]) for row in LOGS], ids=NAMES)
def test_rebuilt_win_scores_under_spec(hand, ours):
    assert score(rebuilt(*hand)).as_dict() == ours


@pytest.mark.parametrize(("name", "differences"), [(row[0], row[5]) for row in LOGS],
                         ids=NAMES)
def test_recorded_fans_match_spec_except_where_listed(name, differences):
    log = parse_legacy_log(read_log(name))
    assert log.result is not None
    recorded = recorded_points(log.result.fans)
    ours = score(winning_hand(log)).as_dict()
    found = {fan: (recorded.get(fan), ours.get(fan))
             for fan in recorded.keys() | ours.keys() if recorded.get(fan) != ours.get(fan)}
    assert found == differences


@pytest.mark.parametrize("name", NAMES)
def test_the_original_single_wait_rule_explains_its_records(name):
    """单调将 is recorded exactly when one tile kind alone completes the hand."""
    log = parse_legacy_log(read_log(name))
    hand = winning_hand(log)
    assert log.result is not None
    one_kind = waiting_tiles(tile_counts(hand.concealed), len(hand.melds)) == [hand.win]
    assert ("单调将" in dict(log.result.fans)) == one_kind


def test_the_original_rule_and_spec_part_on_a_closed_single_wait():
    hand = rebuilt("1M 3M E E", "chi 5S, peng 9T, chi 2T", "2M", False)
    assert waiting_tiles(tile_counts(hand.concealed), len(hand.melds)) == [hand.win]
    assert "单钓将" not in score(hand).as_dict()  # the original would record 单调将


# --- the reader on its own -------------------------------------------------------------

DEAL = """ver 1.0
Mahjong Contest Round 2 Game 3
a.exe
b.exe
c.exe
d.exe
3
1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M
1S 2S 3S 4S 5S 6S 7S 8S 9S 1T 2T 3T 4T
E E E S S S W W W N N N Z
5T 6T 7T 8T 9T F F F B B B Z Z
"""
EVENTS = "pick 3 1T\nout 3 1T\npick 0 2T\nout 0 2T\n"
DRAW = DEAL + "\n" + EVENTS + "draw\n\ndraw\n"  # as the original ends a drawn hand
WON = DEAL + "\n" + EVENTS + "\nwin 1 ron 0\nfans 2\n断幺:2\n箭刻×2:4\nscore 6\n"


def test_a_draw_round_trips_and_has_no_winning_hand():
    log = parse_legacy_log(DRAW)
    assert log.result is None
    assert (log.round, log.game, log.first) == (2, 3, 3)
    assert log.events[1] == OutEvent(3, parse_tile("1T"))
    assert log.events[-1] == OutEvent(0, parse_tile("2T"))
    assert format_legacy_log(log) == DRAW
    with pytest.raises(ValueError, match="draw"):
        winning_hand(log)


def test_a_win_tail_parses_and_round_trips():
    log = parse_legacy_log(WON)
    assert log.result is not None
    assert (log.result.winner, log.result.how, log.result.source) == (1, "ron", 0)
    assert log.result.fans == (("断幺", 2), ("箭刻×2", 4)) and log.result.score == 6
    assert recorded_points(log.result.fans) == {"断幺": 2, "箭刻": 4}
    assert format_legacy_log(log) == WON


@pytest.mark.parametrize("text", [DRAW, WON], ids=["draw", "win"])
def test_crlf_logs_round_trip_as_crlf(text):
    crlf = text.replace("\n", "\r\n")
    log = parse_legacy_log(crlf)
    assert log.newline == "\r\n"
    assert format_legacy_log(log) == crlf
    assert dataclasses.replace(log, newline="\n") == parse_legacy_log(text)


@pytest.mark.parametrize("name", NAMES)
def test_stored_logs_read_the_same_with_crlf(name):
    text = read_log(name)
    crlf = parse_legacy_log(text.replace("\n", "\r\n"))
    assert dataclasses.replace(crlf, newline="\n") == parse_legacy_log(text)


def test_a_log_built_in_code_formats_and_parses_back():
    log = LegacyLog(7, 1, ("x",) * 4, 0, parse_legacy_log(DRAW).hands, (), None)
    text = format_legacy_log(log)
    assert text.endswith("\n\ndraw\n\ndraw\n")
    assert parse_legacy_log(text) == log


# (line number, the line's new text or None to delete it, a fragment of the error)
MALFORMED = [
    (1, "ver", "line 1"),
    (2, "Mahjong Contest Round x Game 3", "line 2: round 'x' is not a number"),
    (2, "Mahjong Contest Game 3", "line 2: expected 'Mahjong Contest Round R Game G'"),
    (7, "4", "line 7: seat '4' is not 0..3"),
    (7, "03", "line 7: seat '03' is not a number"),
    (8, "1M 1M 1M 2M 3M 4M 5M 6M 7M 8M 9M 9M", "line 8: seat 0's initial hand has 12 tiles"),
    (9, "1S 2S 3S 4S 5S 6S 7S 8S 9S 1T 2T 3T 0T", "line 9: unknown tile '0T'"),
    (12, "pick 3 1T", "line 12: expected a blank line"),
    (13, "pick 3", "line 13: expected 'pick' and 2 field(s)"),
    (13, "pick 5 1T", "line 13: seat '5' is not 0..3"),
    (14, "discard 3 1T", "line 14: unknown event"),
    (15, "peng 0 3", "line 15: expected 'peng' and 3 field(s)"),
    (17, "drawn", "line 17: unknown event 'drawn'"),
    (19, "drawn", "line 19: expected 'win S tsumo', 'win S ron FROM' or 'draw'"),
    (19, "win 1 sideways", "line 19: expected 'win S tsumo' or 'win S ron FROM'"),
    (19, "draw\nextra", "line 20: unexpected text after the result"),
    (17, "pick 1 E", "line 19: a drawn hand's events end with a 'draw' line"),
    (16, "draw\nout 0 2T", "line 17: an event after the 'draw' line"),
]


@pytest.mark.parametrize(("number", "new", "message"), MALFORMED,
                         ids=[f"line {n}: {new!r}" for n, new, _ in MALFORMED])
def test_malformed_log_raises_value_error_naming_the_line(number, new, message):
    lines = DRAW.split("\n")
    lines[number - 1] = new
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_legacy_log("\n".join(lines))


# (a change to the won log WON, a fragment of the error)
MALFORMED_RESULTS = [
    (("fans 2", "fans two"), "line 19: fan count 'two' is not a number"),
    (("fans 2", "fans 3"), "line 22: expected 'name:value', got 'score 6'"),
    (("断幺:2", "断幺 2"), "line 20: expected 'name:value'"),
    (("断幺:2", ":2"), "line 20: expected 'name:value'"),
    (("断幺:2", "断幺:two"), "line 20: fan value 'two' is not a number"),
    (("score 6\n", ""), "line 22: missing 'score F' (end of file)"),
    (("score 6", "total 6"), "line 22: expected 'score'"),
    (("ron 0", "ron"), "line 18: expected 'win S tsumo' or"),
    (("ron 0", "ron 7"), "line 18: seat '7' is not 0..3"),
    (("win 1", "win"), "line 18: seat 'ron' is not a number"),
    (("win 1 ron 0", "win 1"), "line 18: expected 'win S tsumo', 'win S ron FROM' or 'draw'"),
    (("out 0 2T\n", "out 0 2T\ndraw\n"), "line 19: a drawn hand's events end with a 'draw'"),
]


@pytest.mark.parametrize(("change", "message"), MALFORMED_RESULTS,
                         ids=[m for _, m in MALFORMED_RESULTS])
def test_malformed_result_raises_value_error_naming_the_line(change, message):
    text = WON.replace(*change)
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_legacy_log(text)


def test_a_log_must_end_with_a_newline():
    with pytest.raises(ValueError, match="newline"):
        parse_legacy_log(DRAW.rstrip("\n"))


def test_a_truncated_log_names_what_is_missing():
    with pytest.raises(ValueError, match="line 8: missing the initial hand of seat 0"):
        parse_legacy_log("\n".join(DRAW.split("\n")[:7]) + "\n")


# (events after the deal of DRAW, the result line, a fragment of the error)
BAD_REPLAYS = [
    (["out 3 1M"], "win 3 tsumo", "event 1: seat 3 holds 0 1M, needs 1"),
    (["pick 3 1T", "out 3 1T", "peng 1 3 1T"], "win 1 tsumo", "event 3: seat 1 holds 1 1T"),
    (["pick 3 1T", "out 3 1T", "peng 0 2 1T"], "win 0 tsumo", "seat 2 did not just discard"),
    (["pick 3 1T", "out 3 1T", "pick 0 E", "peng 1 3 1T"], "win 1 tsumo",
     "event 4: seat 3 did not just discard"),
    (["pick 3 1T", "out 3 1T", "peng 0 3 2T"], "win 0 tsumo", "the last discard was not 2T"),
    (["pick 3 1T", "out 3 1T", "chi 0 3 5M"], "win 0 tsumo", "no run from 5M holds 1T"),
    (["pick 3 1T", "jgang 3 1T"], "win 3 tsumo", "no pung of 1T"),
    (["pick 3 1T", "out 3 1T", "hu 1"], "win 2 ron 3", "seat 1 says hu"),
    (["pick 3 1T", "hu 3"], "win 3 ron 0", "must follow seat 0's discard"),
    (["pick 3 1T", "out 3 1T", "hu 0"], "win 0 tsumo", "must follow the winner's pick"),
    (["pick 3 1T"], "win 3 tsumo", "no 'hu'"),
    (["pick 3 1T", "hu 3", "out 3 1T"], "win 3 tsumo", "event 2: events follow the 'hu'"),
]


@pytest.mark.parametrize(("events", "result", "message"), BAD_REPLAYS,
                         ids=[b[2] for b in BAD_REPLAYS])
def test_inconsistent_events_raise_value_error_naming_the_event(events, result, message):
    text = DEAL + "\n" + "\n".join(events) + f"\n\n{result}\nfans 0\nscore 0\n"
    with pytest.raises(ValueError, match=re.escape(message)):
        winning_hand(parse_legacy_log(text))


def test_a_robbed_kong_wins_on_the_added_tile():
    # Seat 0 pungs 1T and adds the fourth; seat 1, waiting on 1T 4T, robs it.
    deal = DEAL.rstrip("\n").split("\n")
    deal[7] = "1T 1T 2M 3M 4M 5M 6M 7M 8M 9M 9M 9M E"
    deal[8] = "1S 2S 3S 4S 5S 6S 7S 8S 9S 2T 3T 7M 7M"
    events = ["pick 3 1T", "out 3 1T", "peng 0 3 1T", "out 0 E", "pick 1 S", "out 1 S",
              "pick 2 N", "out 2 N", "pick 3 Z", "out 3 B", "pick 0 1T", "jgang 0 1T", "hu 1"]
    text = "\n".join(deal) + "\n\n" + "\n".join(events) + "\n\nwin 1 ron 0\nfans 0\nscore 0\n"
    hand = winning_hand(parse_legacy_log(text))
    assert hand == rebuilt("1S 2S 3S 4S 5S 6S 7S 8S 9S 2T 3T 7M 7M", "", "1T", False)
    assert score(hand).as_dict() == {"平和": 2, "门前清": 2, "喜相逢": 1}
