"""A person's board in the default ruleset: fed only the seat's lines, it offers exactly
the answers the engine accepts and shows the others' concealed tiles as counts.

Whole hands are played in-process on the engine, every seat a ``PersonBoard`` whose
person follows a rule (win, else a claim now and then, else the drawn tile); at every
step each board is checked against the engine's truth.
"""

from __future__ import annotations

import random

import pytest

from protocol.messages import format_line, parse_from_ai
from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.picture import feed_code
from rulesets.default.engine.rng import deal
from rulesets.default.person_board import PersonBoard


def pick(board: PersonBoard, rng: random.Random) -> str:
    choices = board.choices()
    kinds = {c.kind: c for c in choices}
    for kind in ("win", "rob"):
        if kind in kinds:
            return kinds[kind].answer
    claims = [c for c in choices if c.kind in ("pung", "chow", "kong")]
    if claims and rng.random() < 0.5:
        return rng.choice(claims).answer
    drawn = board.picture()["drawn"]
    discards = [c for c in choices if c.kind == "discard"]
    for c in discards:
        if c.tile == drawn:
            return c.answer
    return (rng.choice(discards) if discards else kinds["pass"]).answer


@pytest.mark.parametrize("seed", range(6))
def test_boards_offer_exactly_what_the_engine_accepts_and_hide_the_others(seed: int) -> None:
    rng = random.Random(seed)
    d = deal(seed, 0)
    engine = Hand(d.wall, d.first)
    boards = [PersonBoard() for _ in range(SEATS)]
    engine.start()
    while True:
        for seat, message in engine.drain():
            boards[seat].feed(format_line(message))
        if engine.finished:
            break
        for seat, board in enumerate(boards):
            picture = board.picture()
            own = sorted(feed_code(t) for t in engine.hands[seat])
            assert sorted(picture["hand"] + [picture["drawn"]] * (picture["drawn"] is not None)) \
                == own
            assert [p["concealed"] for p in picture["seats"]] == \
                [len(h) for h in engine.hands], (seat, picture["seats"])
            offered = sorted(c.answer for c in board.choices())
            if seat in engine.waiting:
                legal = sorted(format_line(m) for m in engine.legal_answers(seat))
                assert offered == legal
            else:
                assert offered == []
        seat = min(engine.waiting)
        answer = pick(boards[seat], rng)
        boards[seat].answered(answer)
        assert engine.answer(seat, parse_from_ai(answer)).verdict.name == "ACCEPTED"
    assert engine.result is not None
