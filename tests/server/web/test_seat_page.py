"""A person's seat page from a script (``server.web.seat_page``, ``server.bots.person``): a
real ``server match`` with web:NAME seats and the sample AIs, its seat API driven over
HTTP as the page drives it.

What a script may try and must be refused without a fault (a tile not held, an answer
not offered, a stale or a wrong token, another seat's token), what the state shows
(never another seat's concealed tiles), and a person's time-out.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tests.person_seats import GREEDY, Seat, match_args, simple_answer, started, verify

CODES = [f"{r}{s}" for s in "MST" for r in range(1, 10)] + list("ESWNZFB")


def folder_of(log_dir: Path) -> Path:
    return next(log_dir.glob("*-seed*"))


def test_illegal_attempts_are_refused_without_a_fault_and_the_hand_plays_on(
        tmp_path: Path) -> None:
    args = match_args(tmp_path, "web:ann", GREEDY, GREEDY, GREEDY)
    with started(*args) as (process, links):
        seat = Seat(links["ann"])
        state = seat.next_prompt()
        assert state["board"]["asked"] == "turn" or state["board"]["asked"] == "claim"
        held = set(state["board"]["hand"]) | {state["board"]["drawn"]}
        offered = {c["answer"] for c in state["choices"]}
        missing = next(c for c in CODES if f"out {c}" not in offered)
        refusals = [
            seat.post(f"out {missing}", state["version"]),  # a tile not held
            seat.post("gang", state["version"]),  # a claim not offered
            seat.post("out 1M and more", state["version"]),  # not even a line
            seat.post(state["choices"][0]["answer"], state["version"] - 1),  # stale
        ]
        assert [status for status, _ in refusals] == [409] * 4, refusals
        assert all("refused" in body for _, body in refusals)
        assert seat.post(state["choices"][0]["answer"], state["version"],
                         token="wrong")[0] == 403
        again = seat.state()  # nothing changed: the same prompt, the clock running on
        assert again["choices"] == state["choices"] and again["time_left"] is not None
        assert held  # (the hand is the person's own)
        while not state["over"]:
            if state["choices"]:
                status, body = seat.post(simple_answer(state), state["version"])
                assert status == 200, body
            state = seat.next_prompt(state["version"])
        assert process.wait(30) == 0
    folder = folder_of(tmp_path)
    result = json.loads(next(folder.glob("001-*/events.jsonl")).read_text().splitlines()[-1])
    assert result["faults"] == {} and result["fines"] == [0, 0, 0, 0]
    assert "all agree" in verify(folder)


def test_the_state_shows_no_other_seats_tiles_to_anyone(tmp_path: Path) -> None:
    args = match_args(tmp_path, "web:ann", "web:bob", GREEDY, GREEDY)
    with started(*args, persons=2) as (process, links):
        ann, bob = Seat(links["ann"]), Seat(links["bob"])
        bob.state()  # both pages open: the first hand waits for them
        state = ann.next_prompt()
        bob_view = bob.state()
        denied = [ann.raw_state(bob.token), ann.raw_state(None), ann.raw_state("x" * 22),
                  Seat(links["ann"].replace("/ann?", "/nobody?")).raw_state(ann.token)]
        assert {status for status, _ in denied} == {403}
        assert {body for _, body in denied} == {json.dumps(
            {"error": "no such seat, or a wrong token"}, separators=(",", ":"))}
        # Ann's state holds her own tiles; of the others only what was shown.
        assert len(state["board"]["hand"]) + (state["board"]["drawn"] is not None) >= 13
        for view, me in ((state, state["board"]["seat"]), (bob_view, bob_view["board"]["seat"])):
            for other in view["board"]["seats"]:
                assert set(other) == {"seat", "you", "concealed", "melds", "discards"}
                assert other["you"] == (other["seat"] == me)
        bob_hand = sorted(bob_view["board"]["hand"])
        text = json.dumps(state)
        assert json.dumps(bob_hand) not in text
        assert "wall_tiles" not in text and '"wall": ' in text  # a count only
        process.terminate()


def test_a_person_who_does_not_answer_times_out_as_a_bot_does(tmp_path: Path) -> None:
    args = match_args(tmp_path, "web:ann", GREEDY, GREEDY, GREEDY, extra=("--clock", "0.4"))
    with started(*args) as (process, links):
        seat = Seat(links["ann"])
        state = seat.next_prompt()
        seen = time.monotonic()
        assert 0 < state["time_left"] <= 0.4
        while "did not answer" not in state["note"]:
            state = seat.state(state["version"])
        waited = time.monotonic() - seen
        assert 0.1 < waited < 2.0, waited  # the clock is 0.4 s, not the 5 s hard limit
        assert "within 0.4 s" in state["note"] and state["choices"] == []
        assert seat.post("pass", state["version"])[0] == 409
        assert process.wait(30) == 0
    folder = folder_of(tmp_path)
    result = json.loads(next(folder.glob("001-*/events.jsonl")).read_text().splitlines()[-1])
    assert list(result["faults"].values()) == ["hard-limit"] or \
        all(str(c).startswith("hard-limit") for c in result["faults"].values())
    assert "all agree" in verify(folder)
