"""The standings' ranking: IJCAI rank points for Botzone (hand-computed, and recomputed
from a real tournament's game records), Swiss seating in the same order, and shared ranks
for equal bots in every ruleset."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

from server.tournament.exports import CSV_ENCODING
from server.tournament.schedule import swiss_round
from server.tournament.standings import (
    HandRow,
    TableResult,
    seating_points,
    shared_places,
    standings,
    wall_rank_points,
)

ROOT = Path(__file__).resolve().parents[3]

# Botzone tables: (round, table, entries in player order, walls: each a list of games,
# each game's scores by player). Entries 0-4 are the bots a..e, 5-7 the fill-ins f1..f3.
TABLES = [
    (1, 1, (0, 1, 2, 3), [[(30, -10, -10, -10), (-10, 30, -10, -10)],
                          [(0, 0, 0, 0), (0, 0, 0, 0)]]),
    (1, 2, (4, 5, 6, 7), [[(30, -10, -10, -10), (-10, 30, -10, -10)],
                          [(46, -10, -18, -18), (0, 0, 0, 0)]]),
    (2, 1, (0, 1, 2, 4), [[(-10, 30, -10, -10), (-10, -10, 30, -10)],
                          [(30, -10, -10, -10), (-10, -10, 30, -10)]]),
    (2, 2, (3, 5, 6, 7), [[(60, -20, -20, -20), (0, 0, 0, 0)],
                          [(0, 0, 0, 0), (0, 0, 0, 0)]]),
]
NAMES = ["a", "b", "c", "d", "e"]


def stored(tables: list[tuple[int, int, tuple[int, ...], list[list[tuple[int, ...]]]]],
           ) -> tuple[list[TableResult], list[HandRow]]:
    """The store's rows of ``tables`` (seat = player: the seat order does not matter here)."""
    results: list[TableResult] = []
    hands: list[HandRow] = []
    for round_, table, players, walls in tables:
        game = 0
        totals = [0] * 4
        for wall, games in enumerate(walls, start=1):
            for order, scores in enumerate(games):
                best = max(scores)
                for p, entry in enumerate(players):
                    hands.append(HandRow(round_, table, game, wall, order, p, entry, scores[p],
                                         0, False, 0, best > 0 and scores[p] == best, best == 0))
                    totals[p] += scores[p]
                game += 1
        results.append(TableResult(round_, table, players, tuple(totals)))
    return results, hands


def test_a_walls_equal_sums_share_the_mean_of_the_places_they_span() -> None:
    assert shared_places({0: 40, 1: 0, 2: 0, 3: -40}) == {0: 4, 1: 2.5, 2: 2.5, 3: 1}
    assert shared_places({0: 10, 1: 10, 2: 10, 3: -30}) == {0: 3, 1: 3, 2: 3, 3: 1}
    assert shared_places({0: -30, 1: 10, 2: 10, 3: 10}) == {0: 1, 1: 3, 2: 3, 3: 3}
    assert shared_places({0: 0, 1: 0, 2: 0, 3: 0}) == {0: 2.5, 1: 2.5, 2: 2.5, 3: 2.5}
    assert shared_places({0: 5, 1: 5, 2: -5, 3: -5}) == {0: 3.5, 1: 3.5, 2: 1.5, 3: 1.5}


def test_botzone_standings_follow_the_ijcai_rank_points_on_a_hand_computed_example() -> None:
    """SPEC-botzone section 8 with this server's rule for ties within a wall.

    Each wall's sums (two games a wall), ranked 4/3/2/1, equal sums sharing the mean
    of the places they span; fill-ins (f1-f3) take places like any bot:

    round 1, table 1 (a b c d)
      wall 1: a 30-10=20, b -10+30=20, c -20, d -20 -> a, b share 1-2: 3.5; c, d 3-4: 1.5
      wall 2: all 0                               -> 2.5 each
    round 1, table 2 (e f1 f2 f3)
      wall 1: e 20, f1 20, f2 -20, f3 -20         -> e shares first with a fill-in: 3.5
      wall 2: e 46, f1 -10, f2 -18, f3 -18        -> e 4
    round 2, table 1 (a b c e)
      wall 1: a -20, b 20, c 20, e -20            -> b, c 3.5; a, e 1.5
      wall 2: a 20, b -20, c 20, e -20            -> a, c 3.5; b, e 1.5
    round 2, table 2 (d f1 f2 f3)
      wall 1: d 60, the fill-ins -20 each         -> d 4 (the fill-ins share 2-4: 2)
      wall 2: all 0                               -> d 2.5

    rank points                                 score (the sum of all games)
      a 3.5 + 2.5 + 1.5 + 3.5 = 11              20 + 0 - 20 + 20 = 20
      b 3.5 + 2.5 + 3.5 + 1.5 = 11              20 + 0 + 20 - 20 = 20
      c 1.5 + 2.5 + 3.5 + 3.5 = 11             -20 + 0 + 20 + 20 = 20
      d 1.5 + 2.5 + 4 + 2.5   = 10.5           -20 + 0 + 60 + 0  = 40
      e 3.5 + 4 + 1.5 + 1.5   = 10.5            20 + 46 - 20 - 20 = 26

    Standings: a, b, c equal on both (rank 1, 1, 1; in name order); d and e equal on
    rank points, d ahead on the score (4, 5). By the sum of scores alone the order
    would be d, e, then a, b, c: the rank points decide, the score only breaks ties.
    """
    results, hands = stored(TABLES)
    walls = wall_rank_points(hands)
    assert walls[(1, 2, 1)] == {4: 3.5, 5: 3.5, 6: 1.5, 7: 1.5}  # a fill-in shares e's place
    assert walls[(2, 2, 1)] == {3: 4, 5: 2, 6: 2, 7: 2}
    assert all(sum(w.values()) == 10 for w in walls.values())  # 4+3+2+1 on every wall
    st = standings(NAMES, results, hands, 8, ranking="rank_points")
    rows = [(s.rank, s.name, s.rank_points, s.points) for s in st.rows]
    assert rows == [(1, "a", 11, 20), (1, "b", 11, 20), (1, "c", 11, 20),
                    (4, "d", 10.5, 40), (5, "e", 10.5, 26)]
    assert [s.name for s in standings(NAMES, results, hands, 8).rows][:2] == ["d", "e"], \
        "ranked by points, the sum of scores decides"
    assert all(s.rank_points is None for s in standings(NAMES, results, hands, 8).rows)


def test_swiss_seats_a_botzone_field_by_rank_points_then_score() -> None:
    """Round 3 of the example: a, b, c (11 rank points each) and d (10.5, 40) at table 1,
    e (10.5, 26) with the fill-ins; seated by the sum of scores, d and e would share
    table 1 with two of a, b, c."""
    results, hands = stored(TABLES)
    points, totals = seating_points("rank_points", results, hands, 5)
    assert points == {0: 11, 1: 11, 2: 11, 3: 10.5, 4: 10.5}
    assert totals == {0: 20, 1: 20, 2: 20, 3: 40, 4: 26}
    first, second = swiss_round(5, 9, 3, points, "shuffle", None, totals)
    assert set(first.players[:3]) == {0, 1, 2} and first.players[3] == 3
    assert second.players == (4, 5, 6, 7)
    by_score, _ = seating_points("points", results, hands, 5)
    assert set(swiss_round(5, 9, 3, by_score)[0].players[:2]) == {3, 4}


def test_equal_bots_share_a_rank_in_every_ruleset() -> None:
    """1, 1, 1, 4: equal on all the ranking looks at (not the name or entry order)."""
    # Botzone: one wall, three bots with the same sum share places 1-3 (3 each).
    results, hands = stored([(1, 1, (0, 1, 2, 3), [[(10, 10, 10, -30)]])])
    st = standings(["x", "y", "z", "w"], results, hands, 4, ranking="rank_points")
    assert [(s.rank, s.rank_points) for s in st.rows] == [(1, 3), (1, 3), (1, 3), (4, 1)]
    # The default ruleset: points, then the duplicate score. Two tables play deal 0 of
    # round 1; the duplicate compares seat with seat: entry 0 (10) with 4 (0): +10 and
    # -10; 1 (0) with 5 (10): -10 and +10; 2 (-5) with 6 (-4): -1, +1; 3 (-5) with 7 (-6).
    points = [10, 0, -5, -5, 0, 10, -4, -6]
    hands = [HandRow(1, 1 + e // 4, 0, 0, 0, e % 4, e, p, 0, False, 0, p == 10, False)
             for e, p in enumerate(points)]
    results = [TableResult(1, 1, (0, 1, 2, 3), tuple(points[:4])),
               TableResult(1, 2, (4, 5, 6, 7), tuple(points[4:]))]
    st = standings(list("abcdefgh"), results, hands)
    assert [(s.rank, s.name) for s in st.rows] == [
        (1, "a"), (1, "f"),  # 10 points, duplicate +10
        (3, "b"), (3, "e"),  # 0 points, duplicate -10
        (5, "g"),  # -4
        (6, "d"), (7, "c"),  # -5 each: d's duplicate +1, c's -1
        (8, "h")]
    # NOI 2014: points, then games won; entry order only orders the rows.
    results = [TableResult(1, 1, (0, 1, 2, 3), (2.5, 2.5, 2.5, 2.5), (0, 1, 0, 1))]
    hands = [HandRow(1, 1, 0, 0, 0, s, s, 2.5, 0, False, 0, s in (1, 3), False)
             for s in range(4)]
    st = standings(["d", "c", "b", "a"], results, hands, tiebreak="wins")
    assert [(s.rank, s.entry) for s in st.rows] == [(1, 1), (1, 3), (3, 0), (3, 2)]


BOTS = """
[[bot]]
name = "张三"
command = "python3 {root}/sample_ai/botzone/greedy_bot.py --keep-running"
keep_running = true

[[bot]]
name = "李四"
command = "python3 {root}/sample_ai/botzone/random_bot.py --keep-running"
keep_running = true

[[bot]]
name = "王五"
command = "python3 {root}/sample_ai/botzone/greedy_bot.py --keep-running"
keep_running = true

[[bot]]
name = "zhao"
command = "python3 {root}/sample_ai/botzone/random_bot.py --keep-running"
keep_running = true
"""


def recomputed_rank_points(out: Path) -> dict[str, float]:
    """Each bot's rank points from the tables' game records alone (game.json: the wall,
    the names by seat, the scores by seat): per table and wall, the sums ranked 4/3/2/1,
    equal sums sharing the mean of their places."""
    sums: dict[tuple[str, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for record in sorted((out / "matches").glob("r*-t*/games/*/game.json")):
        game = json.loads(record.read_text(encoding="utf-8"))
        table = record.parents[2].name
        for name, score in zip(game["names"], game["scores"], strict=True):
            sums[(table, game["group"])][name] += score
    points: dict[str, float] = defaultdict(float)
    for wall in sums.values():
        ordered = sorted(wall.values(), reverse=True)
        for name, total in wall.items():
            places = [4 - i for i, v in enumerate(ordered) if v == total]
            points[name] += sum(places) / len(places)
    return points


@pytest.mark.slow
def test_a_botzone_tournaments_rank_points_are_recomputed_from_its_game_records(
        tmp_path: Path) -> None:
    """A real Swiss of the sample bots (1 round, 2 walls of 2 seat orders: 4 games): the
    rank points of standings.json are those of the game records, the standings are in
    their order and the score's, and games.csv (BOM, Chinese names) holds every game."""
    bots = tmp_path / "bots.toml"
    bots.write_text(BOTS.format(root=ROOT), encoding="utf-8")
    out = tmp_path / "out"
    run = subprocess.run(
        [sys.executable, "-c", "from server.cli.app import main; main()", "tournament",
         str(bots), "--ruleset", "botzone", "--variant", "duplicate", "--walls", "2",
         "--orders", "2", "--rounds", "1", "--seed", "5", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stderr[-3000:]
    data = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    rows = data["standings"]
    expected = recomputed_rank_points(out)
    assert len(expected) == 4
    assert {r["bot"]: r["rank_points"] for r in rows} == expected
    assert sum(expected.values()) == 2 * 10
    keys = [(-r["rank_points"], -r["points"]) for r in rows]
    assert keys == sorted(keys)
    assert [r["rank"] for r in rows] == [
        1 + sum(1 for k in keys if k < mine) for mine in keys]
    page = (out / "tournament.html").read_text(encoding="utf-8")
    assert "<th class=num>rank points</th><th class=num>points</th>" in page
    with (out / "standings.csv").open(encoding=CSV_ENCODING, newline="") as f:
        table = list(csv.DictReader(f))
    assert [float(r["rank_points"]) for r in table] == [r["rank_points"] for r in rows]
    raw = (out / "games.csv").read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    with (out / "games.csv").open(encoding=CSV_ENCODING, newline="") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 4 * 4  # games x seats
    assert {g["bot"] for g in games} == {"张三", "李四", "王五", "zhao"}
    for r in rows:
        assert sum(int(g["points"]) for g in games if g["bot"] == r["bot"]) == r["points"]
