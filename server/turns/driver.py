"""One driver for every turn-based ruleset: a ``TurnGame`` played by its seats.

Each turn the game says what each seat is sent (``requests``); the seats that
are asked answer at the same time (a turn's wall time is its slowest bot's,
not the sum), each on its own clock kept by its transport; their verdicts and
responses go back to the game (``step``), and both are recorded. The record
is the ruleset's log (for Botzone, exactly the format of a game judged on
Botzone: ``judge`` outputs and each seat's ``request``, ``response``,
``verdict``, plus our ``ms``, ``debug`` and ``cause``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import trio

from server.seam.contract import Reply, TurnGame


class Answered(Protocol):
    """What a transport says about one answer (``server.bots.botzone_bots.Answer``)."""

    @property
    def verdict(self) -> str: ...
    @property
    def response(self) -> str | None: ...
    @property
    def debug(self) -> str | None: ...
    @property
    def ms(self) -> int: ...
    @property
    def cause(self) -> str: ...


class TurnSeat(Protocol):
    async def ask(self, request: str) -> Answered: ...


@runtime_checkable
class MeasuredSeat(Protocol):
    """A seat whose bot's own resources are known once its game is over (a process)."""

    def resources(self) -> dict[str, float | None]: ...


@dataclass(slots=True)
class GameLog:
    judge: list[dict[str, Any]] = field(default_factory=list)
    players: list[list[dict[str, Any] | None]] = field(default_factory=list)

    @property
    def turns(self) -> int:
        return len(self.judge)


# Told of each turn as it is judged: (turn number, the seats' entries, the judge's next output).
TurnListener = Callable[[int, list[dict[str, Any] | None], dict[str, Any]], None]


def entry(request: str, answer: Answered) -> dict[str, Any]:
    """One seat's line in the record for one turn."""
    return {"request": request,
            "response": answer.response if answer.verdict == "OK" else None,
            "verdict": answer.verdict, "ms": answer.ms, "debug": answer.debug,
            "cause": answer.cause}


async def play_turns(game: TurnGame, seats: Sequence[TurnSeat],
                     on_turn: TurnListener | None = None, log: GameLog | None = None) -> GameLog:
    """Play ``game`` to its end; ``log`` (if given) is filled as the game goes, so a
    game that is stopped keeps the turns it played."""
    log = log if log is not None else GameLog()
    log.players = [[] for _ in seats]
    log.judge.append(game.output())
    turn = 0
    while not game.finished:
        requests = list(game.requests())
        answers: list[Answered | None] = [None] * len(seats)

        async def ask(seat: int, request: str, answers: list[Answered | None]) -> None:
            answers[seat] = await seats[seat].ask(request)

        async with trio.open_nursery() as nursery:
            for seat, request in enumerate(requests):
                if request is not None:
                    nursery.start_soon(ask, seat, request, answers)
        entries: list[dict[str, Any] | None] = []
        replies: list[Reply] = []
        for seat, request in enumerate(requests):
            answer = answers[seat]
            if request is None or answer is None:
                entries.append(None)
                replies.append(Reply("OK", None))
                continue
            entries.append(entry(request, answer))
            replies.append(Reply(answer.verdict, answer.response if answer.verdict == "OK"
                                 else None))
        for seat, item in enumerate(entries):
            log.players[seat].append(item)
        output = game.step(replies)
        log.judge.append(output)
        turn += 1
        if on_turn is not None:
            on_turn(turn, entries, output)
    return log
