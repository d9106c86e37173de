"""A full duplicate match (SPEC section 2): hands, seats, processes, totals.

Every hand starts four fresh bot processes, plays them through ``play_hand``
and kills them, whatever happened. Points are kept by player (argument order),
not by seat. With a log folder, each hand is written the moment it ends.
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog
import trio

from protocol.bot_errors import Reports
from rulesets.default.advice import fault_advice
from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.picture import HandPicture
from rulesets.default.engine.rng import GROUPS, HandPlan, deal, match_plan
from rulesets.default.logs import MatchFiles, ScoreRow, write_hand
from rulesets.default.stats import hand_facts
from rulesets.default.table import HandOutcome, play_hand
from scoring.settlement import WinKind, apply_fines
from server.bots.processes import Peer, ProcessPeer
from server.bots.seats import Launcher, ProcessLauncher, SeatRequest, TableOptions
from server.seam.bot_stats import SeatFacts, aggregate
from server.seam.contract import LiveSink


@dataclass(frozen=True, slots=True)
class Player:
    name: str  # the AI argument as given
    argv: tuple[str, ...]
    shown: tuple[str, ...] | None = None  # as match.json names it (None: argv)


@dataclass(slots=True)
class PlayerTotals:
    points: int = 0
    fines: int = 0
    faults: int = 0
    wins: int = 0
    bot_errors: int = 0  # decisions its own framework replaced (protocol.bot_errors)


@dataclass(frozen=True, slots=True)
class MatchConfig:
    players: tuple[Player, ...]
    seed: int
    groups: int = GROUPS
    log_root: Path | None = None  # <log-dir>/<match id>, when -d
    options: TableOptions = field(default_factory=TableOptions)
    on_fault: str = "autoplay"  # or "end"
    launcher: Launcher = field(default_factory=ProcessLauncher)
    hands: int | None = None  # play only the first N hands of the plan (short tournament tables)
    live: LiveSink | None = None  # the table's live feed
    title: str = ""  # the table's title in its live feed
    heading: str = ""  # --title: the pages' title, match.json's "title" (empty: none given)

    @property
    def planned(self) -> int:
        """How many hands the match plays."""
        return self.groups * 16 if self.hands is None else min(self.groups * 16, self.hands)


@dataclass(slots=True)
class HandSummary:
    plan: HandPlan
    game_id: str
    outcome: HandOutcome
    points: list[int]  # by player, fines included
    fines: list[int]  # by player
    faults: list[tuple[int, str]]  # (player, cause)
    spawn_seconds: float
    aborted: bool = False
    close_seconds: float = 0.0  # stopping the bots after the hand
    # By faulted player whose bot is a process: the end of what it wrote on stderr, and
    # the file that keeps the whole of it (None without a log folder), for its fault line.
    stderr: dict[int, tuple[bytes, Path | None]] = field(default_factory=dict)
    # By player whose bot reported bugs of its own on stderr (protocol.bot_errors).
    reports: dict[int, Reports] = field(default_factory=dict)
    # By faulted player: the end of its stdout that the protocol did not take.
    stdout: dict[int, bytes] = field(default_factory=dict)
    # By faulted player: what its fault line tells its author (rulesets.default.advice).
    advice: dict[int, str] = field(default_factory=dict)
    # By seat: what its bot process used in the hand (peak memory MB, CPU seconds),
    # None for a bot that is no process here (a TCP seat).
    resources: list[dict[str, float | None] | None] = field(default_factory=list)


@dataclass(slots=True)
class MatchResult:
    config: MatchConfig
    totals: list[PlayerTotals]
    hands: list[HandSummary] = field(default_factory=list)
    completed: bool = False
    ended_by_fault: int | None = None  # the player whose fault ended the match
    interrupted: bool = False
    facts: list[SeatFacts] = field(default_factory=list)  # read back from each hand's log

    def ranking(self) -> list[int]:
        """Players best first; a player whose fault ended the match is last."""
        order = sorted(range(len(self.totals)), key=lambda p: -self.totals[p].points)
        if self.ended_by_fault is not None:
            order.remove(self.ended_by_fault)
            order.append(self.ended_by_fault)
        return order

    def summary(self) -> dict[str, Any]:
        return {
            **({"title": self.config.heading} if self.config.heading else {}),
            "seed": self.config.seed,
            "groups": self.config.groups,
            "hands_planned": min(self.config.groups * 16, self.config.hands or 16 * GROUPS),
            "hands_played": sum(1 for h in self.hands if not h.aborted),
            "completed": self.completed,
            "interrupted": self.interrupted,
            "ended_by_fault": self.ended_by_fault,
            "options": {
                "hard_limit": self.config.options.hard_limit,
                "join_limit": self.config.options.join_limit,
                "announce": self.config.options.announce,
                "on_fault": self.config.on_fault,
            },
            "players": [
                {"name": p.name, "command": list(p.argv if p.shown is None else p.shown),
                 "total": t.points, "fines": t.fines,
                 "faults": t.faults, "wins": t.wins, "bot_errors": t.bot_errors,
                 "stats": stats.as_json()}
                for p, t, stats in zip(self.config.players, self.totals,
                                       aggregate(self.facts, len(self.totals)), strict=True)
            ],
            "ranking": self.ranking(),
            "group_seeds": sorted({h.plan.seed for h in self.hands}),
        }


def game_id(seed: int, number: int) -> str:
    return hashlib.sha256(f"{seed}/{number}".encode()).hexdigest()[:8]


class _EndMatch(Exception):
    def __init__(self, seat: int) -> None:
        self.seat = seat


async def _spawn(config: MatchConfig, plan: HandPlan, folder: Path | None,
                 nursery: trio.Nursery, peers: list[Peer]) -> None:
    """Open the four seats, adding each to ``peers`` as soon as it runs.

    Each is added the moment it starts, so that the caller can stop the ones
    already running when this is interrupted half-way (Ctrl-C, a bot that
    cannot be started).
    """
    for seat in range(SEATS):
        player = plan.seats[seat]
        info = config.players[player]
        request = SeatRequest(player, info.name, info.argv, seat, plan.number, folder)
        peers.append(await config.launcher.open(request, nursery))


async def play_match_hand(config: MatchConfig, plan: HandPlan, files: MatchFiles | None,
                          log: Any) -> HandSummary:
    """Start the bots, play one hand, kill the bots; nothing is left running."""
    gid = game_id(config.seed, plan.number)
    folder = files.hand_dir(plan.number, gid) if files else None
    d = deal(plan.seed, plan.deal_index)
    engine = Hand(d.wall, d.first)
    hand_log = log.bind(hand=plan.number + 1, group=plan.group + 1, round=plan.round + 1,
                        deal=plan.deal_index + 1, game_id=gid, players=tuple(plan.seats))
    hand_log.info("hand_start")
    peers: list[Peer] = []
    aborted = False
    start = time.perf_counter()
    spawn_seconds = 0.0

    def on_fault(seat: int) -> None:
        if config.on_fault == "end":
            raise _EndMatch(seat)

    names = [config.players[p].name for p in plan.seats]
    live = config.live
    picture = HandPicture(names)
    watch: Callable[[], None] | None = None
    if live is not None:
        live.start(plan.number + 1, gid, f"Hand {plan.number + 1} of {config.planned}", names,
                   picture.picture())

        def follow() -> None:
            if picture.pending(engine):
                _pictures(live, plan.number + 1, engine, picture, hand_log)

        watch = follow

    # Filled in as the hand goes: with --on-fault end, the fault's fine (and any fine
    # before it) stays on record though the hand is aborted.
    outcome = HandOutcome(engine)
    async with trio.open_nursery() as nursery:  # holds the stderr drains
        try:
            await _spawn(config, plan, folder, nursery, peers)
            spawn_seconds = time.perf_counter() - start
            try:
                await play_hand(engine, peers, config.options, hand_log, on_fault=on_fault,
                                outcome=outcome, watch=watch)
            except* _EndMatch as group:
                aborted = True
                first = group.exceptions[0]
                assert isinstance(first, _EndMatch)
                outcome.faults.setdefault(first.seat, engine.faulted.get(first.seat, "fault"))
        finally:
            closing = time.perf_counter()
            with trio.CancelScope(shield=True):
                async with trio.open_nursery() as closing_all:  # each waits out its grace
                    for peer in peers:
                        closing_all.start_soon(peer.close)
            close_seconds = time.perf_counter() - closing
    summary = _summarise(config, plan, gid, outcome, spawn_seconds, aborted)
    summary.close_seconds = close_seconds
    summary.stderr = {plan.seats[seat]: (peer.stderr_tail, peer.stderr_path)
                      for seat, peer in enumerate(peers)
                      if seat in outcome.faults and isinstance(peer, ProcessPeer)}
    summary.reports = {plan.seats[seat]: peer.reports for seat, peer in enumerate(peers)
                       if isinstance(peer, ProcessPeer) and peer.reports.count}
    summary.stdout = {plan.seats[seat]: peer.unread_tail for seat, peer in enumerate(peers)
                      if seat in outcome.faults and isinstance(peer, ProcessPeer)
                      and peer.unread_tail}
    summary.advice = {player: said for player, cause in summary.faults
                      if (said := fault_advice(cause, config.players[player].argv,
                                               summary.stdout.get(player, b"")))}
    summary.resources = [peer.resources() if isinstance(peer, ProcessPeer) else None
                         for peer in peers]
    if files is not None and folder is not None:
        _write(files, folder, config, plan, d.first, summary)
    if live is not None:
        _tell_end(live, config, plan, summary, peers, picture, folder)
    return summary


def _pictures(live: LiveSink, n: int, engine: Hand, picture: HandPicture, log: Any) -> None:
    """A picture after each new event of the hand; a bug here never stops the hand (the
    feed stops following it)."""
    try:
        for shown in picture.picture_after(engine):
            live.step(n, shown)
    except Exception:
        log.exception("live_picture_failed")
        picture.seen = 1 << 30  # follows no more events of this hand


def _tell_end(live: LiveSink, config: MatchConfig, plan: HandPlan, summary: HandSummary,
              peers: Sequence[Peer], picture: HandPicture, folder: Path | None) -> None:
    """The hand's last pictures, its faults (with the end of the bots' stderr) and its
    end, hands revealed, in the live feed."""
    n = plan.number + 1
    engine = summary.outcome.engine
    if picture.pending(engine):  # a hand cut short by --on-fault end
        _pictures(live, n, engine, picture, structlog.get_logger())
    root = config.log_root
    for seat, cause in sorted(summary.outcome.faults.items()):
        peer = peers[seat] if seat < len(peers) else None
        tail, path = (peer.stderr_tail, peer.stderr_path) if isinstance(peer, ProcessPeer) \
            else (None, None)
        file = None
        if path is not None and root is not None:
            file = str(path.relative_to(root)) if path.is_relative_to(root) else None
        live.fault(n, seat, config.players[plan.seats[seat]].name, cause, tail, file)
    ending = picture.ending(engine, summary.aborted)
    live.end(n, ending.result, ending.text, [summary.points[p] for p in plan.seats],
             ending.hands, None if folder is None else f"-hands/{folder.name}.html",
             ending.kongs)


def _summarise(config: MatchConfig, plan: HandPlan, gid: str, outcome: HandOutcome,
               spawn_seconds: float, aborted: bool) -> HandSummary:
    result = outcome.engine.result
    deltas = list(result.deltas) if result and not aborted else [0] * SEATS
    by_seat = apply_fines(deltas, outcome.fines)
    points = [0] * len(config.players)
    fines = [0] * len(config.players)
    for seat, player in enumerate(plan.seats):
        points[player] += by_seat[seat]
        fines[player] += outcome.fines[seat]
    faults = sorted((plan.seats[seat], cause) for seat, cause in outcome.faults.items())
    return HandSummary(plan, gid, outcome, points, fines, faults, spawn_seconds, aborted=aborted)


def _result_name(summary: HandSummary) -> str:
    result = summary.outcome.engine.result
    if summary.aborted:
        return "aborted"
    if result is None or result.kind is None:
        return "draw"
    return result.kind.value


def _write(files: MatchFiles, folder: Path, config: MatchConfig, plan: HandPlan, first: int,
           summary: HandSummary) -> None:
    engine = summary.outcome.engine
    result = engine.result
    seat_player = plan.seats
    winner = None if result is None or result.winner is None else seat_player[result.winner]
    source = None if result is None or result.payer is None else seat_player[result.payer]
    fan = None if result is None or result.fans is None else result.fans.total
    row = ScoreRow(plan.group * 4 + plan.round + 1, plan.deal_index + 1, summary.points,
                   summary.game_id, _result_name(summary), winner, source, fan,
                   summary.fines, summary.faults)
    ais = [config.players[p].name for p in plan.seats]
    header = {
        "game_id": summary.game_id, "hand": plan.number + 1, "group": plan.group + 1,
        "round": plan.round + 1, "deal": plan.deal_index + 1, "group_seed": plan.seed,
        "match_seed": config.seed, "first": first,
        # What a fault is fined by (SPEC section 6): verify recomputes fault fines from it.
        "hard_limit_ms": round(config.options.hard_limit * 1000, 3),
        "wall": [t.code for t in engine.wall],
        "seats": [{"player": p, "name": config.players[p].name} for p in plan.seats],
    }
    result_json: dict[str, Any] = {
        "result": _result_name(summary),
        "winner_seat": None if result is None else result.winner,
        "payer_seat": None if result is None else result.payer,
        "win_tile": None if result is None or result.win_tile is None else result.win_tile.code,
        "fans": [] if result is None or result.fans is None else
        [list(f) for f in result.fans.fans],
        "fan_total": fan,
        "deltas": None if result is None else list(result.deltas),
        "fines": summary.outcome.fines,
        "host_stalls": summary.outcome.host_stalls,
        "faults": {str(k): v for k, v in summary.outcome.faults.items()},
        "bot_errors": {str(seat): {"count": summary.reports[p].count,
                                   "first": dict(summary.reports[p].detail)}
                       for seat, p in enumerate(plan.seats) if p in summary.reports},
        "points_by_player": summary.points,
        "answer_ms": [[round(x, 3) for x in seat] for seat in summary.outcome.answer_ms],
        "unsolicited": summary.outcome.unsolicited,
        "timings": [list(t) for t in summary.outcome.timings],
        "resources": summary.resources,
    }
    write_hand(folder, header, summary.outcome, ais, row.round, row.game, result_json)
    files.add_row(row)


async def run_match(config: MatchConfig,
                    on_hand: Callable[[HandSummary, MatchResult], None] | None = None,
                    log: Any = None) -> MatchResult:
    """Play the whole match; always leaves the files consistent, even when cancelled."""
    if log is None:
        log = structlog.get_logger()
    result = MatchResult(config, [PlayerTotals() for _ in config.players])
    files = MatchFiles(config.log_root, [p.name for p in config.players]) \
        if config.log_root else None
    if config.live is not None:
        config.live.table(config.title, "default", "hand",
                          [p.name for p in config.players], config.planned)
    try:
        for plan in itertools.islice(match_plan(config.seed, config.groups), config.hands):
            summary = await play_match_hand(config, plan, files, log)
            result.hands.append(summary)
            engine_result = summary.outcome.engine.result
            for p, pts in enumerate(summary.points):
                result.totals[p].points += pts
                result.totals[p].fines += summary.fines[p]
            for p, _ in summary.faults:
                result.totals[p].faults += 1
            for p, reports in summary.reports.items():
                result.totals[p].bot_errors += reports.count
            if engine_result is not None and engine_result.winner is not None \
                    and not summary.aborted:
                result.totals[plan.seats[engine_result.winner]].wins += 1
            if files is not None:
                result.facts += hand_facts(files.hand_path(plan.number, summary.game_id))
                files.write_match(result.summary())
            if on_hand is not None:
                on_hand(summary, result)
            if summary.aborted:
                result.ended_by_fault = summary.faults[0][0] if summary.faults else None
                return result
        result.completed = True
        return result
    finally:
        if not result.completed and result.ended_by_fault is None:
            result.interrupted = True
        if files is not None:  # plain blocking writes: nothing here can be cancelled
            files.write_match(result.summary())
            files.close([t.points for t in result.totals])
        if config.live is not None:
            config.live.done()


def win_kind_name(kind: WinKind | None) -> str:
    return "draw" if kind is None else kind.value


def players_from_args(specs: Sequence[str], argvs: Sequence[list[str]]) -> tuple[Player, ...]:
    return tuple(Player(spec, tuple(argv)) for spec, argv in zip(specs, argvs, strict=True))
