"""A person at a Botzone table (``server match --ruleset botzone web:NAME ...``), driven
over HTTP as the page drives it: a whole game in each variant with a claim in two steps
when one is offered, refusals that cost nothing, the verdict a person gets for not
answering (TLE), and ``server verify`` agreeing with the records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.person_seats import Seat, started, verify

BOT = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running"


def args(log_dir: Path, *extra: str) -> tuple[str, ...]:
    return ("match", "--ruleset", "botzone", "web:ann", BOT, BOT, BOT, "--format", "one",
            "-d", "--log-dir", str(log_dir), *extra)


def record(log_dir: Path) -> dict[str, Any]:
    return dict(json.loads(next(log_dir.glob("*/games/001/game.json")).read_text()))


def choose(seat: Seat, state: dict[str, Any]) -> dict[str, Any]:
    """A win; else a claim (then the first discard it offers); else the drawn tile; else
    pass. The next state."""
    choices = state["choices"]
    kinds = {c["kind"]: c for c in choices}
    pick = kinds.get("win") or kinds.get("pung") or kinds.get("chow")
    if pick is None:
        drawn = state["board"]["drawn"]
        pick = next((c for c in choices if c["kind"] == "discard" and c["tile"] == drawn),
                    None) or next(c for c in choices if c["kind"] in ("discard", "pass"))
    status, body = seat.post(pick["answer"], state["version"])
    assert status == 200, body
    return pick


@pytest.mark.parametrize(("variant", "seed"), [  # the duplicate's board: test_person_board
    ("classic", 4), pytest.param("duplicate", 7, marks=pytest.mark.slow)])
def test_a_person_plays_a_botzone_game_and_verify_agrees(tmp_path: Path, variant: str,
                                                         seed: int) -> None:
    with started(*args(tmp_path, "--variant", variant, "--seed", str(seed))) as (process,
                                                                                 links):
        seat = Seat(links["ann"])
        state = seat.next_prompt()
        first = True
        picks = []
        while not state["over"]:
            if first:  # a script's tries: refused, and the game goes on
                held = set(state["board"]["hand"]) | {state["board"]["drawn"]}
                missing = next(t for t in ("W1", "W9", "B5", "T5", "J1") if t not in held)
                assert seat.post(f"PLAY {missing}", state["version"])[0] == 409
                assert seat.post("HU", state["version"] + 5)[0] == 409
                first = False
            picks.append(choose(seat, state))
            if picks[-1]["step"]:  # the claim's discard comes next
                state = seat.state()
                assert any(c["kind"] == "back" for c in state["choices"])
                picks.append(choose(seat, state))
            state = seat.next_prompt(state["version"])
        assert process.wait(30) == 0
    game = record(tmp_path)
    assert {e["verdict"] for e in game["players"][0] if e is not None} == {"OK"}
    assert "all agree" in verify(next(tmp_path.glob("*-seed*")))


def test_a_person_who_does_not_answer_gets_a_bots_tle(tmp_path: Path) -> None:
    with started(*args(tmp_path, "--seed", "4", "--clock", "0.4")) as (process, links):
        seat = Seat(links["ann"])
        state = seat.next_prompt()
        while "did not answer" not in state["note"]:
            state = seat.state(state["version"])
        assert process.wait(30) == 0
    answers = [e for e in record(tmp_path)["players"][0] if e is not None]
    assert answers[-1]["verdict"] == "TLE" and "0.4 s" in answers[-1]["cause"]
    assert "all agree" in verify(next(tmp_path.glob("*-seed*")))
