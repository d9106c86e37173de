"""``server play``: one command seats a person against three sample bots of a ruleset and
prints the link; bad input is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.person_seats import ROOT, Seat, simple_answer, started, verify


@pytest.mark.parametrize("ruleset", [  # a NOI 2014 person's game: its test_person_seat
    "default", pytest.param("noi2014", marks=pytest.mark.slow)])
def test_play_seats_a_person_against_the_sample_bots(tmp_path: Path, ruleset: str) -> None:
    args = ("play", "--ruleset", ruleset, "--hands", "1", "--seed", "5", "--name", "kim",
            "--log-dir", str(tmp_path))
    with started(*args) as (process, links):
        seat = Seat(links["kim"])
        state = seat.next_prompt()
        while not state["over"]:
            assert seat.post(simple_answer(state), state["version"])[0] == 200
            state = seat.next_prompt(state["version"])
        assert process.wait(30) == 0
    assert "all agree" in verify(next(tmp_path.glob("*seed5")))


@pytest.mark.parametrize(("args", "says"), [
    (["--name", "a b"], "a person's name is"),
    (["--ruleset", "thupc2021"], "it plays no bots"),
    (["--variant", "duplicate"], "--variant is for --ruleset botzone"),
])
def test_play_refuses_bad_input_in_one_line(args: list[str], says: str) -> None:
    done = subprocess.run([sys.executable, "-m", "server.cli", "play", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
