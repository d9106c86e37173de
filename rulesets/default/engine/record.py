"""A hand's record: the original text log from engine events, and back again.

``legacy_log`` turns a finished ``Hand`` into the original server's per-game
log (``legacy_log.py`` formats it). ``replay_legacy`` runs an original log
through the engine: the wall is rebuilt from the initial hands and the draws,
each recorded action is given as the answer of its seat, every other prompted
seat passes, and the engine must then reproduce the same events and winner.

A robbed added kong has no word of its own in the original format: it is
written as ``jgang`` followed by the robber's ``hu`` and ``win R ron OWNER``
(the ``jgang`` right before the ``hu`` tells the two apart).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from protocol.messages import (
    AGang,
    Chi,
    FromAI,
    Gang,
    Hu,
    JGang,
    Out,
    Pass,
    Peng,
    QGang,
    format_line,
)
from protocol.tiles import ALL_TILES, Tile, tile_counts
from rulesets.default.engine.hand import SEATS, EngineError, Event, Expect, Hand, Input, Verdict
from rulesets.default.engine.legacy_log import (
    AGangEvent,
    ChiEvent,
    GangEvent,
    HuEvent,
    JGangEvent,
    LegacyEvent,
    LegacyLog,
    LegacyWin,
    OutEvent,
    PengEvent,
    PickEvent,
    WinHow,
    legacy_fans,
)
from scoring.settlement import WinKind

WALL_SIZE = 136


def legacy_events(events: Sequence[Event]) -> Iterator[LegacyEvent]:
    """The engine events the original log records, in its vocabulary."""
    for e in events:
        if e.kind == "pick" and e.tile is not None:
            yield PickEvent(e.seat, e.tile)
        elif e.kind == "out" and e.tile is not None:
            yield OutEvent(e.seat, e.tile)
        elif e.kind == "peng" and e.tile is not None and e.source is not None:
            yield PengEvent(e.seat, e.source, e.tile)
        elif e.kind == "chi" and e.tile is not None and e.source is not None:
            yield ChiEvent(e.seat, e.source, e.tile)
        elif e.kind == "gang" and e.tile is not None and e.source is not None:
            yield GangEvent(e.seat, e.source, e.tile)
        elif e.kind == "agang" and e.tile is not None:
            yield AGangEvent(e.seat, e.tile)
        elif e.kind == "jgang" and e.tile is not None:
            yield JGangEvent(e.seat, e.tile)
        elif e.kind == "hu":
            yield HuEvent(e.seat)


def legacy_log(hand: Hand, ais: Sequence[str], round_no: int, game_no: int) -> LegacyLog:
    """The original server's log of a finished hand."""
    result = hand.result
    if result is None:
        raise EngineError("the hand has not finished")
    dealt = tuple(hand.wall[13 * s : 13 * (s + 1)] for s in range(SEATS))
    win: LegacyWin | None = None
    if result.winner is not None and result.fans is not None:
        how: WinHow = "tsumo" if result.kind is WinKind.SELF_DRAWN else "ron"
        win = LegacyWin(result.winner, how, result.payer, legacy_fans(result.fans),
                        result.fans.total)
    return LegacyLog(round_no, game_no, tuple(ais), hand.first, dealt,
                     tuple(legacy_events(hand.events)), win)


def wall_of(log: LegacyLog) -> tuple[Tile, ...]:
    """The wall a log implies: the dealt hands, the draws in order, then the
    tiles never drawn (in kind order: their order is not recorded)."""
    drawn = [e.tile for e in log.events if isinstance(e, PickEvent)]
    front = [t for h in log.hands for t in h] + drawn
    left = tile_counts(front)
    if any(c > 4 for c in left) or len(front) > WALL_SIZE:
        raise ValueError("the log deals or draws more than four of a kind")
    rest = [t for t in ALL_TILES for _ in range(4 - left[t])]
    return tuple(front + rest)


def _answer_for(event: LegacyEvent, seat: int, expect: Expect) -> FromAI | None:
    """The answer that ``event`` records for ``seat`` (None: it passed)."""
    if isinstance(event, OutEvent) and event.seat == seat:
        return Out(event.tile)
    if isinstance(event, AGangEvent) and event.seat == seat:
        return AGang(event.tile)
    if isinstance(event, JGangEvent) and event.seat == seat:
        return JGang(event.tile)
    if isinstance(event, PengEvent) and event.seat == seat:
        return Peng()
    if isinstance(event, GangEvent) and event.seat == seat:
        return Gang()
    if isinstance(event, ChiEvent) and event.seat == seat:
        return Chi(event.tile)
    if isinstance(event, HuEvent) and event.seat == seat:
        return QGang() if expect is Expect.ROB else Hu()
    return None


def replay_legacy(log: LegacyLog) -> Hand:
    """Run an original log through the engine; ``EngineError`` where they part."""
    hand = Hand(wall_of(log), log.first)
    hand.start()
    for step, event in enumerate(log.events, start=1):
        if isinstance(event, PickEvent):
            _pass_all(hand)  # nobody claimed the discard (or robbed the kong)
            last = hand.events[-1] if hand.events else None
            if last is None or last.kind != "pick" or (last.seat, last.tile) != (
                    event.seat, event.tile):
                raise EngineError(f"event {step}: the log draws {event.seat} {event.tile}, "
                                  f"the engine's last step is {last}")
            continue
        if hand.finished:
            raise EngineError(f"event {step}: the engine had already ended the hand")
        acted = False
        for seat, expect in sorted(hand.waiting.items()):
            message = _answer_for(event, seat, expect)
            if message is None:
                if expect in (Expect.CLAIM, Expect.ROB):
                    message = Pass()
                else:
                    continue
            else:
                acted = True
            verdict = hand.answer(seat, message)
            if verdict.verdict is not Verdict.ACCEPTED:
                raise EngineError(f"event {step}: seat {seat} {format_line(message)!r} "
                                  f"was {verdict.verdict.value}: {verdict.reason}")
        if not acted:
            raise EngineError(f"event {step}: the engine was not waiting on seat "
                              f"{event.seat} for this")
    _pass_all(hand)  # a last discard nobody claimed, before an empty wall
    return hand


def _pass_all(hand: Hand) -> None:
    for seat, expect in sorted(hand.waiting.items()):
        if expect in (Expect.CLAIM, Expect.ROB):
            hand.answer(seat, Pass())


def event_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": event.kind, "seat": event.seat}
    if event.tile is not None:
        out["tile"] = event.tile.code
    if event.source is not None:
        out["from"] = event.source
    if event.detail:
        out["detail"] = event.detail
    return out


def input_json(item: Input) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": item.seat}
    if item.message is not None:
        out["line"] = format_line(item.message)
    if item.fault:
        out["fault"] = item.fault
    if item.after >= 0:
        out["after"] = item.after
    return out
