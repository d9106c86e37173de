"""Play hands in-process with Python bot objects: no processes, no clock.

A bot is any object with ``receive(message) -> answer or None`` (the sample
AIs' framework gives exactly that); a bot class is built once per hand as
``BotClass(seed=...)``. The driver hands each seat the lines the engine queued,
in order, and feeds back their answers. A rejected answer counts as an illegal
move and faults the seat, exactly as the match server would; a seat that is
asked and gives no answer is faulted too, and so is a bot whose ``receive``
raises: the hand goes on with the engine playing that seat, and the traceback
is kept (``Played.errors``) for the bot's author.
"""

from __future__ import annotations

import importlib
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from protocol.messages import FromAI, ToAI
from sample_ai import BUILTIN_BOTS
from scoring.settlement import WinKind
from server.engine.hand import SEATS, Hand, HandResult, Verdict
from server.engine.rng import deal


class InProcessBot(Protocol):
    def receive(self, message: ToAI) -> FromAI | None: ...


BotFactory = Callable[[int], InProcessBot]

# The sample AIs' names live with them; importing the package loads no bot.
SAMPLE_BOTS: dict[str, str] = BUILTIN_BOTS


class BotSpecError(ValueError):
    """A bot name that resolves to nothing usable."""


class _Unbuilt:
    """Stands in for a bot whose constructor raised: it fails at its first line,
    so the seat is faulted like any bot that crashes, with the constructor's
    traceback."""

    def __init__(self, error: str) -> None:
        self.error = error

    def receive(self, message: ToAI) -> FromAI | None:
        raise _BuildError(self.error)


class _BuildError(Exception):
    pass


def _build(factory: BotFactory, seed: int) -> InProcessBot:
    try:
        return factory(seed)
    except Exception:
        return _Unbuilt(traceback.format_exc())


def resolve_bot(spec: str) -> BotFactory:
    """A sample AI's name (``random``, ``greedy``) or ``module:Class``."""
    target = SAMPLE_BOTS.get(spec, spec)
    if ":" not in target:
        known = ", ".join(SAMPLE_BOTS)
        raise BotSpecError(f"unknown bot {spec!r}: use one of {known}, or module:Class")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotSpecError(f"bot {spec!r}: cannot import {module_name!r} ({exc})") from None
    cls: Any = getattr(module, attr, None)
    if cls is None or not callable(cls):
        raise BotSpecError(f"bot {spec!r}: {module_name!r} has no class {attr!r}")
    if not callable(getattr(cls, "receive", None)):
        raise BotSpecError(f"bot {spec!r}: {attr} has no receive(message) method")

    def factory(seed: int) -> InProcessBot:
        bot: InProcessBot = cls(seed=seed)
        return bot

    return factory


@dataclass(slots=True)
class Played:
    """One simulated hand: the engine (with its record) and the illegal moves per seat."""

    hand: Hand
    illegal: list[int] = field(default_factory=lambda: [0] * SEATS)
    errors: dict[int, str] = field(default_factory=dict)  # seat -> traceback of its bot

    @property
    def result(self) -> HandResult:
        assert self.hand.result is not None
        return self.hand.result


def play_hand(hand: Hand, bots: Sequence[InProcessBot]) -> Played:
    """Drive one hand to its end with in-process bots."""
    played = Played(hand)
    hand.start()
    # Hundreds of lines and answers a hand: look the calls up once.
    receive = [bot.receive for bot in bots]
    faulted, answer, drain = hand.faulted, hand.answer, hand.drain
    while hand.result is None:
        replies: list[tuple[int, FromAI]] = []
        for seat, message in drain():
            if seat not in faulted:
                try:
                    reply = receive[seat](message)
                except _BuildError as exc:
                    played.errors[seat] = str(exc)
                    hand.fault(seat, "crashed: the bot could not be built")
                    continue
                except Exception as exc:  # the bot's bug: fault the seat, play on
                    played.errors[seat] = traceback.format_exc()
                    hand.fault(seat, f"crashed: {type(exc).__name__}: {exc}")
                    continue
                if reply is not None:
                    replies.append((seat, reply))
        if not replies:
            for seat in sorted(hand.waiting):
                played.illegal[seat] += 1
                hand.fault(seat, "no answer to a prompt")
            continue
        for seat, reply in replies:
            if hand.result is not None:
                break
            verdict = answer(seat, reply)
            if verdict.verdict is _REJECTED:
                played.illegal[seat] += 1
                hand.fault(seat, f"illegal: {verdict.reason}")
    return played


_REJECTED = Verdict.REJECTED


@dataclass(slots=True)
class PlayerStats:
    bot: str
    points: int = 0
    wins: int = 0
    illegal: int = 0
    crashes: int = 0  # hands in which its receive() raised
    first_error: str = ""  # the first such traceback


@dataclass(slots=True)
class Summary:
    hands: int
    seconds: float
    draws: int
    wins: dict[str, int]
    players: list[PlayerStats]
    interrupted: bool = False  # stopped by Ctrl-C: ``hands`` is how many were played

    def as_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else None,
            "draws": self.draws,
            "wins": self.wins,
            "players": [
                {"player": f"P{i}", "bot": p.bot, "points": p.points, "wins": p.wins,
                 "illegal": p.illegal}
                for i, p in enumerate(self.players)
            ],
        }


def simulate(specs: Sequence[str], hands: int, seed: int,
             on_hand: Callable[[int, Played], None] | None = None) -> Summary:
    """Play ``hands`` hands; the players sit in the order given and rotate one
    seat every hand (in hand h, seat s is played by player (s + h) mod 4)."""
    if len(specs) != SEATS:
        raise BotSpecError(f"need {SEATS} bots, got {len(specs)}")
    factories = [resolve_bot(spec) for spec in specs]
    players = [PlayerStats(spec) for spec in specs]
    wins = {kind.name.lower(): 0 for kind in WinKind}
    summary = Summary(0, 0.0, 0, wins, players)
    start = time.perf_counter()
    try:
        for h in range(hands):
            d = deal(seed, h)
            at_seat = [(s + h) % SEATS for s in range(SEATS)]
            bots = [_build(factories[p], seed * 1_000_003 + h * SEATS + s)
                    for s, p in enumerate(at_seat)]
            played = play_hand(Hand(d.wall, d.first), bots)
            result = played.result
            for s, p in enumerate(at_seat):
                players[p].points += result.deltas[s]
                players[p].illegal += played.illegal[s]
                if s in played.errors:
                    players[p].crashes += 1
                    players[p].first_error = players[p].first_error or played.errors[s]
            if result.winner is None or result.kind is None:
                summary.draws += 1
            else:
                players[at_seat[result.winner]].wins += 1
                wins[result.kind.name.lower()] += 1
            summary.hands += 1
            if on_hand is not None:
                on_hand(h, played)
    except KeyboardInterrupt:  # keep what was played: the caller reports it
        summary.interrupted = True
    summary.seconds = time.perf_counter() - start
    return summary
