"""A person's board in Botzone's Mahjong: fed only the seat's requests, it offers exactly
the judge's legal actions as responses, a PENG or CHI in two steps, and shows the
others' concealed tiles as counts. Whole games on the training table (the exact judge),
in both variants, every decision taken through a board."""

from __future__ import annotations

import random

import pytest

from rulesets.botzone.person_board import BACK, PersonBoard
from rulesets.botzone.seat_view import AFTER_CLAIM, action_of, describe
from rulesets.botzone.table import Table


@pytest.mark.parametrize(("variant", "seed"), [("classic", 1), ("classic", 2),
                                                ("duplicate", 3), ("duplicate", 4)])
def test_boards_offer_the_judges_legal_responses_and_claims_in_two_steps(
        variant: str, seed: int) -> None:
    rng = random.Random(seed)
    table = Table(variant, {"srand": seed})
    boards = [PersonBoard(variant) for _ in range(4)]
    fed = [0, 0, 0, 0]
    discard_after: dict[int, str] = {}  # a claimer's response, chosen with its claim
    steps = 0
    while not table.judge.finished:
        for seat, board in enumerate(boards):
            for request in table.requests[seat][fed[seat]:]:
                board.feed(request)
            fed[seat] = len(table.requests[seat])
            assert board.view.hand == table.views[seat].hand or seat in discard_after
        seat = table.deciders[0]
        view = table.views[seat]
        if view.kind != AFTER_CLAIM:
            discard_after.pop(seat, None)  # its claim lost to another
        else:  # the discard was chosen with the claim
            response = discard_after.pop(seat)
            play_tile = response.split(" ")[-1]
            said = len(table.responses[seat])
            table.act(seat, next(a for a in view.legal_actions()
                                 if describe(a) == f"PLAY {play_tile}"))
            assert table.responses[seat][said] == response  # the judge got it as composed
            boards[seat].answered(response)
            continue
        board = boards[seat]
        choices = board.choices()
        offered = sorted(c.answer for c in choices)
        legal = sorted(describe(a) if describe(a).startswith(("PENG", "CHI")) else
                       view.response(a) for a in view.legal_actions())
        assert offered == legal
        pick = next((c for c in choices if c.kind == "win"), None)
        claims = [c for c in choices if c.step]
        if pick is None and claims and rng.random() < 0.6:
            claim = rng.choice(claims)
            board.step(claim.answer)
            after = board.choices()
            assert after[-1].answer == BACK and all(c.kind == "discard" for c in after[:-1])
            board.step(BACK)  # and back again: the same choices
            assert [c.answer for c in board.choices()] == [c.answer for c in choices]
            board.step(claim.answer)
            chosen = rng.choice(board.choices()[:-1])
            action = next(a for a in view.legal_actions() if describe(a) == claim.answer)
            assert chosen.answer.split(" ")[0] == claim.answer.split(" ")[0]
            discard_after[seat] = chosen.answer
            steps += 1
            table.act(seat, action)
            continue
        if pick is None:
            discards = [c for c in choices if c.kind == "discard"]
            pick = rng.choice(discards) if discards else \
                next(c for c in choices if c.kind == "pass")
        table.act(seat, action_of(pick.answer, view)[0])
        board.answered(pick.answer)
    assert table.judge.finished and steps
