"""One hand at a table, in virtual time: deadlines, fines, faults, stray lines.

Each seat is a scripted fake bot on the far end of
``trio.testing.memory_stream_pair()``. By default a fake bot plays like
``tests/bots/drawbot.py`` (discard the drawn tile, pass every claim), so a
hand always runs to the end of the wall; a test scripts the exceptions: a
delay, other bytes, silence or an end of output on a given prompt. With
``autojump_clock`` a delay of 1.05 s is exactly 1050 ms on the table's clock.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import pytest
import structlog
import trio
import trio.testing
from structlog.testing import capture_logs

from protocol.messages import Out
from rulesets.default.engine.hand import Hand, fault_fine
from rulesets.default.engine.rng import deal
from rulesets.default.table import MAX_UNSOLICITED, HandOutcome, fine_for, play_hand
from server.bots.seats import TableOptions

SEED = 20240601
DEFAULT_OPTIONS = TableOptions()
FAULT_FINE = 40  # any fault but the hard limit, at the default 5 s hard limit (SPEC section 6)
MemoryStream = trio.StapledStream[trio.testing.MemorySendStream,
                                  trio.testing.MemoryReceiveStream]


@pytest.fixture(autouse=True)
def _quiet_logs() -> Iterator[None]:
    """Drop the per-line debug events (a hand has hundreds); info and up are kept."""
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.INFO))
    yield
    structlog.reset_defaults()


@dataclass(frozen=True, slots=True)
class Act:
    """What a fake bot does on one prompt instead of answering at once."""

    delay: float = 0.0  # seconds to sleep first
    data: bytes | None = None  # bytes to write instead of the drawbot's answer
    silent: bool = False  # never answer (but keep reading)
    eof: bool = False  # close our output instead of answering
    chatter: bytes = b""  # bytes to write ``chatter_delay`` s into the prompt, before the rest
    chatter_delay: float = 0.0


@dataclass
class FakeBot:
    """The bot end of a stream: a drawbot with scripted exceptions.

    ``turns`` and ``claims`` map a 1-based count of own-turn prompts (``pick``)
    and of claim prompts (``mout``, another seat's ``mjgang``) to an ``Act``.
    """

    turns: dict[int, Act] = field(default_factory=dict)
    claims: dict[int, Act] = field(default_factory=dict)
    join: bytes | None = b"join\n"  # None: never join
    join_delay: float = 0.0
    on_line: dict[str, bytes] = field(default_factory=dict)  # extra bytes after a keyword
    eof_on: str | None = None  # close our output on reading a line with this keyword
    deaf_after: str | None = None  # close our input after handling a line with this keyword
    received: list[str] = field(default_factory=list)

    async def run(self, stream: MemoryStream) -> None:
        # The table closing our stream (a faulted seat is killed) ends the bot.
        with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
            await self._play(stream)

    async def _play(self, stream: MemoryStream) -> None:
        if self.join is not None:
            await trio.sleep(self.join_delay)
            await stream.send_all(self.join)
        me, n_turns, n_claims = -1, 0, 0
        buffer = b""
        while True:
            data = await stream.receive_some()
            if not data:
                return
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for raw in lines:
                words = raw.decode().split()
                self.received.append(" ".join(words))
                if words[0] in self.on_line:
                    await stream.send_all(self.on_line[words[0]])
                if words[0] == self.eof_on:
                    await stream.send_stream.aclose()
                    return
                if words[0] == "id":
                    me = int(words[1])
                if words[0] == "pick":
                    n_turns += 1
                    act, answer = self.turns.get(n_turns, Act()), f"out {words[1]}"
                elif words[0] in ("mout", "mjgang") and int(words[1]) != me:
                    n_claims += 1
                    act, answer = self.claims.get(n_claims, Act()), "pass"
                else:
                    continue
                if act.chatter:
                    await trio.sleep(act.chatter_delay)
                    await stream.send_all(act.chatter)
                if act.silent:
                    continue
                await trio.sleep(act.delay - act.chatter_delay)
                if act.eof:
                    await stream.send_stream.aclose()
                    continue
                await stream.send_all(act.data if act.data is not None
                                      else answer.encode() + b"\r\n")
                if words[0] == self.deaf_after:
                    await stream.receive_stream.aclose()
                    return


@dataclass
class StreamPeer:
    """The table's end of a memory stream, as a ``Peer``."""

    label: str
    stream: MemoryStream
    send_delay: float = 0.0  # a slow pipe: each write takes this long
    closed_at: float | None = None

    def send_nowait(self, data: bytes) -> int:
        return 0  # always take the path with a deadline (and the slow pipe's delay)

    async def send(self, data: bytes) -> None:
        await trio.sleep(self.send_delay)
        await self.stream.send_all(data)

    async def receive_some(self) -> bytes:
        return bytes(await self.stream.receive_some())

    async def close(self) -> None:
        if self.closed_at is None:
            self.closed_at = trio.current_time()
        await self.stream.aclose()


def first_actor(deal_index: int = 0) -> int:
    return deal(SEED, deal_index).first


async def play(bots: Sequence[FakeBot], options: TableOptions = DEFAULT_OPTIONS,
               send_delay: float = 0.0, faulted: list[int] | None = None,
               ) -> tuple[HandOutcome, list[StreamPeer]]:
    """Play deal 0 of ``SEED`` with these fake bots; close every peer after."""
    d = deal(SEED, 0)
    engine = Hand(d.wall, d.first)
    peers: list[StreamPeer] = []
    async with trio.open_nursery() as nursery:
        for seat, bot in enumerate(bots):
            ours, theirs = trio.testing.memory_stream_pair()
            peers.append(StreamPeer(f"seat{seat}", ours, send_delay))
            nursery.start_soon(bot.run, theirs)
        outcome = await play_hand(engine, peers, options, structlog.get_logger(),
                                  on_fault=(faulted.append if faulted is not None else None))
        for peer in peers:
            await peer.close()
    return outcome, peers


def drawbots(**by_seat: FakeBot) -> list[FakeBot]:
    """Four default fake bots, with some seats replaced (``seat2=FakeBot(...)``)."""
    return [by_seat.get(f"seat{s}", FakeBot()) for s in range(4)]


def with_seat(seat: int, bot: FakeBot) -> list[FakeBot]:
    return drawbots(**{f"seat{seat}": bot})


def assert_ran_to_a_draw(outcome: HandOutcome) -> None:
    result = outcome.engine.result
    assert result is not None and result.is_draw
    assert outcome.engine.wall_left == 0


# --- fines ------------------------------------------------------------------------


def test_fine_formula_matches_spec_section_6() -> None:
    assert [fine_for(t, 1000) for t in (0, 1000, 1049, 1050, 1149, 1150, 1249, 1250)] == \
        [0, 0, 0, 1, 1, 2, 2, 3]
    assert [fine_for(t, 500) for t in (500, 549, 550, 649, 650, 5000)] == [0, 0, 1, 1, 2, 45]


@pytest.mark.parametrize(("ms", "fine"), [
    (0, 0), (1000, 0), (1049, 0), (1050, 1), (1149, 1), (1150, 2), (1200, 2), (1249, 2),
    (1250, 3), (4999, 40),
])
async def test_late_own_turn_answer_is_fined_per_100_ms_over_1000(
        autojump_clock: trio.testing.MockClock, ms: int, fine: int) -> None:
    seat = first_actor()
    with capture_logs() as logs:
        outcome, _ = await play(with_seat(seat, FakeBot(turns={1: Act(delay=ms / 1000)})))
    assert outcome.answer_ms[seat][0] == pytest.approx(ms, abs=1e-6)
    assert outcome.fines == [fine if s == seat else 0 for s in range(4)]
    assert outcome.faults == {}
    fined = [e for e in logs if e["event"] == "fine"]
    assert [(e["seat"], e["limit"], e["points"]) for e in fined] == \
        ([(seat, 1000, fine)] if fine else [])
    assert_ran_to_a_draw(outcome)


@pytest.mark.parametrize(("ms", "fine"), [
    (0, 0), (500, 0), (549, 0), (550, 1), (649, 1), (650, 2), (700, 2), (4999, 45),
])
async def test_late_claim_answer_is_fined_per_100_ms_over_500(
        autojump_clock: trio.testing.MockClock, ms: int, fine: int) -> None:
    seat = (first_actor() + 1) % 4  # answers the first discard's claim prompt
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(delay=ms / 1000)})))
    assert outcome.answer_ms[seat][0] == pytest.approx(ms, abs=1e-6)
    assert outcome.fines == [fine if s == seat else 0 for s in range(4)]
    assert outcome.faults == {}


async def test_fines_add_up_over_a_hand(autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    bot = FakeBot(turns={1: Act(delay=1.2), 3: Act(delay=1.35)}, claims={2: Act(delay=0.8)})
    outcome, _ = await play(with_seat(seat, bot))
    assert outcome.fines[seat] == 2 + 4 + 3


async def test_clock_starts_when_the_prompt_has_been_written(
        autojump_clock: trio.testing.MockClock) -> None:
    """A write that takes 2 s (a full pipe) is not the bot's time."""
    outcome, _ = await play(drawbots(), send_delay=2.0)
    assert outcome.fines == [0, 0, 0, 0]
    assert max(max(ms) for ms in outcome.answer_ms) == pytest.approx(0, abs=1e-6)
    assert_ran_to_a_draw(outcome)


# --- the hard limit ---------------------------------------------------------------


@pytest.mark.parametrize(("hard_limit", "fine"), [(5.0, 40), (1.5, 5)])
async def test_bot_that_never_answers_its_turn_is_faulted_at_the_hard_limit(
        autojump_clock: trio.testing.MockClock, hard_limit: float, fine: int) -> None:
    seat = first_actor()
    faulted: list[int] = []
    outcome, peers = await play(with_seat(seat, FakeBot(turns={1: Act(silent=True)})),
                                TableOptions(hard_limit=hard_limit), faulted=faulted)
    assert outcome.faults == {seat: "hard-limit"}
    assert faulted == [seat]
    # Fined once, for the time it took (not again as a fault).
    assert outcome.fines == [fine if s == seat else 0 for s in range(4)]
    assert [t for t in outcome.timings if t[0] == seat and t[1] > 1000] == \
        [(seat, hard_limit * 1000, 1000)]
    # Killed the moment the limit passed (the rest of the hand takes no virtual time).
    assert peers[seat].closed_at == pytest.approx(outcome.started_at + hard_limit)
    # Faulted on its first draw; then autoplayed: it discarded the tile it drew, every
    # turn, and the hand went on to its end.
    engine = outcome.engine
    assert [e.kind for e in engine.events[:2]] == ["pick", "fault"]
    auto = [i.message for i in engine.inputs if i.seat == seat and i.fault == "auto"]
    draws = [e.tile for e in engine.events if e.kind == "pick" and e.seat == seat]
    assert [m for m in auto if isinstance(m, Out)] == [Out(t) for t in draws if t is not None]
    assert_ran_to_a_draw(outcome)


async def test_bot_that_never_answers_a_claim_is_fined_against_the_claim_limit(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = (first_actor() + 2) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(silent=True)})))
    assert outcome.faults == {seat: "hard-limit"}
    assert outcome.fines[seat] == fine_for(5000, 500) == 45  # its own limit, and only that
    assert [t for t in outcome.timings if t[0] == seat and t[1] > 500] == [(seat, 5000, 500)]
    assert_ran_to_a_draw(outcome)


# --- stray lines --------------------------------------------------------------------


async def test_duplicate_answer_is_never_taken_as_the_answer_to_the_next_prompt(
        autojump_clock: trio.testing.MockClock) -> None:
    """The next seat's doubled ``pass`` ends the claim window, and its very next
    prompt is its own draw: the second ``pass`` was read before that prompt."""
    seat = (first_actor() + 1) % 4
    doubled = FakeBot(claims={1: Act(delay=0.1, data=b"pass\r\npass\r\n")})
    with capture_logs() as logs:
        outcome, _ = await play(with_seat(seat, doubled))
    assert outcome.faults == {}
    assert outcome.unsolicited == [1 if s == seat else 0 for s in range(4)]
    assert [(e["seat"], e["line"]) for e in logs if e["event"] == "unsolicited"] == \
        [(seat, "pass")]
    # Its first turn was answered by its own ``out``, on time.
    engine = outcome.engine
    first_out = next(e for e in engine.events if e.kind == "out" and e.seat == seat)
    first_pick = next(e for e in engine.events if e.kind == "pick" and e.seat == seat)
    assert first_out.tile == first_pick.tile
    assert outcome.fines == [0, 0, 0, 0]
    assert_ran_to_a_draw(outcome)


async def test_duplicate_discard_is_ignored(autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    outcome0, _ = await play(drawbots())
    drawn = next(e.tile for e in outcome0.engine.events if e.kind == "pick")
    bot = FakeBot(turns={1: Act(data=f"out {drawn}\nout {drawn}\n".encode())})
    outcome, _ = await play(with_seat(seat, bot))
    assert outcome.faults == {}
    assert outcome.unsolicited[seat] == 1
    assert outcome.engine.events == outcome0.engine.events


@pytest.mark.parametrize("line", [b"pass\n", b"out 1M\n", b"hu\r\n", b"join\n"])
async def test_well_formed_unsolicited_line_is_ignored(
        autojump_clock: trio.testing.MockClock, line: bytes) -> None:
    """A line sent on ``init``, 0.2 s before the seat's first prompt, is logged and dropped."""
    first = first_actor()
    seat = (first + 2) % 4
    outcome0, _ = await play(drawbots())
    bots = drawbots(**{f"seat{first}": FakeBot(turns={1: Act(delay=0.2)}),
                       f"seat{seat}": FakeBot(on_line={"init": line})})
    with capture_logs() as logs:
        outcome, _ = await play(bots)
    assert outcome.faults == {}
    assert outcome.unsolicited == [1 if s == seat else 0 for s in range(4)]
    assert [(e["seat"], e["line"]) for e in logs if e["event"] == "unsolicited"] == \
        [(seat, line.decode().strip())]
    assert outcome.engine.events == outcome0.engine.events


@pytest.mark.parametrize("chatter_ms", [0, 300, 1100])
async def test_pass_to_a_turn_prompt_is_chatter_and_the_turn_is_timed_from_its_prompt(
        autojump_clock: trio.testing.MockClock, chatter_ms: int) -> None:
    """A ``pass`` read after a turn prompt was written (as a real bot's answer to its
    own ``mjgang`` can be) is no answer and no fault; nothing times or fines it, and
    the seat's ``out`` 1.2 s after the prompt is fined as 1200 ms."""
    seat = first_actor()
    bot = FakeBot(turns={1: Act(chatter=b"pass\r\n", chatter_delay=chatter_ms / 1000,
                                delay=1.2)})
    with capture_logs() as logs:
        outcome, _ = await play(with_seat(seat, bot))
    assert outcome.faults == {}
    assert outcome.unsolicited == [1 if s == seat else 0 for s in range(4)]
    assert [(e["seat"], e["line"], e["reason"]) for e in logs if e["event"] == "unsolicited"] \
        == [(seat, "pass", "pass is no answer to a turn prompt")]
    assert outcome.answer_ms[seat][0] == pytest.approx(1200, abs=1e-6)
    assert len(outcome.answer_ms[seat]) == len([t for t in outcome.timings if t[0] == seat])
    assert outcome.fines == [2 if s == seat else 0 for s in range(4)]
    first_out = next(e for e in outcome.engine.events if e.kind == "out")
    assert first_out.seat == seat
    assert_ran_to_a_draw(outcome)


async def test_a_seat_that_only_chatters_is_faulted_at_the_hard_limit_saying_so(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    bot = FakeBot(turns={1: Act(chatter=b"pass\n", chatter_delay=0.1, silent=True)})
    outcome, peers = await play(with_seat(seat, bot))
    assert outcome.faults == {seat: "hard-limit: only chatter (pass is no answer to a turn "
                                    "prompt)"}
    assert outcome.fines == [40 if s == seat else 0 for s in range(4)]
    assert peers[seat].closed_at == pytest.approx(outcome.started_at + 5.0)
    assert_ran_to_a_draw(outcome)


# --- faults ---------------------------------------------------------------------------


@pytest.mark.parametrize(("data", "cause"), [
    (b"hello there\n", "malformed: unknown keyword 'hello'"),
    (b"out 1Z\n", "malformed: unknown tile '1Z'"),
    (b"out\n", "malformed: out takes 1 argument(s), got 0"),
    (b"pick 1M\n", "malformed: 'pick' is a server message"),
    (b"out 1M\xe9\n", "malformed: line is not ASCII"),
    (b"out 1M\x00\n", "malformed: line holds control byte"),
    (b"x" * 4097 + b"\n", "malformed: line longer than 4096 bytes"),
    (b"x" * 10_000, "malformed: line longer than 4096 bytes"),  # no newline needed
])
async def test_bad_line_faults_the_seat_with_its_cause(
        autojump_clock: trio.testing.MockClock, data: bytes, cause: str) -> None:
    seat = first_actor()
    faulted: list[int] = []
    outcome, peers = await play(with_seat(seat, FakeBot(turns={1: Act(data=data)})),
                                faulted=faulted)
    assert list(outcome.faults) == [seat]
    assert outcome.faults[seat].startswith(cause)
    assert faulted == [seat]
    assert peers[seat].closed_at == outcome.started_at  # at once, in virtual time
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    assert_ran_to_a_draw(outcome)


async def test_blank_line_before_an_answer_is_ignored_as_chatter(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = (first_actor() + 1) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(data=b"\r\npass\n")})))
    assert outcome.faults == {}
    assert outcome.unsolicited[seat] == 1


async def test_line_of_exactly_4096_bytes_is_accepted(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = (first_actor() + 1) % 4
    answer = b"pass".ljust(4096) + b"\r\n"
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(data=answer)})))
    assert outcome.faults == {}


async def test_illegal_discard_faults_the_seat(autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    d = deal(SEED, 0)
    hand = set(d.wall[13 * seat : 13 * seat + 13]) | {d.wall[52]}
    absent = next(t for t in sorted(set(d.wall)) if t not in hand)
    bot = FakeBot(turns={1: Act(data=f"out {absent}\n".encode())})
    outcome, _ = await play(with_seat(seat, bot))
    assert outcome.faults == {seat: f"illegal: out {absent}: not in hand"}
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    assert_ran_to_a_draw(outcome)


async def test_claim_not_allowed_is_illegal(autojump_clock: trio.testing.MockClock) -> None:
    seat = (first_actor() + 1) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(data=b"out 1M\n")})))
    assert outcome.faults[seat].startswith("illegal: out is not an answer to a claim prompt")
    # Fined as an own-turn answer at the hard limit, though it was a claim prompt.
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]


async def test_end_of_output_faults_the_seat(autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    outcome, _ = await play(with_seat(seat, FakeBot(turns={1: Act(delay=0.3, eof=True)})))
    assert outcome.faults == {seat: "closed-output"}
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    assert_ran_to_a_draw(outcome)


async def test_end_of_output_between_prompts_faults_the_seat(
        autojump_clock: trio.testing.MockClock) -> None:
    """A bot that dies while nobody waits on it is faulted at once, not left for later."""
    seat = (first_actor() + 3) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(eof_on="init")))
    assert outcome.faults == {seat: "closed-output"}
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    assert_ran_to_a_draw(outcome)


async def test_bot_that_stops_reading_is_faulted_when_written_to(
        autojump_clock: trio.testing.MockClock) -> None:
    """It passed the first discard, then closed its input: the ``pick`` that follows
    cannot be written. The server plays that turn for it and prompts the others."""
    seat = (first_actor() + 1) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(deaf_after="mout")))
    assert outcome.faults == {seat: "closed-input"}
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    assert [(e.kind, e.seat) for e in outcome.engine.events[2:5]] == \
        [("pick", seat), ("fault", seat), ("out", seat)]
    assert_ran_to_a_draw(outcome)


async def test_faulted_seat_costs_the_others_nothing(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = first_actor()
    outcome0, _ = await play(drawbots())
    outcome, _ = await play(with_seat(seat, FakeBot(turns={1: Act(data=b"garbage\n")})))
    # A drawbot and the server's autoplay make the same moves: the hand is unchanged.
    assert [e for e in outcome.engine.events if e.kind != "fault"] == outcome0.engine.events
    assert outcome.engine.result == outcome0.engine.result
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]


# Each kind of fault but the hard limit, on the seat that commits it (an offset from the
# first actor), and the start of its cause.
FAULT_KINDS = {
    "closed-output": (0, lambda: FakeBot(turns={1: Act(delay=0.3, eof=True)}), "closed-output"),
    "closed-input": (1, lambda: FakeBot(deaf_after="mout"), "closed-input"),
    "malformed": (0, lambda: FakeBot(turns={1: Act(data=b"hello there\n")}), "malformed: unknown"),
    "line-too-long": (0, lambda: FakeBot(turns={1: Act(data=b"x" * 10_000)}),
                      "malformed: line longer"),
    "illegal": (1, lambda: FakeBot(claims={1: Act(data=b"chi 9M\n")}), "illegal: "),
    "no-join": (2, lambda: FakeBot(join=None), "no-join"),
    "said-something-else-first": (3, lambda: FakeBot(join=b"out 1M\n"), "no-join: said"),
    "flood": (2, lambda: FakeBot(on_line={"init": b"\n" * (MAX_UNSOLICITED + 1)}), "flood"),
}


@pytest.mark.parametrize(("hard_limit", "fine"), [(5.0, 40), (1.5, 5), (2.0, 10), (8.0, 70)])
@pytest.mark.parametrize("kind", FAULT_KINDS)
async def test_every_fault_but_the_hard_limit_costs_an_own_turn_answer_at_the_hard_limit(
        autojump_clock: trio.testing.MockClock, kind: str, hard_limit: float,
        fine: int) -> None:
    """SPEC section 6: a crash never pays better than being slow."""
    offset, bot, cause = FAULT_KINDS[kind]
    seat = (first_actor() + offset) % 4
    outcome, _ = await play(with_seat(seat, bot()), TableOptions(hard_limit=hard_limit))
    assert list(outcome.faults) == [seat]
    assert outcome.faults[seat].startswith(cause)
    assert fine == fault_fine(hard_limit * 1000)
    assert outcome.fines == [fine if s == seat else 0 for s in range(4)]
    # Recorded as the own-turn answer it is charged as, so that the fine can be recomputed.
    assert (seat, hard_limit * 1000, 1000) in outcome.timings
    assert_ran_to_a_draw(outcome)


async def test_a_seat_is_fined_for_one_fault_a_hand(
        autojump_clock: trio.testing.MockClock) -> None:
    """Bad lines after the first fault are never read: the seat is played by the server."""
    seat = first_actor()
    bot = FakeBot(turns={1: Act(data=b"garbage\nout 1Z\n" + b"x" * 5000)})
    outcome, _ = await play(with_seat(seat, bot))
    assert outcome.faults == {seat: "malformed: unknown keyword 'garbage'"}
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]


async def test_late_illegal_answer_pays_for_its_time_and_for_the_fault(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = (first_actor() + 1) % 4
    outcome, _ = await play(with_seat(seat, FakeBot(claims={1: Act(delay=0.75,
                                                                   data=b"chi 9M\n")})))
    assert outcome.faults[seat].startswith("illegal: ")
    assert outcome.fines[seat] == fine_for(750, 500) + FAULT_FINE == 3 + 40


# --- joining ----------------------------------------------------------------------------


async def test_bot_that_never_joins_is_faulted_at_the_join_limit(
        autojump_clock: trio.testing.MockClock) -> None:
    seat = 2
    faulted: list[int] = []
    outcome, peers = await play(with_seat(seat, FakeBot(join=None)),
                                TableOptions(join_limit=3.0), faulted=faulted)
    assert outcome.faults == {seat: "no-join"}
    assert faulted == [seat]
    assert peers[seat].closed_at == pytest.approx(outcome.started_at + 3.0)
    # Fined by the hard limit (5 s), not by the join limit it missed.
    assert outcome.fines == [FAULT_FINE if s == seat else 0 for s in range(4)]
    # It got nothing: the deal is written only after the join phase.
    assert_ran_to_a_draw(outcome)
    assert all(len(ms) > 0 for s, ms in enumerate(outcome.answer_ms) if s != seat)
    assert outcome.answer_ms[seat] == []


async def test_bot_that_says_something_else_first_is_faulted(
        autojump_clock: trio.testing.MockClock) -> None:
    outcome, _ = await play(with_seat(1, FakeBot(join=b"pass\n")))
    assert outcome.faults == {1: "no-join: said 'pass' first"}
    assert outcome.fines == [0, FAULT_FINE, 0, 0]
    assert_ran_to_a_draw(outcome)


async def test_join_phase_is_not_fined(autojump_clock: trio.testing.MockClock) -> None:
    bots = [FakeBot(join_delay=delay) for delay in (0.0, 1.5, 4.9, 3.0)]
    outcome, _ = await play(bots, TableOptions(join_limit=5.0))
    assert outcome.faults == {}
    assert outcome.fines == [0, 0, 0, 0]
    # The first prompt's clock starts once the last bot joined and the deal was written.
    assert max(max(ms) for ms in outcome.answer_ms) == pytest.approx(0, abs=1e-6)
    assert outcome.ended_at - outcome.started_at == pytest.approx(4.9)


async def test_deal_is_written_once_every_bot_joined(
        autojump_clock: trio.testing.MockClock) -> None:
    d = deal(SEED, 0)
    bots = [FakeBot(join_delay=0.5 * seat) for seat in range(4)]
    await play(bots)
    for seat, bot in enumerate(bots):
        hand = " ".join(t.code for t in d.wall[13 * seat : 13 * seat + 13])
        assert bot.received[:3] == [f"id {seat}", f"first {d.first}", f"init {hand}"]
        draw = f"pick {d.wall[52].code}" if seat == d.first else f"mpick {d.first}"
        assert bot.received[3] == draw


async def test_second_join_is_a_stray_line(autojump_clock: trio.testing.MockClock) -> None:
    """Even from the first actor, whose first prompt is written right after the joins."""
    seat = first_actor()
    outcome, _ = await play(with_seat(seat, FakeBot(join=b"join\njoin\n")))
    assert outcome.faults == {}
    assert outcome.unsolicited[seat] == 1
