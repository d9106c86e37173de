"""A match of a turn-based ruleset: its games played one after another, logged.

The ruleset gives the plan (which game, who sits where), the pure game and the
standings (``server.seam.contract.TurnRules``); the caller gives how a player's bot is
opened for a game (Botzone's runner, ``server.bots.botzone_bots``). Each game is
played by ``server.turns.driver.play_turns``; its record is written as soon as it
ends, so a match that is stopped keeps every finished game.

A match folder holds ``match.json`` (the ruleset, its options, the players,
the plan and, at the end, the standings), ``scoresheet.csv`` (one row per
game: each player's score) and ``games/NNN/game.json`` with each seat's
stderr beside it.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import structlog

from server.bots.processes import STDERR_TAIL
from server.output.paths import write_atomic
from server.seam.bot_stats import SeatFacts, aggregate
from server.seam.contract import (
    FaultNote,
    GameFollower,
    GamePlan,
    LiveSink,
    StandingRow,
    TableRequest,
    TableRow,
    TurnRules,
    distinct_names,
)
from server.turns.driver import GameLog, MeasuredSeat, TurnListener, TurnSeat, play_turns

MATCH_FILE = "match.json"
SCORESHEET = "scoresheet.csv"
GAMES = "games"
GAME_FILE = "game.json"


class SeatOpener(Protocol):
    """Opens one player's bot for one game (it is closed when the game ends)."""

    def __call__(self, player: int, seat: int, plan: GamePlan,
                 stderr: Path | None) -> AbstractAsyncContextManager[TurnSeat]: ...


@dataclass(frozen=True, slots=True)
class TurnPlayer:
    name: str
    spec: str  # as given: the transport's own notation (Botzone: json:CMD ...)


def players_named(specs: Sequence[str]) -> list[TurnPlayer]:
    """A match's players from their bot commands, named by them; two alike named apart by
    player number (``distinct_names``: ``random_bot.py (P2)``)."""
    return [TurnPlayer(name, spec)
            for name, spec in zip(distinct_names(specs), specs, strict=True)]


@dataclass(slots=True)
class TurnMatch:
    ruleset: str
    players: Sequence[TurnPlayer]
    plans: Sequence[GamePlan]
    rules: TurnRules
    opener: SeatOpener
    root: Path | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)  # options to store (variant, seed...)
    # What a game's record starts with, from its game and its plan (Botzone: the variant
    # and the initdata as given to the judge).
    header: Callable[[Any, GamePlan], dict[str, Any]] = lambda game, plan: {}
    live: LiveSink | None = None  # the match's live feed
    title: str = ""  # the match's title in its live feed
    # The per-bot facts of a game's record (the ruleset's reader): match.json then gives
    # each player's statistics (``server.seam.bot_stats``).
    facts: Callable[[Mapping[str, Any]], list[SeatFacts]] | None = None
    # What runs around the whole match in its event loop (the pages of its person seats).
    around: Callable[[], AbstractAsyncContextManager[object]] | None = None


@dataclass(slots=True)
class TurnMatchResult:
    records: list[dict[str, Any]] = field(default_factory=list)
    standings: list[StandingRow] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.records)


GameListener = Callable[[GamePlan, dict[str, Any]], None]


def game_dir(root: Path, plan: GamePlan) -> Path:
    return root / GAMES / f"{plan.number:03d}"


def _write_json(path: Path, value: object) -> None:
    write_atomic(path, json.dumps(value, ensure_ascii=False, indent=1) + "\n")


def match_header(match: TurnMatch) -> dict[str, Any]:
    return {"ruleset": match.ruleset, **match.meta,
            "players": [{"name": p.name, "spec": p.spec} for p in match.players],
            "plan": [{"number": p.number, "group": p.group, "order": list(p.order),
                      "label": p.label, "setup": dict(p.setup)} for p in match.plans]}


def standings_json(rows: Sequence[StandingRow], players: Sequence[TurnPlayer]) -> list[Any]:
    return [{"place": r.place, "name": players[r.player].name, "player": r.player,
             "points": r.points, "score": r.score, "games": r.games, "wins": r.wins,
             "penalties": r.penalties} for r in rows]


async def play_game(match: TurnMatch, plan: GamePlan, on_turn: TurnListener | None = None
                    ) -> dict[str, Any]:
    """One game of the match, its bots opened and closed around it; its record."""
    game = match.rules.new_game(plan)
    folder = game_dir(match.root, plan) if match.root is not None else None
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
    names = [match.players[p].name for p in plan.order]
    record: dict[str, Any] = {"ruleset": match.ruleset, **match.header(game, plan), "number":
                              plan.number, "group": plan.group, "order": list(plan.order),
                              "about": plan.label, "names": names}
    log = GameLog()
    live = _Live(match, plan, game, names) if match.live is not None else None
    seats: list[TurnSeat] = []
    try:
        async with AsyncExitStack() as stack:
            for seat, player in enumerate(plan.order):
                seats.append(await stack.enter_async_context(match.opener(
                    player, seat, plan, folder / f"seat{seat}.stderr" if folder else None)))
            await play_turns(game, seats, on_turn if live is None else live.on_turn(on_turn),
                             log)
    finally:
        record.update(scores=game.scores, players=log.players, judge=log.judge)
        if seats:  # each bot's own resources in the game (its processes are all gone now)
            record["resources"] = [seat.resources() if isinstance(seat, MeasuredSeat)
                                   else None for seat in seats]
        if folder is not None:  # a plain write: it holds no checkpoint to be cancelled at
            _write_json(folder / GAME_FILE, record)
    if live is not None:
        live.end(record, folder)
    return record


class _Live:
    """One game in the match's live feed: its start, a picture after every turn (drawn by
    the ruleset's ``GameFollower``: the turn driver runs the turn's answers through the
    judge first, so the clocks are stopped), its faults and its end. A bug of the
    follower never stops a game: the feed stops following it."""

    def __init__(self, match: TurnMatch, plan: GamePlan, game: Any, names: list[str]) -> None:
        assert match.live is not None
        self.sink: LiveSink = match.live
        self.match = match
        self.plan = plan
        self.game = game
        self.names = names
        self.follower: GameFollower | None = match.rules.follow(plan, names)
        picture = self._picture(game.output(), [None] * len(names))
        self.sink.start(plan.number, f"{plan.number:03d}",
                        f"Game {plan.number} of {len(match.plans)}", names, picture or {})

    def _picture(self, output: dict[str, Any], entries: list[dict[str, Any] | None]
                 ) -> dict[str, Any] | None:
        if self.follower is None:
            return None
        try:
            return self.follower.picture(self.game, output, entries)
        except Exception:
            structlog.get_logger().exception("live_picture_failed", game=self.plan.number)
            self.follower = None
            return None

    def on_turn(self, then: TurnListener | None) -> TurnListener:
        def told(turn: int, entries: list[dict[str, Any] | None], output: dict[str, Any]
                 ) -> None:
            picture = self._picture(output, entries)
            if picture is not None:
                self.sink.step(self.plan.number, picture)
            if then is not None:
                then(turn, entries, output)
        return told

    def end(self, record: dict[str, Any], folder: Path | None) -> None:
        if self.follower is None or not self.game.finished:
            return
        n, root = self.plan.number, self.match.root
        try:
            ending = self.follower.end(record)
        except Exception:
            structlog.get_logger().exception("live_end_failed", game=n)
            return
        for seat, cause in sorted(ending.faults.items()):
            tail: bytes | None = None
            file = None
            if folder is not None and root is not None:
                tail, file = _stderr_of(folder / f"seat{seat}.stderr", root)
            self.sink.fault(n, seat, self.names[seat], cause, tail, file)
        scores = record.get("scores") or [0] * len(self.names)
        self.sink.end(n, ending.result, ending.text, scores, ending.hands,
                      None if root is None else f"-games/game{n:03d}.html", ending.kongs)


async def run_turn_match(match: TurnMatch, on_game: GameListener | None = None,
                         on_turn: TurnListener | None = None) -> TurnMatchResult:
    result = TurnMatchResult()
    root = match.root
    sheet = None
    if match.live is not None:
        match.live.table(match.title, match.ruleset, "game", [p.name for p in match.players],
                         len(match.plans))
    if root is not None:
        root.mkdir(parents=True, exist_ok=True)
        _write_json(root / MATCH_FILE, match_header(match))
        sheet = (root / SCORESHEET).open("w", newline="", encoding="utf-8")
        writer = csv.writer(sheet)
        writer.writerow(["game", "group", "label", *(p.name for p in match.players)])
        sheet.flush()
    try:
        for plan in match.plans:
            record = await play_game(match, plan, on_turn)
            result.records.append(record)
            if sheet is not None:
                scores = player_scores(plan, record)
                csv.writer(sheet).writerow([plan.number, plan.group, plan.label, *scores])
                sheet.flush()
            if on_game is not None:
                on_game(plan, record)
    finally:
        if sheet is not None:
            sheet.close()
        if match.live is not None:
            match.live.done()
    result.standings = match.rules.standings(match.plans[:len(result.records)], result.records,
                                             len(match.players))
    if root is not None:
        _write_json(root / MATCH_FILE, {**match_header(match), "completed": True,
                                        "standings": standings_json(result.standings,
                                                                    match.players),
                                        **player_stats(match, result.records)})
    return result


def player_stats(match: TurnMatch, records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """``players`` with each one's statistics over ``records`` (nothing without the
    ruleset's reader of facts)."""
    if match.facts is None:
        return {}
    facts = [fact for record in records for fact in match.facts(record)]
    stats = aggregate(facts, len(match.players))
    return {"players": [{"name": p.name, "spec": p.spec, "stats": s.as_json()}
                        for p, s in zip(match.players, stats, strict=True)]}


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """What a tournament keeps of one game, by seat (a ruleset reads it from a record)."""

    scores: Sequence[float]
    faulted: frozenset[int]  # seats whose error or verdict ended it
    won: frozenset[int]
    drawn: bool  # nobody won
    result: str  # one word: HU, HUANG, WA, TLE...
    causes: Mapping[int, str] = field(default_factory=dict)  # faulted seat -> why


async def play_table_games(match: TurnMatch, table: TableRequest,
                           outcome: Callable[[Mapping[str, Any]], GameOutcome]
                           ) -> list[TableRow]:
    """A tournament table of a turn-based ruleset: ``match`` played, the table told of
    each game as it ends, and one row per seat and game, ``outcome`` reading each."""

    def on_game(plan: GamePlan, record: dict[str, Any]) -> None:
        if table.on_game is None:
            return
        got = outcome(record)
        folder = game_dir(table.root, plan)
        # the console's fault lines, as the default ruleset's table gives them
        table.on_game(faults=[FaultNote(plan.number, plan.order[seat],
                                        got.causes.get(seat, got.result),
                                        *_stderr_of(folder / f"seat{seat}.stderr", table.root),
                                        unit="game")
                              for seat in sorted(got.faulted)])

    match.live, match.title = table.live, table.title
    if table.shown:  # match.json names no path of the machine
        match.players = [TurnPlayer(p.name, " ".join(words))
                         for p, words in zip(match.players, table.shown, strict=True)]
    result = await run_turn_match(match, on_game)
    rows: list[TableRow] = []
    per_group: dict[int, int] = {}
    for game, (plan, record) in enumerate(zip(match.plans, result.records, strict=True)):
        deal = per_group.get(plan.group, 0)
        per_group[plan.group] = deal + 1
        got = outcome(record)
        for seat, player in enumerate(plan.order):
            rows.append(TableRow(game, plan.group, deal, seat, player, got.scores[seat],
                                 seat in got.faulted, seat in got.won, got.drawn, got.result))
    return rows


def _stderr_of(file: Path, root: Path) -> tuple[bytes | None, str | None]:
    """A seat's stderr file of a game, for its fault line: its end, and its path in the
    table's folder (nothing when the seat's bot wrote none)."""
    try:
        with file.open("rb") as f:
            f.seek(max(0, f.seek(0, 2) - STDERR_TAIL))
            tail = f.read()
    except OSError:
        return b"", None
    return tail, str(file.relative_to(root)) if file.is_relative_to(root) else str(file)


def player_scores(plan: GamePlan, record: Mapping[str, Any]) -> list[float]:
    """A game's scores by player (the record has them by seat); 0 for a game that did
    not finish. A whole score is an int (Botzone's always are), any other a float
    (NOI 2014's averaged ties: 2.5), so the scoresheet writes 12 and 2.5."""
    scores = record.get("scores") or [0] * len(plan.order)
    by_player: list[float] = [0] * len(plan.order)
    for seat, player in enumerate(plan.order):
        score = float(scores[seat])
        by_player[player] = int(score) if score.is_integer() else score
    return by_player
