"""A tiny bot framework: the protocol loop and the table state, so a bot only decides.

Theory of operation
-------------------
A bot is a subclass of ``Bot`` that overrides up to four decision methods:

* ``on_turn(drawn)`` after ``pick``: answer ``Out``, ``Hu``, ``AGang`` or ``JGang``;
* ``on_discard_after_claim()`` after its own pung or chow: the tile to discard;
* ``on_claim(seat, tile)`` after another seat's discard: ``Pass``, ``Hu``,
  ``Peng``, ``Gang`` or ``Chi``;
* ``on_rob(seat, tile)`` after another seat's added kong: ``Pass`` or ``QGang``.

``receive(message)`` is the whole in-process interface: it updates the table
with what the message shows, and returns the answer when the message is a
prompt for this seat, ``None`` otherwise. ``run_stdio`` wraps the same object in
the line protocol (write ``join``, read lines, write answers), so one class is
both a program for the match server and an object for an in-process simulator.

The table follows the server's word, never the bot's hopes: the bot's own
discard is applied when it is answered (the server does not echo ``mout`` to
the discarder), but claims and kongs only when the server broadcasts them
(``mpeng``/``mchi``/``mgang``/``magang``/``mjgang`` naming this seat). A chow
answered and then beaten by a pung (``mpeng`` for another seat, ``mfail``)
therefore never touches the hand.

A decision that raises, or that the rules forbid, is replaced by a safe answer
(discard the drawn tile, or pass), so the hand goes on; but the bug is not
hidden: the traceback goes to stderr, with a report line the server counts
(``protocol.bot_errors``), so a match, a tournament and check-bot show it and
simulate counts it (``Bot.fallbacks``).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol, TextIO

from protocol.messages import (
    FROM_AI,
    AGang,
    Chi,
    First,
    FromAI,
    Gang,
    Hu,
    Id,
    Init,
    JGang,
    Join,
    MAGang,
    MalformedLine,
    MChi,
    MFail,
    MGang,
    MHu,
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
    format_line,
    parse_from_ai,
    parse_to_ai,
)
from protocol.tiles import COPIES, N_KINDS, Tile, tile_counts
from scoring.analysis import is_winning, waiting_tiles
from scoring.melds import Meld, MeldKind

SEATS = 4
WALL_AFTER_DEAL = 136 - 4 * 13


class BotLike(Protocol):
    """The in-process interface a simulator relies on (``BotClass(seed)`` builds one)."""

    def receive(self, message: ToAI) -> FromAI | None: ...


class Prompt(Enum):
    """What a message asks of this seat."""

    TURN = "turn"  # pick: out, hu, agang, jgang
    DISCARD = "discard"  # own mpeng/mchi: out
    CLAIM = "claim"  # another seat's mout: pass, hu, peng, gang, chi
    ROB = "rob"  # another seat's mjgang: pass, qgang


@dataclass
class Table:
    """Everything this seat has seen of the hand.

    ``seen[t]`` counts the copies of ``t`` visible outside this seat's concealed
    hand: every discard still on the table, every meld tile (its own included).
    Other seats' concealed kongs show no tile; ``hidden_kongs`` counts them.
    """

    seat: int = -1
    first: int = -1
    hand: list[Tile] = field(default_factory=list)  # own concealed tiles
    drawn: Tile | None = None  # the tile picked this turn, while it is our turn
    melds: list[list[Meld]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    hidden_kongs: list[int] = field(default_factory=lambda: [0] * SEATS)
    rivers: list[list[Tile]] = field(default_factory=lambda: [[] for _ in range(SEATS)])
    seen: list[int] = field(default_factory=lambda: [0] * N_KINDS)
    wall_left: int = WALL_AFTER_DEAL
    last_discard: tuple[int, Tile] | None = None  # (seat, tile) open to claims
    _waits_key: tuple[tuple[Tile, ...], int] | None = field(default=None, repr=False)
    _waits: frozenset[Tile] = field(default=frozenset(), repr=False)

    # --- views ---------------------------------------------------------------

    @property
    def my_melds(self) -> list[Meld]:
        return self.melds[self.seat] if 0 <= self.seat < SEATS else []

    def counts(self) -> list[int]:
        """A 34-slot count vector of the concealed hand."""
        return tile_counts(self.hand)

    def unseen(self, tile: Tile) -> int:
        """Copies of ``tile`` this seat cannot see: in the wall or in other hands."""
        return max(0, COPIES - self.hand.count(tile) - self.seen[tile])

    def unseen_counts(self) -> list[int]:
        mine = self.counts()
        return [max(0, COPIES - mine[t] - self.seen[t]) for t in range(N_KINDS)]

    # --- what the rules allow now ----------------------------------------------

    def waits(self, counts: list[int] | None = None) -> frozenset[Tile]:
        """The tiles that would complete a waiting hand (``3k + 1`` concealed tiles):
        of the concealed hand, or of ``counts`` (a 34-slot count vector) if given."""
        if counts is not None:
            return frozenset(waiting_tiles(counts, len(self.my_melds)))
        return self._waits_of(tuple(self.hand))

    def _waits_of(self, tiles: tuple[Tile, ...]) -> frozenset[Tile]:
        """Remembered until the hand changes: between two of its own turns a seat
        is asked about every discard, and its waits stay the same (and they are
        what its next draw is checked against)."""
        seat = self.seat
        key = (tiles, len(self.melds[seat]) if 0 <= seat < SEATS else 0)  # my_melds, inline
        if key != self._waits_key:
            self._waits_key = key
            self._waits = frozenset(waiting_tiles(tile_counts(tiles), key[1]))
        return self._waits

    def can_win_with(self, tile: Tile) -> bool:
        """Whether the hand plus ``tile`` (a discard, or a robbed kong) wins."""
        return tile in self._waits_of(tuple(self.hand))

    def can_self_draw_win(self) -> bool:
        """Whether the hand as it stands (drawn tile included) wins."""
        hand, drawn = self.hand, self.drawn
        if drawn is not None and hand and hand[-1] == drawn:
            return drawn in self._waits_of(tuple(hand[:-1]))
        return is_winning(self.counts(), len(self.my_melds))

    def concealed_kongs(self) -> list[Tile]:
        """Tiles this seat holds all four of (``agang`` candidates)."""
        counts = self.counts()
        return [Tile(t) for t in range(N_KINDS) if counts[t] == COPIES]

    def added_kongs(self) -> list[Tile]:
        """Tiles held that extend one of this seat's pungs (``jgang`` candidates)."""
        return [m.tile for m in self.my_melds if m.kind is MeldKind.PUNG and m.tile in self.hand]

    def can_peng(self, tile: Tile) -> bool:
        return self.hand.count(tile) >= 2

    def can_gang(self, tile: Tile) -> bool:
        return self.hand.count(tile) >= 3

    def chi_options(self, discarder: int, tile: Tile) -> list[Tile]:
        """Lowest tiles of the chows this seat may claim on ``tile``."""
        if discarder != (self.seat - 1) % SEATS or tile.is_honor:
            return []
        options = []
        for low in range(tile - 2, tile + 1):
            if low < 0 or Tile(low).is_honor or Tile(low).suit != tile.suit or Tile(low).rank > 7:
                continue
            if all(low + i == tile or Tile(low + i) in self.hand for i in range(3)):
                options.append(Tile(low))
        return options

    def is_legal(self, prompt: Prompt, answer: FromAI, about: tuple[int, Tile] | None) -> bool:
        """Whether the server would accept ``answer`` to ``prompt`` (SPEC section 3)."""
        if prompt in (Prompt.TURN, Prompt.DISCARD) and isinstance(answer, Out):
            return answer.tile in self.hand
        if prompt is Prompt.TURN:
            if isinstance(answer, Hu):
                return self.drawn is not None and self.can_self_draw_win()
            if isinstance(answer, AGang):
                return answer.tile in self.concealed_kongs()
            if isinstance(answer, JGang):
                return answer.tile in self.added_kongs()
            return False
        if prompt is Prompt.DISCARD or about is None:
            return False
        seat, tile = about
        if isinstance(answer, Pass):
            return True
        if prompt is Prompt.ROB:
            return isinstance(answer, QGang) and self.can_win_with(tile)
        if isinstance(answer, Hu):
            return self.can_win_with(tile)
        if isinstance(answer, Peng):
            return self.can_peng(tile)
        if isinstance(answer, Gang):
            return self.can_gang(tile)
        if isinstance(answer, Chi):
            return answer.tile in self.chi_options(seat, tile)
        return False

    # --- applying what happened -------------------------------------------------

    def remove(self, tiles: Sequence[Tile]) -> bool:
        """Take tiles out of the concealed hand; False (and no change) if one is missing."""
        rest = list(self.hand)
        for t in tiles:
            if t not in rest:
                return False
            rest.remove(t)
        self.hand = rest
        return True

    def discard(self, seat: int, tile: Tile) -> None:
        self.rivers[seat].append(tile)
        self.seen[tile] += 1
        self.last_discard = (seat, tile)
        if seat == self.seat:
            if tile in self.hand:
                self.hand.remove(tile)
            self.drawn = None

    def take_discard(self, tile: Tile) -> bool:
        """A claim took the last discard off the table; whether it was ``tile``."""
        if self.last_discard is None or self.last_discard[1] != tile:
            return False
        owner = self.last_discard[0]
        if self.rivers[owner] and self.rivers[owner][-1] == tile:
            self.rivers[owner].pop()
        self.seen[tile] -= 1  # it is counted again as a meld tile
        self.last_discard = None
        return True

    def claim(self, seat: int, meld: Meld, claimed: Tile) -> None:
        """A chow, pung or exposed kong made from the last discard."""
        self.take_discard(claimed)
        for t in meld.tiles:
            self.seen[t] += 1
        self.melds[seat].append(meld)
        if seat == self.seat:
            rest = list(meld.tiles)
            rest.remove(claimed)
            self.remove(rest)


class Bot:
    """Base class of a bot: override the ``on_*`` methods; ``receive`` does the rest.

    Constructed fresh for every hand as ``BotClass(seed)``. ``self.table`` is the
    table state, ``self.rng`` a ``random.Random`` seeded with ``seed``. A
    decision may also return a line (``"out 5M"``) or a plain int as a tile.
    """

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.table = Table()
        self.fallbacks = 0  # decisions replaced because they raised or were illegal
        self._agang: Tile | None = None  # our agang answer, until magang confirms it

    # --- decisions: override these --------------------------------------------

    def on_turn(self, drawn: Tile) -> FromAI:
        """After ``pick``: ``Out(tile)``, ``Hu()``, ``AGang(tile)`` or ``JGang(tile)``."""
        return Out(drawn)

    def on_discard_after_claim(self) -> Tile:
        """After this seat's pung or chow: the tile to discard."""
        return self.table.hand[-1]

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        """After ``seat`` discarded ``tile``: ``Pass()``, ``Hu()``, ``Peng()``,
        ``Gang()`` or ``Chi(lowest tile)``."""
        return Pass()

    def on_rob(self, seat: int, tile: Tile) -> FromAI:
        """After ``seat`` added ``tile`` to its pung: ``Pass()`` or ``QGang()``."""
        return Pass()

    # --- the interface a simulator or ``run_stdio`` uses ------------------------

    def join(self) -> Join:
        """The first line a bot program writes."""
        return Join()

    def receive(self, message: ToAI) -> FromAI | None:
        """Take one server message; the answer if it prompts this seat, else None."""
        table = self.table
        if type(message) is MPick:  # three lines of every turn: kept short
            table.wall_left -= 1
            table.last_discard = None
            return None
        about: tuple[int, Tile] | None
        prompt: Prompt | None
        if type(message) is MOut and message.seat != table.seat:
            # Another seat's discard, three lines of every turn: what ``_observe``
            # and ``_about`` would do, in place.
            about, prompt = (message.seat, message.tile), Prompt.CLAIM
            try:
                table.discard(message.seat, message.tile)
            except Exception:  # our own bookkeeping bug: keep playing
                _warn(f"could not apply {format_line(message)!r}:\n{_traceback()}")
        else:
            try:
                prompt = self._observe(message)
            except Exception:  # our own bookkeeping bug: keep playing
                _warn(f"could not apply {format_line(message)!r}:\n{_traceback()}")
                prompt = _prompt_of(message, self.table.seat)
            if prompt is None:
                return None
            about = _about(message)
        answer: object = None
        failure = ""
        try:
            answer = self._decide(prompt, about)
            # The usual answers (pass on a claim, discard a held tile) are checked
            # here; anything else is normalised and checked in full.
            if type(answer) is Pass:
                legal = about is not None
            elif isinstance(answer, Out) and type(answer.tile) is Tile:
                legal = (prompt is Prompt.TURN or prompt is Prompt.DISCARD) and \
                    answer.tile in self.table.hand
            else:
                answer = _normalised(answer)
                legal = isinstance(answer, FROM_AI) and self.table.is_legal(prompt, answer, about)
        except Exception as exc:
            _warn(f"{self.name}: decision on {format_line(message)!r} raised:\n"
                  f"{_traceback()}")
            failure = f"{_METHODS[prompt]} raised {_raised(exc)}"
            legal = False
        if not legal or not isinstance(answer, FROM_AI):
            safe = self._safe_answer(prompt)
            said = f"the framework answered {format_line(safe)!r}"
            if failure:
                _warn(_report_line(failure, f"after {format_line(message)!r}; {said}"))
            else:
                _warn(f"{self.name}: {_show(answer)} is not legal after "
                      f"{format_line(message)!r}; answering {format_line(safe)!r}")
                _warn(_report_line(f"{_METHODS[prompt]} gave an illegal answer",
                                  f"{_show(answer)} after {format_line(message)!r}; {said}"))
            self.fallbacks += 1
            answer = safe
        if type(answer) is not Pass:
            self._answered(answer)
        return answer

    # --- internals ----------------------------------------------------------------

    def _decide(self, prompt: Prompt, about: tuple[int, Tile] | None) -> FromAI:
        if prompt is Prompt.CLAIM:
            assert about is not None
            seat, tile = about  # (a call with *about is a slow generic call, compiled)
            return self.on_claim(seat, tile)
        if prompt is Prompt.TURN:
            drawn = self.table.drawn
            assert drawn is not None
            return self.on_turn(drawn)
        if prompt is Prompt.DISCARD:
            return Out(self.on_discard_after_claim())
        assert about is not None
        seat, tile = about
        return self.on_rob(seat, tile)

    def _safe_answer(self, prompt: Prompt) -> FromAI:
        if prompt in (Prompt.CLAIM, Prompt.ROB):
            return Pass()
        hand = self.table.hand
        drawn = self.table.drawn
        return Out(drawn if drawn is not None and drawn in hand else hand[-1])

    def _answered(self, answer: FromAI) -> None:
        """Apply what our answer does at once (the server does not echo our discard)."""
        table = self.table
        if isinstance(answer, Out):
            table.discard(table.seat, answer.tile)
        elif isinstance(answer, AGang):
            self._agang = answer.tile

    def _observe(self, message: ToAI) -> Prompt | None:
        """Update the table with a server message; the prompt it makes, if any."""
        table = self.table
        me = table.seat
        # The lines of every turn first (``receive`` has taken others' draws).
        if isinstance(message, MOut):
            if message.seat == me:
                _warn(f"ignored {format_line(message)!r}: our own discard is not echoed")
                return None
            table.discard(message.seat, message.tile)
            return Prompt.CLAIM
        elif isinstance(message, Pick):
            table.hand.append(message.tile)
            table.drawn = message.tile
            table.wall_left -= 1
            table.last_discard = None
            return Prompt.TURN
        elif isinstance(message, Id):
            if table.hand or table.first >= 0:
                self.table = table = Table()  # a new hand on the same stream
            table.seat = message.seat
        elif isinstance(message, First):
            table.first = message.seat
        elif isinstance(message, Init):
            table.hand = list(message.tiles)
        elif isinstance(message, MPeng):
            table.claim(message.seat, Meld(MeldKind.PUNG, message.tile), message.tile)
            return Prompt.DISCARD if message.seat == me else None
        elif isinstance(message, MChi):
            low = message.tile
            discard = table.last_discard
            claimed = discard[1] if discard and 0 <= discard[1] - low <= 2 else low
            table.claim(message.seat, Meld(MeldKind.CHOW, low), claimed)
            return Prompt.DISCARD if message.seat == me else None
        elif isinstance(message, MGang):
            table.claim(message.seat, Meld(MeldKind.KONG, message.tile), message.tile)
        elif isinstance(message, MAGang):
            self._concealed_kong(message.seat)
        elif isinstance(message, MJGang):
            self._added_kong(message.seat, message.tile)
            return Prompt.ROB if message.seat != me else None
        elif isinstance(message, (MFail, MHu)):
            pass  # a lost chow changes nothing; the end of the hand neither
        return None

    def _concealed_kong(self, seat: int) -> None:
        table = self.table
        tile, self._agang = self._agang, None
        if seat != table.seat:
            table.hidden_kongs[seat] += 1
            return
        if tile is None or not table.remove([tile] * COPIES):
            _warn("magang for our seat, but we hold no four of a kind we declared")
            return
        table.melds[seat].append(Meld(MeldKind.CONCEALED_KONG, tile))
        table.seen[tile] += COPIES
        table.drawn = None

    def _added_kong(self, seat: int, tile: Tile) -> None:
        table = self.table
        melds = table.melds[seat]
        for i, meld in enumerate(melds):
            if meld.kind is MeldKind.PUNG and meld.tile == tile:
                melds[i] = Meld(MeldKind.KONG, tile)
                break
        table.seen[tile] += 1
        if seat == table.seat:
            table.remove([tile])
            table.drawn = None


_METHODS = {Prompt.TURN: "on_turn", Prompt.DISCARD: "on_discard_after_claim",
            Prompt.CLAIM: "on_claim", Prompt.ROB: "on_rob"}


def _raised(exc: BaseException) -> str:
    """An exception in one line, with the innermost line of the bot's code that raised it."""
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    mine = [f for f in frames if f.filename != __file__] or frames
    where = f" ({mine[-1].filename.rsplit('/', 1)[-1]}:{mine[-1].lineno})" if mine else ""
    return f"{type(exc).__name__}: {exc}{where}"


def _prompt_of(message: ToAI, me: int) -> Prompt | None:
    """The prompt a message makes, judged from the message alone (a fallback)."""
    if isinstance(message, Pick):
        return Prompt.TURN
    if isinstance(message, (MPeng, MChi)) and message.seat == me:
        return Prompt.DISCARD
    if isinstance(message, MOut) and message.seat != me:
        return Prompt.CLAIM
    if isinstance(message, MJGang) and message.seat != me:
        return Prompt.ROB
    return None


def _normalised(answer: object) -> object:
    """A decision's answer as a message: a line is parsed, a plain int tile made a Tile."""
    if isinstance(answer, str):
        return parse_from_ai(answer)
    if isinstance(answer, (Out, AGang, JGang, Chi)) and not isinstance(answer.tile, Tile):
        return type(answer)(Tile(answer.tile))
    return answer


def _show(answer: object) -> str:
    return repr(format_line(answer)) if isinstance(answer, FROM_AI) else repr(answer)


def _about(message: ToAI) -> tuple[int, Tile] | None:
    if isinstance(message, (MOut, MJGang)):
        return (message.seat, message.tile)
    return None


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# Only a bot's mistakes need these: a bot that makes none does not import them at its
# start (every hand starts four bot processes).


def _traceback() -> str:
    import traceback

    return traceback.format_exc()


def _report_line(what: str, detail: str) -> str:
    """``protocol.bot_errors.report_line``, imported when a mistake is reported."""
    from protocol import bot_errors

    return bot_errors.report_line(what, detail)


DEFAULT_PROGRAM_SEED = 0


def _seed_from_argv(argv: Sequence[str]) -> int:
    """``--seed N`` on the command line; 0 when not given, so a bot run as a
    program plays the same way every time and matches can be reproduced."""
    for i, arg in enumerate(argv):
        if arg == "--seed" and i + 1 < len(argv):
            try:
                return int(argv[i + 1])
            except ValueError:
                _warn(f"ignored --seed {argv[i + 1]!r}: not an integer")
        elif arg.startswith("--seed="):
            try:
                return int(arg.split("=", 1)[1])
            except ValueError:
                _warn(f"ignored {arg!r}: not an integer")
    return DEFAULT_PROGRAM_SEED


def run_stdio(bot_class: type[Bot], argv: Sequence[str] | None = None,
              stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Play over stdin/stdout: write ``join``, answer prompts, return 0 at end of input.

    A line that is not a server message is reported on stderr and ignored.
    Accepts ``--seed N`` in ``argv`` (default ``sys.argv[1:]``); without it the
    seed is 0, so the program is deterministic.
    """
    if stdin is None and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # stray bytes become an ignored line
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout
    bot = bot_class(_seed_from_argv(sys.argv[1:] if argv is None else argv))

    def write(answer: FromAI | Join) -> None:
        sink.write(format_line(answer) + "\n")
        sink.flush()

    try:
        write(bot.join())
        while True:
            line = source.readline()
            if not line:
                return 0
            if not line.strip():
                continue
            try:
                message = parse_to_ai(line)
            except MalformedLine as exc:
                _warn(f"ignored: {exc}")
                continue
            answer = bot.receive(message)
            if answer is not None:
                write(answer)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0  # the server closed the hand
