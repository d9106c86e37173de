"""Botzone's Mahjong judge: the official judge's games turn by turn, then its rules one by one."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rulesets.botzone import fans
from rulesets.botzone.judge import Judge, Reply, rejudge
from rulesets.botzone.tiles import GlibcRandom, settle
from tests.botzone_walls import judge, play, play_until, replies, wall
from tests.datadir import botzone_games

GAMES = botzone_games()
UNSEEN = [-4, -4, -4, -4]
VARIANTS = ["classic", "duplicate"]


def load(path: Path) -> dict[str, Any]:
    game: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return game


# --- the official judge's games ---------------------------------------------------------


def test_all_34_reference_games_are_present() -> None:
    assert len(GAMES) == 34
    assert {path.name[0] for path in GAMES} == {"c", "d"}


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_reference_game_is_rejudged_identically_turn_by_turn(path: Path) -> None:
    game = load(path)
    players = game["players"]
    judge_ = Judge(game["variant"], game["initdata"])
    for turn, recorded in enumerate(game["judge"]):
        if turn:
            judge_.step([
                Reply(players[seat][turn - 1]["verdict"], players[seat][turn - 1]["response"])
                for seat in range(4)
            ])
        assert judge_.turn == turn
        if turn < len(players[0]):
            assert judge_.requests() == [players[seat][turn]["request"] for seat in range(4)], turn
        else:
            assert judge_.requests() == []
        assert judge_.output() == recorded, f"turn {turn}"
    assert judge_.finished
    assert judge_.scores == game["scores"]


@pytest.mark.parametrize("path", GAMES, ids=lambda path: path.stem)
def test_rejudge_gives_every_recorded_output(path: Path) -> None:
    game = load(path)
    assert rejudge(game) == game["judge"]


# --- hands for the scripted games -------------------------------------------------------

def tiles(text: str) -> list[str]:
    return text.split()


SEAT0 = tiles("T1 T1 T2 T3 T5 T6 T7 T8 F1 F2 F3 J1 J2")


def discard_of_b2(variant: str, seat2: str, seat3: str) -> Judge:
    """Seat 0 draws B2 and discards it; the game stops there for the claims."""
    game = judge(variant, wall(variant, [
        SEAT0, tiles("B3 B4 B5 B6 B7 B8 T9 T9 F4 F4 J3 J3 B9"), seat2.split(), seat3.split(),
    ], [(0, "B2")]))
    play_until(game, "PLAY", 0)
    assert game.requests() == ["3 0 PLAY B2"] * 4
    return game


def finish(action: str, player: int, **extra: Any) -> dict[str, Any]:
    scores = [10, 10, 10, 10]
    scores[player] = -30
    return {
        "command": "finish",
        "content": {str(seat): score for seat, score in enumerate(scores)},
        "display": {"action": action, "canHu": UNSEEN, "player": player, "score": scores,
                    **extra},
    }


# --- check order ------------------------------------------------------------------------

CHECK_ORDER = ("W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2",
               "B9 B9 T4 T4 T4 W9 W9 J1 J2 J3 F1 F2 F3")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_wrong_hu_by_the_nearer_seat_is_wh_even_if_a_farther_seat_wins(variant: str) -> None:
    game = discard_of_b2(variant, *CHECK_ORDER)
    assert game.output()["display"]["canHu"][2] >= 8
    out = play(game, {1: "HU", 2: "HU"})
    assert out == finish("WH", 1, fanCnt=-3)  # not a winning hand: no fan list


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_hu_masks_the_errors_of_every_other_claimant(variant: str) -> None:
    game = discard_of_b2(variant, *CHECK_ORDER)
    out = play(game, {1: "nonsense", 2: "HU", 3: "PENG W9"})
    display = out["display"]
    fan = display["fanCnt"]
    assert (display["action"], display["player"]) == ("HU", 2)
    assert {"cnt": 1, "name": "清龙", "value": 16} in display["fan"]
    assert display["score"] == [-(8 + fan), -8, 24 + fan, -8]
    assert out["content"] == {"0": -(8 + fan), "1": -8, "2": 24 + fan, "3": -8}
    assert game.scores == display["score"]
    assert "tileCnt" not in display


CLAIMS = ("B2 B2 B2 T4 T4 T4 W9 W9 J1 J2 J3 F1 F3", "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B9 B9")


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("answers", "verdicts", "expected"), [
    ({2: "PENG W9", 3: "nonsense"}, {}, ("PENG", 2)),  # the first valid claim ends the pass
    ({1: "CHI B3 T9", 2: "PENG W9"}, {}, ("PENG", 2)),  # a pung beats the next seat's chow
    ({1: "CHI B9 B9", 2: "PENG W9"}, {}, ("PENG", 2)),  # ...which is then never validated
    ({1: "PENG T9", 2: "PENG W9"}, {}, ("WA", 1)),  # a bad claim before a good one is WA
    ({1: "PENG T9"}, {3: "TLE"}, ("TLE", 3)),  # verdicts come before claims
    ({1: "PASS", 2: "GANG"}, {}, ("GANG", 2)),
    ({1: "CHI B3 T9"}, {}, ("CHI", 1)),
    ({3: "CHI B1 B9"}, {}, ("WA", 3)),  # only the next seat may chow
    ({0: "HU"}, {}, ("WA", 0)),  # the discarder must PASS
    ({1: "PASS PASS"}, {}, ("WA", 1)),
    ({1: " PASS"}, {}, ("WA", 1)),
    ({1: "pass"}, {}, ("WA", 1)),
    ({1: ""}, {}, ("WA", 1)),
    ({1: None}, {}, ("WA", 1)),
    ({2: "PENG W9 "}, {}, ("WA", 2)),  # three tokens: deferred to the chow step, not a CHI
])
def test_discard_replies_are_checked_in_the_judges_order(
    variant: str, answers: dict[int, str | None], verdicts: dict[int, str],
    expected: tuple[str, int],
) -> None:
    game = discard_of_b2(variant, *CLAIMS)
    display = play(game, answers, verdicts)["display"]
    assert (display["action"], display["player"]) == expected


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_claimed_kong_is_announced_without_its_tile_and_the_claimer_draws(variant: str) -> None:
    game = discard_of_b2(variant, *CLAIMS)
    out = play(game, {2: "GANG"})
    assert out["content"] == {str(seat): "3 2 GANG" for seat in range(4)}
    assert out["display"]["tile"] == "B2"
    assert out["display"]["canHu"] == UNSEEN
    out = play(game)
    assert (out["display"]["action"], out["display"]["player"]) == ("DRAW", 2)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_pung_request_carries_the_new_discard_and_every_seat_is_evaluated(variant: str) -> None:
    game = discard_of_b2(variant, *CLAIMS)
    out = play(game, {2: "PENG W9"})
    assert out["content"] == {str(seat): "3 2 PENG W9" for seat in range(4)}
    assert out["display"]["tile"] == "W9"
    assert all(value != -4 for value in out["display"]["canHu"])


# --- chows --------------------------------------------------------------------------------

CHOW_HANDS = ["B2 B3 B4 B5 B6 B7 B8 T4 T4 T4 J1 J2 F2", "B2 B2 W9 W9 W8 W8 T5 T6 J3 J2 F3 F3 B1"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("discard", "answer", "valid"), [
    ("W5", "CHI W4 T9", True),  # W3 W4 W5
    ("W5", "CHI W5 T9", True),  # W4 W5 W6
    ("W5", "CHI W6 T9", True),  # W5 W6 W7
    ("W2", "CHI W2 T9", True),
    ("W5", "CHI W7 T9", False),  # the discard is not in the chow
    ("W5", "CHI B5 T9", False),  # another suit
    ("W5", "CHI W4 W5", False),  # the discard went into the chow: no W5 left to play
    ("W5", "CHI W4 B2", False),  # playing a tile not in hand
    ("W5", "CHI W44 T9", False),
    ("W2", "CHI W1 T9", False),  # a middle tile of 1 asks for W0
    ("F1", "CHI F1 T9", False),  # honours never chow
])
def test_chow_validity(variant: str, discard: str, answer: str, valid: bool) -> None:
    game = judge(variant, wall(variant, [
        SEAT0, tiles("W1 W3 W4 W6 W7 T9 T9 F4 F4 J3 J3 B1 B9"), *map(str.split, CHOW_HANDS),
    ], [(0, discard)]))
    play_until(game, "PLAY", 0)
    out = play(game, {1: answer})
    if valid:
        middle, tile = answer.split()[1:]
        assert out["display"] == {
            "action": "CHI", "player": 1, "tile": tile, "tileCHI": middle,
            "canHu": out["display"]["canHu"], "tileCnt": out["display"]["tileCnt"],
        }
        assert out["content"]["3"] == f"3 1 CHI {middle} {tile}"
    else:
        assert out == finish("WA", 1)


# --- kongs on one's own draw --------------------------------------------------------------

KONG_OTHERS = ["W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B9 B9 J3", "B2 B2 B2 T4 T4 T4 J1 J2 J3 F1 F3 W8 W7"]


def pung_of_w9(variant: str, seat1: str, seat3: str = KONG_OTHERS[1]) -> Judge:
    """Seat 1 pungs seat 0's W9, then draws T2 on its next turn."""
    game = judge(variant, wall(variant, [SEAT0, seat1.split(), KONG_OTHERS[0].split(),
                                         seat3.split()],
                               [(0, "W9"), (2, "T3"), (3, "T5"), (0, "T6"), (1, "T2"), (1, "B1")]))
    play_until(game, "PLAY", 0)
    assert play(game, {1: "PENG T9"})["display"]["action"] == "PENG"
    play_until(game, "DRAW", 1)
    assert game.requests()[1] == "2 T2"
    return game


@pytest.mark.parametrize("variant", VARIANTS)
def test_bugang_of_a_tile_held_since_the_deal_is_announced_with_its_tile(variant: str) -> None:
    game = pung_of_w9(variant, "W9 W9 W9 B3 B4 B5 B6 B7 B8 T9 T9 F4 F4")
    out = play(game, {1: "BUGANG W9"})
    assert out["content"] == {str(seat): "3 1 BUGANG W9" for seat in range(4)}
    display = out["display"]
    assert (display["action"], display["player"], display["tile"]) == ("BUGANG", 1, "W9")
    assert display["canHu"][1] == -4 and all(display["canHu"][seat] != -4 for seat in (0, 2, 3))
    out = play(game, {1: "HU"})  # the kong player cannot rob his own kong
    assert out == finish("WA", 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bugang_is_followed_by_the_kong_players_replacement_draw(variant: str) -> None:
    game = pung_of_w9(variant, "W9 W9 W9 B3 B4 B5 B6 B7 B8 T9 T9 F4 F4")
    play(game, {1: "BUGANG W9"})
    assert play(game)["content"]["1"] == "2 B1"


@pytest.mark.parametrize("variant", VARIANTS)
def test_bugang_without_the_fourth_tile_in_hand_is_wa(variant: str) -> None:
    game = pung_of_w9(variant, "W9 W9 J2 B3 B4 B5 B6 B7 B8 T9 T9 F4 F4",
                      "B2 B2 B2 T4 T4 T4 J1 J2 J3 F1 F3 W8 W9")
    assert play(game, {1: "BUGANG W9"}) == finish("WA", 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bugang_without_a_pung_is_wa(variant: str) -> None:
    game = pung_of_w9(variant, "W9 W9 W9 B3 B4 B5 B6 B7 B8 T9 T9 F4 F4")
    assert play(game, {1: "BUGANG T9"}) == finish("WA", 1)
    assert play(pung_of_w9(variant, "W9 W9 W9 B3 B4 B5 B6 B7 B8 T9 T9 F4 F4"),
                {1: "BUGANG"}) == finish("WA", 1)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_concealed_kong_may_be_of_any_four_in_hand_and_hides_its_tile(variant: str) -> None:
    game = judge(variant, wall(variant, [
        SEAT0, tiles("W9 W9 W9 W9 B4 B5 B6 B7 B8 T9 T9 F4 F4"), *map(str.split, KONG_OTHERS),
    ], [(0, "J3"), (1, "T2"), (1, "B1")]))
    play_until(game, "DRAW", 1)
    out = play(game, {1: "GANG W9"})
    assert out["content"] == {str(seat): "3 1 GANG" for seat in range(4)}
    assert (out["display"]["action"], out["display"]["tile"]) == ("GANG", "W9")
    assert out["display"]["canHu"] == UNSEEN
    assert play(game, {2: "HU"}) == finish("WA", 2)  # no robbing a concealed kong


# --- the end of the wall ------------------------------------------------------------------

LAST = ["B3 B4 B5 B6 B7 B8 T9 T9 F4 F4 J3 J3 B9", "B2 B2 T4 T4 T4 W9 W9 J1 J2 F1 F3 B9 B9",
        "W1 W2 W3 W4 W5 W6 W7 W8 W9 B1 B1 B1 B2"]


def last_discard() -> Judge:
    """classic, a short wall: seat 1 draws the last tile, B2, and discards it."""
    game = judge("classic", wall("classic", [SEAT0, *map(str.split, LAST)],
                                 [(0, "J3"), (1, "B2")], spare=0))
    play_until(game, "PLAY", 1)
    assert game.output()["display"]["tileCnt"] == 0
    return game


def test_classic_claim_on_the_last_discard_is_wa_after_the_turns_checks() -> None:
    assert play(last_discard(), {2: "PENG T4", 3: "nonsense"}) == finish("WA", 2)
    assert play(last_discard(), {2: "PENG T4"}, {0: "TLE"}) == finish("TLE", 0)


def test_classic_hu_on_the_last_discard_is_allowed() -> None:
    display = play(last_discard(), {3: "HU"})["display"]
    assert (display["action"], display["player"]) == ("HU", 3)
    assert "海底捞月" in [fan["name"] for fan in display["fan"]]


def test_classic_game_is_drawn_when_the_seat_due_to_draw_finds_the_wall_empty() -> None:
    assert play(last_discard()) == {
        "command": "finish",
        "content": {"0": 0, "1": 0, "2": 0, "3": 0},
        "display": {"action": "HUANG", "canHu": UNSEEN, "tileCnt": 0},
    }


KONG_AT_END = ["B3 B4 B5 B6 B7 B8 T9 T9 F4 F4 W9 W9 W9", "B2 B2 T4 T4 T4 J3 J3 J1 J2 F1 F3 B9 B9",
               "W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B1 B2 T1"]


def test_classic_own_kong_on_an_empty_wall_is_wa_after_the_turns_other_checks() -> None:
    def game() -> Judge:
        made = judge("classic", wall("classic", [SEAT0, *map(str.split, KONG_AT_END)],
                                     [(0, "J3"), (1, "W9")], spare=0))
        play_until(made, "DRAW", 1)
        return made

    assert play(game(), {1: "GANG W9"}) == finish("WA", 1)
    assert play(game(), {1: "GANG W9", 3: "nonsense"}) == finish("WA", 3)


def duplicate_kong_at_end() -> Judge:
    """duplicate, 14-tile walls: seat 1 draws its wall's last tile, a fourth W9."""
    game = judge("duplicate", wall("duplicate", [SEAT0, *map(str.split, KONG_AT_END)],
                                   [(0, "J3"), (1, "W9")], spare=0))
    play_until(game, "DRAW", 1)
    assert game.output()["display"]["tileCnt"] == [0, 0, 1, 1]
    return game


def test_duplicate_own_kong_on_an_empty_own_wall_is_wa_at_the_drawers_place() -> None:
    assert play(duplicate_kong_at_end(), {1: "GANG W9"}) == finish("WA", 1)
    assert play(duplicate_kong_at_end(), {1: "GANG W9", 3: "nonsense"}) == finish("WA", 1)
    assert play(duplicate_kong_at_end(), {0: "nonsense", 1: "GANG W9"}) == finish("WA", 0)


def test_duplicate_own_kong_is_wa_when_the_next_seats_wall_is_empty() -> None:
    seat2 = ["H1", "H2", *KONG_AT_END[1].split()]  # two flowers empty seat 2's 15-tile wall
    game = judge("duplicate", wall("duplicate", [SEAT0, KONG_AT_END[0].split(), seat2,
                                                 KONG_AT_END[2].split()],
                                   [(0, "J3"), (1, "W9")], spare=0))
    play_until(game, "DRAW", 1)
    assert game.output()["display"]["tileCnt"] == [1, 1, 0, 2]
    assert play(game, {1: "GANG W9"}) == finish("WA", 1)


EMPTY_OWN = ["B2 B2 B2 T2 T3 T5 T6 T7 T8 F1 F2 F3 J1", "B3 B4 B5 B6 B7 B8 T9 T9 F4 F4 J3 J3 B9",
             "W1 W2 W3 W4 W5 W6 W7 W8 B1 B1 B9 B9 J3", "T4 T4 T4 W9 W9 J1 J2 F1 F3 W8 W7 T1 T1"]


def duplicate_claim_with_empty_own_wall() -> Judge:
    """duplicate, 14-tile walls: seats 0 and 1 have drawn their last tile; seat 1 discards B2."""
    game = judge("duplicate", wall("duplicate", list(map(str.split, EMPTY_OWN)),
                                   [(0, "J2"), (1, "B2")], spare=0))
    play_until(game, "PLAY", 1)
    assert game.output()["display"]["tileCnt"] == [0, 0, 1, 1]
    return game


def test_duplicate_claim_looks_at_the_wall_after_the_discarder_not_the_claimers() -> None:
    game = duplicate_claim_with_empty_own_wall()
    out = play(game, {0: "PENG J1"})
    assert (out["display"]["action"], out["display"]["player"]) == ("PENG", 0)
    assert play(game)["display"] == {"action": "HUANG", "canHu": UNSEEN,
                                     "tileCnt": [0, 0, 1, 1]}  # seat 1's own wall is empty


def test_duplicate_claimed_kong_with_an_empty_own_wall_ends_in_a_draw() -> None:
    game = duplicate_claim_with_empty_own_wall()
    assert play(game, {0: "GANG"})["display"]["action"] == "GANG"
    out = play(game)
    assert out["command"] == "finish"
    assert out["display"]["action"] == "HUANG"


# --- HU where only PASS is allowed --------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_hu_in_a_pass_only_turn_is_wa(variant: str) -> None:
    game = judge(variant, wall(variant, [SEAT0, *map(str.split, LAST)], [(0, "J3")]))
    assert play(game, {1: "HU"}) == finish("WA", 1, strlen=len(game.initdata["walltiles"]))
    game = judge(variant, game.initdata["walltiles"])
    play(game)
    assert play(game, {2: "HU"}) == finish("WA", 2)  # on the deal
    game = judge(variant, game.initdata["walltiles"])
    play(game)
    play(game)
    assert play(game, {3: "HU"}) == finish("WA", 3)  # on another seat's draw


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_verdict_on_the_first_turn_keeps_strlen_in_the_finish(variant: str) -> None:
    game = judge(variant, wall(variant, [SEAT0, *map(str.split, LAST)], [(0, "J3")]))
    out = play(game, verdicts={2: "RE"})
    assert out == finish("RE", 2, strlen=len(game.initdata["walltiles"]))
    assert game.requests() == []
    with pytest.raises(RuntimeError, match="game is over"):
        game.step(replies(game))


# --- the 4th tile -----------------------------------------------------------------------

CLOSED_B3 = "W1 W2 W3 W4 W5 W6 W7 W8 W9 T5 T5 B2 B4"  # 清龙, a closed wait on B3


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("visible", "last_tile"), [(3, True), (2, False)])
def test_a_win_on_a_tile_with_exactly_three_copies_visible_is_a_last_tile(
    variant: str, visible: int, last_tile: bool,
) -> None:
    draws = [(seat, "B3" if seat < visible else "J3") for seat in range(3)] + [(3, "B3")]
    game = judge(variant, wall(variant, [
        SEAT0, tiles("B5 B6 B7 B8 T9 T9 F4 F4 J3 J3 B9 B9 B1"),
        tiles("B2 B2 T4 T4 T4 W9 W9 J1 J2 F1 F3 T6 T7"), tiles(CLOSED_B3),
    ], draws))
    play_until(game, "DRAW", 3)
    display = play(game, {3: "HU"})["display"]
    assert display["action"] == "HU"
    assert ("和绝张" in [fan["name"] for fan in display["fan"]]) is last_tile


# --- the 8-fan minimum --------------------------------------------------------------------

EIGHT = "T1 T1 T1 W3 W4 W5 W4 W5 W6 T4 T5 T6 T7"  # + T7 self-drawn: exactly 8 fan
SEVEN = "B1 B1 B1 B5 B6 B7 T4 T5 T6 B6 B7 B8 W1"  # + W1 self-drawn: 7 fan
MIN_OTHERS = ["B1 B2 B3 B4 B5 B6 B7 B8 B9 F1 F1 F2 F2", "W6 W7 W8 W9 F3 F3 F4 F4 J1 J1 J2 J2 J3",
              "B9 B9 B8 B8 W9 W9 W8 W8 J3 J3 T9 T9 T8"]


def self_draw(hand: str, draw: str, flowers: list[str]) -> dict[str, Any]:
    game = judge("classic", wall("classic", [flowers + hand.split(), *map(str.split, MIN_OTHERS)],
                                 [(0, draw)]))
    play_until(game, "DRAW", 0)
    assert game.output()["display"]["canHu"][0] == len(flowers) + (8 if hand == EIGHT else 7)
    return play(game, {0: "HU"})


def test_eight_fan_without_flowers_wins_and_flowers_add_to_the_payment() -> None:
    out = self_draw(EIGHT, "T7", [])
    assert (out["display"]["action"], out["display"]["fanCnt"]) == ("HU", 8)
    assert out["display"]["score"] == [48, -16, -16, -16]
    out = self_draw(EIGHT, "T7", ["H1"])
    assert (out["display"]["action"], out["display"]["fanCnt"]) == ("HU", 9)
    assert out["display"]["fan"][-1] == {"cnt": 1, "name": "花牌", "value": 1}
    assert out["content"] == {"0": 51, "1": -17, "2": -17, "3": -17}


def test_flowers_do_not_count_toward_the_eight_fan_minimum() -> None:
    out = self_draw(SEVEN, "W1", ["H1"])
    assert (out["display"]["action"], out["display"]["fanCnt"]) == ("WH", 8)
    assert out["content"] == {"0": -30, "1": 10, "2": 10, "3": 10}
    assert self_draw(SEVEN, "W1", [])["display"]["fanCnt"] == 7


# --- initdata ---------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("initdata", [None, "", {}])
def test_missing_initdata_is_settled_from_the_time(variant: str, initdata: Any) -> None:
    game = Judge(variant, initdata, now=77)
    quan = GlibcRandom(77).rand() % 4
    assert game.initdata == settle(variant, None, 77).initdata()
    assert game.initdata["srand"] == 77 and game.initdata["quan"] == quan
    assert game.output() == {
        "command": "request",
        "content": {str(seat): f"0 {seat} {quan}" for seat in range(4)},
        "display": {"action": "INIT", "canHu": UNSEEN, "quan": quan, "srand": 77, "strlen": 0},
        "initdata": game.initdata,
    }
    assert game.requests() == [f"0 {seat} {quan}" for seat in range(4)]


def test_without_now_a_missing_srand_is_the_current_time() -> None:
    before = int(time.time())
    srand = Judge("classic", {"quan": 1}).initdata["srand"]
    assert before <= srand <= int(time.time())


@pytest.mark.parametrize("quan", [4, -1, "2", None, 1.5])
def test_a_bad_quan_is_drawn_from_rand_before_the_wall(quan: object) -> None:
    game = Judge("duplicate", {"srand": 3, "quan": quan})
    assert game.initdata == settle("duplicate", {"srand": 3}, 0).initdata()
    assert game.quan == GlibcRandom(3).rand() % 4


def test_a_judge_refuses_an_unknown_variant_and_a_wall_too_short_to_deal() -> None:
    with pytest.raises(ValueError, match="unknown Botzone variant"):
        Judge("riichi", None)
    with pytest.raises(ValueError, match="walltiles too short"):
        Judge("classic", {"walltiles": "W1 W2 W3"})
    with pytest.raises(ValueError, match="walltiles too short"):
        Judge("duplicate", {"walltiles": " ".join(["W1"] * 51)})
    with pytest.raises(ValueError, match="4 replies"):
        Judge("classic", {"srand": 1}).step([Reply("OK", "PASS")])


# --- the calculator -----------------------------------------------------------------------


def test_every_fan_has_its_english_name() -> None:
    assert len(fans.ENGLISH) == 82  # the 81 GB fans and 1.1.0's extra 明暗杠
    assert fans.english_name("花牌") == "Flower Tiles"
    assert fans.english_name("和绝张") == "Last Tile"
    assert fans.english_name("抢杠和") == "Robbing The Kong"
    assert fans.english_name("不是番") == "不是番"


def test_a_missing_calculator_names_the_package_and_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "MahjongGB", None)
    monkeypatch.setattr(fans, "_calculator", None)
    with pytest.raises(fans.CalculatorMissing) as caught:
        Judge("classic", {"srand": 1})
    message = str(caught.value)
    assert "PyMahjongGB" in message
    assert "pip install 'mahjong-match-server[botzone]'" in message


def test_the_calculator_reports_its_errors_as_the_judges_codes() -> None:
    flags: dict[str, Any] = {"flowers": 0, "self_drawn": True, "fourth_tile": False,
                             "about_kong": False, "wall_last": False, "seat": 0, "quan": 0}
    assert fans.calculate([], SEVEN.split(), "F1", **flags) == (-3, ())
    assert fans.calculate([], SEVEN.split()[:10], "F1", **flags) == (-1, ())
    assert fans.calculate([], ["B1"] * 4 + SEVEN.split()[4:], "B1", **flags) == (-2, ())
    assert fans.calculate([], SEVEN.split(), "X9", **flags) == (-3, ())
    fan, table = fans.calculate([], SEVEN.split(), "W1", **{**flags, "flowers": 3})
    assert fan == 10 and table[-1] == fans.Fan("花牌", 3, 1)
