"""Botzone match formats: one game, and the IJCAI duplicate (SPEC-botzone §8).

* ``one``: a single game, from the user's initdata or from the match seed.
* ``duplicate``: walls with prevailing winds E, S, W, N, each played in every
  seat order (24; fewer with ``orders``, the first four being the rotations so
  every player sits in every seat once). Per wall each player's game scores are
  summed and ranked 4/3/2/1, players with equal sums sharing the mean of the
  places they span (the wiki leaves such ties open: SPEC-botzone section 8 says
  why this way); the standing sums these rank points, equal totals broken by
  the sum of all game scores. A tournament ranks its tables' walls the same way
  (``server.tournament.standings``).

One match seed makes every wall: wall w's ``srand`` is derived from the seed,
and the judge shuffles the wall from it exactly as Botzone's judge does, so
the same initdata replays a game on Botzone itself.

Pure: no trio.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from server.seam.contract import GamePlan, StandingRow

FORMATS = ("one", "duplicate")
WINDS = "ESWN"
RANK_POINTS = (4.0, 3.0, 2.0, 1.0)
PLAYERS = 4


def derived_srand(seed: int, wall: int) -> int:
    """The judge's ``srand`` for wall ``wall`` (0-based) of a match seed: a 31-bit int."""
    digest = hashlib.sha256(f"botzone:{seed}:{wall}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def seat_orders() -> list[tuple[int, ...]]:
    """All 24 seat orders, the four rotations of each arrangement together and the
    identity's first: any first 4k orders put every player in every seat k times."""
    seen: set[tuple[int, ...]] = set()
    orders: list[tuple[int, ...]] = []
    for base in itertools.permutations(range(PLAYERS)):
        if base in seen or base[0] != 0:
            continue
        for r in range(PLAYERS):
            rotated = base[r:] + base[:r]
            seen.add(rotated)
            orders.append(rotated)
    return orders


def order_label(order: Sequence[int]) -> str:
    return "".join(str(p + 1) for p in order)


def one_game(seed: int, initdata: Mapping[str, Any] | None = None) -> list[GamePlan]:
    setup = dict(initdata) if initdata is not None else {"srand": derived_srand(seed, 0)}
    return [GamePlan(1, 1, tuple(range(PLAYERS)), setup, "one game")]


def duplicate(seed: int, walls: int = 4, orders: int = 24) -> list[GamePlan]:
    if not 1 <= walls <= 4 or not 1 <= orders <= 24:
        raise ValueError("a duplicate match has 1 to 4 walls and 1 to 24 seat orders")
    plans: list[GamePlan] = []
    every = seat_orders()[:orders]
    for wall in range(walls):
        setup = {"srand": derived_srand(seed, wall), "quan": wall}
        for k, order in enumerate(every, start=1):
            plans.append(GamePlan(len(plans) + 1, wall + 1, order, setup,
                                  f"wall {wall + 1} ({WINDS[wall]}), order {k} "
                                  f"(seats: players {order_label(order)})"))
    return plans


def finish(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The display of a record's last judge output ({} while a game is unfinished)."""
    judge = record.get("judge") or []
    last = judge[-1] if judge else {}
    if last.get("command") != "finish":
        return {}
    display = last.get("display")
    return display if isinstance(display, Mapping) else {}


def winner_and_offender(record: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """The winning seat, and the seat whose error or verdict ended the game."""
    display = finish(record)
    action, player = display.get("action"), display.get("player")
    if not isinstance(player, int) or action in (None, "HUANG"):
        return None, None
    return (player, None) if action == "HU" else (None, player)


def _share(ranked: Sequence[tuple[tuple[float, ...], int]]) -> dict[int, float]:
    """Rank points by key, equal keys sharing the places' points."""
    points: dict[int, float] = {}
    i = 0
    while i < len(ranked):
        j = i
        while j < len(ranked) and ranked[j][0] == ranked[i][0]:
            j += 1
        share = sum(RANK_POINTS[i:j]) / (j - i)
        for _, player in ranked[i:j]:
            points[player] = share
        i = j
    return points


def standings(plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
              players: int = PLAYERS) -> list[StandingRow]:
    total = [0] * players
    wins = [0] * players
    penalties = [0] * players
    by_group: dict[int, list[int]] = {}
    for plan, record in zip(plans, records, strict=True):
        scores = record.get("scores") or [0] * PLAYERS
        sums = by_group.setdefault(plan.group, [0] * players)
        for seat, player in enumerate(plan.order):
            sums[player] += int(scores[seat])
            total[player] += int(scores[seat])
        winner, offender = winner_and_offender(record)
        if winner is not None:
            wins[plan.order[winner]] += 1
        if offender is not None:
            penalties[plan.order[offender]] += 1
    points = [0.0] * players
    for sums in by_group.values():
        ranked = sorted((((float(sums[p]),), p) for p in range(players)),
                        key=lambda item: item[0], reverse=True)
        for player, share in _share(ranked).items():
            points[player] += share
    order = sorted(range(players), key=lambda p: (-points[p], -total[p], p))
    rows: list[StandingRow] = []
    for i, p in enumerate(order):
        same = rows and (points[p], total[p]) == (rows[-1].points, rows[-1].score)
        place = rows[-1].place if same else i + 1
        rows.append(StandingRow(p, place, points[p], total[p], len(records), wins[p],
                                penalties[p]))
    return rows
