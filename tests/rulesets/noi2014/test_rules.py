"""NOI 2014's live feed (``rules.NoiFollower`` and ``view.LiveGame``), from real short
matches: a game of the sample bots, whose feed has one picture per judge output, every
picture accounting for the 108 tiles with the concealed ones as counts, and a last picture
equal to the game's last table as ``view.view_of`` re-runs it from the record, the end's
scores and hands the record's; and a game in which a bot crashes, whose feed says the fault
with its cause and the end of its stderr."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from rulesets.noi2014.records import fault_causes
from rulesets.noi2014.view import HIDDEN, MELD_KINDS, view_of
from server.output.live import read_feed
from tests.live_feed import check_fair, hand_records, server_match, table_order

GREEDY = "json+keep-running:python3 sample_ai/noi2014/greedy_bot.py --keep-running"
RANDOM = "json+keep-running:python3 sample_ai/noi2014/random_bot.py --keep-running"
CRASH = "json:python3 tests/bots/crash_at_turn.py 3"


def play(tmp_path: Path, *bots: str) -> tuple[Path, dict[str, Any], list[dict[str, Any]]]:
    run = server_match("--ruleset", "noi2014", "-d", "--log-dir", str(tmp_path), "--seed", "3",
                       *bots)
    assert run.returncode == 0, run.stderr
    (folder,) = tmp_path.iterdir()
    record = json.loads((folder / "games/001/game.json").read_text())
    return folder, record, read_feed(folder / "live.jsonl")


def tiles_in(picture: dict[str, Any]) -> int:
    return picture["wall"] + sum(s["concealed"] + len(s["discards"])
                                 + sum(len(m["tiles"]) for m in s["melds"])
                                 for s in picture["seats"])


def test_a_game_of_sample_bots_is_fed_turn_by_turn_as_its_record_says(tmp_path: Path) -> None:
    _, record, records = play(tmp_path, GREEDY, RANDOM, GREEDY, RANDOM)
    table_order(records, 1)
    assert records[0]["unit"] == "game" and records[0]["ruleset"] == "noi2014"
    mine = hand_records(records, 1)
    start, end = mine[0], mine[-1]
    assert start["title"] == "Game 1 of 1" and start["seats"] == record["names"]
    pictures = [start["picture"]] + [r["picture"] for r in mine if r["type"] == "step"]
    assert len(pictures) == len(record["judge"])
    for picture in pictures:
        check_fair(picture)
        assert tiles_in(picture) == 108
    view = view_of(record)
    final = view.steps[-1]
    last = pictures[-1]
    assert last["wall"] == final.wall
    melds = 0
    for s, seat in enumerate(last["seats"]):
        assert seat["concealed"] == len(final.seats[s].hand)
        assert [(m["kind"], m["tiles"]) for m in seat["melds"]] == \
            [(MELD_KINDS[(k, how)], [HIDDEN if how == "concealed" else t] * (4 if k == "GANG"
                                                                             else 3))
             for k, t, how in final.seats[s].melds]
        assert end["hands"][s] == final.seats[s].hand
        assert end["kongs"][s] == [t for _, t, how in final.seats[s].melds if how == "concealed"]
        melds += len(seat["melds"])
    # the discards left on the table, seat by seat, are the game's pool
    assert Counter(t for seat in last["seats"] for t in seat["discards"]) == Counter(final.pool)
    assert melds > 0
    assert end["scores"] == record["scores"] and end["result"] in ("HU", "HUANG")


def test_a_bot_that_crashes_is_a_fault_record_with_its_stderr(tmp_path: Path) -> None:
    folder, record, records = play(tmp_path, GREEDY, CRASH, GREEDY, RANDOM)
    mine = hand_records(records, 1)
    (fault,) = [r for r in mine if r["type"] == "fault"]
    assert fault["seat"] == 1 and fault["name"] == record["names"][1]
    assert f"({fault['cause']})" == fault_causes(record)[1] and "RE" in fault["cause"]
    assert fault["stderr_file"] == "games/001/seat1.stderr"
    stderr = (folder / fault["stderr_file"]).read_text()
    assert "crashing at request 3" in fault["stderr"] and stderr.endswith(fault["stderr"])
    assert mine[-1]["scores"] == record["scores"]
    for r in mine:
        if "picture" in r:
            check_fair(r["picture"])
