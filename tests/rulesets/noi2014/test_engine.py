"""Scripted games of the NOI 2014 engine: every rule SPEC-noi2014 settles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rulesets.noi2014 import hands as hand_rules
from rulesets.noi2014.engine import Fault, Game, Remaining, rank, read_claim, read_draw_reply
from rulesets.noi2014.hands import (
    chance_value,
    check_target,
    distance,
    is_winning,
    last_positions,
    needed,
    wins,
    wins_list,
)
from rulesets.noi2014.tiles import KINDS, shuffled_wall
from server.seam.contract import Reply
from tests.noi_players import build_wall

WAIT_W5 = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "T1", "T1", "T1", "W5"]


def hands(**seats: list[str]) -> list[list[str] | None]:
    """Seat k's hand ``sK``; the others any tiles (every answer is PASS unless scripted)."""
    return [seats.get(f"s{k}") for k in range(4)]


def asked(game: Game) -> dict[int, str]:
    return {s: r for s, r in enumerate(game.requests()) if r is not None}


def turn(game: Game, expect: dict[int, str] | None = None, verdicts: dict[int, str] | None
         = None, **answers: str) -> dict[str, object]:
    """One turn: the requests are ``expect`` (if given); seat k answers ``answers['sK']``
    (PASS by default) or gets the verdict ``verdicts[k]``."""
    requests = asked(game)
    if expect is not None:
        assert requests == expect
    replies = []
    for seat in range(4):
        if seat not in requests:
            replies.append(Reply("OK", None))
        elif verdicts and seat in verdicts:
            replies.append(Reply(verdicts[seat], None))
        else:
            replies.append(Reply("OK", answers.get(f"s{seat}", "PASS")))
    return game.step(replies)


def started(wall: list[str]) -> Game:
    game = Game(wall)
    turn(game)
    turn(game)
    return game


def events(output: dict[str, object], act: str) -> list[dict[str, object]]:
    return [e for e in output["events"] if e["act"] == act]  # type: ignore[attr-defined, index]


# --- the deal and the draws ---------------------------------------------------------------


def test_the_deal_gives_four_tiles_to_each_seat_three_times_then_one_each_and_the_dealer_draws():
    wall = shuffled_wall(7)
    game = Game(wall)
    for seat in range(4):
        mine = [wall[16 * r + 4 * seat + k] for r in range(3) for k in range(4)] + [wall[48 + seat]]
        assert game.hands[seat] == Counter(mine)
    assert asked(game) == {s: f"0 {s}" for s in range(4)}
    turn(game)
    assert asked(game) == {s: "1 " + " ".join(sorted(game.hands[s].elements(),
                                                     key=KINDS.index)) for s in range(4)}
    out = turn(game)
    assert asked(game) == {0: f"2 {wall[52]}"}
    assert events(out, "DRAW") == [{"act": "DRAW", "seat": 0, "tile": wall[52], "from": "front"}]
    assert out["wall"] == 108 - 52 - 1


def test_the_same_seed_gives_the_same_wall_and_another_seed_another():
    assert shuffled_wall(3) == shuffled_wall(3)
    assert shuffled_wall(3) != shuffled_wall(4)
    assert Counter(shuffled_wall(3)) == Counter({k: 4 for k in KINDS})


def test_turns_go_round_the_table_each_draw_from_the_front():
    wall = build_wall(hands(), front=["W9", "W8", "W7", "W6"])
    game = started(wall)
    for seat, tile in enumerate(["W9", "W8", "W7", "W6"]):
        assert asked(game) == {seat: f"2 {tile}"}
        out = turn(game, **{f"s{seat}": f"PLAY {tile}"})
        assert events(out, "PLAY")[0]["position"] == seat + 1
        assert asked(game) == {s: f"3 {seat} PLAY {tile}" for s in range(4) if s != seat}
        turn(game)


def test_an_empty_wall_ends_the_game_when_a_draw_is_due_and_every_remaining_player_is_asked():
    game = started(shuffled_wall(11))
    while asked(game) != {s: "4" for s in range(4)}:
        request = asked(game)
        if len(request) == 1:
            (seat, text), = request.items()
            turn(game, **{f"s{seat}": "PLAY " + text.split()[1]})
        else:
            turn(game)
    assert game.left == 0 and len(game.discards) == 108 - 52
    out = turn(game)
    assert game.finished and out["result"]["end"] == "wall"  # type: ignore[index]


# --- pung and kongs -------------------------------------------------------------------------


def test_a_pung_is_told_then_its_discard_is_offered_and_the_seat_after_the_punger_draws():
    wall = build_wall(hands(s2=["B5", "B5", "W1", "B1", "B2", "B4", "B7", "B8", "T1", "T2",
                                "T4", "T7", "T8"]), front=["B5", "W9"])
    game = started(wall)
    turn(game, {0: "2 B5"}, s0="PLAY B5")
    out = turn(game, {1: "3 0 PLAY B5", 2: "3 0 PLAY B5", 3: "3 0 PLAY B5"}, s2="PENG W1")
    assert events(out, "PENG") == [{"act": "PENG", "seat": 2, "tile": "B5", "from": 0}]
    turn(game, {3: "3 2 PENG B5", 0: "3 2 PENG B5", 1: "3 2 PENG B5"})
    out = turn(game, {3: "3 2 PLAY W1", 0: "3 2 PLAY W1", 1: "3 2 PLAY W1"})
    assert asked(game) == {3: "2 W9"}
    assert game.melds[2][0].kind == "PENG" and game.hands[2]["B5"] == 0
    assert game.discards == ["B5", "W1"] and game.pool == ["W1"]


def test_an_exposed_kong_is_told_and_its_player_draws_a_replacement_from_the_back():
    wall = build_wall(hands(s1=["W3", "W3", "W3", "B1", "B2", "B4", "B5", "B7", "B8", "T1",
                                "T2", "T4", "T5"]), front=["W3"], back=["W8", "W7"])
    game = started(wall)
    turn(game, {0: "2 W3"}, s0="PLAY W3")
    out = turn(game, s1="GANG")
    assert events(out, "GANG") == [{"act": "GANG", "seat": 1, "tile": "W3", "how": "exposed",
                                    "from": 0}]
    turn(game, {2: "3 1 GANG W3", 3: "3 1 GANG W3", 0: "3 1 GANG W3"})
    assert asked(game) == {1: "2 W8"}
    assert game.tail == 107


def test_a_concealed_kong_on_ones_own_draw_then_a_second_replacement_comes_from_further_back():
    wall = build_wall(hands(s0=["W3", "W3", "W3", "W6", "W6", "W6", "B1", "B2", "B4", "B5",
                                "B7", "T1", "T2"]), front=["W3"], back=["W6", "W7"])
    game = started(wall)
    out = turn(game, {0: "2 W3"}, s0="GANG W3")
    assert events(out, "GANG")[0]["how"] == "concealed"
    turn(game, {1: "3 0 GANG W3", 2: "3 0 GANG W3", 3: "3 0 GANG W3"})
    out = turn(game, {0: "2 W6"}, s0="GANG W6")  # a kong of a tile held, not the one drawn
    turn(game)
    assert asked(game) == {0: "2 W7"}
    assert [m.how for m in game.melds[0]] == ["concealed", "concealed"]


def test_an_added_kong_puts_the_fourth_tile_on_ones_own_pung():
    wall = build_wall(hands(s1=["B5", "B5", "W1", "W2", "B1", "B2", "B4", "B7", "B8", "T1",
                                "T2", "T4", "T7"]), front=["B5", "W9", "W9", "W9", "B5"])
    game = started(wall)
    turn(game, s0="PLAY B5")
    turn(game, s1="PENG W1")
    turn(game)  # told of the pung
    turn(game)  # W1 offered
    for seat in (2, 3, 0):  # W9, W9, W9 drawn and played
        turn(game, **{f"s{seat}": "PLAY W9"})
        turn(game)
    out = turn(game, {1: "2 B5"}, s1="GANG B5")
    assert events(out, "GANG")[0]["how"] == "added"
    assert [(m.kind, m.tile, m.how) for m in game.melds[1]] == [("GANG", "B5", "added")]


# --- wins -------------------------------------------------------------------------------------


def test_two_players_declaring_a_win_on_one_discard_the_nearest_after_the_discarder_wins():
    s3 = ["T2", "T3", "T4", "T5", "T6", "T7", "W1", "W2", "W3", "W7", "W8", "W9", "W5"]
    wall = build_wall(hands(s2=WAIT_W5, s3=s3), front=["W5", "B6"])
    game = started(wall)
    turn(game, s0="PLAY W5")
    out = turn(game, s2="HU", s3="HU")
    assert events(out, "HU") == [{"act": "HU", "seat": 2, "place": 1, "tile": "W5",
                                  "self": False, "from": 0}]
    assert not events(out, "FAULT")  # the farther winner is no fault
    turn(game, {3: "3 2 HU W5", 0: "3 2 HU W5", 1: "3 2 HU W5"})
    assert asked(game) == {3: "2 B6"}  # the first active seat after the winner
    assert game.winners == [2] and game.active == [True, True, False, True]


def test_a_win_beats_a_pung_on_the_same_discard():
    s1 = ["W5", "W5", "B1", "B2", "B4", "B5", "B7", "B8", "T1", "T2", "T4", "T5", "T7"]
    wall = build_wall(hands(s1=s1, s3=WAIT_W5), front=["W5"])
    game = started(wall)
    turn(game, s0="PLAY W5")
    out = turn(game, s1="PENG B1", s3="HU")
    assert [e["act"] for e in out["events"]] == ["HU"]  # type: ignore[attr-defined, index]


def test_a_self_drawn_win_is_told_and_the_next_active_seat_draws():
    wall = build_wall(hands(s1=WAIT_W5), front=["B9", "W5", "T9"])
    game = started(wall)
    turn(game, s0="PLAY B9")
    turn(game)
    out = turn(game, {1: "2 W5"}, s1="HU")
    assert events(out, "HU") == [{"act": "HU", "seat": 1, "place": 1, "self": True}]
    turn(game, {2: "3 1 HU SELF", 3: "3 1 HU SELF", 0: "3 1 HU SELF"})
    assert asked(game) == {2: "2 T9"}


def test_a_win_on_a_replacement_draw_counts():
    s0 = ["W3", "W3", "W3", "B1", "B2", "B3", "B4", "B5", "B6", "T1", "T1", "T7", "T8"]
    wall = build_wall(hands(s0=s0), front=["W3"], back=["T9"])
    game = started(wall)
    turn(game, s0="GANG W3")
    turn(game)
    out = turn(game, {0: "2 T9"}, s0="HU")
    assert events(out, "HU")[0]["self"] is True


def test_the_last_player_remaining_ends_the_game_and_faults_of_one_turn_share_their_points():
    wall = build_wall(hands(s0=WAIT_W5), front=["W5"])
    game = Game(wall)
    turn(game, s2="HELLO", s3="PASS PASS")  # two faults in one turn
    turn(game)
    out = turn(game, {0: "2 W5"}, s0="HU")
    turn(game, {1: "3 0 HU SELF"})
    assert asked(game) == {1: "4"}
    out = turn(game, s1="B1 B2 B3")
    result = out["result"]
    assert result["end"] == "players"  # type: ignore[index]
    assert result["places"] == [1, 2, 3, 3]  # type: ignore[index]
    assert game.scores == [4.0, 3.0, 1.5, 1.5]


# --- faults -----------------------------------------------------------------------------------


def test_a_false_self_drawn_hu_ends_that_players_game_and_the_next_seat_draws():
    wall = build_wall(hands(), front=["W9", "W8"])
    game = started(wall)
    out = turn(game, s0="HU")
    assert events(out, "FAULT")[0]["cause"].startswith("a false HU")  # type: ignore[union-attr]
    assert asked(game) == {1: "2 W8"} and game.active[0] is False


def test_a_false_hu_on_a_discard_is_a_fault_and_the_game_goes_on():
    wall = build_wall(hands(), front=["W9", "W8"])
    game = started(wall)
    turn(game, s0="PLAY W9")
    out = turn(game, s2="HU")
    assert events(out, "FAULT") == [{"act": "FAULT", "seat": 2,
                                     "cause": "a false HU on W9: its tiles and W9 are no "
                                              "winning hand"}]
    assert asked(game) == {1: "2 W8"}


@pytest.mark.parametrize("verdict", ["TLE", "RE", "MLE", "BAD_OUTPUT"])
def test_a_verdict_other_than_ok_is_a_fault_and_the_faulted_drawer_is_passed_over(verdict):
    wall = build_wall(hands(), front=["W9", "W8"])
    game = started(wall)
    out = turn(game, verdicts={0: verdict})
    assert events(out, "FAULT")[0]["cause"].endswith(f"({verdict})")  # type: ignore[union-attr]
    assert asked(game) == {1: "2 W8"}
    assert sum(game.hands[0].values()) == 14  # its tiles stay where they are


@pytest.mark.parametrize("answer,cause", [
    ("PLAY W5", "PLAY W5: it holds no W5"),
    ("PLAY X9", "'X9' is not a tile code"),
    ("play W9", "answered 'play W9' to a draw"),
    ("PLAY  W9", "answered 'PLAY  W9' to a draw"),
    ("GANG W9", "GANG W9: neither four W9 in hand nor a pung of W9"),
    ("PASS", "answered 'PASS' to a draw"),
    ("", "answered '' to a draw"),
])
def test_a_bad_answer_to_a_draw_is_a_fault_with_its_cause(answer, cause):
    game = started(build_wall(hands(), front=["W9", "W8"]))
    out = turn(game, s0=answer)
    assert cause in events(out, "FAULT")[0]["cause"]  # type: ignore[operator]


@pytest.mark.parametrize("answer,cause", [
    ("PENG B1", "PENG on W9: it holds 0 W9, a pung needs 2"),
    ("GANG", "GANG on W9: it holds 0 W9, a kong needs 3"),
    ("HU", "a false HU on W9"),
    ("PLAY B1", "answered 'PLAY B1' to a discard"),
    ("PASS ", None),  # surrounding blanks are ignored
    (" PASS\r", None),
])
def test_a_bad_claim_on_a_discard_is_a_fault(answer, cause):
    game = started(build_wall(hands(), front=["W9", "W8"]))
    turn(game, s0="PLAY W9")
    out = turn(game, s1=answer)
    faults = events(out, "FAULT")
    if cause is None:
        assert not faults
    else:
        assert cause in faults[0]["cause"]  # type: ignore[operator]


def test_a_pung_whose_discard_is_not_held_is_a_fault():
    s2 = ["B5", "B5", "W1", "B1", "B2", "B4", "B7", "B8", "T1", "T2", "T4", "T7", "T8"]
    game = started(build_wall(hands(s2=s2), front=["B5"]))
    turn(game, s0="PLAY B5")
    out = turn(game, s2="PENG W7")
    assert events(out, "FAULT")[0]["cause"] == "PENG W7: after the pung it holds no W7 to discard"


def test_anything_but_pass_to_a_notice_is_a_fault():
    game = Game(shuffled_wall(2))
    out = turn(game, s1="PLAY B1")
    assert events(out, "FAULT")[0]["cause"] == "answered 'PLAY B1' to its seat number (only PASS)"


def test_faulted_players_rank_after_everyone_else_the_later_fault_first():
    wall = build_wall(hands(), front=["W9", "W8", "W7"])
    game = Game(wall)
    turn(game, s3="junk")  # turn 1: seat 3
    turn(game)
    turn(game, s0="HU")  # turn 3: seat 0, a false HU
    turn(game, s1="PLAY W8")
    turn(game)
    turn(game, s2="PLAY W7")
    turn(game, verdicts={1: "TLE"})  # turn 7: seat 1 -> one player left: the end
    assert asked(game) == {2: "4"}
    turn(game, s2="")
    assert game.result is not None
    assert game.result.places == [3, 2, 1, 4]
    assert game.scores == [2.0, 3.0, 4.0, 1.0]
    assert [f.seat for f in game.faults] == [3, 0, 1]


def test_a_missing_target_is_no_fault_but_an_infinite_distance():
    game = Game(build_wall(hands(s0=WAIT_W5), front=["W5"]))
    turn(game, s2="x", s3="x")
    turn(game)
    turn(game, s0="HU")
    turn(game)
    out = turn(game, verdicts={1: "TLE"})
    remaining = out["result"]["remaining"]["1"]  # type: ignore[index]
    assert remaining["valid"] is False and remaining["distance"] is None
    assert game.faults[-1].seat != 1


# --- targets, distance, chance value ------------------------------------------------------------


def test_a_winning_hand_is_four_sets_and_a_pair_with_its_melds():
    assert is_winning(Counter([*WAIT_W5, "W5"]), 0)
    assert not is_winning(Counter([*WAIT_W5, "W6"]), 0)
    assert is_winning(Counter(["B1", "B2", "B3", "W5", "W5"]), 3)
    assert is_winning(Counter(["B1", "B1", "B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9",
                               "B9", "B9", "B2"]), 0)  # the nine gates shape
    assert not is_winning(Counter(["B8", "B9", "T1", "W5", "W5"]), 3)  # no run across suits
    assert not is_winning(Counter(["W5", "W5"]), 3)  # too few


def test_wins_on_count_lists_is_is_winning_even_for_counts_no_hand_holds():
    rng = random.Random(5)
    for _ in range(3000):
        melds = rng.choice([0, 1, 2, 3, 4, 5])
        tiles = rng.choices(KINDS[:9] if rng.random() < 0.3 else KINDS, k=14 - 3 * min(melds, 4))
        counts = [tiles.count(kind) for kind in KINDS]
        assert wins_list(counts, melds) == wins(tuple(counts), melds) == \
            is_winning(Counter(tiles), melds)
    nine_gates = [3, 1, 1, 1, 1, 1, 1, 1, 3] + [0] * 18
    assert wins_list([*nine_gates[:4], 2, *nine_gates[5:]], 0)
    cached = len(hand_rules._suits)
    assert wins_list([5, 3, 3, 3] + [0] * 23, 0)  # a pung and the pair of one kind
    assert not wins_list([-1, 2, 1] + [0] * 24, 4)
    assert len(hand_rules._suits) == cached  # counts no hand holds are not cached


@pytest.mark.parametrize("text,melded,melds,reason", [
    ("b1 b1 b1 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 3}, 1, ""),
    ("g1 g1 g1 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 3}, 1, "not a tile code"),
    ("B1 B1 B1 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 3}, 1, "not its melds (b1 b1 b1)"),
    ("b2 b2 b2 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 3}, 1, "not its melds"),
    ("b1 b1 b1 b1 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 3}, 1, "not its melds"),
    ("b1 b1 b1 b1 B1 B1 B1 T5 T6 T7 W1 W1 W1 W9 W9", {"B1": 4}, 1, "7 of B1"),
    ("B1 B1 B1 B1 B1 B2 B3 T5 T6 T7 W1 W1 W1 W9", {}, 0, "5 of B1"),
    ("B1 B2 B3 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W8", {}, 0, "not a winning hand"),
    ("B1 B2 B3 B2 B3 B4 T5 T6 T7 W1 W1 W1 W9", {}, 0, "not a winning hand"),
    ("B1 B2 B3  B2 B3 B4 T5 T6 T7 W1 W1 W1 W9 W9", {}, 0, "single spaces"),
    ("", {}, 0, "an empty target"),
    (None, {}, 0, "no target"),
    ("B1 B2 B3 B2 B3 B4 t2 t2 t2 t2 T4 T5 T6 W8 W8", {"T2": 4}, 1, ""),  # the statement's
])
def test_a_target_is_valid_only_with_its_melds_in_lower_case_no_fifth_tile_and_a_win(
        text, melded, melds, reason):
    check = check_target(text, melded, melds)
    assert check.valid is (reason == "")
    assert reason in check.reason


def test_distance_is_one_when_one_tile_is_needed_the_statements_first_example():
    current = Counter(WAIT_W5)
    target = Counter([*WAIT_W5, "W5"])
    assert distance(target, current) == 1
    assert needed(target, current) == Counter({"W5": 1})


def test_distance_is_three_when_two_tiles_are_needed_and_one_discarded_the_second_example():
    current = Counter(["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "T1", "T1", "T1", "W5",
                       "W9"])
    target = Counter([*WAIT_W5, "W5"])
    assert distance(target, current) == 3
    assert needed(target, current) == Counter({"B9": 1, "W5": 1})


def test_the_chance_value_is_the_earliest_last_position_of_a_needed_kind():
    discards = ["B9", "W5", "T1", "B9", "W5", "T2"]
    last = last_positions(discards, ["T2", "W1"])
    assert last == {"B9": 4, "W5": 5, "T1": 3, "T2": 7, "W1": 7}
    assert chance_value(Counter({"B9": 1, "W5": 1}), last).value == 4
    assert chance_value(Counter({"T2": 1}), last).value == 7  # its last copy is held
    assert chance_value(Counter({"W7": 1}), last).value == 0  # never in play
    assert chance_value(Counter({"W5": 1, "T2": 1}), last).last == {"T2": 7, "W5": 5}


def _row(dist: int | None, chance: int | None) -> Remaining:
    from rulesets.noi2014.hands import Chance

    return Remaining("", dist is not None, "", dist,
                     None if chance is None else Chance(chance, {}))


def test_remaining_players_rank_by_distance_then_larger_chance_value_and_equal_ones_tie():
    result = rank([2], {0: _row(3, 10), 1: _row(3, 12), 3: _row(1, 2)}, [], "wall")
    assert result.places == [4, 3, 1, 2] and result.points == [1.0, 2.0, 4.0, 3.0]
    result = rank([], {0: _row(3, 10), 1: _row(3, 10), 2: _row(1, 2), 3: _row(5, 40)}, [],
                  "wall")
    assert result.places == [2, 2, 1, 4] and result.points == [2.5, 2.5, 4.0, 1.0]
    result = rank([], {s: _row(None, None) for s in range(4)}, [], "wall")
    assert result.points == [2.5] * 4
    result = rank([1], {0: _row(None, None), 2: _row(None, None)}, [Fault(3, 5, "x")], "wall")
    assert result.points == [2.5, 4.0, 2.5, 1.0]


def test_two_remaining_players_with_equal_distance_and_chance_value_share_their_points():
    # Two players waiting on the same kind, both answering targets one tile away: equal
    # distance, and the needed kind's last copy is the same for both.
    s0 = WAIT_W5
    s1 = ["T2", "T3", "T4", "T5", "T6", "T7", "W1", "W2", "W3", "W7", "W8", "W9", "W5"]
    game = started(build_wall(hands(s0=s0, s1=s1)))
    while asked(game) != {s: "4" for s in range(4)}:
        request = asked(game)
        if len(request) == 1:
            (seat, text), = request.items()
            turn(game, **{f"s{seat}": "PLAY " + text.split()[1]})
        else:
            turn(game)
    out = turn(game, s0=" ".join([*s0, "W5"]), s1=" ".join([*s1, "W5"]), s2="x", s3="x")
    result = out["result"]  # type: ignore[index]
    assert result["remaining"]["0"]["distance"] == result["remaining"]["1"]["distance"] == 1
    assert result["places"][:2] == [1, 1] and game.scores[:2] == [3.5, 3.5]  # type: ignore[index]
    assert game.scores[2:] == [1.5, 1.5]  # type: ignore[index]


def test_reading_replies_is_apart_from_applying_them():
    hand = Counter([*WAIT_W5, "W5"])
    assert read_draw_reply("HU", hand, []) == ("HU", None)
    assert read_draw_reply("PLAY B1", hand, []) == ("PLAY", "B1")
    assert read_claim("PENG B1", "T1", Counter(WAIT_W5), 0) == ("PENG", "B1")
    assert read_claim("GANG", "T1", Counter(WAIT_W5), 0) == ("GANG",)
    assert read_claim("PASS", "T1", Counter(WAIT_W5), 0) is None


def test_a_copy_of_a_game_plays_on_alone_and_the_original_is_unchanged():
    game = Game(shuffled_wall(11))
    while not any(r is not None and r.startswith("2 ") for r in game.requests()):
        game.step([Reply("OK", "PASS")] * 4)
    before = (game.requests(), game.output(), [dict(h) for h in game.hands], game.left)
    copy = game.copy()
    seat = next(s for s, r in enumerate(game.requests()) if r is not None)
    tile = game.requests()[seat].split()[1]  # type: ignore[union-attr]
    replies = [Reply("OK", f"PLAY {tile}" if s == seat else None) for s in range(4)]
    out = copy.step(replies)
    assert any(e["act"] == "PLAY" for e in out["events"])
    assert (game.requests(), game.output(), [dict(h) for h in game.hands], game.left) == before
    assert game.step(replies) == out  # the original, stepped alike, does the same
