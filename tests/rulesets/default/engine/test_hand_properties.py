"""Properties of the hand engine over thousands of seeded hands of random legal play.

Each hand is a seeded deal (``rng.deal``) played by a driver that picks among
``Hand.legal_answers`` with a seeded ``random.Random``. Hands differ in style:
some mostly pass and discard (long hands, draws), some claim whenever they may
(pungs, chows, lost chows, kongs), some discard loose tiles first (so hands
win), some fault seats at random, on and off their turn, and one plays rigged
deals where an added kong is often robbed. Now and then the driver also sends
an illegal or unsolicited line, which must change nothing.

Every step is checked against SPEC section 3: the lines each seat is sent, who
is asked what, and the tile census; every hand's end against the settlement and
against a replay of its inputs. The hands are played once per session
(``played``); each test then asserts one property over all of them and names
the first few violations. 2,000 hands, about 330,000 answers.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from protocol.messages import (
    AGang,
    Chi,
    First,
    FromAI,
    Gang,
    Hu,
    Id,
    Init,
    JGang,
    MAGang,
    MChi,
    MFail,
    MGang,
    MJGang,
    MOut,
    MPeng,
    MPick,
    Out,
    Pass,
    Peng,
    Pick,
    QGang,
    ToAI,
)
from protocol.tiles import N_KINDS, Tile, tile_counts
from rulesets.default.engine.hand import REJECTED_INPUT, SEATS, Event, Expect, Hand, Verdict, replay
from rulesets.default.engine.rng import deal
from scoring.fans import can_win
from scoring.melds import MeldKind
from scoring.settlement import WinKind, settle

HANDS = 2000  # total hands played, across all styles
SEED = 20240603
MAX_STEPS = 2000  # far more answers than any hand can take


@dataclass(frozen=True)
class Style:
    """How the driver plays one hand."""

    name: str
    hu: float  # chance of taking a win when one is legal
    claim: float  # chance of taking a pung, chow or kong when one is legal
    tidy: bool  # discard loose tiles first, so hands get near to winning
    # Hunt for robbed kongs: always rob, prefer pungs to chows, keep the fourth
    # tile of a pung and add it only when another seat can rob it.
    rob: bool
    fault: float  # chance per step of faulting a random seat
    junk: float  # chance per step of also sending an illegal or unsolicited line
    rigged: bool = False  # play ``robbery_deal`` deals (seat 0 faulted at once)


STYLES: tuple[Style, ...] = (
    Style("quiet", hu=0.5, claim=0.05, tidy=False, rob=False, fault=0.0, junk=0.05),
    Style("claims", hu=0.3, claim=0.95, tidy=True, rob=False, fault=0.0, junk=0.05),
    Style("robbery", hu=0.8, claim=0.5, tidy=True, rob=True, fault=0.02, junk=0.05,
          rigged=True),
    Style("faults", hu=0.7, claim=0.7, tidy=True, rob=True, fault=0.01, junk=0.05),
    Style("many faults", hu=0.7, claim=0.9, tidy=False, rob=False, fault=0.05, junk=0.0),
)
# Hand h is played in style PLAN[h % len(PLAN)]: the long, quiet hands are the fewest.
PLAN: tuple[Style, ...] = tuple(
    STYLES[i] for i in (0, 1, 2, 3, 4, 2, 1, 2, 3, 4)
)

CLAIMS = (Peng, Gang, Chi, AGang, JGang)
WINS = (Hu, QGang)
# For each suited tile, its neighbours in the suit and how much they bind to it.
NEIGHBOURS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((t + k, 2 if abs(k) == 1 else 1) for k in (-2, -1, 1, 2)
          if t < 27 and 0 <= (t % 9) + k < 9)
    for t in range(N_KINDS)
)


def _loose_first(rng: random.Random, outs: list[Out], counts: list[int],
                 keep: set[Tile]) -> Out:
    """The discard of the tile that fits least with the rest of the hand."""
    def fit(out: Out) -> tuple[int, float]:
        t = out.tile
        if t in keep:
            return (99, 0.0)
        return (3 * (counts[t] - 1) + sum(w for u, w in NEIGHBOURS[t] if counts[u]),
                rng.random())
    return min(outs, key=fit)


def _robbable(hand: Hand, seat: int, tile: Tile) -> bool:
    """Whether a seat other than ``seat`` would win by robbing ``tile``."""
    return any(can_win(hand.hands[s], hand.melds[s], tile)
               for s in range(SEATS) if s != seat and s not in hand.faulted)


def choose(rng: random.Random, style: Style, hand: Hand, seat: int,
           legal: list[FromAI]) -> FromAI:
    """One of the legal answers, as ``style`` plays."""
    wins = [a for a in legal if isinstance(a, WINS)]
    if wins and (rng.random() < style.hu or (isinstance(wins[0], QGang) and style.rob)):
        return wins[0]
    claims = [a for a in legal if isinstance(a, CLAIMS)]
    if style.rob:
        for a in claims:
            if isinstance(a, JGang) and (_robbable(hand, seat, a.tile) or hand.wall_left < 8):
                return a
        claims = [a for a in claims if not isinstance(a, JGang)]
        claims = [a for a in claims if isinstance(a, (Peng, Gang))] or claims
    if claims and rng.random() < style.claim:
        return rng.choice(claims)
    outs = [a for a in legal if isinstance(a, Out)]
    if outs and style.tidy and rng.random() < 0.9:
        keep = {m.tile for m in hand.melds[seat] if m.kind is MeldKind.PUNG} \
            if style.rob else set()
        return _loose_first(rng, outs, tile_counts(hand.hands[seat]), keep)
    return rng.choice([a for a in legal if isinstance(a, (Out, Pass))])


def robbery_deal(rng: random.Random) -> tuple[tuple[Tile, ...], int]:
    """A deal set up for an added kong that can be robbed (seat 0 is faulted first).

    Seat 0 draws the third T and, faulted, discards it; seat 1 holds a pair of T
    and may pung it; seat 2 holds three sets, a pair, T-1 and a lone honour, and
    draws T+1 (waiting on T once it throws the honour); seat 1's next draw is
    the fourth T. Random play around the plan makes it work only some of the time.
    """
    pool = [4] * N_KINDS

    def take(t: int) -> Tile:
        assert pool[t] > 0
        pool[t] -= 1
        return Tile(t)

    suited = [t for t in range(27) if 1 <= t % 9 <= 7]
    t = rng.choice(suited)
    lone = rng.randrange(27, N_KINDS)
    owner_hand = [take(t), take(t)]
    third, fourth, low, high = take(t), take(t), take(t - 1), take(t + 1)
    robber = [low, take(lone)]
    spare = pool[lone]
    pool[lone] = 0  # keep the honour alone in the robber's hand
    while len(robber) < 13:
        want = 2 if len(robber) == 11 else 3
        kinds = [k for k in range(N_KINDS) if pool[k] >= want]
        runs = [k for k in range(27) if k % 9 <= 6 and pool[k] and pool[k + 1] and pool[k + 2]]
        if want == 3 and runs and rng.random() < 0.6:
            k = rng.choice(runs)
            robber += [take(k), take(k + 1), take(k + 2)]
        else:
            k = rng.choice(kinds)
            robber += [take(k) for _ in range(want)]
    pool[lone] = spare
    rest = [Tile(k) for k in range(N_KINDS) for _ in range(pool[k])]
    rng.shuffle(rest)
    seat0, seat3 = rest[:13], rest[13:26]
    owner_hand += rest[26:37]
    draws = [third, high, *rest[37:39], fourth, *rest[39:]]
    return (*seat0, *owner_hand, *robber, *seat3, *draws), 0


# Every answer there is, for checking ``legal_answers`` against ``check``.
EVERY_ANSWER: tuple[FromAI, ...] = (
    Pass(), Hu(), Peng(), Gang(), QGang(),
    *(cls(Tile(t)) for cls in (Out, AGang, JGang, Chi) for t in range(N_KINDS)),
)
LEGAL_CHECK_EVERY = 100  # steps between two full comparisons

JUNK: tuple[FromAI, ...] = (
    Pass(), Hu(), Peng(), Gang(), QGang(), Out(Tile.M1), Out(Tile.WHITE), Chi(Tile.S1),
    Chi(Tile.T7), AGang(Tile.EAST), JGang(Tile.M5),
)


# --- expected lines ---------------------------------------------------------------


Lines = dict[int, list[ToAI]]


def expected_lines(events: Sequence[Event], chow_claimer: int | None) -> Lines:
    """What SPEC section 3 says each seat is sent for these events, in order."""
    lines: Lines = {s: [] for s in range(SEATS)}

    def everyone(message: ToAI) -> None:
        for s in range(SEATS):
            lines[s].append(message)

    for e in events:
        if e.kind == "pick":
            assert e.tile is not None
            for s in range(SEATS):
                lines[s].append(Pick(e.tile) if s == e.seat else MPick(e.seat))
        elif e.kind == "out":
            assert e.tile is not None
            for s in range(SEATS):
                if s != e.seat:
                    lines[s].append(MOut(e.seat, e.tile))
        elif e.kind in ("peng", "gang"):
            assert e.tile is not None
            everyone(MPeng(e.seat, e.tile) if e.kind == "peng" else MGang(e.seat, e.tile))
            if chow_claimer is not None:
                lines[chow_claimer].append(MFail())
        elif e.kind == "chi":
            assert e.tile is not None
            everyone(MChi(e.seat, e.tile))
        elif e.kind == "agang":
            everyone(MAGang(e.seat))
        elif e.kind == "jgang":
            assert e.tile is not None
            everyone(MJGang(e.seat, e.tile))
    return lines


def start_lines(hand: Hand) -> Lines:
    """``id``, ``first`` and ``init`` to each seat (then the first draw)."""
    lines: Lines = {}
    for s in range(SEATS):
        lines[s] = [Id(s), First(hand.first), Init(hand.wall[13 * s : 13 * s + 13])]
    return lines


def prompts_in(events: Sequence[Event]) -> list[tuple[int, Expect]]:
    """The prompts these events make: who is asked what, in order."""
    asked: list[tuple[int, Expect]] = []
    for e in events:
        if e.kind == "pick":
            asked.append((e.seat, Expect.TURN))
        elif e.kind == "out":
            asked.extend(((e.seat + k) % SEATS, Expect.CLAIM) for k in (1, 2, 3))
        elif e.kind in ("peng", "chi"):
            asked.append((e.seat, Expect.DISCARD))
        elif e.kind == "jgang":
            asked.extend(((e.seat + k) % SEATS, Expect.ROB) for k in (1, 2, 3))
    return asked


def per_seat(drained: Sequence[tuple[int, ToAI]]) -> Lines:
    lines: Lines = {s: [] for s in range(SEATS)}
    for seat, message in drained:
        lines[seat].append(message)
    return lines


# --- the driver -------------------------------------------------------------------


@dataclass
class Report:
    hands: int = 0
    steps: int = 0
    violations: dict[str, list[str]] = field(default_factory=dict)
    seen: Counter[str] = field(default_factory=Counter)

    def fail(self, prop: str, where: str, what: str) -> None:
        self.violations.setdefault(prop, []).append(f"{where}: {what}")

    def first(self, prop: str) -> list[str]:
        return self.violations.get(prop, [])[:5]


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        tuple(map(tuple, hand.hands)), tuple(map(tuple, hand.melds)),
        tuple(map(tuple, hand.rivers)), hand.position, dict(hand.waiting),
        dict(hand.faulted), sum(1 for i in hand.inputs if i.fault != REJECTED_INPUT),
        hand.result,
    )


def play_one(index: int, style: Style, report: Report) -> None:
    rng = random.Random(f"{SEED}/{index}")
    if style.rigged:
        wall, first = robbery_deal(rng)
    else:
        d = deal(SEED, index)
        wall, first = d.wall, d.first
    hand = Hand(wall, first)
    where = f"hand {index} ({style.name})"
    hand.start()
    drained = per_seat(hand.drain())
    expected = expected_lines(hand.events, None)
    for s, lines in start_lines(hand).items():
        expected[s] = lines + expected[s]
    if drained != expected:
        report.fail("lines", f"{where} start", f"sent {drained}, expected {expected}")
    chow_claimer: int | None = None
    steps = 0
    while not hand.finished:
        steps += 1
        if steps > MAX_STEPS:
            report.fail("ends", where, f"not over after {MAX_STEPS} steps")
            break
        live = [s for s in sorted(hand.waiting) if s not in hand.faulted]
        if not live:
            report.fail("ends", f"{where} step {steps}", f"stuck: waiting {hand.waiting}")
            break
        if style.junk and rng.random() < style.junk:
            _junk(rng, hand, report, f"{where} step {steps}")
        before_waiting = dict(hand.waiting)
        before_events = len(hand.events)
        rigged_fault = style.rigged and steps == 1
        # Faults while an added kong may be robbed are rare: make them likelier.
        chance = 5 * style.fault if Expect.ROB in hand.waiting.values() else style.fault
        if rigged_fault or (chance and rng.random() < chance):
            candidates = [s for s in range(SEATS) if s not in hand.faulted]
            actor = 0 if rigged_fault else rng.choice(candidates)
            hand.fault(actor, "test fault")
            report.seen["fault"] += 1
            if actor in before_waiting:
                report.seen[f"fault while asked ({before_waiting[actor].value})"] += 1
        else:
            actor = rng.choice(live)
            legal = hand.legal_answers(actor)
            if steps % LEGAL_CHECK_EVERY == 0:
                accepted = [a for a in EVERY_ANSWER
                            if hand.check(actor, a).verdict is Verdict.ACCEPTED]
                if sorted(map(repr, accepted)) != sorted(map(repr, legal)):
                    report.fail("legal", f"{where} step {steps}",
                                f"legal_answers {legal}, check accepts {accepted}")
            if not legal:
                report.fail("legal", f"{where} step {steps}",
                            f"seat {actor} asked {hand.waiting[actor]} but has no legal answer")
                break
            message = choose(rng, style, hand, actor, legal)
            verdict = hand.answer(actor, message)
            if verdict.verdict is not Verdict.ACCEPTED:
                report.fail("legal", f"{where} step {steps}",
                            f"legal answer {message} from {actor} was {verdict}")
                break
            if isinstance(message, Chi):
                chow_claimer = actor
        new_events = hand.events[before_events:]
        report.seen.update(e.kind for e in new_events)
        _check_step(hand, report, f"{where} step {steps}", actor, before_waiting,
                    new_events, chow_claimer)
        if any(e.kind in ("out", "peng", "gang", "chi") for e in new_events):
            # A lost chow is only told after the window it was claimed in.
            chow_claimer = None
    report.steps += steps
    report.hands += 1
    _check_end(hand, report, where, wall, first)


def _junk(rng: random.Random, hand: Hand, report: Report, where: str) -> None:
    """Send a line that must change nothing: illegal from an asked seat, or unsolicited."""
    seat = rng.randrange(SEATS)
    message = rng.choice(JUNK)
    expected = hand.check(seat, message).verdict
    if expected is Verdict.ACCEPTED:
        return
    before = snapshot(hand)
    events = len(hand.events)
    verdict = hand.answer(seat, message)
    report.seen[f"junk {verdict.verdict.value}"] += 1
    if verdict.verdict is not expected:
        report.fail("junk", where, f"{message} from {seat}: {verdict} after check {expected}")
    if snapshot(hand) != before or hand.drain():
        report.fail("junk", where, f"{message} from {seat} ({verdict}) changed the hand")
    if verdict.verdict is Verdict.REJECTED:
        if not verdict.reason:
            report.fail("junk", where, f"{message} from {seat} rejected without a reason")
        if [e.kind for e in hand.events[events:]] != ["reject"]:
            report.fail("junk", where, f"{message} from {seat}: events {hand.events[events:]}")
    elif len(hand.events) != events:
        report.fail("junk", where, f"unsolicited {message} from {seat} was recorded as an event")


def _check_step(hand: Hand, report: Report, where: str, actor: int,
                before: dict[int, Expect], events: Sequence[Event],
                chow_claimer: int | None) -> None:
    drained = per_seat(hand.drain())
    expected = expected_lines(events, chow_claimer)
    if chow_claimer is not None and any(e.kind in ("peng", "gang") for e in events):
        report.seen["lost chow"] += 1
    if drained != expected:
        report.fail("lines", where, f"events {list(events)} sent {drained}, expected {expected}")
    if hand.census() != [4] * N_KINDS:
        report.fail("census", where, f"census {hand.census()} after {list(events)}")
    # Nobody is asked again while a question to it is open: the seats still
    # waiting from before the step (all but the one that acted) get no prompt.
    still = {s: e for s, e in before.items() if s != actor}
    asked = prompts_in(events)
    counted = Counter(s for s, _ in asked if s not in hand.faulted)
    for s, n in counted.items():
        if s in still or n > 1:
            report.fail("asked once", where, f"seat {s} asked {n} time(s) while waiting "
                                              f"{before.get(s)}: {list(events)}")
    if hand.finished:
        if hand.waiting:
            report.fail("asked once", where, f"finished but waiting {hand.waiting}")
        return
    want = dict(still)
    want.update((s, e) for s, e in asked if s not in hand.faulted)
    if hand.waiting != want:
        report.fail("asked once", where, f"waiting {hand.waiting}, expected {want} "
                                          f"after {list(events)}")


def _check_end(hand: Hand, report: Report, where: str, wall: Sequence[Tile],
               first: int) -> None:
    result = hand.result
    if result is None:
        return
    report.seen[result.kind.name if result.kind else "DRAW"] += 1
    if hand.census() != [4] * N_KINDS:
        report.fail("census", where, f"census at the end {hand.census()}")
    if sum(result.deltas) != 0:
        report.fail("zero-sum", where, f"deltas {result.deltas}")
    if result.deltas != tuple(settle(result.winner, result.kind, result.fan_total,
                                     result.payer)):
        report.fail("zero-sum", where, f"deltas {result.deltas} are not the settlement")
    if result.winner is None:
        if hand.wall_left or result.deltas != (0,) * SEATS:
            report.fail("result", where, f"a draw with {hand.wall_left} tiles left")
    else:
        if result.fans is None or result.fans.total < 0:
            report.fail("result", where, f"win without fans {result}")
        # A seat may win with an answer it gave before a fault (the window was
        # still open), but never with one the engine made for it afterwards.
        applied_inputs = [i for i in hand.inputs if i.fault != REJECTED_INPUT]
        said = [i for i, item in enumerate(applied_inputs)
                if item.seat == result.winner and isinstance(item.message, WINS)]
        faulted = [i for i, item in enumerate(applied_inputs)
                   if item.seat == result.winner and item.message is None]
        if not said or said[-1] != max(i for i, x in enumerate(applied_inputs)
                                       if x.seat == result.winner and x.message is not None):
            report.fail("result", where, f"seat {result.winner} won without saying so")
        if faulted and said and faulted[0] < said[-1]:
            report.fail("result", where, f"seat {result.winner} won after its fault")
        if (result.kind is WinKind.SELF_DRAWN) != (result.payer is None):
            report.fail("result", where, f"payer {result.payer} for a {result.kind} win")
    again = replay(wall, first, hand.inputs)
    # Refused answers are inputs too (marked): the replay refuses them again.
    if again.events != hand.events or again.result != hand.result:
        report.fail("replay", where, "replaying the inputs gave a different hand")


@functools.cache
def played() -> Report:
    report = Report()
    for index in range(HANDS):
        play_one(index, PLAN[index % len(PLAN)], report)
    return report


# --- the properties ---------------------------------------------------------------


def test_every_hand_ends() -> None:
    report = played()
    assert report.hands == HANDS
    assert report.first("ends") == []


def test_legal_answers_are_exactly_what_check_accepts_and_never_empty() -> None:
    assert played().first("legal") == []


def test_tiles_are_conserved_after_every_step() -> None:
    assert played().first("census") == []


def test_settlement_is_zero_sum_and_follows_the_result() -> None:
    report = played()
    assert report.first("zero-sum") == []
    assert report.first("result") == []


def test_every_step_sends_exactly_the_lines_spec_lists_to_the_right_seats() -> None:
    assert played().first("lines") == []


def test_no_seat_is_asked_again_while_its_question_is_open() -> None:
    assert played().first("asked once") == []


def test_illegal_and_unsolicited_lines_change_nothing() -> None:
    report = played()
    assert report.first("junk") == []
    assert report.seen["junk rejected"] > 100
    assert report.seen["junk unsolicited"] > 100


def test_recorded_inputs_replay_every_hand_exactly() -> None:
    assert played().first("replay") == []


def test_the_random_play_reaches_every_rule() -> None:
    """Otherwise the properties above would hold vacuously for the rare steps."""
    seen = played().seen
    for kind in ("pick", "out", "peng", "chi", "gang", "agang", "jgang", "qgang", "hu",
                 "draw", "fault", "SELF_DRAWN", "DISCARD", "ROBBED_KONG", "DRAW", "lost chow"):
        assert seen[kind] > 0, f"no {kind} in {HANDS} hands: {seen}"
    for expect in Expect:
        assert seen[f"fault while asked ({expect.value})"] > 0, seen
