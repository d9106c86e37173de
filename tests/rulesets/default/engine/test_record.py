"""The original server's game logs: real ones replay through the engine, and the
engine's own hands write logs that read back to the same events.

The five real logs come from a 2015 contest run of the original server
(``tests/data/legacy-logs/``). Their recorded fans may differ from ours (the
original's fan code has known faults), so only the play is compared: deals,
actions, winner and kind of win.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from protocol.messages import parse_from_ai
from protocol.tiles import ALL_TILES, Tile, parse_tile, parse_tiles, tile_counts
from rulesets.default.engine.hand import SEATS, EngineError, Hand, Verdict
from rulesets.default.engine.legacy_log import (
    HuEvent,
    JGangEvent,
    LegacyLog,
    PickEvent,
    fan_name,
    format_legacy_log,
    legacy_fans,
    parse_legacy_log,
)
from rulesets.default.engine.record import legacy_events, legacy_log, replay_legacy, wall_of
from rulesets.default.engine.rng import deal
from scoring.fans import WinningHand, score
from scoring.melds import Meld, MeldKind
from scoring.settlement import WinKind
from tests.datadir import legacy_logs

LOGS = legacy_logs()
AIS = ("bots/a", "bots/b", "bots/c", "bots/d")
# Deals of seed 2015 whose seeded random play gives draws, wins of both kinds and
# every kind of kong (``test_the_engine_hands_cover_...`` checks that it still does).
ENGINE_DEALS = (0, 2, 5, 7, 16, 19, 29)
N_ENGINE_HANDS = len(ENGINE_DEALS) + 1  # and a scripted robbed kong


@pytest.fixture(params=LOGS, ids=lambda path: path.name)
def log(request: pytest.FixtureRequest) -> LegacyLog:
    path: Path = request.param
    return parse_legacy_log(path.read_text(encoding="utf-8"))


# --- the real logs ---------------------------------------------------------------------


def test_a_real_log_replays_with_the_same_deal(log: LegacyLog) -> None:
    hand = replay_legacy(log)
    assert hand.first == log.first
    for seat in range(SEATS):
        assert hand.wall[13 * seat : 13 * seat + 13] == log.hands[seat]
    drawn = [e.tile for e in log.events if isinstance(e, PickEvent)]
    assert hand.wall[52 : 52 + len(drawn)] == tuple(drawn)


def test_a_real_log_replays_with_the_same_actions(log: LegacyLog) -> None:
    hand = replay_legacy(log)
    assert tuple(legacy_events(hand.events)) == log.events
    assert not any(e.kind in ("reject", "fault") for e in hand.events)


def test_a_real_log_replays_to_the_recorded_winner_and_kind_of_win(
        log: LegacyLog) -> None:
    hand = replay_legacy(log)
    result = hand.result
    assert result is not None and log.result is not None
    assert result.winner == log.result.winner
    if log.result.how == "tsumo":
        assert (result.kind, result.payer) == (WinKind.SELF_DRAWN, None)
    else:
        assert result.kind in (WinKind.DISCARD, WinKind.ROBBED_KONG)
        assert result.payer == log.result.source
    assert sum(result.deltas) == 0


def test_the_engine_scores_a_replayed_win_as_recorded(
        log: LegacyLog) -> None:
    """Not required (the original's fan code has faults), but true of these five.

    The names differ in one place: the original spells 单钓将 as 单调将.
    """
    result = replay_legacy(log).result
    assert result is not None and result.fans is not None and log.result is not None
    assert result.fans.total == log.result.score
    recorded = {name.replace("单调将", "单钓将"): value for name, value in log.result.fans}
    assert dict(result.fans.fans) == recorded


def test_the_real_logs_hold_the_kinds_of_play_they_are_meant_to_test() -> None:
    logs = [parse_legacy_log(p.read_text(encoding="utf-8")) for p in LOGS]
    kinds = {type(e).__name__ for log in logs for e in log.events}
    assert {"PickEvent", "OutEvent", "PengEvent", "ChiEvent", "JGangEvent", "HuEvent"} <= kinds
    hows = {log.result.how for log in logs if log.result is not None}
    assert hows == {"tsumo", "ron"}


def test_the_wall_a_log_implies_deals_its_hands_then_its_draws(
        log: LegacyLog) -> None:
    wall = wall_of(log)
    assert tile_counts(wall) == [4] * len(ALL_TILES)
    assert wall[:52] == tuple(t for h in log.hands for t in h)


# --- the engine's own hands ------------------------------------------------------------


def play(hand: Hand, seed: int, claim: float = 0.7) -> Hand:
    """Random legal answers from a seeded generator, claims taken often."""
    rng = random.Random(seed)
    hand.start()
    while not hand.finished:
        seat = rng.choice(sorted(hand.waiting))
        legal = hand.legal_answers(seat)
        claims = [a for a in legal if a.keyword in ("hu", "peng", "gang", "chi", "qgang",
                                                    "agang", "jgang")]
        choice = rng.choice(claims) if claims and rng.random() < claim else rng.choice(legal)
        assert hand.answer(seat, choice).verdict is Verdict.ACCEPTED
    return hand


def robbed_kong() -> Hand:
    """A scripted hand: seat 1 pungs 5S, adds the fourth, and seat 3 robs it."""
    hands = ["5S 1M 1M 9M 9M S S W W N N Z Z", "5S 5S 1T 2T 3T 7T 8T 9T B B B F E",
             "2T 3T 4T 5T 6T 7T 7M 8M 9M 3S 3S W W", "1M 2M 3M 4M 5M 6M 7M 8M 9M 4S 6S E E"]
    front = [t for h in hands for t in parse_tiles(h)] + parse_tiles("F 1S 1S 9S 5S")
    counts = tile_counts(front)
    wall = front + [t for t in ALL_TILES for _ in range(4 - counts[t])]
    hand = Hand(wall, 0)
    hand.start()
    script = ["0 out 5S", "1 peng", "2 pass", "3 pass", "1 out E", "2 pass", "3 pass",
              "0 pass", "2 out 1S", "3 pass", "0 pass", "1 pass", "3 out 1S", "0 pass",
              "1 pass", "2 pass", "0 out 9S", "1 pass", "2 pass", "3 pass", "1 jgang 5S",
              "2 pass", "3 qgang", "0 pass"]
    for step in script:
        seat, line = step.split(" ", 1)
        assert hand.answer(int(seat), parse_from_ai(line)).verdict is Verdict.ACCEPTED, step
    assert hand.result is not None and hand.result.kind is WinKind.ROBBED_KONG
    return hand


@functools.cache
def engine_hands() -> list[Hand]:
    hands = []
    for index in ENGINE_DEALS:
        d = deal(2015, index)
        hands.append(play(Hand(d.wall, d.first), index, claim=0.7 if index % 3 else 0.0))
    hands.append(robbed_kong())
    return hands


def test_the_engine_hands_cover_wins_draws_claims_and_kongs() -> None:
    hands = engine_hands()
    kinds = {e.kind for h in hands for e in h.events}
    assert {"pick", "out", "peng", "chi", "gang", "agang", "jgang", "qgang", "hu",
            "draw"} <= kinds
    results = {h.result.kind for h in hands if h.result is not None}
    assert results == {None, WinKind.DISCARD, WinKind.SELF_DRAWN, WinKind.ROBBED_KONG}


@pytest.mark.parametrize("index", range(N_ENGINE_HANDS))
def test_an_engine_hands_log_reads_back_to_the_same_events(index: int) -> None:
    hand = engine_hands()[index]
    log = legacy_log(hand, AIS, round_no=3, game_no=index + 1)
    again = parse_legacy_log(format_legacy_log(log))
    assert again == log
    assert again.events == tuple(legacy_events(hand.events))
    assert again.ais == AIS and (again.round, again.game) == (3, index + 1)
    assert again.first == hand.first
    assert again.hands == tuple(hand.wall[13 * s : 13 * s + 13] for s in range(SEATS))
    result = hand.result
    assert result is not None
    if result.winner is None:
        assert again.result is None
    else:
        assert again.result is not None and result.fans is not None
        assert again.result.winner == result.winner
        assert again.result.how == ("tsumo" if result.kind is WinKind.SELF_DRAWN else "ron")
        assert again.result.source == result.payer
        assert again.result.score == result.fans.total
        assert again.result.fans == legacy_fans(result.fans)


@pytest.mark.parametrize("index", range(N_ENGINE_HANDS))
def test_an_engine_hands_log_replays_to_the_same_hand(index: int) -> None:
    hand = engine_hands()[index]
    again = replay_legacy(parse_legacy_log(format_legacy_log(legacy_log(hand, AIS, 1, 1))))
    assert again.events == hand.events
    assert again.result == hand.result


def test_a_robbed_kong_is_written_as_jgang_then_the_robbers_hu() -> None:
    hand = robbed_kong()
    log = legacy_log(hand, AIS, 1, 1)
    assert log.events[-2:] == (JGangEvent(1, Tile.S5), HuEvent(3))
    assert log.result is not None and (log.result.how, log.result.source) == ("ron", 1)
    text = format_legacy_log(log)
    assert "jgang 1 5S\nhu 3\n\nwin 3 ron 1\n" in text


def test_a_log_of_an_unfinished_hand_is_refused() -> None:
    d = deal(1, 0)
    hand = Hand(d.wall, d.first)
    hand.start()
    with pytest.raises(EngineError, match="not finished"):
        legacy_log(hand, AIS, 1, 1)


def test_a_fan_counted_twice_is_one_line_named_with_its_count() -> None:
    """The original writes ``name×N:points``: two dragon pungs are ``箭刻×2:4``."""
    hand = WinningHand(tuple(parse_tiles("Z Z Z F F F 1M 2M 3M 5T")),
                       (Meld(MeldKind.PUNG, parse_tile("9S")),), parse_tile("5T"), False)
    result = score(hand)
    assert dict(result.counts)["箭刻"] == 2
    lines = dict(legacy_fans(result))
    assert lines["箭刻×2"] == dict(result.fans)["箭刻"] == 4
    assert "箭刻" not in lines
    assert sum(lines.values()) == result.total
    assert fan_name("箭刻×2") == "箭刻" and fan_name("单钓将") == "单钓将"
