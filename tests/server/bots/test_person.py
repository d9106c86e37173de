"""Person seats in the shell (``server.bots.person``), with a scripted board in virtual
time: the peer joins at once, passes by itself where passing is all there is, takes only
an offered answer for the current version, applies a step without sending it, and says
why a closed seat stopped."""

from __future__ import annotations

from typing import Any

import trio
import trio.testing

from server.bots.person import PersonOptions, PersonPeer, PersonSeat, PersonSeats, person_options
from server.bots.seats import SeatRequest
from server.seam.contract import Choice


class Board:
    """A board asked ``ask``: the choices listed for the prompt line ``ask``."""

    def __init__(self) -> None:
        self.fed: list[str] = []
        self.sent: list[str] = []
        self.stepped: list[str] = []
        self.offer: list[Choice] = []

    def feed(self, text: str) -> None:
        self.fed.append(text)
        if text == "ask":
            self.offer = [Choice("out 1M", "discard", "discard 1M", "W1"),
                          Choice("peng", "pung", "Pung", step=True)]
        elif text == "claim?":
            self.offer = [Choice("pass", "pass", "Pass")]

    def answered(self, answer: str) -> None:
        self.sent.append(answer)
        self.offer = []

    def step(self, answer: str) -> None:
        self.stepped.append(answer)
        self.offer = [Choice("peng 2M", "discard", "discard 2M", "W2")]

    def picture(self) -> dict[str, Any]:
        return {"fed": list(self.fed)}

    def choices(self) -> list[Choice]:
        return list(self.offer)


def seat_and_peer() -> tuple[PersonSeat, PersonPeer, Board]:
    seat = PersonSeat("ann", "secret", 30.0)
    board = Board()
    peer = PersonPeer("seat0", seat, board)
    seat.board, seat.peer = board, peer
    return seat, peer, board


async def test_the_peer_joins_at_once_and_passes_alone_where_it_may_only_pass(
        autojump_clock: trio.testing.MockClock) -> None:
    seat, peer, board = seat_and_peer()
    assert await peer.receive_some() == b"join\n"
    assert peer.send_nowait(b"claim?\r\n") == len(b"claim?\r\n")
    assert await peer.receive_some() == b"pass\n"
    assert board.sent == ["pass"] and seat.choices() == []


async def test_only_an_offered_answer_for_the_current_prompt_is_sent(
        autojump_clock: trio.testing.MockClock) -> None:
    seat, peer, board = seat_and_peer()
    await peer.receive_some()
    peer.send_nowait(b"ask\r\n")
    version = seat.version
    assert seat.state()["time_left"] == 30.0
    assert seat.answer("out 9M", version) is not None  # not offered
    assert seat.answer("out 1M", version - 1) is not None  # an older page
    assert seat.answer("peng", version) is None  # a step: applied, nothing sent
    assert board.stepped == ["peng"] and board.sent == []
    assert seat.answer("peng 2M", seat.version) is None
    assert await peer.receive_some() == b"peng 2M\n"
    assert seat.answer("peng 2M", seat.version) is not None  # answered already


async def test_a_seat_closed_while_asked_says_the_clock_ran_out(
        autojump_clock: trio.testing.MockClock) -> None:
    seat, peer, _ = seat_and_peer()
    await peer.receive_some()
    peer.send_nowait(b"ask\r\n")
    await peer.close()
    assert "did not answer within 30 s" in seat.note
    assert seat.answer("out 1M", seat.version) is not None


async def test_seats_are_found_by_name_and_token_only() -> None:
    options = person_options(["web:ann", "bot.py", "web:bob", "bot.py"])
    assert options is not None and set(options.tokens) == {"ann", "bob"}
    seats = PersonSeats(PersonOptions(options.tokens), Board)
    assert seats.find("ann", options.tokens["ann"]) is seats.seats["ann"]
    assert seats.find("ann", options.tokens["bob"]) is None
    assert seats.find("nobody", options.tokens["ann"]) is None
    assert seats.find("ann", "") is None


async def test_the_first_hand_waits_for_the_page(
        autojump_clock: trio.testing.MockClock) -> None:
    seats = PersonSeats(PersonOptions({"ann": "secret"}), Board)
    request = SeatRequest(0, "web:ann", (), 0, 0, None)
    opened: list[object] = []

    async def open_seat() -> None:
        async with trio.open_nursery() as nursery:
            opened.append(await seats.open(request, nursery))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(open_seat)
        await trio.sleep(60)
        assert opened == [] and seats.seats["ann"].note == "The table waits for you."
        seats.find("ann", "secret")
        await trio.sleep(0.1)
    assert len(opened) == 1
