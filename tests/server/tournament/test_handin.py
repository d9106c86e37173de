"""Hand-ins while a tournament runs, NOI-style Swiss tie-breaks, and fractional points.

Hand-ins are played by real Botzone bot processes (a drawn-tile discarder that
says its version on stderr), with the runner in this process so the test can
replace files and edit BOTS.toml between rounds and in the middle of a table;
the resume that follows is the command a user runs. The tie-break and the
points are checked with a stub ruleset whose tables are played in-process.
"""

from __future__ import annotations

import io
import json
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import ClassVar

import pytest
import trio
from rich.console import Console

from rulesets.botzone.ruleset import RULESET as BOTZONE
from server.seam import registry
from server.seam.contract import Ruleset, TableRequest, TableRow
from server.seam.registry import Listing, load
from server.tournament.command import (
    config_from_args,
    current_standings,
    standings_table,
    write_all,
)
from server.tournament.entries import load_entries
from server.tournament.programs import command_digest, digest, pin
from server.tournament.runner import PROGRAMS_FILE, Runner, TournamentConfig
from server.tournament.schedule import TablePlan, swiss_round
from server.tournament.standings import HandRow, TableResult, standings
from server.tournament.store import Entry, PlayerResult, ProgramRow, Store, StoreError
from server.turns.match import player_scores
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
BZ = (ROOT / "tests/bots/botzone/_bz.py").read_text()
DISCARDER = (ROOT / "tests/bots/botzone/discarder.py").read_text()
DEFAULT = load("default")


def version(name: str, v: int) -> str:
    """The discarder, saying on stderr who it is each time it starts."""
    line = f'sys.stderr.write("{name} v{v}\\n")\nmode = sys.argv[1]'
    return DISCARDER.replace("mode = sys.argv[1]", line, 1)


# --- pinning a program ---------------------------------------------------------------------


def test_a_pinned_program_is_a_read_only_copy_with_its_modules_named_by_its_bytes(
        tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "_bz.py").write_text(BZ)
    (bots / "alice.py").write_text(version("alice", 1))
    out = tmp_path / "out"
    got = pin((PY, str(bots / "alice.py"), "json"), DEFAULT, out)
    expected = digest([("alice.py", version("alice", 1).encode()), ("_bz.py", BZ.encode())])
    assert got.hash == expected
    folder = out.resolve() / "programs" / expected.removeprefix("sha256:")[:16]
    assert got.run == (PY, str(folder / "alice.py"), "json"), "the interpreter is not copied"
    assert sorted(f.name for f in folder.iterdir()) == ["_bz.py", "alice.py"]
    assert not os.access(folder / "alice.py", os.W_OK) or os.geteuid() == 0
    assert stat.S_IMODE((folder / "alice.py").stat().st_mode) & 0o222 == 0
    assert pin((PY, str(bots / "alice.py"), "json"), DEFAULT, out) == got  # once per bytes
    (bots / "_bz.py").write_text(BZ + "\n# a fix in the helper module\n")
    assert pin((PY, str(bots / "alice.py"), "json"), DEFAULT, out).hash != got.hash
    # The pinned copy runs where the original would have.
    run = subprocess.run([*got.run[:2], "json"], input='{"requests": ["2 W1"], "responses": '
                         '[], "data": "", "globaldata": ""}\n', capture_output=True, text=True,
                         timeout=30, check=False)
    assert run.returncode == 0 and '"PLAY W1"' in run.stdout and "alice v1" in run.stderr


def test_an_executable_keeps_its_exec_bit_and_a_command_naming_no_file_is_not_pinned(
        tmp_path: Path) -> None:
    program = tmp_path / "bot"
    program.write_text("#!/bin/sh\necho hi\n")
    program.chmod(0o755)
    got = pin((str(program), "--fast"), DEFAULT, tmp_path / "out")
    assert got.run[1:] == ("--fast",) and got.run[0] != str(program)
    assert os.access(got.run[0], os.X_OK)
    plain = (PY, "-m", "sample_ai.greedy")
    assert pin(plain, DEFAULT, tmp_path / "out").run == plain
    assert pin(plain, DEFAULT, tmp_path / "out").hash == command_digest(plain)


def test_a_rulesets_one_word_commands_are_split_and_joined_through_the_seam(
        tmp_path: Path) -> None:
    word = f"simple:{PY} '{tmp_path}/my bot.py' --keep-running"
    assert BOTZONE.split_command((word,)) == (
        "simple:", (PY, f"{tmp_path}/my bot.py", "--keep-running"))
    assert BOTZONE.join_command(*BOTZONE.split_command((word,))) == (word,)
    kept = f"simple+keep-running:{PY} '{tmp_path}/my bot.py' --keep-running"
    assert BOTZONE.split_command((kept,)) == (
        "simple+keep-running:", (PY, f"{tmp_path}/my bot.py", "--keep-running"))
    assert BOTZONE.join_command(*BOTZONE.split_command((kept,))) == (kept,)
    assert DEFAULT.split_command(("a", "b c")) == ("", ("a", "b c"))
    assert DEFAULT.join_command("", ["a", "b c"]) == ("a", "b c")
    (tmp_path / "my bot.py").write_text("print('x')\n")
    (run,) = pin((word,), BOTZONE, tmp_path / "out").run
    mode, argv = BOTZONE.split_command((run,))
    assert mode == "simple:" and argv[0] == PY and argv[2] == "--keep-running"
    assert Path(argv[1]).name == "my bot.py" and "programs" in argv[1]


# --- hand-ins in a running tournament ---------------------------------------------------------


def write_bots(path: Path, bots: Path, bob: str = "bob.py") -> None:
    files = {"alice": "alice.py", "bob": bob, "carol": "carol.py", "dave": "dave.py"}
    path.write_text("".join(f'[[bot]]\nname = "{name}"\ncommand = "{PY} {bots / f} json 1000"'
                            '\nkeep_running = true\n\n' for name, f in files.items()))


def stderr_lines(table: Path) -> set[str]:
    return {line for f in table.glob("games/*/seat*.stderr")
            for line in f.read_text().splitlines() if " v" in line}


def hashes(out: Path) -> dict[tuple[int, str], str]:
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        return {(r, name): h for r, name, h in db.execute(
            "SELECT p.round, e.name, p.hash FROM programs p JOIN entries e ON e.id = p.entry")}
    finally:
        db.close()


async def test_hand_ins_play_from_the_next_table_pinned_recorded_and_kept_on_resume(
        tmp_path: Path) -> None:
    """Round 1 plays the programs entered. Between rounds 1 and 2 alice replaces her file
    and bob's entry in BOTS.toml names another; during round 2's table alice replaces
    her file again, in place, and BOTS.toml is left broken: that table plays on with
    what it started with, round 3 with alice's third version and bob's last command
    (and one warning). Stopped there, carol hands in; the resume plays her new one."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "_bz.py").write_text(BZ)
    for name in ("alice", "bob", "carol", "dave"):
        (bots / f"{name}.py").write_text(version(name, 1))
    (bots / "bob2.py").write_text(version("bob", 2))
    toml = tmp_path / "BOTS.toml"
    write_bots(toml, bots)
    out = tmp_path / "out"
    settings = BOTZONE.tournament_settings({"walls": 1, "orders": 2}, None)
    config = TournamentConfig(tuple(load_entries(toml, "botzone")), "swiss", 5, 4, out,
                              ruleset="botzone", settings=settings, bots=toml.resolve())
    said: list[tuple[str, bool]] = []
    out.mkdir()
    store = Store(out / "tournament.sqlite")
    try:
        runner = Runner(config, store)
        runner.notice_listener = lambda text, warning: said.append((text, warning))
        with trio.fail_after(120), trio.CancelScope() as scope:

            def listener(what: str, plan: TablePlan | None) -> None:
                if what == "table" and plan is not None and plan.round == 1:
                    tmp = bots / "alice.tmp"
                    tmp.write_text(version("alice", 2))
                    os.replace(tmp, bots / "alice.py")  # as an editor saves
                    write_bots(toml, bots, bob="bob2.py")
                elif what == "hand" and plan is not None and plan.round == 2 \
                        and runner.progress.running[(2, 1)] == 1:
                    (bots / "alice.py").write_text(version("alice", 3))  # in place
                    toml.write_text('[[bot]\nname = "alice"\n')  # mid-edit
                elif what == "table" and plan is not None and plan.round == 3:
                    scope.cancel()

            runner.listener = listener
            await runner.run()
    finally:
        store.close()
    matches = out / "matches"
    assert stderr_lines(matches / "r01-t01") == {f"{n} v1" for n in ("alice", "bob", "carol",
                                                                      "dave")}
    r2 = stderr_lines(matches / "r02-t01")
    assert "alice v2" in r2 and "alice v3" not in r2, "the table kept its program"
    assert "bob v2" in r2 and "bob v1" not in r2
    r3 = stderr_lines(matches / "r03-t01")
    assert {"alice v3", "bob v2", "carol v1"} <= r3
    assert not (matches / "r04-t01").exists()
    warnings = [text for text, warning in said if warning]
    assert len(warnings) == 1 and warnings[0].startswith(f"cannot read BOTS now: {toml}: "), said
    assert "every bot plays on with its last program" in warnings[0]
    told = [text for text, warning in said if not warning]
    assert any(t.startswith("alice handed in a new program (sha256:")
               and t.endswith(": plays from table r02-t01") for t in told), told
    assert any(t.startswith("bob handed in a new program") and "r02-t01" in t for t in told)
    assert any(t.startswith("alice handed in") and "r03-t01" in t for t in told)
    assert not any("carol" in t or "dave" in t for t in told)

    def of(*files: tuple[str, str]) -> str:
        return digest([(name, text.encode()) for name, text in files])

    got = hashes(out)
    assert got[(1, "alice")] == of(("alice.py", version("alice", 1)), ("_bz.py", BZ))
    assert got[(2, "alice")] == of(("alice.py", version("alice", 2)), ("_bz.py", BZ))
    assert got[(3, "alice")] == of(("alice.py", version("alice", 3)), ("_bz.py", BZ))
    assert got[(2, "bob")] == got[(3, "bob")] == of(("bob2.py", version("bob", 2)),
                                                    ("_bz.py", BZ))
    assert got[(1, "carol")] == got[(3, "carol")]
    recorded = json.loads((matches / "r02-t01" / PROGRAMS_FILE).read_text())
    assert {p["name"]: p["hash"] for p in recorded} == {n: got[(2, n)] for n in
                                                       ("alice", "bob", "carol", "dave")}
    # Stopped: BOTS.toml is mended, and carol hands in a new file.
    write_bots(toml, bots, bob="bob2.py")
    (bots / "carol.py").write_text(version("carol", 2))
    with trio.fail_after(120):
        resumed = await trio.run_process(
            [PY, "-m", "server.cli.app", "tournament", "--resume", "--out", str(out)], cwd=ROOT,
            capture_stdout=True, capture_stderr=True, env={**os.environ, "COLUMNS": "200"},
            check=False)
    console = resumed.stderr.decode()
    assert resumed.returncode == 0, console
    assert "carol handed in a new program (sha256:" in console
    assert "plays from table r04-t01" in console
    assert "alice handed in" not in console, "only what changed since is told"
    again = hashes(out)
    assert {k: v for k, v in again.items() if k[0] < 4} == got, "the records are kept"
    assert again[(4, "carol")] == of(("carol.py", version("carol", 2)), ("_bz.py", BZ))
    assert again[(4, "alice")] == got[(3, "alice")]
    assert "carol v2" in stderr_lines(matches / "r04-t01")
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        (bob,) = db.execute("SELECT command FROM entries WHERE name = 'bob'").fetchone()
        assert "bob2.py" in bob, "an entry's command is the latest handed in"
    finally:
        db.close()
    report = json.loads((out / "standings.json").read_text())
    runs = [(p["bot"], p["from"]) for p in report["programs"]]
    assert runs.count(("alice", "r02-t01")) == 1 and ("alice", "r03-t01") in runs
    assert ("carol", "r04-t01") in runs and ("dave", "r01-t01") in runs
    assert sum(1 for bot, _ in runs if bot == "dave") == 1
    page = (out / "tournament.html").read_text()
    assert "Programs and hand-ins" in page and got[(2, "alice")][:19] in page


def test_resume_takes_new_commands_of_the_same_field_and_refuses_another_field(
        tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite")
    entries = [Entry(f"b{i}", ("x", str(i))) for i in range(4)]
    meta = {"format": "swiss", "seed": "1", "rounds": "1", "groups": "1", "hands": "",
            "hero": "", "bots": "/a/BOTS.toml"}
    store.initialise(meta, entries)
    handed = [*entries[:3], Entry("b3", ("y", "3"))]
    store.initialise({**meta, "bots": "/b/BOTS.toml"}, handed)
    assert store.entries() == handed and store.meta()["bots"] == "/b/BOTS.toml"
    with pytest.raises(StoreError, match=r"differ.*the field is b0, b1, b2, b3, and BOTS "
                                         r"has b1, b0, b2, b3"):
        store.initialise(meta, [entries[1], entries[0], *entries[2:]])
    store.close()


def test_a_tournament_file_of_an_older_version_resumes_with_no_programs_recorded(
        tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute("DROP TABLE programs")
    con.commit()
    con.close()
    store = Store(db)
    try:
        assert store.programs() == []
        plan = TablePlan(1, 1, (0, 1, 2, 3), 9)
        store.initialise({"format": "swiss"}, [Entry(f"b{i}", ("x",)) for i in range(4)])
        store.schedule([plan])
        store.finish(plan, [], [], [], [ProgramRow(1, 1, 0, 0, ("x",), "sha256:00")])
        assert store.programs() == [ProgramRow(1, 1, 0, 0, ("x",), "sha256:00")]
    finally:
        store.close()


# --- NOI 2014's Swiss: points, then games won, then entry order --------------------------------


class NoiLike(Ruleset):
    """A stub with NOI 2014's tie-break and points: every table is one game whose P0
    wins alone (4), P1 and P2 tie (2.5 each; P2 also declared a win) and P3 is last."""

    name = "stub-noi"
    swiss_tiebreak = "wins"
    options: ClassVar = {}

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return 1

    def fill_in_command(self, k: int) -> tuple[str, ...]:
        return ("fill-in",)

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        if table.on_game is not None:
            table.on_game()
        points = (4, 2.5, 2.5, 1)
        return [TableRow(0, 0, 0, seat, seat, points[seat], False, seat in (0, 2), False,
                         "HU") for seat in range(4)]


RULESET = NoiLike()


def test_noi_swiss_seats_by_points_then_wins_then_entry_order() -> None:
    first = swiss_round(8, 3, 1, {}, NoiLike.swiss_tiebreak)
    assert [t.players for t in first] == [(0, 1, 2, 3), (4, 5, 6, 7)]
    points = {0: 4, 1: 2.5, 2: 2.5, 3: 1, 4: 4, 5: 2.5, 6: 2.5, 7: 1}
    wins = {0: 1, 2: 1, 4: 1, 6: 1}
    second = swiss_round(8, 3, 2, points, "wins", wins)
    assert [t.players for t in second] == [(0, 4, 2, 6), (1, 5, 3, 7)]
    assert swiss_round(8, 3, 2, points) != second, "the default breaks ties its own way"
    assert Ruleset.swiss_tiebreak == BOTZONE.swiss_tiebreak == "shuffle"


def test_noi_standings_rank_by_points_then_wins_then_entry_order() -> None:
    tables = [TableResult(1, 1, (0, 1, 2, 3), (2.5, 2.5, 2.5, 2.5), (0, 1, 0, 1))]
    hands = [HandRow(1, 1, 0, 0, 0, s, e, 2.5, 0, False, 0, e in (1, 3), False)
             for s, e in enumerate((0, 1, 2, 3))]
    names = ["d", "c", "b", "a"]
    assert [s.entry for s in standings(names, tables, hands, tiebreak="wins").rows] == [
        1, 3, 0, 2]
    assert [s.entry for s in standings(names, tables, hands).rows] == [3, 2, 1, 0]


async def test_a_tournament_with_fractional_points_stores_ranks_and_shows_them_exactly(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "LISTINGS",
                        (*registry.LISTINGS, Listing("stub-noi", "a stub", __name__)))
    entries = tuple(Entry(f"p{i}", (f"bot{i}",)) for i in range(8))
    config = TournamentConfig(entries, "swiss", 3, 2, tmp_path, ruleset="stub-noi")
    store = Store(tmp_path / "tournament.sqlite")
    try:
        await Runner(config, store).run()
        assert [p.players for p in store.plans() if p.round == 2] == [(0, 4, 2, 6),
                                                                     (1, 5, 3, 7)]
        st = current_standings(store, 8)
        write_all(config, store)
    finally:
        store.close()
    # Round 1: 0 and 4 won (4 each), 1, 2, 5 and 6 tied (2.5), 2 and 6 with a win.
    # Round 2 (0 4 2 6, 1 5 3 7): 1 and 4 end level on 6.5 with one win each (entry
    # order), 2 and 5 level on 5, 2 ahead with two wins.
    assert [(s.name, s.points, s.wins) for s in st.rows] == [
        ("p0", 8, 2), ("p1", 6.5, 1), ("p4", 6.5, 1), ("p2", 5, 2), ("p5", 5, 0),
        ("p3", 3.5, 1), ("p6", 3.5, 1), ("p7", 2, 0)]
    assert all(type(s.points) is int for s in st.rows if s.points == int(s.points))
    console = Console(file=io.StringIO(), width=200)
    console.print(standings_table(st, "t"))
    shown = console.file.getvalue()  # type: ignore[attr-defined]
    points = [line.split("│")[3].strip() for line in shown.splitlines()
              if line.startswith("│")]
    assert points == ["8", "6.5", "6.5", "5", "5", "3.5", "3.5", "2"]
    csv_rows = (tmp_path / "standings.csv").read_text().splitlines()
    assert [row.split(",")[4] for row in csv_rows[1:]] == ["8", "6.5", "6.5", "5", "5",
                                                           "3.5", "3.5", "2"]
    report = json.loads((tmp_path / "standings.json").read_text())
    assert [r["points"] for r in report["standings"]] == [8, 6.5, 6.5, 5, 5, 3.5, 3.5, 2]


def test_points_round_trip_through_the_store_exactly(tmp_path: Path) -> None:
    store = Store(tmp_path / "t.sqlite")
    plan = TablePlan(1, 1, (0, 1, 2, 3), 9)
    store.initialise({"format": "swiss"}, [Entry(f"b{i}", ("x",)) for i in range(4)])
    store.schedule([plan])
    points: Sequence[float] = (4, 2.5, 2.5, 1)
    rows = [HandRow(1, 1, 0, 0, 0, s, s, points[s], 0, False, 0, s == 0, False)
            for s in range(4)]
    store.finish(plan, [PlayerResult(s, points[s], 0, 0, int(s == 0), 0, 0, 1)
                        for s in range(4)], rows, ["HU"] * 4)
    store.close()
    again = Store(tmp_path / "t.sqlite")
    try:
        assert again.hand_rows() == rows
        (table,) = again.table_results()
        assert table.points == (4, 2.5, 2.5, 1) and type(table.points[0]) is int
        assert table.wins == (1, 0, 0, 0)
    finally:
        again.close()


def test_a_turn_matchs_scores_keep_halves_and_whole_scores_stay_ints() -> None:
    from server.seam.contract import GamePlan

    plan = GamePlan(1, 1, (1, 2, 3, 0), {})
    assert player_scores(plan, {"scores": [4, 2.5, 2.5, 1.0]}) == [1, 4, 2.5, 2.5]
    assert all(type(s) is int for s in player_scores(plan, {"scores": [8, -8, 0, 0]}))


def test_bots_read_again_ignore_a_new_name_and_keep_a_removed_bots_last_command(
        tmp_path: Path) -> None:
    entries = tuple(Entry(n, (f"/bin/{n}",)) for n in ("ann", "ben", "cid", "dan"))
    config = TournamentConfig(entries, "swiss", 1, 1, tmp_path, bots=tmp_path / "BOTS.toml")
    store = Store(tmp_path / "tournament.sqlite")
    try:
        runner = Runner(config, store)
        said: list[tuple[str, bool]] = []
        runner.notice_listener = lambda text, warning: said.append((text, warning))
        now = [Entry("ann", ("/bin/ann2",)), entries[1], entries[2], Entry("eve", ("/bin/e",))]
        for _ in range(2):
            runner._take_hand_ins(now, (0, 1, 2, 3))
        assert runner.commands[0] == ("/bin/ann2",) and runner.commands[3] == ("/bin/dan",)
        assert [text.split(": ", 1)[1] for text, warning in said if warning] == [
            "bot 'eve' ignored: nobody joins a tournament once it runs",
            "bot 'dan' is not there: it plays on with its last program"]
        runner._take_hand_ins("BOTS.toml: broken", (0, 1, 2, 3))
        runner._take_hand_ins([*now[:3], entries[3]], (0, 1, 2, 3))
        assert said[-1] == (f"{tmp_path / 'BOTS.toml'}: read again; hand-ins are taken", False)
    finally:
        store.close()


def test_resume_reads_the_stored_bots_or_the_ones_given_in_the_stored_ruleset(
        tmp_path: Path) -> None:
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "_bz.py").write_text(BZ)
    for name in ("alice", "bob", "carol", "dave", "bob2"):
        (bots / f"{name}.py").write_text(version(name, 1))
    first, second = tmp_path / "BOTS.toml", tmp_path / "moved.toml"
    write_bots(first, bots)
    write_bots(second, bots, bob="bob2.py")
    out = tmp_path / "out"
    given = {"format": "swiss", "seed": 1, "groups": 1, "jobs": 1}
    config = config_from_args(first, out, False, ruleset="botzone", **given)
    assert config.bots == first.resolve() and config.meta()["bots"] == str(first.resolve())
    store = Store(out / "tournament.sqlite")
    store.initialise(config.meta(), config.all_entries())
    store.close()
    again = config_from_args(None, out, True, jobs=1)
    assert again.bots == first.resolve() and again.ruleset == "botzone"
    moved = config_from_args(second, out, True, **given)  # no --ruleset: the stored one
    assert moved.ruleset == "botzone" and moved.bots == second.resolve()
    assert "bob2.py" in moved.entries[1].command[0]
    store = Store(out / "tournament.sqlite")
    try:
        store.initialise(moved.meta(), moved.all_entries())
        assert store.meta()["bots"] == str(second.resolve())
        assert "bob2.py" in store.entries()[1].command[0]
    finally:
        store.close()


async def test_a_program_gone_between_tables_plays_on_from_its_last_copy(
        tmp_path: Path) -> None:
    files = [tmp_path / f"b{i}.py" for i in range(4)]
    for f in files:
        f.write_text("print('join')\n")
    entries = tuple(Entry(f.stem, (PY, str(f))) for f in files)
    config = TournamentConfig(entries, "swiss", 1, 2, tmp_path / "out")
    store = Store(tmp_path / "tournament.sqlite")
    try:
        runner = Runner(config, store)
        said: list[tuple[str, bool]] = []
        runner.notice_listener = lambda text, warning: said.append((text, warning))
        plan = TablePlan(1, 1, (0, 1, 2, 3), 1)
        first = await runner._programs(plan, tmp_path / "t1")
        files[0].unlink()  # mid-hand-in: the old file gone, the new one not there yet
        second = await runner._programs(TablePlan(2, 1, (0, 1, 2, 3), 1), tmp_path / "t2")
    finally:
        store.close()
    assert second == first and await trio.Path(second[0].run[1]).exists()
    assert said == [(f"b0's program cannot be copied for table r02-t01 ({files[0]}: no such "
                     "file): it plays on with its last program", True)]
