"""Sealed deals: which tables ``sealed.json`` lists at each moment of a tournament.

The pure rule first; then the runner itself, its tables played by a carrier that
plays nothing (``Runner.tables``) and reads ``sealed.json`` as each table starts and
ends, in every format, with tables of different rounds in play at once, and on resume.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio

from server.tournament.runner import Runner, TournamentConfig
from server.tournament.schedule import TablePlan, gauntlet, round_robin, swiss_round
from server.tournament.sealed import SEALED_FILE, sealed_tables, tournament_over
from server.tournament.store import Entry, PlayerResult, Store
from server.tournament.tables import TableJob, TableOutcome

ROOT = Path(__file__).resolve().parents[3]
GREEDY = (sys.executable, str(ROOT / "sample_ai/greedy.py"))


def test_every_table_of_a_round_with_a_table_to_play_is_sealed_finished_or_not() -> None:
    plans = round_robin(8, 3, 2)
    assert sealed_tables(plans, set()) == ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]
    assert sealed_tables(plans, {(1, 1)}) == ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]
    assert sealed_tables(plans, {(1, 1), (2, 2)}) == ["r01-t01", "r01-t02", "r02-t01",
                                                      "r02-t02"]
    assert sealed_tables(plans, {(1, 1), (1, 2), (2, 2)}) == ["r02-t01", "r02-t02"]
    assert sealed_tables(plans, {(1, 1), (1, 2), (2, 1), (2, 2)}) == []


def test_a_tournament_is_over_only_with_every_round_scheduled_and_played() -> None:
    first = swiss_round(8, 3, 1, {})
    done = {(p.round, p.table) for p in first}
    assert sealed_tables(first, done) == []
    assert not tournament_over(first, done, rounds=2), "Swiss: round 2 is still to come"
    assert tournament_over(first, done, rounds=1)
    plans = gauntlet(7, 3, 2, 0)
    assert not tournament_over(plans, {(1, 1), (1, 2)}, rounds=2)
    assert tournament_over(plans, {(p.round, p.table) for p in plans}, rounds=2)


class Carrier:
    """Plays no table: reads sealed.json as each starts and as it ends (the next
    reading, or the last one after the run), in an order the test sets."""

    def __init__(self, out: Path, order: list[tuple[int, int]] | None = None) -> None:
        self.out = out
        self.order = order
        self.turn = 0
        self.seen: list[tuple[str, str, list[str]]] = []  # (what, table, sealed)
        self.changed = trio.Event()
        self.stored = 0  # tables the runner has stored (its listener counts them)

    def table_stored(self) -> None:
        self.stored += 1
        self.changed.set()
        self.changed = trio.Event()

    def sealed(self) -> list[str]:
        tables: list[str] = json.loads((self.out / SEALED_FILE).read_text())["tables"]
        return tables

    async def play(self, job: TableJob, root: Path) -> TableOutcome:
        plan = job.plan
        name = f"r{plan.round:02d}-t{plan.table:02d}"
        self.seen.append(("start", name, self.sealed()))
        self.changed.set()
        self.changed = trio.Event()
        if self.order is not None:  # the tables end in the test's order, once all started
            key = (plan.round, plan.table)
            # (the runner starts them one by one, each in its own time: under load the
            # first could have ended before the last started)
            while len(self.seen) < len(self.order):
                await self.changed.wait()
            # its turn, and the table before it stored (the runner stores a table after
            # it ends, in its own time: under load the next could end before that)
            while self.order[self.turn] != key or self.stored < self.turn:
                await self.changed.wait()
            self.turn += 1
            self.changed.set()
            self.changed = trio.Event()
        await trio.lowlevel.checkpoint()
        results = [PlayerResult(e, 0, 0, 0, 0, 0, 0, 1) for e in plan.players]
        return TableOutcome(results, [], [])


def run(tmp_path: Path, fmt: str, rounds: int, jobs: int, n: int = 8,
        order: list[tuple[int, int]] | None = None) -> tuple[Carrier, list[list[str]]]:
    """A tournament of ``n`` entries played by a ``Carrier``; what it saw, and what
    sealed.json held after each table was stored."""
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    entries = tuple(Entry(f"b{i}", (*GREEDY, "--seed", str(i))) for i in range(n))
    config = TournamentConfig(entries, fmt, 3, rounds, out, hands=1, jobs=jobs)
    store = Store(out / "tournament.sqlite")
    try:
        runner = Runner(config, store)
        carrier = Carrier(out, order)
        runner.tables = carrier
        after: list[list[str]] = []

        def listener(what: str, plan: TablePlan | None) -> None:
            if what == "table":
                after.append(carrier.sealed())
                carrier.table_stored()

        runner.listener = listener
        trio.run(runner.run)
    finally:
        store.close()
    return carrier, after


def test_round_robin_seals_both_rounds_until_each_is_played_whatever_the_order(
        tmp_path: Path) -> None:
    # Round 2's tables end before round 1's last: round 1 stays sealed until then.
    carrier, after = run(tmp_path, "round-robin", 2, jobs=4,
                         order=[(2, 1), (1, 1), (2, 2), (1, 2)])
    everything = ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]
    assert [s for what, _, s in carrier.seen] == [everything] * 4, "before any table ends"
    assert after == [everything, everything, ["r01-t01", "r01-t02"], []]
    assert carrier.sealed() == []


def test_round_robin_with_one_table_at_a_time_unseals_each_round_as_it_ends(
        tmp_path: Path) -> None:
    carrier, after = run(tmp_path, "round-robin", 2, jobs=1)
    assert sum(1 for s in after if s == ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]) >= 1
    assert after[-1] == []
    # Whatever order they played in, a round is unsealed exactly when its last table ends.
    done: set[str] = set()
    for (_, table, _), sealed in zip(carrier.seen, after, strict=True):
        done.add(table)
        rounds = {t[:3] for t in ("r01-t01", "r01-t02", "r02-t01", "r02-t02")
                  if t not in done}
        assert sealed == sorted(t for t in ("r01-t01", "r01-t02", "r02-t01", "r02-t02")
                                if t[:3] in rounds)


def test_swiss_seals_each_round_as_it_is_scheduled(tmp_path: Path) -> None:
    carrier, after = run(tmp_path, "swiss", 2, jobs=2)
    starts = {table: sealed for what, table, sealed in carrier.seen}
    assert starts["r01-t01"] == starts["r01-t02"] == ["r01-t01", "r01-t02"]
    assert starts["r02-t01"] == starts["r02-t02"] == ["r02-t01", "r02-t02"]
    assert after == [["r01-t01", "r01-t02"], [], ["r02-t01", "r02-t02"], []]


def test_gauntlet_seals_its_rounds_and_the_end_unseals_everything(tmp_path: Path) -> None:
    carrier, after = run(tmp_path, "gauntlet", 2, jobs=2, n=7)
    assert carrier.seen[0][2] == ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]
    assert after[-1] == [] and carrier.sealed() == []


def test_a_resumed_tournament_seals_the_rounds_it_still_has_to_play(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    store = Store(out / "tournament.sqlite")
    entries = [Entry(f"b{i}", (*GREEDY, "--seed", str(i))) for i in range(8)]
    config = TournamentConfig(tuple(entries), "round-robin", 3, 2, out, hands=1)
    store.initialise(config.meta(), entries)
    plans = round_robin(8, 3, 2)
    store.schedule(plans)
    for plan in plans[:3]:  # round 1 and the first table of round 2 were played
        store.finish(plan, [PlayerResult(e, 0, 0, 0, 0, 0, 0, 1) for e in plan.players],
                     [], [])
    store.close()
    (out / SEALED_FILE).unlink(missing_ok=True)
    carrier, after = run(tmp_path, "round-robin", 2, jobs=2)
    assert carrier.seen == [("start", "r02-t02", ["r02-t01", "r02-t02"])]
    assert after == [[]]


@pytest.mark.parametrize("fmt", ["swiss", "round-robin"])
def test_sealed_json_is_written_before_the_first_table_starts(tmp_path: Path,
                                                              fmt: str) -> None:
    carrier, _ = run(tmp_path, fmt, 1, jobs=1, n=4)
    assert carrier.seen == [("start", "r01-t01", ["r01-t01"])]


def test_a_real_tournament_shows_nothing_of_a_sealed_table_in_its_reports(
        tmp_path: Path) -> None:
    """Read as the tables finish: sealed.json, the per-hand CSV, standings.json and
    tournament.html; the seed (every round's deals) shows only once it is over."""
    toml = tmp_path / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "g{i}"\ncommand = ["{GREEDY[0]}", '
                            f'"{GREEDY[1]}", "--seed", "{i}"]\n' for i in range(8)),
                    encoding="utf-8")
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "tournament", str(toml), "--format",
         "round-robin", "--rounds", "2", "--hands", "2", "--jobs", "2", "--seed", "4242",
         "--out", str(out), "--sandbox", "none"], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE, text=True)
    states: list[list[str]] = []
    rows_seen: set[str] = set()
    try:
        while process.poll() is None:
            csv_text = read(out / "hands.csv")
            data = json.loads(read(out / "standings.json") or "null")
            page = read(out / "tournament.html")
            text = read(out / SEALED_FILE)
            if not text:
                continue
            sealed = json.loads(text)["tables"]
            if not states or states[-1] != sealed:
                states.append(sealed)
            rows = {f"r{int(r[0]):02d}-t{int(r[1]):02d}"
                    for r in csv.reader(io.StringIO(csv_text)) if r and r[0].isdigit()}
            assert not rows & set(sealed), (rows, sealed)
            rows_seen |= rows
            if data is not None and sealed:
                assert data["settings"]["seed"] is None
                assert all(t["seed"] is None for t in data["tables"]
                           if f"r{t['round']:02d}-t{t['table']:02d}" in sealed)
                assert all(t["report"] is None for t in data["tables"]
                           if f"r{t['round']:02d}-t{t['table']:02d}" in sealed)
            assert "4242" not in page or not sealed
            for name in sealed:
                assert not (out / "matches" / f"{name}.html").exists()
            time.sleep(0.02)
        assert process.wait() == 0, process.stderr.read() if process.stderr else ""
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    everything = ["r01-t01", "r01-t02", "r02-t01", "r02-t02"]
    assert states[0] == everything and states[-1] == []
    assert len(states) >= 2  # a round was unsealed before the end, or at it
    assert json.loads((out / "standings.json").read_text())["settings"]["seed"] == 4242
    assert "seed 4242" in (out / "tournament.html").read_text()
    assert len(list(csv.reader(io.StringIO(read(out / "hands.csv"))))) == 1 + 4 * 2 * 4


def read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        return ""
