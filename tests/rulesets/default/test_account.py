"""The -v account: one short plain line per message and decision, nothing else."""

from __future__ import annotations

from typing import Any

import pytest

from rulesets.default.account import account_line, plain

HAND = {"timestamp": "2026-11-24T09:25:44.063123", "hand": 7, "group": 1, "round": 2,
        "deal": 3, "game_id": "1032746e", "players": (2, 0, 3, 1), "match": "m",
        "level": "debug"}


def line(event: str, **fields: Any) -> str | None:
    return account_line({**HAND, "event": event, **fields})


def test_a_sent_line_names_time_hand_player_seat_and_direction() -> None:
    assert line("send", seat=0, line="pick 3M") == \
        "09:25:44.063 h7   P2 s0 >            pick 3M"


def test_an_answer_shows_its_time_in_ms_in_an_aligned_column() -> None:
    assert line("recv", seat=3, line="out 3M", ms=1049.96) == \
        "09:25:44.063 h7   P1 s3 <  1050.0 ms out 3M"
    assert line("recv", seat=3, line="join", ms=None) == \
        "09:25:44.063 h7   P1 s3 <            join"


@pytest.mark.parametrize(("event", "fields", "text"), [
    ("accept", {"seat": 1, "line": "out 9T"}, "P0 s1 = discards 9T"),
    ("accept", {"seat": 1, "line": "chi 3M"}, "P0 s1 = claims a chow from 3M"),
    ("claim", {"seat": 1, "kind": "chi", "tile": "3M", "source": 0},
     "P0 s1 * chows 3M 4M 5M from P2 s0"),
    ("claim", {"seat": 2, "kind": "peng", "tile": "E", "source": 1},
     "P3 s2 * pungs E from P0 s1"),
    ("fine", {"seat": 2, "ms": 1250.3, "limit": 1000, "points": 3},
     "P3 s2 ! fined 3: answered in 1250.3 ms, limit 1000 ms"),
    ("fault", {"seat": 2, "cause": "hard-limit"}, "P3 s2 ! FAULT hard-limit"),
    ("unsolicited", {"seat": 2, "line": "pass"}, "P3 s2 ? ignored, not an answer: pass"),
    ("hand_start", {}, "# group 1 round 2 deal 3 (1032746e), seats P2 P0 P3 P1"),
    ("hand_over", {"winner": 1, "how": "ron", "payer": 3, "fans": 4, "deltas": [-4, 16, -4, -8],
                   "fines": [0, 0, 2, 0], "faults": {}},
     "# P0 s1 wins: ron from P1 s3, 4 fan; by seat -4 +16 -6 -8"),
    ("hand_over", {"winner": None, "how": "draw", "payer": None, "fans": 0,
                   "deltas": [0, 0, 0, 0], "fines": [0, 0, 0, 0], "faults": {}},
     "# draw: the wall is empty, nobody pays"),
])
def test_each_decision_is_one_readable_line(event: str, fields: dict[str, Any],
                                            text: str) -> None:
    got = line(event, **fields)
    assert got is not None and got.endswith(text), got


@pytest.mark.parametrize("event", ["host_time", "remote_joined", "something_new"])
def test_other_events_are_left_out(event: str) -> None:
    assert line(event, seat=0) is None


def test_bot_lines_are_escaped_and_cut_never_interpreted() -> None:
    got = line("recv", seat=0, line="[bold]:ghost:\x1b[2J" + "x" * 200, ms=3.0)
    assert got is not None
    assert "\x1b" not in got and "\\x1b[2J" in got and "[bold]:ghost:" in got
    assert got.endswith("...") and len(got) < 100
    assert plain("é\t", 10) == "\\xe9\\t"


def test_the_clock_is_the_time_of_day_even_on_a_whole_second() -> None:
    """``isoformat`` drops the fraction when the microseconds are 0: the line still shows
    the time of day (it showed the date, once in a million events)."""
    event = {"event": "hand_start", "hand": 4, "timestamp": "2026-11-26T20:15:03"}
    line = account_line(event)
    assert line is not None and line.startswith("20:15:03.000 h4")
    event["timestamp"] = "2026-11-26T20:15:03.004512"
    assert str(account_line(event)).startswith("20:15:03.004 h4")
