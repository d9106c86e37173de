"""The rules of SPEC section 3, one scripted hand each, on hand-built walls.

A wall is written as the four 13-tile hands it deals (seats 0..3) and the
tiles it then yields in order (``build_wall``); the rest of the wall follows in
kind order, or ``tail`` puts chosen tiles last. Answers are wire lines
(``say(hand, seat, "chi 4M")``), and the lines the engine queues are compared
per seat, as text, with what SPEC's table lists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from protocol.messages import JGang, format_line, parse_from_ai
from protocol.tiles import ALL_TILES, Tile, parse_tile, parse_tiles, tile_counts
from rulesets.default.engine.hand import (
    REJECTED_INPUT,
    SEATS,
    Answer,
    EngineError,
    Expect,
    Hand,
    Input,
    Verdict,
    replay,
)
from scoring.fans import WinningHand, score
from scoring.melds import Meld, MeldKind
from scoring.settlement import WinKind

# --- helpers ------------------------------------------------------------------------


def build_wall(hands: Sequence[str], draws: str = "", tail: str = "") -> tuple[Tile, ...]:
    """The wall that deals ``hands`` (seats 0..3), then yields ``draws`` in order.

    The tiles left over follow in kind order, except ``tail``, which ends the
    wall (its last tile is the last one drawn).
    """
    dealt = [parse_tiles(h) for h in hands]
    assert len(dealt) == SEATS and all(len(h) == 13 for h in dealt), "four 13-tile hands"
    front = [t for h in dealt for t in h] + parse_tiles(draws)
    back = parse_tiles(tail)
    counts = tile_counts(front + back)
    assert max(counts) <= 4, f"more than four of {ALL_TILES[counts.index(max(counts))]}"
    middle = [t for t in ALL_TILES for _ in range(4 - counts[t])]
    return (*front, *middle, *back)


def new_hand(hands: Sequence[str], draws: str = "", first: int = 0, tail: str = "") -> Hand:
    """A started hand, its opening lines already drained."""
    hand = Hand(build_wall(hands, draws, tail), first)
    hand.start()
    hand.drain()
    return hand


def say(hand: Hand, seat: int, line: str) -> None:
    """An answer that must be accepted."""
    verdict = hand.answer(seat, parse_from_ai(line))
    assert verdict.verdict is Verdict.ACCEPTED, f"seat {seat} {line!r}: {verdict}"


def answer(hand: Hand, seat: int, line: str) -> Answer:
    return hand.answer(seat, parse_from_ai(line))


def sent(hand: Hand) -> dict[int, list[str]]:
    """The lines queued since the last call, per seat (seats sent nothing are left out)."""
    out: dict[int, list[str]] = {}
    for seat, message in hand.drain():
        out.setdefault(seat, []).append(format_line(message))
    return out


def everyone(*lines: str) -> dict[int, list[str]]:
    return {seat: list(lines) for seat in range(SEATS)}


def state(hand: Hand) -> tuple[object, ...]:
    """Everything an answer could change (the record of refused answers aside)."""
    return (
        [list(h) for h in hand.hands], [list(m) for m in hand.melds],
        [list(r) for r in hand.rivers], hand.position, dict(hand.waiting),
        dict(hand.faulted), [i for i in hand.inputs if i.fault != REJECTED_INPUT],
        hand.result, hand.census(),
    )


def assert_rejected_and_unchanged(hand: Hand, seat: int, line: str, reason: str) -> None:
    """``line`` is rejected with ``reason`` and changes nothing (drains the queue first)."""
    hand.drain()
    before = state(hand)
    verdict = answer(hand, seat, line)
    assert verdict.verdict is Verdict.REJECTED
    assert reason in verdict.reason
    assert state(hand) == before
    assert hand.drain() == []
    assert hand.events[-1].kind == "reject" and hand.events[-1].seat == seat


def assert_unsolicited_and_unchanged(hand: Hand, seat: int, line: str) -> None:
    """``line`` is unsolicited, changes nothing and is not recorded (drains the queue first)."""
    hand.drain()
    before, events = state(hand), list(hand.events)
    verdict = answer(hand, seat, line)
    assert verdict.verdict is Verdict.UNSOLICITED
    assert state(hand) == before
    assert hand.events == events
    assert hand.drain() == []


def pass_all(hand: Hand) -> None:
    """Every seat asked about a discard or an added kong passes."""
    for seat, expect in sorted(hand.waiting.items()):
        assert expect in (Expect.CLAIM, Expect.ROB)
        say(hand, seat, "pass")


def drawn_tile(hand: Hand) -> Tile:
    last = hand.events[-1]
    assert last.kind == "pick" and last.tile is not None
    return last.tile


def turn_seat(hand: Hand) -> int:
    (seat,) = [s for s, e in hand.waiting.items() if e is Expect.TURN]
    return seat


def discard_drawn_until(hand: Hand, left: int) -> None:
    """Seats discard what they draw and nobody claims, until ``left`` tiles remain."""
    while hand.wall_left > left:
        seat = turn_seat(hand)
        say(hand, seat, f"out {drawn_tile(hand).code}")
        pass_all(hand)
    hand.drain()


def fans_of(concealed: str, melds: Sequence[Meld], win: str, self_drawn: bool) -> int:
    return score(WinningHand(tuple(parse_tiles(concealed)), tuple(melds), parse_tile(win),
                             self_drawn)).total


# Hands used by several tests. The comments say what each is for.
SINGLE_5T = "1M 2M 3M 4M 5M 6M 7M 8M 9M 2S 3S 4S 5T"  # waits on 5T only (a single wait)
CLOSED_5T = "1T 2T 3T 4T 6T 7T 8T 9T E E E 5S 5S"  # waits on 5T only (a closed wait)
PAIRS = "5T 1S 1S 9S 9S S S W W N N Z Z"  # throws 5T first
QUIET = "B B B F F 6S 7S 8S 2M 2M 3M 3M 4M"


# --- the deal -----------------------------------------------------------------------


def test_start_sends_id_first_and_init_to_each_seat_then_the_first_draw() -> None:
    hands = [PAIRS, QUIET, SINGLE_5T, CLOSED_5T]
    hand = Hand(build_wall(hands, "F"), 2)
    hand.start()
    lines = sent(hand)
    for seat in range(SEATS):
        assert lines[seat][:3] == ["id " + str(seat), "first 2", "init " + hands[seat]]
    assert lines[2][3:] == ["pick F"]
    assert lines[0][3:] == lines[1][3:] == lines[3][3:] == ["mpick 2"]
    assert hand.waiting == {2: Expect.TURN}
    assert hand.wall_left == 136 - 52 - 1


def test_a_hand_can_start_only_once() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    with pytest.raises(EngineError):
        hand.start()


def test_a_wall_must_hold_the_136_tiles() -> None:
    wall = list(build_wall([PAIRS, QUIET, SINGLE_5T, CLOSED_5T]))
    wall[0] = wall[1] if wall[1] != wall[0] else wall[2]
    with pytest.raises(EngineError):
        Hand(wall, 0)
    with pytest.raises(EngineError):
        Hand(wall[:-1], 0)


def test_a_discard_is_shown_to_the_other_three_and_all_three_are_asked() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    say(hand, 0, "out F")
    assert sent(hand) == {1: ["mout 0 F"], 2: ["mout 0 F"], 3: ["mout 0 F"]}
    assert hand.waiting == {1: Expect.CLAIM, 2: Expect.CLAIM, 3: Expect.CLAIM}
    pass_all(hand)
    assert sent(hand) == {1: ["pick 1M"], 0: ["mpick 1"], 2: ["mpick 1"], 3: ["mpick 1"]}
    assert hand.waiting == {1: Expect.TURN}


# --- priority after a discard ---------------------------------------------------------


@pytest.mark.parametrize("order", [(1, 2, 3), (3, 2, 1), (2, 3, 1)])
def test_simultaneous_hu_goes_to_the_nearest_seat_after_the_discarder(
        order: tuple[int, int, int]) -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    say(hand, 0, "out 5T")
    lines = {1: "pass", 2: "hu", 3: "hu"}
    for seat in order:
        assert hand.result is None
        say(hand, seat, lines[seat])
    result = hand.result
    assert result is not None
    assert (result.winner, result.kind, result.payer) == (2, WinKind.DISCARD, 0)
    assert [e.kind for e in hand.events[-2:]] == ["out", "hu"]
    assert hand.waiting == {}


def test_the_nearest_winner_counts_round_the_table_from_the_discarder() -> None:
    # Seat 2 discards 5T; seats 3 and 1 wait on it. After seat 2 come 3, 0, 1: 3 wins.
    hands = [QUIET.replace("F F", "F 5T"), SINGLE_5T, PAIRS, CLOSED_5T]
    hand = new_hand(hands, "F 9M 2T", first=0)
    say(hand, 0, "out F")
    pass_all(hand)
    say(hand, 1, "out 9M")
    pass_all(hand)
    say(hand, 2, "out 5T")
    say(hand, 1, "hu")
    say(hand, 0, "pass")
    assert hand.result is None  # seat 3 has not answered: the window stays open
    say(hand, 3, "hu")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.payer) == (3, 2)


# Seat 0 throws 5M; seat 1 may chow it (4M 6M), seat 2 pung it (5M 5M).
CHOW_PUNG = [
    "5M 1S 1S 9S 9S S S W W N N Z Z",
    "4M 6M 1T 2T 3T 7T 8T 9T E E B B F",
    "5M 5M 2S 3S 4S 6S 7S 8S 1M 1M 9M 9M 9M",
    "2T 3T 4T 5T 6T 7T 2M 3M 4M 6M 7M 8M E",
]
# The same, but seat 3 holds three 5M (a kong) and seat 2 none.
CHOW_KONG = [
    "5M 1S 1S 9S 9S S S W W N N Z Z",
    "4M 6M 1T 2T 3T 7T 8T 9T E E B B F",
    "2S 3S 4S 6S 7S 8S 1M 1M 9M 9M 9M 2T 3T",
    "5M 5M 5M 4T 5T 6T 7T 2M 3M 4M 6M 7M E",
]


@pytest.mark.parametrize("order", [(1, 2, 3), (2, 1, 3), (3, 2, 1)])
def test_peng_beats_chi_and_the_chow_claimer_hears_mfail_after_the_mpeng(
        order: tuple[int, int, int]) -> None:
    hand = new_hand(CHOW_PUNG, "F")
    say(hand, 0, "out 5M")
    sent(hand)
    lines = {1: "chi 4M", 2: "peng", 3: "pass"}
    for seat in order[:2]:
        say(hand, seat, lines[seat])
        assert hand.drain() == []  # nothing is decided before every responder answered
    say(hand, order[2], lines[order[2]])
    expected = everyone("mpeng 2 5M")
    expected[1].append("mfail")
    assert sent(hand) == expected
    assert hand.waiting == {2: Expect.DISCARD}
    assert hand.melds[2] == [Meld(MeldKind.PUNG, Tile.M5)]
    assert hand.melds[1] == [] and sorted(hand.hands[1]) == sorted(parse_tiles(CHOW_PUNG[1]))
    assert hand.rivers[0] == []
    assert hand.events[-1][:4] == ("peng", 2, Tile.M5, 0)


def test_gang_beats_chi_and_the_kong_is_followed_by_a_replacement_draw() -> None:
    hand = new_hand(CHOW_KONG, "F N")
    say(hand, 0, "out 5M")
    sent(hand)
    say(hand, 1, "chi 4M")
    say(hand, 3, "gang")
    say(hand, 2, "pass")
    expected = everyone("mgang 3 5M")
    expected[1].append("mfail")
    expected[3].append("pick N")
    for seat in (0, 1, 2):
        expected[seat].append("mpick 3")
    assert sent(hand) == expected
    assert hand.waiting == {3: Expect.TURN}
    assert hand.melds[3] == [Meld(MeldKind.KONG, Tile.M5)]
    assert [e.kind for e in hand.events[-2:]] == ["gang", "pick"]


def test_a_chow_nobody_outbids_is_made_and_the_claimer_may_only_discard() -> None:
    hand = new_hand(CHOW_PUNG, "F")
    say(hand, 0, "out 5M")
    sent(hand)
    say(hand, 1, "chi 4M")
    say(hand, 2, "pass")
    say(hand, 3, "pass")
    assert sent(hand) == everyone("mchi 1 4M")
    assert hand.waiting == {1: Expect.DISCARD}
    assert hand.melds[1] == [Meld(MeldKind.CHOW, Tile.M4)]
    assert_rejected_and_unchanged(hand, 1, "hu", "not an answer")
    assert_rejected_and_unchanged(hand, 1, "agang E", "not an answer")
    say(hand, 1, "out E")
    assert sent(hand) == {0: ["mout 1 E"], 2: ["mout 1 E"], 3: ["mout 1 E"]}


def test_hu_beats_peng() -> None:
    hands = ["5T 1S 1S 9S 9S S S W W N N Z Z", "5T 5T 6S 7S 8S B B B F F 2M 2M 3M",
             SINGLE_5T, "1T 1T 2T 3T 7T 8T 9T 6T 6T E E E N"]
    hand = new_hand(hands, "F")
    say(hand, 0, "out 5T")
    sent(hand)
    say(hand, 1, "peng")
    say(hand, 2, "hu")
    say(hand, 3, "pass")
    assert hand.result is not None and hand.result.winner == 2
    assert hand.melds[1] == []
    assert sent(hand) == {}  # no end-of-hand line by default


# --- illegal claims and discards ------------------------------------------------------


def test_chi_from_a_seat_other_than_the_next_one_is_rejected_and_changes_nothing() -> None:
    hands = list(CHOW_PUNG)
    hands[2] = "4M 6M 2S 3S 4S 6S 7S 8S 1M 1M 9M 9M 9M"  # seat 2 could chow 5M, but may not
    hands[1] = "5M 5M 1T 2T 3T 7T 8T 9T E E B B F"
    hand = new_hand(hands, "F")
    say(hand, 0, "out 5M")
    sent(hand)
    assert_rejected_and_unchanged(hand, 2, "chi 4M", "only the seat after the discarder")
    assert hand.waiting == {1: Expect.CLAIM, 2: Expect.CLAIM, 3: Expect.CLAIM}


def test_chi_on_an_honour_is_rejected() -> None:
    hands = ["E 1S 1S 9S 9S S S W W N N Z Z", "E E 1T 2T 3T 7T 8T 9T 4M 6M B B F",
             SINGLE_5T, CLOSED_5T.replace("E E E", "2M 3M 4M")]
    hand = new_hand(hands, "F")
    say(hand, 0, "out E")
    assert_rejected_and_unchanged(hand, 1, "chi E", "honour")
    say(hand, 1, "peng")  # the pung of the same honour is fine
    pass_all(hand)
    assert hand.melds[1] == [Meld(MeldKind.PUNG, Tile.EAST)]


@pytest.mark.parametrize(("line", "reason"), [
    ("chi 6M", "does not contain 5M"),  # 6M 7M 8M: a run without the discard
    ("chi 1M", "does not contain 5M"),
    ("chi 8M", "no run"),  # 8M 9M ... runs out of the suit
    ("chi 4S", "no run"),  # another suit
    ("chi 5M", "7M not in hand"),  # 5M 6M 7M: the run is fine, the tiles are not held
])
def test_chi_naming_a_run_that_cannot_take_the_discard_is_rejected(line: str,
                                                                   reason: str) -> None:
    hands = list(CHOW_PUNG)
    hands[1] = "4M 6M 3M 1T 2T 3T 8M 9M E E B B F"
    hand = new_hand(hands, "F")
    say(hand, 0, "out 5M")
    assert_rejected_and_unchanged(hand, 1, line, reason)


@pytest.mark.parametrize("low", ["3M", "4M"])
def test_chi_naming_a_run_that_contains_the_discard_is_made(low: str) -> None:
    hands = list(CHOW_PUNG)
    hands[1] = "4M 6M 3M 1T 2T 3T 8M 9M E E B B F"
    hand = new_hand(hands, "F")
    say(hand, 0, "out 5M")
    say(hand, 1, f"chi {low}")
    pass_all(hand)
    assert hand.melds[1] == [Meld(MeldKind.CHOW, parse_tile(low))]


def test_a_discard_of_a_tile_not_held_is_rejected_and_changes_nothing() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    assert_rejected_and_unchanged(hand, 0, "out 9T", "not in hand")
    assert_unsolicited_and_unchanged(hand, 0, "pass")  # chatter: never an answer to a turn
    assert_rejected_and_unchanged(hand, 0, "peng", "not an answer")
    assert hand.waiting == {0: Expect.TURN}


def test_peng_and_gang_without_the_tiles_are_rejected() -> None:
    hand = new_hand(CHOW_PUNG, "F")
    say(hand, 0, "out 5M")
    assert_rejected_and_unchanged(hand, 3, "peng", "needs two")
    assert_rejected_and_unchanged(hand, 2, "gang", "needs three")
    assert_rejected_and_unchanged(hand, 3, "qgang", "not an answer")


def test_a_false_hu_is_rejected_on_a_turn_and_on_a_discard() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    assert_rejected_and_unchanged(hand, 0, "hu", "not a winning hand")
    say(hand, 0, "out F")
    assert_rejected_and_unchanged(hand, 2, "hu", "not a winning hand")


# --- kongs ---------------------------------------------------------------------------


def test_agang_needs_four_in_hand() -> None:
    hand = new_hand(["Z Z Z 1S 1S 9S 9S S S W W N N", QUIET, SINGLE_5T, CLOSED_5T], "F")
    assert_rejected_and_unchanged(hand, 0, "agang Z", "needs four")
    assert_rejected_and_unchanged(hand, 0, "jgang Z", "no pung")


def test_a_concealed_kong_is_shown_to_all_without_its_tile_and_the_seat_draws_again() -> None:
    hand = new_hand(["Z Z Z 1S 1S 9S 9S S S W W N N", QUIET, SINGLE_5T, CLOSED_5T],
                    "Z F")
    say(hand, 0, "agang Z")
    expected = everyone("magang 0")
    expected[0].append("pick F")
    for seat in (1, 2, 3):
        expected[seat].append("mpick 0")
    assert sent(hand) == expected
    assert hand.melds[0] == [Meld(MeldKind.CONCEALED_KONG, Tile.RED)]
    assert hand.waiting == {0: Expect.TURN}
    assert [e.kind for e in hand.events[-2:]] == ["agang", "pick"]


def test_a_concealed_kong_may_use_four_tiles_held_since_the_deal() -> None:
    hand = new_hand(["Z Z Z Z 1S 9S 9S S S W W N N", QUIET, SINGLE_5T, CLOSED_5T],
                    "F 2T")
    say(hand, 0, "agang Z")
    say(hand, 0, "out F")
    assert hand.melds[0] == [Meld(MeldKind.CONCEALED_KONG, Tile.RED)]


def test_an_exposed_kong_on_a_discard_then_a_replacement_draw() -> None:
    hands = ["5T 1S 1S 9S 9S S S W W N N Z Z", "4M 6M 1T 2T 3T 7T 8T 9T E E B B F",
             "5T 5T 5T 2S 3S 4S 6S 7S 8S 1M 1M 9M 9M", "2T 3T 4T 6T 7T 2M 3M 4M 6M 7M 8M E E"]
    hand = new_hand(hands, "F W")
    say(hand, 0, "out 5T")
    sent(hand)
    say(hand, 1, "pass")
    say(hand, 2, "gang")
    say(hand, 3, "pass")
    expected = everyone("mgang 2 5T")
    expected[2].append("pick W")
    for seat in (0, 1, 3):
        expected[seat].append("mpick 2")
    assert sent(hand) == expected
    assert hand.melds[2] == [Meld(MeldKind.KONG, Tile.T5)]
    assert hand.waiting == {2: Expect.TURN}
    say(hand, 2, "out W")
    assert hand.waiting == {3: Expect.CLAIM, 0: Expect.CLAIM, 1: Expect.CLAIM}


# Seat 0 throws 5S and seat 1 pungs it; seat 1 later draws the fourth 5S. Seat 3
# waits on 5S (4S 6S), and so does seat 2 in ROBBERS_2 (3S 4S).
ROBBERS = [
    "5S 1M 1M 9M 9M S S W W N N Z Z",
    "5S 5S 1T 2T 3T 7T 8T 9T B B B F E",
    "2T 3T 4T 5T 6T 7T 7M 8M 9M 3S 3S W W",
    "1M 2M 3M 4M 5M 6M 7M 8M 9M 4S 6S E E",
]
ROBBERS_2 = [*ROBBERS[:2], "2T 3T 4T 5T 6T 7T 7M 8M 9M 3S 4S W W", ROBBERS[3]]
ROB_DRAWS = "F 1S 1S 9S 5S 2S"


def added_kong(hands: Sequence[str]) -> Hand:
    """Play up to seat 1's ``jgang 5S``: the rob window is open."""
    hand = new_hand(hands, ROB_DRAWS)
    say(hand, 0, "out 5S")
    say(hand, 1, "peng")
    say(hand, 2, "pass")
    say(hand, 3, "pass")  # it could win on 5S already; it waits for a better chance
    say(hand, 1, "out E")
    pass_all(hand)
    for seat in (2, 3, 0):
        say(hand, seat, f"out {drawn_tile(hand).code}")
        pass_all(hand)
    assert hand.waiting == {1: Expect.TURN} and drawn_tile(hand) == Tile.S5
    assert_rejected_and_unchanged(hand, 1, "jgang 9S", "no pung")
    assert_rejected_and_unchanged(hand, 1, "agang 5S", "needs four")
    hand.drain()
    say(hand, 1, "jgang 5S")
    return hand


def test_jgang_needs_a_melded_pung_and_the_tile_in_hand() -> None:
    hand = new_hand(ROBBERS, "F 1S 1S 9S 2S 1T 2T 3T 5S")
    say(hand, 0, "out 5S")
    say(hand, 1, "peng")
    pass_all(hand)
    assert hand.waiting == {1: Expect.DISCARD}
    assert_rejected_and_unchanged(hand, 1, "jgang 5S", "not an answer")  # discard only
    say(hand, 1, "out E")
    pass_all(hand)
    for seat in (2, 3, 0):
        say(hand, seat, f"out {drawn_tile(hand).code}")
        pass_all(hand)
    assert turn_seat(hand) == 1 and drawn_tile(hand) == Tile.S2
    assert_rejected_and_unchanged(hand, 1, "jgang 5S", "not in hand")
    assert_rejected_and_unchanged(hand, 1, "jgang B", "no pung")  # B B B is concealed
    say(hand, 1, "out 2S")
    pass_all(hand)
    for seat in (2, 3, 0):
        say(hand, seat, f"out {drawn_tile(hand).code}")
        pass_all(hand)
    assert drawn_tile(hand) == Tile.S5
    assert JGang(Tile.S5) in hand.legal_answers(1)
    say(hand, 1, "jgang 5S")


def test_an_added_kong_is_shown_to_all_and_the_others_may_rob_it() -> None:
    hand = added_kong(ROBBERS)
    assert sent(hand) == everyone("mjgang 1 5S")
    assert hand.waiting == {2: Expect.ROB, 3: Expect.ROB, 0: Expect.ROB}
    assert_rejected_and_unchanged(hand, 2, "qgang", "not a winning hand")
    assert_rejected_and_unchanged(hand, 2, "hu", "not an answer")


def test_the_kong_owners_pass_after_its_own_mjgang_is_unsolicited() -> None:
    hand = added_kong(ROBBERS)
    sent(hand)
    assert_unsolicited_and_unchanged(hand, 1, "pass")


def test_the_kong_owners_pass_read_after_its_replacement_draw_is_chatter() -> None:
    """A real bot's ``pass`` to its own ``mjgang`` may be read after the ``pick`` that
    follows: it is never taken as the answer to that turn, and the turn is still due."""
    hand = added_kong(ROBBERS)
    pass_all(hand)
    assert hand.waiting == {1: Expect.TURN}
    assert_unsolicited_and_unchanged(hand, 1, "pass")
    assert answer(hand, 1, "pass").reason == "pass is no answer to a turn prompt"
    assert Verdict.UNSOLICITED is hand.check(1, parse_from_ai("pass")).verdict
    say(hand, 1, "out 2S")
    assert [i.message for i in hand.inputs[-4:]] == [*(parse_from_ai("pass"),) * 3,
                                                     parse_from_ai("out 2S")]
    assert replay(hand.wall, hand.first, hand.inputs).events == hand.events


def test_a_pass_to_the_discard_after_a_pung_is_chatter_and_the_discard_is_still_due() -> None:
    hand = new_hand(ROBBERS, ROB_DRAWS)
    say(hand, 0, "out 5S")
    say(hand, 1, "peng")
    pass_all(hand)
    assert hand.waiting == {1: Expect.DISCARD}
    assert_unsolicited_and_unchanged(hand, 1, "pass")
    say(hand, 1, "out E")
    assert hand.waiting == {2: Expect.CLAIM, 3: Expect.CLAIM, 0: Expect.CLAIM}


def test_robbing_an_added_kong_wins_and_is_paid_like_a_discard_by_the_kong_owner() -> None:
    hand = added_kong(ROBBERS)
    sent(hand)
    say(hand, 3, "qgang")
    assert hand.result is None  # every responder answers first
    say(hand, 2, "pass")
    say(hand, 0, "pass")
    result = hand.result
    assert result is not None
    fans = fans_of(ROBBERS[3], [], "5S", self_drawn=False)
    assert fans == 3  # 门前清 2, 喜相逢 1 (4M5M6M and 4S5S6S)
    assert (result.winner, result.kind, result.payer, result.win_tile) == (
        3, WinKind.ROBBED_KONG, 1, Tile.S5)
    assert result.fan_total == fans
    assert result.deltas == (-4, -(4 + fans), -4, 12 + fans)
    assert hand.melds[1] == [Meld(MeldKind.PUNG, Tile.S5)]  # the kong was never made
    assert [e.kind for e in hand.events[-3:]] == ["jgang", "qgang", "hu"]
    assert hand.census() == [4] * 34
    assert sent(hand) == {}


def test_two_robbers_the_nearest_seat_after_the_kong_owner_wins() -> None:
    hand = added_kong(ROBBERS_2)
    say(hand, 3, "qgang")
    say(hand, 2, "qgang")
    say(hand, 0, "pass")
    assert hand.result is not None
    assert (hand.result.winner, hand.result.payer) == (2, 1)


def test_an_added_kong_nobody_robs_becomes_a_kong_and_its_owner_draws_again() -> None:
    hand = added_kong(ROBBERS)
    sent(hand)
    pass_all(hand)
    assert hand.melds[1] == [Meld(MeldKind.KONG, Tile.S5)]
    assert sent(hand) == {1: ["pick 2S"], 0: ["mpick 1"], 2: ["mpick 1"], 3: ["mpick 1"]}
    assert hand.waiting == {1: Expect.TURN}
    assert hand.census() == [4] * 34


# --- the end of the wall -------------------------------------------------------------


def test_a_draw_due_with_an_empty_wall_ends_the_hand_in_a_draw() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    discard_drawn_until(hand, 0)
    assert hand.wall_left == 0
    seat = turn_seat(hand)
    assert seat == 3  # draw 84 of 84 goes to the seat before the first actor
    say(hand, seat, f"out {drawn_tile(hand).code}")
    # The last discard may still be claimed (a win on it, say): all three are asked.
    assert hand.waiting == {0: Expect.CLAIM, 1: Expect.CLAIM, 2: Expect.CLAIM}
    sent(hand)
    pass_all(hand)
    result = hand.result
    assert result is not None and result.is_draw
    assert (result.winner, result.kind, result.payer, result.fans) == (None, None, None, None)
    assert result.deltas == (0, 0, 0, 0)
    assert hand.events[-1].kind == "draw"
    assert hand.waiting == {} and sent(hand) == {}


def test_a_concealed_kong_on_the_last_tile_ends_in_a_draw() -> None:
    hands = [PAIRS, QUIET, SINGLE_5T, "Z Z Z 1T 2T 3T 4T 6T 7T 8T 9T 5S 5S"]
    hands[0] = "5T 1S 1S 9S 9S S S W W N N E E"
    hand = new_hand(hands, tail="Z")
    discard_drawn_until(hand, 0)
    assert turn_seat(hand) == 3 and drawn_tile(hand) == Tile.RED
    say(hand, 3, "agang Z")
    assert sent(hand) == everyone("magang 3")  # and no replacement: the wall is empty
    assert hand.result is not None and hand.result.is_draw
    assert [e.kind for e in hand.events[-2:]] == ["agang", "draw"]
    assert hand.census() == [4] * 34


def test_an_exposed_kong_on_the_last_discard_ends_in_a_draw() -> None:
    hands = ["5T 1S 1S 9S 9S S S W W N N E E", QUIET,
             "Z Z Z 3M 4M 5M 6M 7M 8M 2S 3S 4S 5T", CLOSED_5T.replace("E E E", "1M 1M 1M")]
    hand = new_hand(hands, tail="Z")
    discard_drawn_until(hand, 0)
    say(hand, 3, "out Z")
    assert sent(hand) == {0: ["mout 3 Z"], 1: ["mout 3 Z"], 2: ["mout 3 Z"]}
    say(hand, 2, "gang")
    say(hand, 0, "pass")
    say(hand, 1, "pass")
    assert sent(hand) == everyone("mgang 2 Z")
    assert hand.result is not None and hand.result.is_draw
    assert [e.kind for e in hand.events[-2:]] == ["gang", "draw"]


# --- faults --------------------------------------------------------------------------


def test_a_seat_faulted_during_a_claim_window_passes_at_once() -> None:
    hand = new_hand(CHOW_PUNG, "F N")
    say(hand, 0, "out 5M")
    sent(hand)
    hand.fault(2, "crash")  # seat 2 could have pung the 5M
    assert hand.waiting == {1: Expect.CLAIM, 3: Expect.CLAIM}
    assert hand.faulted == {2: "crash"}
    assert sent(hand) == {}
    say(hand, 1, "pass")
    assert hand.result is None and hand.waiting == {3: Expect.CLAIM}
    say(hand, 3, "pass")
    assert hand.waiting == {1: Expect.TURN}
    # The fault is recorded, then the pass the engine made for the seat.
    assert [item[:3] for item in hand.inputs[-4:]] == [
        (2, None, "crash"), (2, parse_from_ai("pass"), "auto"),
        (1, parse_from_ai("pass"), ""), (3, parse_from_ai("pass"), ""),
    ]


def test_a_fault_of_the_last_seat_to_answer_resolves_the_window() -> None:
    hand = new_hand(CHOW_PUNG, "F N")
    say(hand, 0, "out 5M")
    say(hand, 1, "chi 4M")
    say(hand, 3, "pass")
    sent(hand)
    hand.fault(2, "hard-limit")
    assert sent(hand) == everyone("mchi 1 4M")
    assert hand.waiting == {1: Expect.DISCARD}


def test_a_claim_answered_before_the_seat_faulted_still_stands() -> None:
    """The answer came in time and was legal; the fault only stops later answers."""
    hand = new_hand(CHOW_PUNG, "F N")
    say(hand, 0, "out 5M")
    say(hand, 2, "peng")
    hand.fault(2, "closed-output")
    say(hand, 1, "pass")
    say(hand, 3, "pass")
    assert hand.melds[2] == [Meld(MeldKind.PUNG, Tile.M5)]
    # Seat 2 is played by the engine now: it discards at once.
    assert hand.waiting == {3: Expect.CLAIM, 0: Expect.CLAIM, 1: Expect.CLAIM}
    assert hand.events[-1].kind == "out" and hand.events[-1].seat == 2


def test_a_seat_faulted_on_its_turn_discards_the_tile_it_drew_and_never_claims() -> None:
    hand = new_hand(CHOW_PUNG, "F N W")
    hand.fault(0, "malformed: xyz")
    assert hand.events[-2].kind == "fault"
    assert hand.events[-1][:3] == ("out", 0, Tile.GREEN)
    assert sent(hand) == {1: ["mout 0 F"], 2: ["mout 0 F"], 3: ["mout 0 F"]}
    pass_all(hand)
    say(hand, 1, "out N")
    pass_all(hand)
    assert turn_seat(hand) == 2
    say(hand, 2, "out W")
    pass_all(hand)
    say(hand, 3, "out E")
    # Seat 0 is not asked about seat 3's discard; then it draws and throws at once.
    assert hand.waiting == {1: Expect.CLAIM, 2: Expect.CLAIM}
    pass_all(hand)
    assert hand.events[-2].kind == "pick" and hand.events[-2].seat == 0
    assert hand.events[-1][:3] == ("out", 0, hand.events[-2].tile)
    assert hand.waiting == {1: Expect.CLAIM, 2: Expect.CLAIM, 3: Expect.CLAIM}
    assert_unsolicited_and_unchanged(hand, 0, "pass")


def test_a_hand_whose_four_seats_fault_plays_itself_to_a_draw() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    for seat in range(SEATS):
        hand.fault(seat, "crash")
    assert hand.result is not None and hand.result.is_draw
    assert hand.wall_left == 0 and hand.census() == [4] * 34


def test_a_second_fault_of_a_seat_is_ignored() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    hand.fault(1, "crash")
    hand.fault(1, "hard-limit")
    assert hand.faulted == {1: "crash"}
    assert [e.kind for e in hand.events].count("fault") == 1


# --- unsolicited lines ---------------------------------------------------------------


def test_lines_from_seats_that_were_not_asked_are_unsolicited_and_change_nothing() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    assert_unsolicited_and_unchanged(hand, 1, "pass")
    assert_unsolicited_and_unchanged(hand, 2, "out 1M")
    assert_unsolicited_and_unchanged(hand, 3, "hu")
    say(hand, 0, "out F")
    assert_unsolicited_and_unchanged(hand, 0, "out 5T")  # the discarder is not asked
    say(hand, 1, "pass")
    assert_unsolicited_and_unchanged(hand, 1, "peng")  # already answered
    pass_all(hand)
    assert hand.waiting == {1: Expect.TURN}


def test_lines_after_the_hand_ended_are_unsolicited() -> None:
    hand = new_hand(["1M 2M 3M 4M 5M 6M 7M 8M 9M 2S 3S 4S 5T", QUIET, PAIRS, CLOSED_5T],
                    "5T")
    say(hand, 0, "hu")
    for seat in range(SEATS):
        assert_unsolicited_and_unchanged(hand, seat, "pass")
    assert_unsolicited_and_unchanged(hand, 0, "out 5T")
    assert hand.legal_answers(0) == []


# --- results -------------------------------------------------------------------------


def test_a_self_drawn_win_each_other_seat_pays_four_plus_the_fans() -> None:
    hand = new_hand([SINGLE_5T, QUIET, PAIRS, CLOSED_5T], "5T")
    say(hand, 0, "hu")
    result = hand.result
    assert result is not None
    fans = fans_of(SINGLE_5T, [], "5T", self_drawn=True)
    assert fans == 6  # 门前清 2, 平和 2, 自摸 1, 单钓将 1
    assert (result.winner, result.kind, result.payer, result.win_tile) == (
        0, WinKind.SELF_DRAWN, None, Tile.T5)
    assert result.fans is not None and result.fans.total == fans
    assert result.deltas == (3 * (4 + fans), -(4 + fans), -(4 + fans), -(4 + fans))
    assert hand.events[-1][:3] == ("hu", 0, Tile.T5)
    assert hand.census() == [4] * 34


def test_a_win_on_a_discard_the_discarder_pays_four_plus_the_fans_the_others_four() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    say(hand, 0, "out 5T")
    say(hand, 1, "pass")
    say(hand, 2, "hu")
    say(hand, 3, "pass")
    result = hand.result
    assert result is not None
    fans = fans_of(SINGLE_5T, [], "5T", self_drawn=False)
    assert fans == 5  # 门前清 2, 平和 2, 单钓将 1
    assert (result.winner, result.kind, result.payer, result.win_tile) == (
        2, WinKind.DISCARD, 0, Tile.T5)
    assert result.deltas == (-(4 + fans), -4, 12 + fans, -4)
    assert hand.events[-1][:4] == ("hu", 2, Tile.T5, 0)
    assert hand.rivers[0] == []  # the winning tile left the river
    assert hand.census() == [4] * 34


def test_a_win_with_melds_is_scored_with_them() -> None:
    hand = new_hand(CHOW_PUNG, "F 8S")
    say(hand, 0, "out 5M")
    say(hand, 2, "peng")
    pass_all(hand)
    say(hand, 2, "out 8S")  # left: 2S 3S 4S 6S 7S 1M 1M 9M 9M 9M, waiting on 5S or 8S
    pass_all(hand)
    say(hand, 3, "out 8S")
    say(hand, 0, "pass")
    say(hand, 1, "pass")
    say(hand, 2, "hu")
    result = hand.result
    assert result is not None
    expected = score(WinningHand(tuple(parse_tiles("2S 3S 4S 6S 7S 1M 1M 9M 9M 9M")),
                                 (Meld(MeldKind.PUNG, Tile.M5),), Tile.S8, False))
    assert result.fans == expected
    assert (result.winner, result.kind, result.payer) == (2, WinKind.DISCARD, 3)
    assert result.deltas == (-4, -4, 12 + expected.total, -(4 + expected.total))


# --- replay --------------------------------------------------------------------------


def play_randomly(hand: Hand, seed: int, fault_at: int = -1) -> None:
    """Random legal answers; a fault of a random seat at step ``fault_at``."""
    rng = random.Random(seed)
    hand.start()
    step = 0
    while not hand.finished:
        step += 1
        if step == fault_at:
            hand.fault(rng.randrange(SEATS), "test")
            continue
        seat = rng.choice(sorted(s for s in hand.waiting if s not in hand.faulted))
        legal = hand.legal_answers(seat)
        claims = [a for a in legal if a.keyword in ("hu", "peng", "gang", "chi", "qgang")]
        choice = rng.choice(claims) if claims and rng.random() < 0.7 else rng.choice(legal)
        say(hand, seat, format_line(choice))


@pytest.mark.parametrize("seed", range(6))
def test_replay_of_the_inputs_reproduces_the_hand_exactly(seed: int) -> None:
    from rulesets.default.engine.rng import deal

    d = deal(99, seed)
    hand = Hand(d.wall, d.first)
    play_randomly(hand, seed, fault_at=40 if seed % 2 else -1)
    again = replay(d.wall, d.first, hand.inputs)
    assert again.events == hand.events
    assert again.result == hand.result
    assert again.inputs == hand.inputs
    assert again.faulted == hand.faulted


def test_replay_of_a_scripted_robbed_kong_reproduces_it() -> None:
    hand = added_kong(ROBBERS)
    say(hand, 3, "qgang")
    pass_all(hand)
    again = replay(hand.wall, hand.first, hand.inputs)
    assert again.events == hand.events  # refused answers are refused again
    assert again.result == hand.result


def test_replay_raises_where_the_inputs_part_from_the_hand() -> None:
    hand = new_hand([PAIRS, QUIET, SINGLE_5T, CLOSED_5T], "F")
    say(hand, 0, "out F")
    inputs = [*hand.inputs, Input(2, parse_from_ai("out 1M"))]  # seat 2 was never asked
    with pytest.raises(EngineError, match="input 1"):
        replay(hand.wall, hand.first, inputs)
