"""The ruleset seam: everything the shell needs from a ruleset, and nothing more.

A ruleset is one package. Its pure core (tiles and notation, the engine's
state machine, scoring and settlement) imports no trio; its ``Ruleset``
object, found by name in ``server.seam.registry``, is what the shell's commands
call: a match, check-bot, verify, replay (terminal and HTML), report, one
tournament table, fans and a simulator. The shell (``server.cli.app``, the
tournament runner, the bot transports) never imports a ruleset; it hands the
ruleset the options the user gave, and the ruleset uses the shell's services.

Two kinds of engine sit behind the seam:

* the default ruleset's hand engine (``rulesets.default.engine.hand``), which a
  persistent line-protocol table drives message by message with claim windows
  and fines;
* a ``TurnGame``: a judge that, each turn, sends a request to some seats and
  needs one reply from each (Botzone's games, and the NOI 2014 contest next).
  One shell driver (``server.turns.driver``) plays any ``TurnGame`` with any bot
  transport, so a new turn-based ruleset needs no change to the shell.

Pure: no trio, no rich.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, NamedTuple, Protocol

from server.seam.bot_stats import SeatFacts
from server.seam.errors import InputError


class Unsupported(InputError):
    """A command or an option this ruleset does not have."""


class Reply(NamedTuple):
    """One seat's answer to one turn: the platform's verdict and the response
    (None unless the verdict is OK)."""

    verdict: str
    response: str | None


class TurnGame(Protocol):
    """The pure engine of a turn-based ruleset."""

    @property
    def finished(self) -> bool: ...

    @property
    def scores(self) -> Sequence[float] | None:
        """Each seat's score once the game is over (NOI 2014's averaged ties: 2.5)."""
        ...

    def requests(self) -> Sequence[str | None]:
        """This turn's request to each seat (None: that seat is not asked)."""
        ...

    def output(self) -> dict[str, Any]:
        """What the judge shows for this turn, as its log keeps it."""
        ...

    def step(self, replies: Sequence[Reply]) -> dict[str, Any]:
        """Apply this turn's replies (one per seat; unasked seats' are ignored)
        and return the next turn's output."""
        ...


@dataclass(frozen=True, slots=True)
class CommandArgs:
    """What the user gave a command: every option by name, and which of them were
    given on the command line (the rest are defaults). A ruleset reads the options
    it knows; the shell has already refused the given ones it does not know."""

    values: Mapping[str, Any]
    given: frozenset[str] = field(default_factory=frozenset)

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def get(self, name: str, default: Any = None) -> Any:
        value = self.values.get(name)
        return default if value is None else value


# How a Swiss tournament seats and ranks players with equal points (``swiss_tiebreak``):
# "shuffle": round 1 seats a seeded shuffle of the field and later rounds break ties
# in that order; the standings rank by points, then duplicate score, then name.
# "wins" (NOI 2014): seats and ranks by points, then games won, then entry order (so
# round 1 seats the field in entry order).
SwissTiebreak = Literal["shuffle", "wins"]

# What a tournament's standings (and its Swiss seating) rank by (``ranking``):
# "points": the sum of every hand's or game's points. "rank_points" (Botzone, the IJCAI
# duplicate format, SPEC-botzone section 8): per wall (the games of a table that share
# a wall) each player's scores are summed and ranked 4/3/2/1, equal sums sharing the
# mean of the places they span; the standings sum these rank points, then the scores.
Ranking = Literal["points", "rank_points"]


class Ruleset:
    """One ruleset's answers to the shell's commands.

    A command the ruleset does not have says so (``Unsupported``); the options
    of each command a ruleset reads are listed in ``options`` so the shell can
    refuse any other given on the command line.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    variants: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[Mapping[str, frozenset[str]]] = {}
    swiss_tiebreak: ClassVar[SwissTiebreak] = "shuffle"
    ranking: ClassVar[Ranking] = "points"
    # A stored command of this ruleset is one word ``MODE:COMMAND LINE`` when this
    # names the modes (Botzone: json, simple; see ``entry_command``); empty: an argv.
    command_modes: ClassVar[tuple[str, ...]] = ()
    # What a table plays, in the plural ("hands", "games"), and what a win is worth in
    # the ruleset's own words ("fan"; NOI 2014 has no fan table: "points"): the
    # per-bot statistics' headings.
    stats_unit: ClassVar[str] = "hands"
    win_worth: ClassVar[str] = "fan"

    def _unsupported(self, what: str) -> Unsupported:
        return Unsupported(f"the {self.name} ruleset has no {what}")

    def check_options(self, command: str, args: CommandArgs) -> None:
        known = self.options.get(command, frozenset())
        stray = sorted(args.given - known)
        if stray:
            flags = ", ".join("--" + s.replace("_", "-") for s in stray)
            raise Unsupported(f"{flags}: not an option of {command} in the {self.name} "
                              "ruleset (see server " + command + " --help)")

    def match(self, args: CommandArgs) -> int:
        raise self._unsupported("match")

    def check_bot(self, args: CommandArgs) -> int:
        raise self._unsupported("check-bot")

    def play_person(self, args: CommandArgs) -> int:
        """``server play``: a person (``web:NAME``, named by ``name``) against three of
        the ruleset's sample bots, logged under ``log_dir``; ``seed``, ``clock``,
        ``seat_bind``, ``hands`` (the default ruleset) or ``variant`` (Botzone)."""
        raise self._unsupported("play")

    def fans(self, args: CommandArgs) -> int:
        """``server fans``: score hands by the ruleset's fan table."""
        raise self._unsupported("fans")

    def simulate(self, args: CommandArgs) -> int:
        """The ruleset's simulator: ``server simulate`` (the default ruleset's hands with
        Python bot objects) or ``server thupc`` (THUPC 2021's game log of a wall)."""
        raise self._unsupported("simulator")

    def human(self, args: CommandArgs) -> int:
        """``server human``: Botzone's human match records (the PKU course's text format)
        converted to training arrays, or games written in that format."""
        raise self._unsupported("human match records")

    def owns(self, path: Path) -> bool:
        """Whether a log (a folder or a file) was written by this ruleset."""
        return False

    def verify(self, path: Path) -> VerifyReport:
        raise self._unsupported("verify")

    def replay(self, args: CommandArgs) -> int:
        raise self._unsupported("replay")

    def report(self, args: CommandArgs) -> int:
        raise self._unsupported("report")

    def seat_facts(self, root: Path) -> list[SeatFacts]:
        """The facts of every seat of every finished hand or game in a match folder (a
        tournament table's), read from its logs alone, in the order played; a seat's
        ``player`` is its index in the match. A hand or game without its record yet
        (being played, stopped) is skipped."""
        raise self._unsupported("per-bot statistics")

    def match_report(self, root: Path, out: Path, *, title: str = "",
                     back: tuple[str, str] | None = None) -> None:
        """A match folder's HTML report at ``out`` (its pages beside it), quietly: a
        tournament's report links each table's, giving it a ``title`` ("Round 2, table 3
        — alice, bob, carol, dave") and a link ``back`` (href relative to ``out``, text)."""
        raise self._unsupported("report")

    # --- tournaments (``server.tournament``): every ruleset plays a table through these.

    def tournament_settings(self, given: Mapping[str, Any],
                            stored: Mapping[str, str] | None) -> dict[str, str]:
        """The ruleset's own settings of a tournament, as stored (kept on resume)."""
        return {}

    def entry_command(self, argv: Sequence[str], io: str | None, where: str,
                      keep_running: bool | None = None) -> tuple[str, ...]:
        """How a bots file's entry is stored; ``io`` and ``keep_running`` are its keys
        of those names (None: absent)."""
        if io is not None:
            raise Unsupported(f"{where}: io = {io!r}: the {self.name} ruleset has one way "
                              "to talk to bots")
        if keep_running is not None:
            raise Unsupported(f"{where}: keep_running: a setting of bots on Botzone's "
                              f"protocol (rulesets botzone, noi2014), not of the {self.name} "
                              "ruleset's")
        return tuple(argv)

    def split_command(self, command: Sequence[str]) -> tuple[str, tuple[str, ...]]:
        """A stored command as (prefix, argv): the argv that runs the program, and what
        the ruleset keeps around it, so that ``join_command(*split_command(c)) == c``.
        The tournament rewrites the argv to run a pinned copy of the program.

        By default a command is an argv (prefix ""); with ``command_modes`` it is the
        one word ``MODE:COMMAND LINE`` (prefix ``MODE:``, or "" for a bare line).
        """
        if not self.command_modes:
            return "", tuple(command)
        (text,) = command
        head, sep, rest = text.partition(":")
        if sep and head in self.command_modes:
            return head + sep, tuple(shlex.split(rest))
        return "", tuple(shlex.split(text))

    def join_command(self, prefix: str, argv: Sequence[str]) -> tuple[str, ...]:
        """The stored command of ``prefix`` and ``argv`` (the inverse of ``split_command``)."""
        if not self.command_modes:
            return tuple(argv)
        return (prefix + shlex.join(argv),)

    def fill_in_command(self, k: int) -> tuple[str, ...]:
        raise self._unsupported("tournament")

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        raise self._unsupported("tournament")

    def table_cpus(self, settings: Mapping[str, str]) -> float:
        """The CPUs a table keeps busy at once, its bots and the server (what it asks a
        cluster's node for). One: a bot thinks while the others wait. Bots that answer
        at once but start afresh every hand (Python) keep up to 1.7 cores busy with
        their start-ups (bench/README.md, "Cluster"); their clocks have room to spare."""
        return 1.0

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        raise self._unsupported("tournament")

    def person_board(self, settings: Mapping[str, str]
                     ) -> tuple[Callable[[], SeatBoard], str]:
        """A tournament's person seats (``web:NAME`` entries): a new ``SeatBoard`` for
        each hand or game of its ``settings``, and, in words for the page, what the
        ruleset does with a person who does not answer in time."""
        raise self._unsupported("person seat")

    # --- ``server compare`` (``server.compare``): two bots on the same deals.

    # The fixed opponents when none are given: sample AIs, one per other seat.
    compare_opponents: ClassVar[tuple[str, ...]] = ()

    def check_deal(self, request: DealRequest) -> None:
        """Refuse, before any deal is played, what ``play_deal`` could not play: an unknown
        bot, a variant the ruleset has not, the wrong number of opponents (``InputError``)."""
        raise self._unsupported("compare")

    def play_deal(self, request: DealRequest) -> DealScores:
        """Play deal ``request.index`` once per seat with the candidate in that seat and
        once with the baseline, the opponents in the other seats in the same places, and
        return each's score by seat. The same request gives the same scores."""
        raise self._unsupported("compare")


@dataclass(frozen=True, slots=True)
class DealRequest:
    """One deal of ``server compare``, for ``Ruleset.play_deal``.

    The deal is the ruleset's own (the default ruleset's wall, Botzone's initdata, NOI
    2014's wall) made from ``seed`` and ``index`` alone. In the game where the subject
    (the candidate, then the baseline) sits in seat s, ``opponents[k]`` sits in seat
    (s + 1 + k) mod 4. A bot is a name the ruleset plays in-process (its sample AIs, a
    Python class or module) or a command line it plays as a real process."""

    index: int  # 0-based: the deal's number
    seed: int
    candidate: str
    baseline: str
    opponents: tuple[str, ...]
    variant: str | None = None  # the ruleset's variant (Botzone: classic or duplicate)


@dataclass(frozen=True, slots=True)
class DealScores:
    """One deal's scores: ``candidate[s]`` is the candidate's score in the game where it
    sat in seat s (the ruleset's points, fines included where its match charges them), and
    ``baseline[s]`` the baseline's in the same seat. ``faults``: games in which the
    candidate, then the baseline, broke a rule or crashed (what its error said first in
    ``notes``)."""

    candidate: tuple[float, ...]
    baseline: tuple[float, ...]
    faults: tuple[int, int] = (0, 0)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GamePlan:
    """One game of a turn-based match: who sits where, and the ruleset's own setup
    (Botzone: the initdata)."""

    number: int  # 1-based, in the match
    group: int  # the wall (or deal) this game shares with others: standings group by it
    order: tuple[int, ...]  # order[seat] = the player (index in the match) in that seat
    setup: Mapping[str, Any]
    label: str = ""


@dataclass(frozen=True, slots=True)
class StandingRow:
    player: int
    place: int  # 1 = first; equal rows share a place
    points: float  # what the ranking is by (Botzone: rank points 4/3/2/1 per wall)
    score: float  # the sum of game scores (the tie-break)
    games: int
    wins: int
    penalties: int  # games this player ended with an error or a bad verdict


class LiveSink(Protocol):
    """Where a table in play tells what happens, record by record (the live feed:
    ``server.output.live.LiveFeed`` writes it as JSON lines). ``n`` is the hand's or
    game's number in the table, 1-based; seats and scores are by seat. A picture is
    ruleset-neutral (see ``server.output.live``): a hand in play shows its concealed
    tiles as a count only; ``end`` reveals them."""

    def table(self, title: str, ruleset: str, unit: str, players: Sequence[str],
              planned: int) -> None: ...

    def start(self, n: int, id: str, title: str, seats: Sequence[str],
              picture: Mapping[str, Any]) -> None: ...

    def step(self, n: int, picture: Mapping[str, Any]) -> None: ...

    def fault(self, n: int, seat: int, name: str, cause: str, stderr: bytes | None,
              stderr_file: str | None) -> None:
        """``stderr``: the end of what the bot wrote on stderr; ``stderr_file``: the
        file that keeps it, relative to the table's folder."""
        ...

    def end(self, n: int, result: str, text: str, scores: Sequence[float],
            hands: Sequence[Sequence[str]], page: str | None,
            kongs: Sequence[Sequence[str]] = ()) -> None:
        """``page``: the hand's or game's page relative to the table's report page
        without its ``.html`` (``-hands/003-8c683523.html``); None: it has none.
        ``kongs``: by seat, the tile of each concealed kong (shown face down in play)."""
        ...

    def done(self) -> None: ...


@dataclass(frozen=True, slots=True)
class GameEnd:
    """How a game ended, for the live feed's ``end`` record."""

    result: str  # one word: HU, HUANG, WA, TLE...
    text: str  # in words, with the players' names
    hands: Sequence[Sequence[str]]  # each seat's tiles, concealed ones shown
    faults: Mapping[int, str] = field(default_factory=dict)  # seat -> cause
    kongs: Sequence[Sequence[str]] = ()  # by seat: each concealed kong's tile


class GameFollower(Protocol):
    """One turn-based game drawn as it is played, for the live feed (pure)."""

    def picture(self, game: TurnGame, output: Mapping[str, Any],
                entries: Sequence[Mapping[str, Any] | None]) -> dict[str, Any]:
        """The table after a turn: ``output`` is the judge's, ``entries`` each seat's
        request and answer that led to it (None: not asked; all None before the first
        turn). Called once per output, in order."""
        ...

    def end(self, record: Mapping[str, Any]) -> GameEnd:
        """How the game (its finished record) ended."""
        ...


class TurnRules(Protocol):
    """The pure side of a turn-based ruleset that the shell's match driver uses."""

    def new_game(self, plan: GamePlan) -> TurnGame: ...

    def follow(self, plan: GamePlan, names: Sequence[str]) -> GameFollower:
        """A follower of the game ``plan`` names, its seats' players ``names``."""
        ...

    def standings(self, plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
                  players: int) -> list[StandingRow]: ...

    def game_line(self, record: Mapping[str, Any], names: Sequence[str]) -> str:
        """One line that says how a game ended (the console and the report)."""
        ...


@dataclass(slots=True)
class VerifyReport:
    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class GameListener(Protocol):
    """Told after each game or hand of a tournament table: the host stalls it had (the
    line protocol's table measures them; none elsewhere) and its faults, as the
    console says them. ``on_game()``: a game without either."""

    def __call__(self, stalls: int = 0, faults: Sequence[FaultNote] = ()) -> None: ...


@dataclass(frozen=True, slots=True)
class TableRequest:
    """One tournament table for ``Ruleset.play_table``: its players in table order
    (name, stored command), its seed, its folder and the tournament's settings."""

    players: Sequence[tuple[str, tuple[str, ...]]]
    seed: int
    root: Path
    settings: Mapping[str, str]
    sandbox: Any  # server.bots.seats.Sandbox: how bot processes run
    # Called after each game or hand (progress): ``GameListener``.
    on_game: GameListener | None = None
    # What only a line-protocol table (the default ruleset's) reads: its clock
    # (server.bots.seats.TableOptions), the tournament's TCP seats
    # (server.bots.remote.RemoteSeats), and how many groups and hands to play.
    options: Any = None
    remote: Any = None
    groups: int = 6
    hands: int | None = None
    label: str = ""  # the table, as its log events name it
    # The table's live feed (None: none is written) and its title there ("Round 1, table 2").
    live: LiveSink | None = None
    title: str = ""
    # Each player's command as the table's files (match.json) name it: no path of the
    # machine (the tournament's are relative to its folder); empty: as ``players`` run.
    shown: Sequence[tuple[str, ...]] = ()
    # The tournament's person seats (server.bots.person.PersonSeats), None without any:
    # a player whose command is the one word ``web:NAME`` is played from its page.
    persons: Any = None


@dataclass(frozen=True, slots=True)
class FaultNote:
    """A fault at a tournament table, as the tournament's console says it."""

    hand: int  # 1-based, in the table
    player: int  # in the table
    cause: str
    stderr_tail: bytes | None = None
    stderr_file: str | None = None  # relative to the table's folder
    stdout_tail: bytes | None = None  # what it wrote on stdout that the protocol refused
    charged: bool = True  # False: a bug the bot's framework answered for (no fault)
    unit: str = "hand"  # what the table plays: "hand", or "game" for a turn-based ruleset
    # What makes two notes the same problem on the console, said once and then counted;
    # empty: the cause and the last line of its stderr (a framework's report names its
    # problem apart from this hand's count and detail).
    problem: str = ""
    advice: str = ""  # what the bot's author should do, read from its stdout (or "")


@dataclass(frozen=True, slots=True)
class TableRow:
    """One seat of one game of a table, as the tournament stores it."""

    game: int  # 0-based in the table
    group: int  # the wall: games of a group share it
    deal: int  # the seat order's index within the group
    seat: int
    player: int  # index in the table
    points: float  # an int where the ruleset's points are whole (NOI 2014's ties: 2.5)
    faulted: bool  # the game ended on this player's error or verdict
    won: bool
    drawn: bool  # nobody won
    result: str  # how the game ended, one word (HU, HUANG, WA, TLE...; the default: kind)
    fines: int = 0  # the default ruleset's lateness fines (in ``points`` already)
    stalls: int = 0  # the host's stalls the seat's clock was spared (the default ruleset)
    # Decisions the bot's own framework answered for after its code raised or answered
    # illegally (``protocol.bot_errors``): no fault, but its author must see them.
    errors: int = 0


def distinct_names(names: Sequence[str]) -> list[str]:
    """Players' names as standings and scoresheets show them: each made unique by its
    player number where two share one (``greedy.py (P2)``)."""
    return [name if names.count(name) == 1 else f"{name} (P{p})"
            for p, name in enumerate(names)]


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal answer a person may give now (``SeatBoard.choices``).

    ``answer`` is the seat's protocol answer, exactly as a bot would write it
    (the default ruleset's ``out 5M``; Botzone's response text); ``kind`` says how
    the page offers it: ``discard`` (a click on the tile ``tile`` in the hand) or
    a button labelled ``label``. A ``step`` is the first half of a two-part answer
    (Botzone's PENG or CHI, whose discard comes with it): choosing it sends nothing,
    the board's ``step`` applies it and its ``choices`` then offer the rest."""

    answer: str
    kind: str  # discard, win, pass, pung, kong, chow, rob, back, ...
    label: str
    tile: str | None = None  # the face code (Botzone's notation) it is about, if any
    step: bool = False


class SeatBoard(Protocol):
    """A person's seat, as a ruleset sees it: the seam between ``server.bots.person``
    (the shell's person seats and their page) and a ruleset.

    It is fed only what the seat's bot would be sent, and the answers the seat
    gave; ``picture`` is what the page draws (JSON, only what the seat knows) and
    ``choices`` are exactly the legal answers now (empty when not asked). The
    shell refuses any answer that is not one of them, so a person's page never
    makes a seat fault."""

    def feed(self, text: str) -> None:
        """One message the server sent the seat (a line of the line protocol)."""
        ...

    def answered(self, answer: str) -> None:
        """The seat's own answer (one of ``choices``), sent on."""
        ...

    def step(self, answer: str) -> None:
        """A ``Choice.step`` chosen (only a board that offers steps is asked)."""
        ...

    def picture(self) -> dict[str, Any]: ...

    def choices(self) -> list[Choice]: ...
