"""A person at a NOI 2014 table (``server match --ruleset noi2014 web:NAME ...``), driven
over HTTP as the page drives it: a whole game, every answer taken (a pung in two steps
when one is offered, the target hand answered for the person), a refusal that costs
nothing, and ``server verify`` agreeing with the record."""

from __future__ import annotations

import json
from pathlib import Path

from tests.person_seats import Seat, started, verify

BOT = "json+keep-running:python3 sample_ai/noi2014/greedy_bot.py --keep-running"


def test_a_person_plays_a_noi_game_and_verify_agrees(tmp_path: Path) -> None:
    args = ("match", "--ruleset", "noi2014", "web:ann", BOT, BOT, BOT, "--seed", "4", "-d",
            "--log-dir", str(tmp_path))
    with started(*args) as (process, links):
        seat = Seat(links["ann"])
        state = seat.next_prompt()
        assert seat.post("PLAY B1 B2", state["version"])[0] == 409
        kinds_seen = set()
        while not state["over"]:
            choices = state["choices"]
            kinds = {c["kind"]: c for c in choices}
            kinds_seen |= set(kinds)
            drawn = state["board"]["drawn"]
            pick = kinds.get("win") or kinds.get("pung") or next(
                (c for c in choices if c["kind"] == "discard" and c["tile"] == drawn), None) \
                or next(c for c in choices if c["kind"] in ("discard", "pass"))
            status, body = seat.post(pick["answer"], state["version"])
            assert status == 200, body
            state = seat.next_prompt(state["version"])
        assert process.wait(30) == 0
    game = json.loads(next(tmp_path.glob("*/games/001/game.json")).read_text())
    mine = [e for e in game["players"][game["order"].index(0)] if e is not None]
    assert {e["verdict"] for e in mine} == {"OK"}
    assert any(e["request"].startswith("4") for e in mine) or game["scores"] is not None
    assert "discard" in kinds_seen
    assert "all agree" in verify(next(tmp_path.glob("*-seed4")))
