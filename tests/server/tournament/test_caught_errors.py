"""Errors a bot's framework caught (``protocol.bot_errors``) are counted per bot in a
tournament and shown wherever faults are, and said once per problem on the console."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow
from server.tournament.store import Entry, PlayerResult, Store

ROOT = Path(__file__).resolve().parents[3]
TYPO = ROOT / "tests" / "bots" / "framework_bug.py"  # every decision raises


def test_caught_errors_are_counted_in_every_standings_and_said_once(tmp_path: Path) -> None:
    bots = tmp_path / "BOTS.toml"
    bots.write_text(f'[[bot]]\nname = "typo"\ncommand = "{TYPO}"\n'
                    f'[[bot]]\nname = "g"\ncommand = "{ROOT / "sample_ai" / "greedy.py"}"\n')
    out = tmp_path / "out"
    run = subprocess.run([sys.executable, "-m", "server.cli.app", "tournament", str(bots),
                          "--seed", "0", "--rounds", "1", "--hands", "3", "--jobs", "1",
                          "--sandbox", "none", "--out", str(out)], cwd=ROOT,
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if line.startswith("r1t1 hand ")]
    # Two problems (on_turn and on_claim raise), each said at its first hand only.
    assert len(said) == 2, said
    assert all(line.startswith("r1t1 hand 1: typo (P") for line in said), said
    assert "typo: the problem said at r1t1 hand 1 came back 2 more time(s)" in run.stderr

    with (out / "hands.csv").open(encoding="utf-8-sig") as f:
        hands = list(csv.DictReader(f))
    typo = [int(h["bot_errors"]) for h in hands if h["bot"] == "typo"]
    assert len(typo) == 3 and all(n > 0 for n in typo), typo
    assert all(h["bot_errors"] == "0" and h["faulted"] == "0"
               for h in hands if h["bot"] != "typo")
    with (out / "standings.csv").open(encoding="utf-8-sig") as f:
        rows = {r["bot"]: r for r in csv.DictReader(f)}
    assert int(rows["typo"]["bot_errors"]) == sum(typo)
    assert rows["typo"]["faults"] == "0" and rows["g"]["bot_errors"] == "0"
    data = json.loads((out / "standings.json").read_text())
    assert {r["bot"]: r["bot_errors"] for r in data["standings"]} == \
        {"typo": sum(typo), "g": 0}
    page = (out / "tournament.html").read_text()
    assert ">bot errors</th>" in page and f"<td class=num>{sum(typo)}</td>" in page
    final = run.stdout.split("Final standings")[1]
    assert " errors " in final and f" {sum(typo)} " in final


def test_a_store_of_an_older_version_gains_the_errors_column(tmp_path: Path) -> None:
    """Its hands read back with no errors; a table stored now keeps its count."""
    path = tmp_path / "tournament.sqlite"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE hands (round INTEGER NOT NULL, tbl INTEGER NOT NULL, hand INTEGER "
        "NOT NULL, grp INTEGER NOT NULL, deal INTEGER NOT NULL, seat INTEGER NOT NULL, "
        "entry INTEGER NOT NULL, points INTEGER NOT NULL, fines INTEGER NOT NULL, faulted "
        "INTEGER NOT NULL, stalls INTEGER NOT NULL, won INTEGER NOT NULL, drawn INTEGER NOT "
        "NULL, result TEXT NOT NULL, PRIMARY KEY (round, tbl, hand, seat));")
    old.close()
    store = Store(path)
    store.initialise({"format": "swiss"}, [Entry(f"b{i}", ("x",)) for i in range(4)])
    plan = TablePlan(1, 1, (0, 1, 2, 3), 5)
    store.schedule([plan])
    rows = [HandRow(1, 1, 0, 0, 0, s, s, 0, 0, False, 0, False, True, errors=3 * s)
            for s in range(4)]
    store.finish(plan, [PlayerResult(s, 0, 0, 0, 0, 1, 0, 1) for s in range(4)], rows,
                 ["draw"] * 4)
    assert [h.errors for h in store.hand_rows()] == [0, 3, 6, 9]
    store.close()
