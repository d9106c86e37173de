"""A person's board in NOI 2014: fed only the seat's requests, it offers exactly the seat
view's legal actions as responses (a pung in two steps), answers the target hand by
itself, and every response it composes is one the engine takes: whole games on the
engine, every seat a board, nobody faulted."""

from __future__ import annotations

import random

import pytest

from rulesets.noi2014.engine import Game
from rulesets.noi2014.formats import one_game, wall_of
from rulesets.noi2014.person_board import BACK, PersonBoard
from rulesets.noi2014.seat_view import response_of
from server.seam.contract import Choice, Reply


def pick(board: PersonBoard, rng: random.Random) -> str:
    """A win; else a pung now and then (two steps, one taken back first); else a discard."""
    choices = board.choices()
    if len(choices) == 1 and choices[0].kind in ("pass", "auto"):
        return choices[0].answer
    kinds = {c.kind: c for c in choices}
    if "win" in kinds:
        return kinds["win"].answer
    if "pung" in kinds and rng.random() < 0.7:
        board.step(kinds["pung"].answer)
        after = board.choices()
        assert after[-1].answer == BACK and all(c.answer.startswith("PENG ") for c in after[:-1])
        board.step(BACK)
        assert [c.answer for c in board.choices()] == [c.answer for c in choices]
        board.step(kinds["pung"].answer)
        return rng.choice(board.choices()[:-1]).answer
    options: list[Choice] = [c for c in choices if c.kind in ("discard", "pass")]
    return rng.choice(options).answer


@pytest.mark.parametrize("seed", range(6))
def test_boards_compose_responses_the_engine_takes(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(wall_of(one_game(seed)[0].setup))
    boards = [PersonBoard() for _ in range(4)]
    pungs = 0
    while not game.finished:
        replies = []
        for seat, request in enumerate(game.requests()):
            if request is None:
                replies.append(Reply("OK", None))
                continue
            board = boards[seat]
            board.feed(request)
            legal = board.view.legal()
            offered = {c.answer for c in board.choices()}
            if legal:
                assert offered == {"PENG" if a == 56 else response_of(a) for a in legal}
            answer = pick(board, rng)
            pungs += answer.startswith("PENG ")
            board.answered(answer)
            replies.append(Reply("OK", answer))
        game.step(replies)
    assert game.result is not None and game.result.faulted == []
    assert pungs  # every one of these games has pungs, made in two steps
    assert all(r.valid for r in game.result.remaining.values())  # the targets answered
