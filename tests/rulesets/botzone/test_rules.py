"""Botzone's live feed (``rules.BotzoneFollower`` and ``view.LiveTable``), from real short
matches: a game of the sample bots, whose feed has one picture per judge output and a last
picture equal to the game's last table as ``view.game_view`` reads it from the record, no
concealed tile shown before the end, the end's scores and hands the record's; and a game in
which a bot crashes, whose feed says the fault with its cause and the end of its stderr."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulesets.botzone.records import fault_causes
from rulesets.botzone.view import HIDDEN, game_view
from server.output.live import read_feed
from tests.live_feed import check_fair, hand_records, server_match, table_order

GREEDY = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running"
RANDOM = "json+keep-running:python3 sample_ai/botzone/random_bot.py --keep-running"
CRASH = "json:python3 tests/bots/crash_at_turn.py 4"


def play(tmp_path: Path, *bots: str) -> tuple[Path, list[dict[str, Any]]]:
    run = server_match("--ruleset", "botzone", "-d", "--log-dir", str(tmp_path), "--seed", "7",
                       *bots)
    assert run.returncode == 0, run.stderr
    (folder,) = tmp_path.iterdir()
    return folder, read_feed(folder / "live.jsonl")


def test_a_game_of_sample_bots_is_fed_turn_by_turn_as_its_record_says(tmp_path: Path) -> None:
    folder, records = play(tmp_path, GREEDY, RANDOM, GREEDY, RANDOM)
    table_order(records, 1)
    assert records[0]["unit"] == "game" and records[0]["ruleset"] == "botzone"
    assert records[0]["title"] == f"Match {folder.name}" and records[0]["planned"] == 1
    record = json.loads((folder / "games/001/game.json").read_text())
    mine = hand_records(records, 1)
    start, end = mine[0], mine[-1]
    assert start["title"] == "Game 1 of 1" and start["seats"] == record["names"]
    pictures = [start["picture"]] + [r["picture"] for r in mine if r["type"] == "step"]
    assert len(pictures) == len(record["judge"])  # one per judge output
    for picture in pictures:
        check_fair(picture)
    final = game_view(record).states[-1]
    last = pictures[-1]
    shown = 0
    for s, seat in enumerate(last["seats"]):
        assert seat["wind"] == "ESWN"[s] and seat["flowers"] == list(final.flowers[s])
        assert seat["discards"] == [d.tile for d in final.discards[s] if d.taken_by is None]
        assert seat["melds"] == [{"kind": m.kind.lower(), "from": m.source,
                                  "tiles": [HIDDEN] * 4 if m.kind == "ANGANG" else list(m.tiles)}
                                 for m in final.melds[s]]
        assert seat["concealed"] == len(final.hands[s]) + (final.drawn[s] is not None)
        assert end["hands"][s] == list(final.hands[s]) + \
            ([final.drawn[s]] if final.drawn[s] is not None else [])
        assert end["kongs"][s] == [m.tiles[0] for m in final.melds[s] if m.kind == "ANGANG"]
        shown += len(seat["melds"])
    assert last["wall"] == sum(final.wall)
    assert shown > 0  # the game had claims to draw
    assert end["scores"] == record["scores"] and end["result"] == final.result.action
    assert end["page"] is None


def test_a_bot_that_crashes_is_a_fault_record_with_its_stderr(tmp_path: Path) -> None:
    folder, records = play(tmp_path, GREEDY, CRASH, GREEDY, RANDOM)
    record = json.loads((folder / "games/001/game.json").read_text())
    mine = hand_records(records, 1)
    (fault,) = [r for r in mine if r["type"] == "fault"]
    assert fault["seat"] == 1 and fault["name"] == record["names"][1]
    assert fault["cause"] == fault_causes(record)[1] and fault["cause"].startswith("RE")
    assert fault["stderr_file"] == "games/001/seat1.stderr"
    stderr = (folder / fault["stderr_file"]).read_text()
    assert "crashing at request 4" in fault["stderr"] and stderr.endswith(fault["stderr"])
    assert mine[-1]["result"] == "RE" and mine[-1]["scores"] == record["scores"]
    assert all(check_fair(r["picture"]) is None for r in mine if "picture" in r)
