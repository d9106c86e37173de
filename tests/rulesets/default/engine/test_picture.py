"""The default ruleset's live feed, from a real short match: sample AIs as processes and a
bot that crashes mid-hand. The feed's records come in order, one picture per engine event;
each hand's last picture agrees with its log (discards, melds, concealed counts), no
picture shows a concealed tile, the end record's scores and hands are the log's, and the
crash is a fault record with its cause and the end of the bot's stderr."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from protocol.tiles import parse_tile
from rulesets.default.engine.legacy_log import parse_legacy_log
from rulesets.default.engine.picture import FEED_CODES, HIDDEN
from rulesets.default.engine.table_view import snapshots
from rulesets.default.match import MatchConfig, Player, run_match
from server.output.live import LiveFeed, read_feed
from tests.live_feed import check_fair, hand_records, table_order

ROOT = Path(__file__).resolve().parents[4]
GREEDY = ("python3", str(ROOT / "sample_ai/greedy.py"))
CRASH = ("python3", str(ROOT / "tests/bots/crash_mid_hand.py"), "4")
HANDS = 3
KINDS = {"peng": "peng", "gang": "gang", "chi": "chi", "agang": "angang", "jgang": "bugang"}


def code(tile: int) -> str:
    return FEED_CODES[tile]


def shown_tiles(picture: dict[str, Any]) -> int:
    """Every tile the picture accounts for: concealed counts, melds, discards, wall."""
    seats = picture["seats"]
    return picture["wall"] + sum(s["concealed"] + len(s["discards"])
                                 + sum(len(m["tiles"]) for m in s["melds"]) for s in seats)


async def test_a_short_match_feeds_every_event_and_agrees_with_its_logs(tmp_path: Path) -> None:
    root = tmp_path / "match"
    players = tuple(Player(n, argv) for n, argv in
                    (("alice", GREEDY), ("bob", GREEDY), ("carol", GREEDY), ("dave", CRASH)))
    feed = LiveFeed(root / "live.jsonl")
    config = MatchConfig(players, seed=11, groups=1, log_root=root, hands=HANDS, live=feed,
                         title="Match test")
    result = await run_match(config)
    assert result.completed
    records = read_feed(root / "live.jsonl")
    assert records[0] == {"type": "table", "title": "Match test", "ruleset": "default",
                          "unit": "hand", "players": ["alice", "bob", "carol", "dave"],
                          "planned": HANDS, "at": records[0]["at"]}
    table_order(records, HANDS)
    melds = 0
    folders = sorted(p for p in root.iterdir() if p.is_dir())
    assert len(folders) == HANDS
    for n, folder in enumerate(folders, start=1):
        mine = hand_records(records, n)
        start = mine[0]
        assert start["title"] == f"Hand {n} of {HANDS}"
        assert start["id"] == folder.name.split("-", 1)[1]
        structured = [json.loads(line) for line in
                      (folder / "events.jsonl").read_text().splitlines()]
        header = structured[0]
        res = next(r for r in structured if r["type"] == "result")
        assert start["seats"] == [s["name"] for s in header["seats"]]
        pictures = [start["picture"]] + [r["picture"] for r in mine if r["type"] == "step"]
        # one picture as dealt, then one after each engine event
        assert len(pictures) == 1 + sum(1 for r in structured if r["type"] == "event")
        won_on_discard = res["result"] in ("ron", "robbed_kong")
        for i, picture in enumerate(pictures):
            check_fair(picture)
            last_one = i == len(pictures) - 1
            # 136 tiles; the tile won on a discard or a kong belongs to no one shown
            assert shown_tiles(picture) == 136 - (won_on_discard and last_one)
        # the last picture is the log's last table
        log = parse_legacy_log((folder / "game.log").read_text())
        final = snapshots(log)[-1]
        last = pictures[-1]
        for s in range(4):
            river = [code(t) for t in final.rivers[s]]
            if res["result"] == "ron" and res["payer_seat"] == s:
                river.pop()  # the log's table keeps the tile won on; the feed gives it up
            assert last["seats"][s]["discards"] == river
            expect = [{"kind": KINDS[m.kind],
                       "tiles": [HIDDEN] * 4 if m.kind == "agang" else [code(t) for t in m.tiles],
                       "from": m.source} for m in final.melds[s]]
            assert last["seats"][s]["melds"] == expect
            held = len(final.hands[s]) + (final.drawn[s] is not None)
            assert last["seats"][s]["concealed"] == held
            melds += len(expect)
        end = mine[-1]
        by_seat = [res["points_by_player"][seat["player"]] for seat in header["seats"]]
        assert end["scores"] == by_seat and end["result"] == res["result"]
        assert end["page"] is None  # a match writes no report
        for s in range(4):
            revealed = sorted(code(t) for t in final.hands[s]) + \
                ([code(final.drawn[s])] if final.drawn[s] is not None else [])
            if res["result"] == "ron" and res["winner_seat"] == s:
                revealed.append(res["win_tile"] and code(parse_tile(res["win_tile"])))
            assert Counter(end["hands"][s]) == Counter(revealed)
        # the crashing bot's fault: its cause and the end of its stderr
        crashed = header["seats"].index(next(x for x in header["seats"] if x["name"] == "dave"))
        (fault,) = [r for r in mine if r["type"] == "fault"]
        assert fault["seat"] == crashed and fault["name"] == "dave"
        assert fault["cause"] == res["faults"][str(crashed)]
        assert fault["cause"].startswith("closed-output")
        assert fault["stderr_file"] == f"{folder.name}/seat{crashed}.stderr"
        stderr = (root / fault["stderr_file"]).read_text()
        assert "crashing on prompt 4" in fault["stderr"] and stderr.endswith(fault["stderr"])
    assert melds > 0  # the hands had claims to draw
