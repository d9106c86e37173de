"""One deal of ``server compare`` for a turn-based ruleset (Botzone's, NOI 2014's).

A deal is eight games on one setup (a wall, an initdata): the candidate in each of the four
seats, then the baseline in each, the three opponents in the seats after the subject's in
the same places every time. Two ways to play them, chosen per deal:

* in-process (``server.turns.in_process``), when all five bots are sample AIs' names or
  Python objects (``file.py:NAME``): each game gets fresh bots; a bot built from a class
  gets a seed that depends on the deal, the seat and, for the two subjects, which of them
  it is, so that a bot compared with itself plays on independent luck while the
  opponents' luck is the same in both halves of the deal;
* as real processes, when any bot is a command line: the eight games go through the
  shell's turn match (``server.turns.match.play_game``) with Botzone bots
  (``server.bots.botzone_bots``), the ruleset's time limits and its default process
  limits; the sample AIs' names then run their files as kept-running processes. An
  in-process-only bot (``file.py:NAME``) cannot sit at such a table: bad input.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from server.bots.botzone_io import Dialect
from server.seam.contract import (
    CommandArgs,
    DealRequest,
    DealScores,
    GamePlan,
    TurnRules,
)
from server.seam.errors import InputError
from server.turns.in_process import in_process, play_in_process, resolve_responder

PLAYERS = 4
SUBJECTS = ("candidate", "baseline")


def bot_seed(seed: int, index: int, seat: int, who: str) -> int:
    """The seed of one in-process bot of one game of a deal: who is ``candidate``,
    ``baseline`` or ``opponent K`` (the same in both halves of the deal)."""
    digest = hashlib.sha256(f"compare:{seed}:{index}:{seat}:{who}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def specs_of(request: DealRequest) -> list[str]:
    """The deal's five bots as players: candidate, baseline, the opponents."""
    return [request.candidate, request.baseline, *request.opponents]


def orders() -> list[tuple[int, int, tuple[int, ...]]]:
    """(subject 0 or 1, its seat, order: the player in each seat) of the deal's games."""
    games = []
    for subject in range(len(SUBJECTS)):
        for seat in range(PLAYERS):
            order = [0] * PLAYERS
            order[seat] = subject
            for k in range(PLAYERS - 1):
                order[(seat + 1 + k) % PLAYERS] = 2 + k
            games.append((subject, seat, tuple(order)))
    return games


def check_turn_deal(request: DealRequest, samples: Mapping[str, str],
                    sample_commands: Mapping[str, str], modes: Sequence[str]) -> None:
    """Refuse bots this deal could not play (``InputError``), before any is played."""
    if len(request.opponents) != PLAYERS - 1:
        raise InputError(f"--opponents: give {PLAYERS - 1} bots, got "
                         f"{len(request.opponents)}")
    specs = specs_of(request)
    local = [in_process(spec, samples, modes) for spec in specs]
    if all(local):
        for spec in dict.fromkeys(specs):
            resolve_responder(spec, samples)
        return
    for spec in specs:
        if in_process(spec, samples, modes) and spec not in sample_commands:
            raise InputError(f"bot {spec!r} plays in-process only, and another bot is a "
                             "command line: give every bot as a command (or none)")
    from server.bots.botzone_io import parse_spec

    for spec in specs:
        if spec not in sample_commands:
            try:
                parse_spec(spec)
            except ValueError as exc:
                raise InputError(f"bot {spec!r}: {exc}") from None


def play_turn_deal(request: DealRequest, rules: TurnRules, setup: Mapping[str, Any], *,
                   ruleset: str, samples: Mapping[str, str],
                   sample_commands: Mapping[str, str], modes: Sequence[str],
                   dialect: Dialect) -> DealScores:
    """The deal's eight games (``orders``) on ``setup``; each subject's score by seat."""
    specs = specs_of(request)
    plans = [GamePlan(n + 1, 1, order, setup, f"{SUBJECTS[subject]} in seat {seat}")
             for n, (subject, seat, order) in enumerate(orders())]
    if all(in_process(spec, samples, modes) for spec in specs):
        return _in_process(request, rules, plans, samples)
    return _processes(request, rules, plans, ruleset, sample_commands, dialect)


def _scores(by_game: list[tuple[float, bool, str]]) -> DealScores:
    """(score, faulted, why) of the subject in each game, in ``orders``'s order."""
    half = len(by_game) // 2
    cand, base = by_game[:half], by_game[half:]
    notes = tuple(why for _, faulted, why in by_game if faulted and why)
    return DealScores(tuple(s for s, _, _ in cand), tuple(s for s, _, _ in base),
                      (sum(f for _, f, _ in cand), sum(f for _, f, _ in base)), notes[:2])


def _in_process(request: DealRequest, rules: TurnRules, plans: Sequence[GamePlan],
                samples: Mapping[str, str]) -> DealScores:
    specs = specs_of(request)
    factories = {spec: resolve_responder(spec, samples) for spec in dict.fromkeys(specs)}
    by_game = []
    for plan, (subject, seat, order) in zip(plans, orders(), strict=True):
        bots = []
        for s, player in enumerate(order):
            who = SUBJECTS[subject] if player < 2 else f"opponent {player - 2}"
            bots.append(factories[specs[player]](bot_seed(request.seed, request.index, s, who)))
        played = play_in_process(rules.new_game(plan), bots)
        error = played.errors.get(seat, "")
        by_game.append((played.scores[seat], bool(error),
                        error.strip().splitlines()[-1] if error else ""))
    return _scores(by_game)


def _processes(request: DealRequest, rules: TurnRules, plans: Sequence[GamePlan],
               ruleset: str, sample_commands: Mapping[str, str],
               dialect: Dialect) -> DealScores:
    import trio

    from server.bots.botzone_bots import Bots
    from server.output.console import configure_logging
    from server.turns.match import TurnMatch, TurnPlayer, play_game

    configure_logging(False)  # the bots' events: not on the verdict's stdout
    specs = [sample_commands.get(spec, spec) for spec in specs_of(request)]
    bots = Bots.from_args(specs, CommandArgs({"sandbox": "none"}), dialect=dialect)
    match = TurnMatch(ruleset, [TurnPlayer(spec, spec) for spec in specs], plans, rules,
                      bots.opener)

    async def play() -> list[dict[str, Any]]:
        return [await play_game(match, plan) for plan in plans]

    by_game = []
    for record, (_, seat, _) in zip(trio.run(play), orders(), strict=True):
        scores = record.get("scores") or [0.0] * PLAYERS
        bad = [item for item in record["players"][seat]
               if item is not None and item["verdict"] != "OK"]
        why = f"{bad[0]['verdict']}: {bad[0]['cause']}" if bad else ""
        by_game.append((float(scores[seat]), bool(bad), why))
    return _scores(by_game)
