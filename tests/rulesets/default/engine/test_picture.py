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
from rulesets.default.engine.hand import Hand
from rulesets.default.engine.legacy_log import parse_legacy_log
from rulesets.default.engine.picture import FEED_CODES, HIDDEN, HandPicture
from rulesets.default.engine.table_view import snapshots
from rulesets.default.match import MatchConfig, Player, run_match
from server.output.live import LiveFeed, read_feed
from tests.live_feed import check_fair, hand_records, table_order
from tests.rulesets.default.engine.test_hand import ROBBERS, added_kong, new_hand, say

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
        won_on_discard = res["result"] in ("ron", "qgang")
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
            if res["result"] in ("ron", "qgang") and res["winner_seat"] == s:
                revealed.append(res["win_tile"] and code(parse_tile(res["win_tile"])))
            assert Counter(end["hands"][s]) == Counter(revealed)
            assert end["kongs"][s] == [code(m.tiles[0]) for m in final.melds[s]
                                       if m.kind == "agang"]
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


# --- kongs, event by event (the engine driven directly) ------------------------------------


def follow(hand: Hand, picture: HandPicture) -> list[dict[str, Any]]:
    shown = picture.picture_after(hand)
    for p in shown:
        check_fair(p)
    return shown


def agrees_with_engine(p: dict[str, Any], hand: Hand) -> None:
    for s, seat in enumerate(p["seats"]):
        assert seat["concealed"] == len(hand.hands[s])
        assert seat["discards"] == [code(t) for t in hand.rivers[s]]
        assert len(seat["melds"]) == len(hand.melds[s])


def test_an_added_kong_robbed_turns_back_into_a_pung_and_its_tile_is_nobodys() -> None:
    hand = added_kong(ROBBERS)
    picture = HandPicture(["a", "b", "c", "d"])
    pictures = follow(hand, picture)
    assert len(pictures) == len(hand.events)
    last = pictures[-1]
    assert last["seats"][1]["melds"] == [{"kind": "bugang", "tiles": ["T5"] * 4, "from": 0}]
    assert last["last"] == {"seat": 1, "text": "b adds T5 to a pung (added kong)", "tile": "T5"}
    assert shown_tiles(last) == 136
    say(hand, 3, "qgang")
    say(hand, 2, "pass")
    say(hand, 0, "pass")
    robbed, won = follow(hand, picture)
    assert robbed["seats"][1]["melds"] == [{"kind": "peng", "tiles": ["T5"] * 3, "from": 0}]
    assert robbed["last"]["text"] == "d robs b's added kong of T5"
    assert won["last"]["text"] == "d declares hu on b's T5"
    assert shown_tiles(won) == 135  # the robbed tile is the winner's, shown at the end
    agrees_with_engine(won, hand)
    end = picture.ending(hand)
    assert end.result == "qgang" and end.text.startswith("d wins robbing b's kong")
    assert end.hands[3][-1] == "T5" and len(end.hands[3]) == 14


def test_a_concealed_kong_is_face_down_until_the_end() -> None:
    hand = new_hand(["E E E E 1M 2M 3M 4M 5M 6M 7M 8M 9M",
                     "1S 2S 3S 4S 5S 6S 7S 8S 9S 1T 2T 3T S",
                     "1S 2S 3S 4S 5S 6S 7S 8S 9S 1T 2T 3T S",
                     "1S 2S 3S 4S 5S 6S 7S 8S 9S 4T 5T 6T S"], "N W")
    picture = HandPicture(["a", "b", "c", "d"])
    (drawn,) = follow(hand, picture)
    assert drawn["last"] == {"seat": 0, "text": "a draws", "tile": None}
    say(hand, 0, "agang E")
    kong, replacement = follow(hand, picture)
    assert kong["seats"][0]["melds"] == [{"kind": "angang", "tiles": ["??"] * 4, "from": None}]
    assert kong["last"] == {"seat": 0, "text": "a declares a concealed kong", "tile": None}
    assert kong["seats"][0]["concealed"] == 10 and replacement["seats"][0]["concealed"] == 11
    assert "F1" not in json.dumps(kong) + json.dumps(replacement)
    agrees_with_engine(replacement, hand)
    assert picture.ending(hand, aborted=True).kongs == [["F1"], [], [], []]
