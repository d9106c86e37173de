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

import time
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import sample_ai
from protocol.compiled import compiled
from protocol.messages import FromAI, ToAI
from rulesets.default.engine.hand import SEATS, Hand, HandResult, Verdict
from rulesets.default.engine.rng import deal
from sample_ai import BUILTIN_BOTS
from scoring.settlement import WinKind
from server.seam.errors import InputError
from server.seam.python_bots import load_module, on_path


class InProcessBot(Protocol):
    def receive(self, message: ToAI) -> FromAI | None: ...


BotFactory = Callable[[int], InProcessBot]

# The sample AIs' names live with them; importing the package loads no bot.
SAMPLE_BOTS: dict[str, str] = BUILTIN_BOTS
# The compiled core (setup.py, tools/build_mypyc.py) includes a copy of the sample
# bots as this package; when it is there, the names above load the copy. The files
# under sample_ai/ stay plain Python, for students to subclass and step through.
COMPILED_BOTS = "_compiled_bots"
# Where the build puts the copy: beside sample_ai/ (the checkout's root). Found from
# sample_ai, which stays plain: compiled, this module's ``__file__`` names the build's
# shared library in protocol/, and the copy was never found.
_CHECKOUT = Path(str(sample_ai.__file__)).resolve().parents[1]


def _sample_target(spec: str) -> str:
    """What a spec names: a sample AI's module:Class (its compiled copy if the core is
    compiled: not when ``MAHJONG_PURE=1`` or an outdated build puts it aside)."""
    target = SAMPLE_BOTS.get(spec)
    if target is None:
        return spec
    module, _, attr = target.partition(":")
    if (module.startswith("sample_ai.") and compiled()
            and (_CHECKOUT / COMPILED_BOTS / "__init__.py").is_file()):
        on_path(str(_CHECKOUT))
        return f"{COMPILED_BOTS}{module.removeprefix('sample_ai')}:{attr}"
    return target


class BotSpecError(InputError):
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
    """A sample AI's name (``random``, ``greedy``), ``module:Class`` or
    ``path/to/bot.py:Class``.

    A module is looked for in the current folder first, as ``python -m`` would
    (the ``server`` command, unlike ``python``, does not put it on the path); a
    file is loaded with its own folder on the path, as ``python path/to/bot.py``
    would. A module that fails to import is a ``BotSpecError`` saying why.
    """
    target = _sample_target(spec)
    source, _, attr = target.rpartition(":")
    if not source or not attr:
        known = ", ".join(SAMPLE_BOTS)
        raise BotSpecError(f"unknown bot {spec!r}: use one of {known}, or module:Class "
                           "(or path/to/bot.py:Class)")
    module = load_module(spec, source, BotSpecError)
    cls: Any = getattr(module, attr, None)
    if cls is None or not callable(cls):
        raise BotSpecError(f"bot {spec!r}: {source!r} has no class {attr!r}")
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
        crashed = False
        for seat, message in drain():
            if seat not in faulted:
                try:
                    reply = receive[seat](message)
                except _BuildError as unbuilt:  # (its own name: mypyc types each name once)
                    played.errors[seat] = str(unbuilt)
                    hand.fault(seat, "crashed: the bot could not be built")
                    crashed = True
                    continue
                except Exception as exc:  # the bot's bug: fault the seat, play on
                    played.errors[seat] = traceback.format_exc()
                    hand.fault(seat, f"crashed: {type(exc).__name__}: {exc}")
                    crashed = True
                    continue
                if reply is not None:
                    replies.append((seat, reply))
        if not replies and crashed:
            continue  # the crashed seat's autoplay may have prompted others: ask them first
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
    for seat, bot in enumerate(bots):  # answers its own framework put in place of its bug's
        played.illegal[seat] += getattr(bot, "fallbacks", 0)
    return played


_REJECTED = Verdict.REJECTED


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand's outcome by player (not by seat): all a summary adds up. Small and
    picklable, so that hands played in other processes, or on other machines, come
    back as these and are summed here in order."""

    h: int
    points: tuple[int, ...]  # by player
    illegal: tuple[int, ...]
    errors: tuple[str, ...]  # the traceback of the player's bot in this hand, or ""
    winner: int | None  # the player who won, None for a draw
    kind: str | None  # the win kind's name in lower case, as ``Summary.wins`` keys it

    def __reduce__(self) -> tuple[type[HandRecord], tuple[Any, ...]]:
        # Rebuilt through the constructor: compiled (mypyc), a frozen dataclass cannot
        # be unpickled field by field (--jobs and --cluster send these between processes).
        return (HandRecord, (self.h, self.points, self.illegal, self.errors, self.winner,
                             self.kind))


def seated(h: int) -> list[int]:
    """The player at each seat in hand ``h``: the players rotate one seat every hand."""
    return [(s + h) % SEATS for s in range(SEATS)]


def record_of(h: int, played: Played) -> HandRecord:
    result = played.result
    seats = [(p - h) % SEATS for p in range(SEATS)]  # where each player sat
    if result.winner is None or result.kind is None:
        winner, kind = None, None
    else:
        winner, kind = seated(h)[result.winner], result.kind.name.lower()
    return HandRecord(h, tuple(result.deltas[s] for s in seats),
                      tuple(played.illegal[s] for s in seats),
                      tuple(played.errors.get(s, "") for s in seats), winner, kind)


def play_hands(factories: Sequence[BotFactory], seed: int,
               hands: Iterable[int]) -> Iterator[tuple[Played, HandRecord]]:
    """Play hands ``hands`` of the simulation ``seed``, one at a time. Each hand depends
    only on the seed and its number (its deal, its bots' seeds), never on the hands
    played before it, so any split of the hands plays each of them the same."""
    for h in hands:
        d = deal(seed, h)
        bots = [_build(factories[p], seed * 1_000_003 + h * SEATS + s)
                for s, p in enumerate(seated(h))]
        played = play_hand(Hand(d.wall, d.first), bots)
        yield played, record_of(h, played)


def play_chunk(specs: Sequence[str], seed: int, start: int, stop: int) -> list[HandRecord]:
    """Hands ``start`` to ``stop - 1``, with the bots resolved here (in the process that
    plays them): what a worker process or a cluster's node runs."""
    factories = [resolve_bot(spec) for spec in specs]
    return [record for _, record in play_hands(factories, seed, range(start, stop))]


def chunks(hands: int, workers: int, largest: int = 50) -> list[range]:
    """``range(hands)`` cut in consecutive pieces: several per worker, so that the work
    stays balanced and progress is seen, and none above ``largest`` hands (about a
    second of the sample bots), so that Ctrl-C loses little."""
    size = max(1, min(largest, -(-hands // (workers * 8))))
    return [range(i, min(i + size, hands)) for i in range(0, hands, size)]


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

    @classmethod
    def empty(cls, specs: Sequence[str]) -> Summary:
        return cls(0, 0.0, 0, {kind.name.lower(): 0 for kind in WinKind},
                   [PlayerStats(spec) for spec in specs])

    def add(self, record: HandRecord) -> None:
        """Count one more hand. Added in the order of the hands, the first error kept
        is the one a single process would keep."""
        for p, player in enumerate(self.players):
            player.points += record.points[p]
            player.illegal += record.illegal[p]
            if record.errors[p]:
                player.crashes += 1
                player.first_error = player.first_error or record.errors[p]
        if record.winner is None or record.kind is None:
            self.draws += 1
        else:
            self.players[record.winner].wins += 1
            self.wins[record.kind] += 1
        self.hands += 1

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


def summarize(specs: Sequence[str], records: Iterable[HandRecord],
              seconds: float = 0.0) -> Summary:
    """The summary of hands played anywhere, from their records in the order of the hands."""
    summary = Summary.empty(specs)
    for record in records:
        summary.add(record)
    summary.seconds = seconds
    return summary


def check_specs(specs: Sequence[str]) -> list[BotFactory]:
    """The four bots resolved here, or ``BotSpecError``: before any hand is played."""
    if len(specs) != SEATS:
        raise BotSpecError(f"need {SEATS} bots, got {len(specs)}")
    return [resolve_bot(spec) for spec in specs]


def simulate(specs: Sequence[str], hands: int, seed: int,
             on_hand: Callable[[int, Played], None] | None = None) -> Summary:
    """Play ``hands`` hands; the players sit in the order given and rotate one
    seat every hand (in hand h, seat s is played by player (s + h) mod 4)."""
    factories = check_specs(specs)
    summary = Summary.empty(specs)
    start = time.perf_counter()
    try:
        for played, record in play_hands(factories, seed, range(hands)):
            summary.add(record)
            if on_hand is not None:
                on_hand(record.h, played)
    except KeyboardInterrupt:  # keep what was played: the caller reports it
        summary.interrupted = True
    summary.seconds = time.perf_counter() - start
    return summary
