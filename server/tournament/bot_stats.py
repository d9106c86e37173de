"""A tournament's per-bot statistics, from its tables' logs alone.

Each finished table's folder is read once through its ruleset
(``Ruleset.seat_facts``: every seat of every hand or game) and kept for the run;
a resumed tournament reads its earlier tables' folders again, so it has their
statistics too. A fact's player (its index at the table) becomes the entry that sat
there; fill-ins are left out. The arithmetic is ``server.seam.bot_stats``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path

from server.seam.bot_stats import BotStats, SeatFacts, aggregate
from server.seam.contract import Ruleset, Unsupported
from server.tournament.schedule import TablePlan

# (round, table, folder) -> the table's facts by entry: a finished table never changes.
_read: dict[tuple[int, int, str], list[SeatFacts]] = {}


def table_facts(rules: Ruleset, plan: TablePlan, folder: Path) -> list[SeatFacts]:
    """A finished table's facts, each with the entry that sat there as its player."""
    key = (plan.round, plan.table, str(folder))
    if key not in _read:
        _read[key] = [dataclasses.replace(fact, player=plan.players[fact.player])
                      for fact in rules.seat_facts(folder)
                      if 0 <= fact.player < len(plan.players)]
    return _read[key]


def entry_stats(rules: Ruleset, done: Sequence[TablePlan],
                folders: Mapping[tuple[int, int], Path], n: int) -> list[BotStats]:
    """Each of the ``n`` entries' statistics over the finished tables ``done``; none (an
    empty list: the reports leave the section out) for a ruleset without them."""
    facts: list[SeatFacts] = []
    try:
        for plan in done:
            folder = folders.get((plan.round, plan.table))
            if folder is not None and folder.is_dir():
                facts += table_facts(rules, plan, folder)
    except Unsupported:
        return []
    return aggregate(facts, n)
