"""Sealed deals: which tables' folders nobody may see yet, kept in ``OUT/sealed.json``.

Every table of a round plays the same deals (``schedule.round_seed``), so a finished
table shows the deals its round's other tables may still have to play. A round is
*open* while any of its tables is not done; every table of an open round is sealed,
finished or not. Round-robin and gauntlet rounds are all scheduled at the start and
their tables may play in any order (several rounds at once), Swiss rounds one at a
time: the rule is the same, over the tables scheduled so far.

``sealed.json`` (``{"tables": ["r02-t01", ...]}``, the folder names under
``OUT/matches/``) is what the web reads (``server.web.folders``); the runner writes it
before any table starts, after every table ends, and at the end (``{"tables": []}``).
The reports leave out of what they serve what a sealed table would show: its per-hand
rows, its match report, its round's seed; and the tournament's seed (every round's
deals) until the tournament is over.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from pathlib import Path

from server.output.paths import write_atomic
from server.tournament.schedule import TablePlan

SEALED_FILE = "sealed.json"


def table_name(plan: TablePlan) -> str:
    """The table's folder under ``OUT/matches/``."""
    return f"r{plan.round:02d}-t{plan.table:02d}"


def sealed_tables(plans: Sequence[TablePlan], done: Collection[tuple[int, int]]
                  ) -> list[str]:
    """The folder names of every table of a round that has a table still to play
    (``done``: the finished tables, as (round, table))."""
    open_rounds = {p.round for p in plans if (p.round, p.table) not in done}
    return sorted(table_name(p) for p in plans if p.round in open_rounds)


def tournament_over(plans: Sequence[TablePlan], done: Collection[tuple[int, int]],
                    rounds: int) -> bool:
    """Every round scheduled and every table of it played."""
    scheduled = {p.round for p in plans}
    return scheduled >= set(range(1, rounds + 1)) and \
        all((p.round, p.table) in done for p in plans)


def write_sealed(out: Path, tables: Sequence[str]) -> None:
    write_atomic(out / SEALED_FILE, json.dumps({"tables": list(tables)}) + "\n")
