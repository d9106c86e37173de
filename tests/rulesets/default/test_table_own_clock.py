"""A seat with a clock of its own (a person's seat, ``server.bots.person``), in virtual
time: its clock replaces the hard limit for it alone, no answer within it is fined, and
its time-out costs what a bot's costs at the hard limit."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
import structlog
import trio
import trio.testing

from rulesets.default.engine.hand import Hand
from rulesets.default.engine.rng import deal
from rulesets.default.table import HandOutcome, play_hand
from server.bots.seats import TableOptions
from tests.rulesets.default.test_table import (
    SEED,
    Act,
    FakeBot,
    StreamPeer,
    _quiet_logs,  # noqa: F401  (the fixture)
    first_actor,
    with_seat,
)


@dataclass
class ClockedPeer(StreamPeer):
    clock: float | None = None


async def play(bots: list[FakeBot], clocks: dict[int, float]) -> tuple[HandOutcome,
                                                                       list[StreamPeer]]:
    d = deal(SEED, 0)
    peers: list[StreamPeer] = []
    async with trio.open_nursery() as nursery:
        for seat, bot in enumerate(bots):
            ours, theirs = trio.testing.memory_stream_pair()
            peers.append(ClockedPeer(f"seat{seat}", ours, clock=clocks.get(seat)))
            nursery.start_soon(bot.run, theirs)
        outcome = await play_hand(Hand(d.wall, d.first), peers, TableOptions(),
                                  structlog.get_logger())
        for peer in peers:
            await peer.close()
    return outcome, peers


async def test_an_answer_within_the_seats_own_clock_is_not_fined(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    bot = FakeBot(turns={1: Act(delay=20.0), 2: Act(delay=29.0)})
    outcome, _ = await play(with_seat(seat, bot), {seat: 30.0})
    assert outcome.faults == {} and outcome.fines == [0, 0, 0, 0]
    assert (seat, 20000.0, 30000) in outcome.timings


async def test_the_seats_own_clock_is_its_hard_limit_and_the_others_keep_theirs(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    other = (seat + 1) % 4
    bots = with_seat(seat, FakeBot(turns={1: Act(silent=True)}))
    bots[other] = FakeBot(turns={1: Act(delay=1.2)})  # fined as ever
    outcome, peers = await play(bots, {seat: 0.3})
    assert outcome.faults == {seat: "hard-limit"}
    assert peers[seat].closed_at == pytest.approx(outcome.started_at + 0.3)
    # Fined as a bot at the hard limit (5 s on an own-turn answer: 40), once.
    assert outcome.fines[seat] == 40
    assert (seat, 5000.0, 1000) in outcome.timings
    assert outcome.fines[other] == 2
