"""Persons in a tournament (a BOTS entry ``web:NAME``): each link printed at the start,
the person played over HTTP as the page plays it, from table to table on the same link,
the standings naming the entry; ``server verify`` agreeing with a table; a person on a
cluster refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.tournament.entries import EntriesError, load_entries
from tests.person_seats import ROOT, Seat, simple_answer, started, verify

GREEDY = ROOT / "sample_ai" / "greedy.py"


def bots_file(tmp_path: Path, command: str, extra: str = "") -> Path:
    """BOTS: ann, a person, and three bots of ``command``."""
    bots = tmp_path / "bots.toml"
    bots.write_text('[[bot]]\nname = "ann"\ncommand = "web:ann"\n' + "".join(
        f'[[bot]]\nname = "bot{k}"\ncommand = "{command}"\n{extra}' for k in range(3)))
    return bots


def play_to_the_end(seat: Seat) -> int:
    """Answer every prompt by the simple rule until the tournament is over; the answers."""
    answers = 0
    state = seat.next_prompt()
    while not state["over"]:
        status, body = seat.post(simple_answer(state), state["version"])
        assert status == 200, body
        answers += 1
        state = seat.next_prompt(state["version"])
    return answers


@pytest.mark.slow  # a tournament end to end (the refusals and the entries stay in the loop)
def test_a_person_plays_a_tournament_from_one_link_table_after_table(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, f"{sys.executable} {GREEDY}")
    out = tmp_path / "out"
    # Round-robin, two rounds of one table each, two tables at once allowed: ann's lock
    # keeps her at one table at a time, and her page follows her to the next.
    with started("tournament", str(bots), "--out", str(out), "--format", "round-robin",
                 "--rounds", "2", "--hands", "1", "--jobs", "2", "--sandbox", "none",
                 "--seed", "5", "--clock", "20") as (process, links):
        seat = Seat(links["ann"])
        answers = play_to_the_end(seat)
        end = seat.state()
        assert end["hand"] == 2  # a hand at each table, on the one link
        assert "tournament is over" in end["note"]
        assert process.wait(60) == 0
    assert answers > 0
    rows = json.loads((out / "standings.json").read_text())["standings"]
    ann = next(r for r in rows if r["bot"] == "ann")
    assert ann["hands"] == 2 and ann["faults"] == 0 and ann["fines"] == 0
    tables = sorted(d for d in (out / "matches").iterdir() if d.is_dir() and "hands" not in d.name)
    assert [t.name for t in tables] == ["r01-t01", "r02-t01"]
    assert "web:ann" in (tables[0] / "match.json").read_text()
    assert "all agree" in verify(tables[0])


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["noi2014", "botzone"])
def test_a_person_plays_a_turn_based_tournament(tmp_path: Path, ruleset: str) -> None:
    bot = ROOT / "sample_ai" / ruleset / "greedy_bot.py"
    bots = bots_file(tmp_path, f"python3 {bot} --keep-running", "keep_running = true\n")
    out = tmp_path / "out"
    with started("tournament", str(bots), "--out", str(out), "--ruleset", ruleset,
                 "--rounds", "1", "--walls", "1", "--orders", "1", "--sandbox", "none",
                 "--seed", "3") as (process, links):
        assert play_to_the_end(Seat(links["ann"])) > 0
        assert process.wait(60) == 0
    rows = json.loads((out / "standings.json").read_text())["standings"]
    assert next(r for r in rows if r["bot"] == "ann")["faults"] == 0
    assert "all agree" in verify(out / "matches" / "r01-t01")


@pytest.mark.slow
def test_a_person_who_never_opens_the_page_holds_a_table_ten_moves_then_times_out(
        tmp_path: Path) -> None:
    """An absent student does not hold the class up for ever: the table waits ten of the
    person's moves (--clock 0.3: 3 s), then the seat plays on and times out as a silent
    bot's would; the next table does not wait again."""
    bots = bots_file(tmp_path, f"{sys.executable} {GREEDY}")
    out = tmp_path / "out"
    with started("tournament", str(bots), "--out", str(out), "--format", "round-robin",
                 "--rounds", "2", "--hands", "1", "--sandbox", "none", "--seed", "5",
                 "--clock", "0.3") as (process, _links):
        assert process.wait(120) == 0  # nobody opened ann's page
    rows = json.loads((out / "standings.json").read_text())["standings"]
    ann = next(r for r in rows if r["bot"] == "ann")
    assert ann["hands"] == 2 and ann["faults"] == 2  # one time-out a hand, then autoplay


def test_a_person_on_a_cluster_is_refused_in_one_line(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, f"{sys.executable} {GREEDY}")
    done = subprocess.run([sys.executable, "-m", "server.cli", "tournament", str(bots),
                           "--out", str(tmp_path / "out"), "--cluster", "local",
                           "--sandbox", "none"], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    errors = [line for line in done.stderr.splitlines() if "cluster" in line]
    assert len(errors) == 1 and "persons (ann)" in errors[0], done.stderr
    assert "Traceback" not in done.stderr


def test_clock_without_a_person_is_refused_in_one_line(tmp_path: Path) -> None:
    bots = tmp_path / "bots.toml"
    bots.write_text("".join(f'[[bot]]\nname = "b{k}"\ncommand = "{sys.executable} {GREEDY}"\n'
                            for k in range(2)))
    done = subprocess.run([sys.executable, "-m", "server.cli", "tournament", str(bots),
                           "--out", str(tmp_path / "out"), "--clock", "5"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--clock and --seat-bind are for persons" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_bots_file_reads_web_name_as_a_person_and_refuses_bad_ones(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, f"{sys.executable} {GREEDY}")
    ann = load_entries(bots)[0]
    assert (ann.name, ann.command, ann.person, ann.remote) == ("ann", ("web:ann",), "ann", None)
    assert load_entries(bots, "botzone")[0].command == ("web:ann",)  # in any ruleset
    for command, said in [('"web:ann"', "both web:ann"), ('"web:a b"', "just web:NAME"),
                          ('"web:"', "a person's name is")]:
        bots.write_text(f'[[bot]]\nname = "ann"\ncommand = "web:ann"\n'
                        f'[[bot]]\nname = "bob"\ncommand = {command}\n')
        with pytest.raises(EntriesError, match=said):
            load_entries(bots)
