"""``server compare`` in the default ruleset: one deal is one wall, eight hands.

Deal ``index`` of seed S is ``engine.rng.deal(S, index)``, the wall and first actor that
``server simulate --seed S`` plays as its hand ``index``. The candidate plays it from each
seat, then the baseline, the three opponents in the seats after the subject's in the same
places; a hand's score is the seat's settlement points.

* In-process (``engine.simulate``) when every bot is a Python class: ``random``,
  ``greedy``, ``module:Class``, ``path/to/bot.py:Class``, as ``server simulate --bots``
  takes them. Each hand builds its bots afresh, ``Class(seed=...)``; an opponent's seed
  is the same in both halves of the deal, the subject's depends on which of the two it
  is (a bot compared with itself plays on independent luck). No clock, so no fines.
* As real processes (``match.play_match_hand``: fresh processes per hand, the line
  protocol, the table's deadlines and fines, a faulted seat autoplayed) when any bot is a
  command line; ``random`` and ``greedy`` then run the sample AIs' files, and a
  ``module:Class`` bot cannot sit at the table (bad input).
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.rng import HandPlan, deal
from rulesets.default.engine.simulate import (
    SAMPLE_BOTS,
    BotFactory,
    BotSpecError,
    play_hand,
    resolve_bot,
)
from server.seam.contract import DealRequest, DealScores
from server.seam.errors import InputError
from server.turns.in_process import in_process

SAMPLES = Path(__file__).resolve().parents[2] / "sample_ai"
SAMPLE_FILES = {"random": "random_bot.py", "greedy": "greedy.py"}
OPPONENTS = ("greedy", "random", "greedy")
SUBJECTS = ("candidate", "baseline")


def bot_seed(seed: int, index: int, seat: int, who: str) -> int:
    """One bot's seed in one hand of a deal (``who``: candidate, baseline, opponent K)."""
    digest = hashlib.sha256(f"compare:{seed}:{index}:{seat}:{who}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def games() -> list[tuple[int, int, tuple[int, ...]]]:
    """(subject 0 or 1, its seat, the player in each seat) of a deal's hands; players are
    candidate, baseline, opponents 0-2."""
    out = []
    for subject in range(len(SUBJECTS)):
        for seat in range(SEATS):
            order = [0] * SEATS
            order[seat] = subject
            for k in range(SEATS - 1):
                order[(seat + 1 + k) % SEATS] = 2 + k
            out.append((subject, seat, tuple(order)))
    return out


def _specs(request: DealRequest) -> list[str]:
    return [request.candidate, request.baseline, *request.opponents]


def _local(spec: str) -> bool:
    return in_process(spec, SAMPLE_BOTS)


def check_deal(request: DealRequest) -> None:
    from server.bots.processes import BotCommandError, parse_command

    if request.variant is not None:
        raise InputError("--variant: the default ruleset has one variant")
    if len(request.opponents) != SEATS - 1:
        raise InputError(f"--opponents: give {SEATS - 1} bots, got {len(request.opponents)}")
    specs = _specs(request)
    if all(_local(spec) for spec in specs):
        for spec in dict.fromkeys(specs):
            try:
                resolve_bot(spec)
            except BotSpecError as exc:
                raise InputError(str(exc)) from None
        return
    for spec in specs:
        if spec in SAMPLE_FILES:
            continue
        if _local(spec):
            raise InputError(f"bot {spec!r} plays in-process only, and another bot is a "
                             "command line: give every bot as a command (or none)")
        try:
            parse_command(spec)
        except BotCommandError as exc:
            raise InputError(str(exc)) from None


def play_deal(request: DealRequest) -> DealScores:
    specs = _specs(request)
    if all(_local(spec) for spec in specs):
        return _in_process(request, specs)
    return _processes(request, specs)


def _scores(by_game: list[tuple[float, bool, str]]) -> DealScores:
    half = len(by_game) // 2
    cand, base = by_game[:half], by_game[half:]
    notes = tuple(why for _, faulted, why in by_game if faulted and why)
    return DealScores(tuple(s for s, _, _ in cand), tuple(s for s, _, _ in base),
                      (sum(f for _, f, _ in cand), sum(f for _, f, _ in base)), notes[:2])


def _in_process(request: DealRequest, specs: list[str]) -> DealScores:
    factories: dict[str, BotFactory] = {spec: resolve_bot(spec) for spec in dict.fromkeys(specs)}
    d = deal(request.seed, request.index)
    by_game = []
    for subject, seat, order in games():
        bots = []
        for s, player in enumerate(order):
            who = SUBJECTS[subject] if player < 2 else f"opponent {player - 2}"
            factory = factories[specs[player]]
            try:
                bots.append(factory(bot_seed(request.seed, request.index, s, who)))
            except Exception as exc:  # the bot's constructor: its fault, as in simulate
                raise InputError(f"bot {specs[player]!r} could not be built: "
                                 f"{type(exc).__name__}: {exc}") from None
        played = play_hand(Hand(d.wall, d.first), bots)
        error = played.errors.get(seat, "")
        faulted = bool(error) or played.illegal[seat] > 0
        why = error.strip().splitlines()[-1] if error else (
            f"{played.illegal[seat]} illegal answer(s)" if faulted else "")
        by_game.append((float(played.result.deltas[seat]), faulted, why))
    return _scores(by_game)


def _argv(spec: str, seed: int) -> tuple[str, ...]:
    from server.bots.processes import parse_command

    if spec in SAMPLE_FILES:
        return (sys.executable, str(SAMPLES / SAMPLE_FILES[spec]), "--seed", str(seed))
    return tuple(parse_command(spec))


def _processes(request: DealRequest, specs: list[str]) -> DealScores:
    import structlog
    import trio

    from rulesets.default.match import MatchConfig, Player, play_match_hand
    from server.bots.seats import TableOptions
    from server.output.console import configure_logging

    configure_logging(False)  # the table's events: not on the verdict's stdout
    log = structlog.get_logger()

    async def play() -> list[tuple[float, bool, str]]:
        by_game = []
        for n, (subject, _seat, order) in enumerate(games()):
            # Each hand's players: the sample AIs get this hand's seeds.
            players = []
            for player, spec in enumerate(specs):
                s = order.index(player) if player in order else 0
                who = SUBJECTS[subject] if player < 2 else f"opponent {player - 2}"
                players.append(Player(spec, _argv(spec, bot_seed(request.seed, request.index,
                                                                  s, who))))
            config = MatchConfig(tuple(players), request.seed, 1, None,
                                 TableOptions(host_stalls=True), "autoplay")
            plan = HandPlan(n, 0, 0, request.index, request.seed,
                            (order[0], order[1], order[2], order[3]))
            summary = await play_match_hand(config, plan, None, log)
            causes = [cause for player, cause in summary.faults if player == subject]
            by_game.append((float(summary.points[subject]), bool(causes),
                            causes[0] if causes else ""))
        return by_game

    return _scores(trio.run(play))
