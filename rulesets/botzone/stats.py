"""Botzone's per-bot facts, read from a game record alone (the judge's outputs and each
seat's answers, as a game judged on Botzone keeps them, and our ``resources``).

For each seat of a game (``server.seam.bot_stats.SeatFacts``):

* a win: the final display's ``HU`` and its ``player`` (a false HU is ``WH``, a fault);
  self-drawn when the judge's output before it was the winner's own (a draw, a flower's
  or a kong's replacement), else on the tile of the seat whose output it was: a discard
  (``PLAY``, or the discard of a ``CHI`` or ``PENG``) or an added kong (``BUGANG``,
  robbed), and that seat dealt in;
* claims: the judge's ``CHI`` and ``PENG`` outputs, and ``GANG`` outputs after another
  seat's discard (a claimed kong; a concealed kong follows the seat's own draw);
* the win's fan: the final display's ``fanCnt``, the GB fan total as Botzone's judge
  counts it (flowers included);
* faults: the seat whose error or verdict ended the game, by the error's code (``WA``,
  ``TLE``, ``RE``, ``MLE``, ``BAD_OUTPUT``...);
* answer times: ``ms`` of each of the seat's answers with the verdict OK;
* resources: the record's ``resources`` of the seat (None in a record written before
  they were kept).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

from rulesets.botzone import formats
from rulesets.botzone.records import fault_causes, find_record
from rulesets.botzone_bots import answer_times, match_records
from server.seam.bot_stats import SeatFacts, fault_kind

CLAIMED = frozenset({"CHI", "PENG"})


def _displays(record: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return [d if isinstance(d := (output or {}).get("display"), Mapping) else {}
            for output in record.get("judge") or []]


def game_facts(record: Mapping[str, Any]) -> list[SeatFacts]:
    """The facts of each seat of a finished game; [] if the game did not finish."""
    final = formats.finish(record)
    if not final:
        return []
    order: Sequence[int] = record.get("order") or range(4)
    displays = _displays(record)
    seats = len(order)
    claims = [0] * seats
    for before, display in pairwise(displays):
        who, action = display.get("player"), display.get("action")
        if not isinstance(who, int) or not 0 <= who < seats:
            continue
        if action in CLAIMED or (action == "GANG" and before.get("player") != who):
            claims[who] += 1
    winner = final.get("player") if final.get("action") == "HU" else None
    source: int | None = None
    if winner is not None and len(displays) >= 2:
        last = displays[-2].get("player")
        source = last if isinstance(last, int) and last != winner else None
    causes = fault_causes(record)
    players = record.get("players") or []
    resources = record.get("resources") or []
    facts = []
    for seat, player in enumerate(order):
        won = seat == winner
        answers = players[seat] if seat < len(players) and players[seat] else []
        used = resources[seat] if seat < len(resources) and resources[seat] else {}
        facts.append(SeatFacts(
            int(player), wins=int(won), self_drawn=int(won and source is None),
            on_discard=int(won and source is not None), dealt_in=int(source == seat),
            claims=claims[seat], fan=float(final.get("fanCnt") or 0) if won else None,
            faults=(fault_kind(causes[seat]),) if seat in causes else (),
            answer_ms=answer_times(answers),
            peak_memory_mb=used.get("peak_memory_mb"), cpu_seconds=used.get("cpu_seconds")))
    return facts


def match_facts(root: Path) -> list[SeatFacts]:
    """Every finished game's facts in a match folder, in the order played."""
    return [fact for record in match_records(root, find_record) for fact in game_facts(record)]
