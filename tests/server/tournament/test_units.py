"""The pure parts of tournaments: schedules, standings, the store and the bots file."""

from __future__ import annotations

import io
import math
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from protocol.messages import FromAI, ToAI
from rulesets.default.engine.hand import Hand, fault_fine
from rulesets.default.engine.rng import deal
from rulesets.default.engine.simulate import InProcessBot, play_hand, resolve_bot
from server.bots.seats import Sandbox, TableOptions
from server.tournament.command import rules_from, standings_table
from server.tournament.entries import EntriesError, fill_in, load_entries, scan_folder
from server.tournament.runner import rules_meta
from server.tournament.schedule import (
    gauntlet,
    pair_meetings,
    round_robin,
    round_seed,
    swiss_round,
)
from server.tournament.standings import (
    HandRow,
    TableResult,
    duplicate_scores,
    head_to_head,
    mean_ci,
    ratings,
    standings,
)
from server.tournament.store import RULE_KEYS, Entry, PlayerResult, Store, StoreError

# --- schedules -------------------------------------------------------------------------


def test_swiss_first_round_is_a_seeded_shuffle_and_later_rounds_seat_by_standing() -> None:
    first = swiss_round(12, 7, 1, {})
    assert first == swiss_round(12, 7, 1, {})
    assert first != swiss_round(12, 8, 1, {})
    assert sorted(p for t in first for p in t.players) == list(range(12))
    points = {e: 100 - 10 * e for e in range(12)}  # entry 0 leads, 11 is last
    second = swiss_round(12, 7, 2, points)
    assert [t.players for t in second] == [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)]
    assert len({t.seed for t in second}) == 1, "a round's tables play the same deals"
    assert second[0].seed == round_seed(7, 2) != round_seed(7, 1)


def test_swiss_ties_are_broken_by_the_seeded_order_not_by_entry_number() -> None:
    first = swiss_round(8, 3, 1, {})
    order = [p for t in first for p in t.players]
    again = swiss_round(8, 3, 2, dict.fromkeys(range(8), 0))
    assert [p for t in again for p in t.players] == order


def test_a_field_not_a_multiple_of_four_gets_fill_ins_at_the_lowest_table() -> None:
    tables = swiss_round(10, 1, 2, {e: -e for e in range(10)})
    assert [t.players for t in tables] == [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)]
    assert fill_in(0).fill_in and fill_in(0).name == "fill-in-1"


def test_round_robin_meets_every_pair_about_equally_often() -> None:
    plans = round_robin(12, 5, 11)
    met = pair_meetings(plans, 12)
    assert len(met) == 66, "every pair met"
    assert max(met.values()) - min(met.values()) <= 2
    assert plans == round_robin(12, 5, 11)


def test_gauntlet_puts_the_hero_at_every_table_against_the_whole_field() -> None:
    plans = gauntlet(8, 2, 3, hero=5)
    assert all(t.players[0] == 5 for t in plans)
    for r in (1, 2, 3):
        field = sorted(p for t in plans if t.round == r for p in t.players[1:])
        assert field == [0, 1, 2, 3, 4, 6, 7, 8, 9]  # 7 others and 2 fill-ins


# --- standings ---------------------------------------------------------------------------


def test_mean_ci_uses_student_t_for_few_hands() -> None:
    mean, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 3.182 * math.sqrt(5 / 3) / 2  # t(0.975, 3) * s / sqrt(n)
    assert lo == pytest.approx(2.5 - half) and hi == pytest.approx(2.5 + half)
    assert mean_ci([5.0])[1:] == (-math.inf, math.inf)


def _hand(entry: int, seat: int, points: int, deal: int = 0, table: int = 1) -> HandRow:
    return HandRow(1, table, deal, 0, deal, seat, entry, points, 0, False, 0, points > 0,
                   False)


def test_duplicate_score_compares_players_of_the_same_deal_and_seat() -> None:
    # Seat 0 of deal 0 is a lucky deal: everyone scores there, bot 1 best of all.
    hands = [_hand(0, 0, 10, table=1), _hand(1, 0, 16, table=2), _hand(2, 0, 10, table=3),
             _hand(0, 1, -4, table=1), _hand(1, 1, -4, table=2), _hand(2, 1, -10, table=3)]
    dup = duplicate_scores(hands)
    assert dup[1] == [6.0, 3.0]
    assert dup[0] == [-3.0, 3.0]
    assert dup[2] == [-3.0, -6.0]


def test_ratings_follow_the_table_order_and_shared_places() -> None:
    tables = [TableResult(1, 1, (0, 1, 2, 3), (30, 10, -10, -30)),
              TableResult(2, 1, (0, 1, 2, 3), (30, 10, -10, -30))]
    rated, history = ratings(tables, 4)
    ordinals = [rated[e][0] - 3 * rated[e][1] for e in range(4)]
    assert ordinals == sorted(ordinals, reverse=True)
    assert len(history) == 2
    level, _ = ratings([TableResult(1, 1, (0, 1, 2, 3), (0, 0, 0, 0))], 4)
    assert len({round(mu, 9) for mu, _ in level.values()}) == 1


def test_head_to_head_counts_tables_ahead_level_behind() -> None:
    tables = [TableResult(1, 1, (0, 1, 2, 3), (5, 5, 0, -10)),
              TableResult(2, 1, (1, 0, 2, 3), (8, 2, 0, -10))]
    h2h = head_to_head(tables, 4)
    assert h2h[(0, 1)] == (0, 1, 1)
    assert h2h[(1, 0)] == (1, 1, 0)
    assert h2h[(0, 3)] == (2, 0, 0)


def test_standings_rank_by_points_and_leave_fill_ins_out() -> None:
    tables = [TableResult(1, 1, (0, 1, 2, 3), (6, -2, -2, -2))]
    hands = [_hand(0, 0, 6), _hand(1, 1, -2), _hand(2, 2, -2), _hand(3, 3, -2)]
    st = standings(["a", "b", "c"], tables, hands, 4)
    assert st.rows[0].name == "a"
    assert len(st.rows) == 3
    assert all(e < 3 for h in st.rating_history for e in h)


class _Faulter:
    """An in-process bot that faults at its first line, in every hand (as if it crashed)."""

    def __init__(self, seed: int) -> None:
        pass

    def receive(self, message: ToAI) -> FromAI | None:
        raise RuntimeError("crashed")


FIELD = ["greedy", "greedy", "random", "random", "random", "faulter", "faulter", "faulter"]


def _swiss_in_process(seed: int, rounds: int = 3, hands: int = 8,
                      ) -> tuple[list[TableResult], list[HandRow]]:
    """A Swiss of ``FIELD`` played by the in-process engine (``server simulate``'s driver),
    every fault fined as the match server fines it at the default hard limit."""
    factories: list[Callable[[int], InProcessBot]] = [
        _Faulter if spec == "faulter" else resolve_bot(spec) for spec in FIELD]
    fine = fault_fine(TableOptions().hard_limit * 1000)
    tables: list[TableResult] = []
    rows: list[HandRow] = []
    for r in range(1, rounds + 1):
        points: dict[int, int] = {}
        for t in tables:
            for e, pts in zip(t.players, t.points, strict=True):
                points[e] = points.get(e, 0) + pts
        for plan in swiss_round(len(FIELD), seed, r, points):
            totals = [0] * 4
            for h in range(hands):
                d = deal(plan.seed, h)
                at_seat = [(s + h) % 4 for s in range(4)]  # player at each seat
                bots = [factories[plan.players[p]](plan.seed + 4 * h + s)
                        for s, p in enumerate(at_seat)]
                played = play_hand(Hand(d.wall, d.first), bots)
                result = played.result
                for s, p in enumerate(at_seat):
                    faulted = s in played.hand.faulted
                    if faulted:  # the autoplay never wins: a faulted seat never gains
                        assert result.deltas[s] <= 0
                    pts = result.deltas[s] - (fine if faulted else 0)
                    totals[p] += pts
                    rows.append(HandRow(r, plan.table, h, 0, h, s, plan.players[p], pts,
                                        fine if faulted else 0, faulted, 0,
                                        result.winner == s, result.winner is None))
            tables.append(TableResult(r, plan.table, plan.players, tuple(totals)))
    return tables, rows


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_bot_that_faults_in_every_hand_ranks_below_every_bot_that_plays_legally(
        seed: int) -> None:
    """The invariant of SPEC section 6 over the standings, with hands really played.

    Why it holds: a faulted seat is played by the server's autoplay, which never
    wins, so in a hand it scores at most 0 less the fault's fine (40 points at the
    default hard limit); and it loses about what the worst legal bot, the random
    one, loses (about 5.5 points a hand, a standard deviation of 4 to 5, in
    ``server simulate`` among greedy bots). A legal bot would have to lose 40
    points a hand more than the autoplay, hand after hand, to fall below it.
    Without the fine (the rule before) these faulters rank among the random bots.
    """
    tables, rows = _swiss_in_process(seed)
    st = standings(FIELD, tables, rows)
    ranks = {row.entry: row.rank for row in st.rows}
    faulters = [e for e, spec in enumerate(FIELD) if spec == "faulter"]
    legal = [e for e, spec in enumerate(FIELD) if spec != "faulter"]
    assert max(ranks[e] for e in legal) < min(ranks[e] for e in faulters), st.rows
    assert all(st.rows[ranks[e] - 1].faults == st.rows[ranks[e] - 1].hands for e in faulters)
    # The random bot's loss a hand is far less than the fault's fine.
    random_points = [h.points for h in rows if FIELD[h.entry] == "random"]
    assert -10 < sum(random_points) / len(random_points) <= 0


# --- the store and the bots file ------------------------------------------------------------


def test_store_keeps_whole_tables_and_refuses_other_settings(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    store = Store(db)
    entries = [Entry(f"b{i}", ("x", str(i))) for i in range(4)]
    meta = {"format": "swiss", "seed": "1", "rounds": "1", "groups": "1", "hands": "",
            "hero": ""}
    store.initialise(meta, entries)
    plan = swiss_round(4, 1, 1, {})[0]
    store.schedule([plan])
    store.schedule([plan])  # scheduling again changes nothing
    assert store.plans("scheduled") == [plan]
    rows = [_hand(e, s, 3 if s == 0 else -1) for s, e in enumerate(plan.players)]
    store.finish(plan, [PlayerResult(e, 0, 0, 0, 0, 0, 0, 1) for e in plan.players], rows,
                 ["tsumo"] * 4)
    store.close()
    again = Store(db)
    assert again.plans("done") == [plan]
    assert again.hand_rows() == rows
    with pytest.raises(StoreError):
        again.initialise({**meta, "seed": "2"}, entries)
    # A store written before the rules were stored was played by the defaults.
    again.initialise({**meta, **rules_meta(TableOptions(), Sandbox())}, entries)
    again.close()
    # The schema can be read without the server.
    con = sqlite3.connect(db)
    assert con.execute("SELECT COUNT(*) FROM hands WHERE result = 'tsumo'").fetchone()[0] == 4
    con.close()


def test_bots_file_and_folder(tmp_path: Path) -> None:
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "alpha.py").write_text("print('join')\n")
    (tmp_path / "bots" / "notes.txt").write_text("not a bot\n")
    with pytest.raises(EntriesError, match="at least two"):
        load_entries(tmp_path / "bots")
    (tmp_path / "bots" / "beta.py").write_text("print('join')\n")
    found = load_entries(tmp_path / "bots")
    assert [e.name for e in found] == ["alpha", "beta"]
    toml = tmp_path / "bots.toml"
    toml.write_text('[[bot]]\nname = "a"\ncommand = ["python3", "bots/alpha.py"]\n'
                    '[[bot]]\nname = "b"\ncommand = "python3 bots/beta.py --seed 2"\n')
    bots = tmp_path / "bots"
    assert [e.command[1:] for e in load_entries(toml)] == [
        (str(bots / "alpha.py"),), (str(bots / "beta.py"), "--seed", "2")]
    toml.write_text(toml.read_text().replace('"b"', '"a"'))
    with pytest.raises(EntriesError, match="must differ"):
        load_entries(toml)


def test_a_bots_files_relative_paths_are_stored_absolute_so_resume_works_from_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python3 alice/bot.py`` read with the bots file in the current folder names the
    same program when the tournament is resumed from another folder."""
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "bot.py").write_text("print('join')\n")
    (tmp_path / "bob.py").write_text("print('join')\n")
    toml = tmp_path / "BOTS.toml"
    toml.write_text('[[bot]]\nname = "alice"\ncommand = "python3 alice/bot.py"\n'
                    '[[bot]]\nname = "bob"\ncommand = "python3 -u bob.py --seed 1"\n')
    monkeypatch.chdir(tmp_path)
    here = load_entries(Path("BOTS.toml"))
    assert [e.command[1:] for e in here] == [
        (str(tmp_path / "alice" / "bot.py"),), ("-u", str(tmp_path / "bob.py"), "--seed", "1")]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_entries(Path("../BOTS.toml")) == here


def test_a_folder_takes_programs_and_passes_over_the_modules_they_share(tmp_path: Path) -> None:
    files = {
        "__init__.py": "",
        "_helpers.py": "print('join')\n",
        "framework.py": "def run(bot):\n    pass\n",  # imported below: a module
        "alice.py": "from bots.framework import run\nif __name__ == '__main__':\n    run(1)\n",
        "bob.py": "import framework as fw\nprint('join')\n",  # a plain script: a bot
        "carol.py": "#!/usr/bin/env python3\nprint('join')\n",
        "tools.py": "#!/usr/bin/env python3\n",  # imported, but it runs as a program
        "dan.py": "from tools import x\n",
        "notes.txt": "not a bot\n",
        "erin": "#!/bin/sh\n",  # not executable
    }
    folder = tmp_path / "bots"
    folder.mkdir()
    for name, text in files.items():
        (folder / name).write_text(text)
    bots, skipped = scan_folder(folder)
    assert [e.name for e in bots] == ["alice", "bob", "carol", "dan", "tools"]
    assert skipped == [("__init__.py", "the name starts with _"),
                       ("_helpers.py", "the name starts with _"),
                       ("erin", "not executable (chmod +x?)"),
                       ("framework.py", "a module alice.py imports, not a program")]


def test_rules_are_given_or_stored_and_a_resume_keeps_them(tmp_path: Path) -> None:
    new_options, new_sandbox = rules_from({"hard_limit": 3.0, "cpu_limit": 60}, None)
    assert (new_options.hard_limit, new_options.join_limit) == (3.0, 5.0)
    assert new_options.host_stalls
    assert (new_sandbox.kind, new_sandbox.limits.cpu_seconds) == ("bwrap", 60)  # default
    stored = rules_meta(new_options, new_sandbox)
    assert tuple(stored) == RULE_KEYS  # what the store treats as rules
    options, sandbox = rules_from({}, stored)  # nothing given on resume: as stored
    assert (options, sandbox) == (new_options, new_sandbox)
    assert rules_from({"hard_limit": 3}, stored)[0] == new_options  # the same number
    with pytest.raises(EntriesError, match="--cpu-limit 30: this tournament was started "
                                           "with --cpu-limit 60"):
        rules_from({"cpu_limit": 30}, stored)
    # A store from before the rules: the defaults it was played by.
    with pytest.raises(EntriesError, match="started with --mem-limit 4096"):
        rules_from({"mem_limit": 100}, {"format": "swiss"})
    with pytest.raises(EntriesError, match="--sandbox must be one of"):
        rules_from({"sandbox": "docker"}, None)
    # The teacher's opt-out is stored, and a resume keeps it.
    bare = rules_meta(*rules_from({"sandbox": "none"}, None))
    assert bare["sandbox"] == "none" and rules_from({}, bare)[1].kind == "none"



def test_a_narrow_console_shows_the_main_standings_columns_and_a_wide_one_all() -> None:
    st = standings(["[/x] :ghost:", "b", "c", "d"], [], [], 4)
    narrow = standings_table(st, "t", 80)
    assert [c.header for c in narrow.columns] == ["#", "bot", "points", "/hand", "rating",
                                                  "hands", "fines", "faults"]
    wide = standings_table(st, "t", 160)
    assert len(wide.columns) == 13 and wide.columns[-1].header == "stalls"
    console = Console(width=160, file=io.StringIO(), emoji=False)
    with console.capture() as captured:
        console.print(wide)
    assert "[/x] :ghost:" in captured.get()  # a bot's name is text, not markup
