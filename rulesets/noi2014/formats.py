"""NOI 2014 match formats, standings and a game's record (SPEC-noi2014 §3, §7).

* ``one``: a single game on the wall of the match seed (or a wall given).
* ``round``: the contest's table round: one wall played four times with the
  players rotated one seat each time, so each player sits in every seat once;
  ``--walls N`` plays N such rounds on N walls.

Each game scores 4/3/2/1 (ties averaged); the standing sums the points, ties
broken by games won, then by the order the players were given (§7).

A game's record (``game.json``) carries its wall, so verify and replay need
nothing else: ``setup`` is ``{"seed": S, "game": G}`` (wall G of seed S) or
``{"wall": [...]}``; the record adds the wall itself, each seat's requests,
responses, verdicts, and the engine's output of every turn (``judge``).

Pure: no trio.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rulesets.noi2014.engine import PLAYERS, Game
from rulesets.noi2014.tiles import check_wall, shuffled_wall
from server.seam.contract import GamePlan, Reply, StandingRow

FORMATS = ("one", "round")
SEATS = "ESWN"


def wall_of(setup: Mapping[str, Any]) -> list[str]:
    """A plan's wall: given, or the seed's wall number ``game``. Raises ValueError."""
    if "wall" in setup:
        return check_wall(setup["wall"])
    return shuffled_wall(int(setup["seed"]), int(setup.get("game", 0)))


def one_game(seed: int, wall: Sequence[str] | None = None) -> list[GamePlan]:
    setup: dict[str, Any] = {"wall": list(wall)} if wall is not None else \
        {"seed": seed, "game": 0}
    return [GamePlan(1, 1, tuple(range(PLAYERS)), setup, "one game")]


def rotation(k: int) -> tuple[int, ...]:
    """Seat order k of a round: player p sits in seat (p + k) mod 4."""
    return tuple((seat - k) % PLAYERS for seat in range(PLAYERS))


def rounds(seed: int, walls: int = 1, games: int = PLAYERS) -> list[GamePlan]:
    """``walls`` table rounds, each one wall played ``games`` times (rotated one seat
    each time; 4 puts every player in every seat once)."""
    if walls < 1 or not 1 <= games <= PLAYERS:
        raise ValueError("a round is 1 to 4 games on a wall, and there is at least one wall")
    plans: list[GamePlan] = []
    for wall in range(walls):
        for k in range(games):
            order = rotation(k)
            who = " ".join(f"{SEATS[s]}=P{p + 1}" for s, p in enumerate(order))
            plans.append(GamePlan(len(plans) + 1, wall + 1, order, {"seed": seed, "game": wall},
                                  f"wall {wall + 1}, game {k + 1} ({who})"))
    return plans


def game_header(game: Any, plan: GamePlan) -> dict[str, Any]:
    """What a game's record starts with: its setup and the wall it was played on."""
    return {"setup": dict(plan.setup), "wall": list(game.wall)}


def result_of(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The result in a record's last output ({} while a game is unfinished)."""
    judge = record.get("judge") or []
    last = judge[-1] if judge and isinstance(judge[-1], Mapping) else {}
    result = last.get("result")
    return result if isinstance(result, Mapping) else {}


def standings(plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
              players: int = PLAYERS) -> list[StandingRow]:
    points = [0.0] * players
    wins = [0] * players
    faults = [0] * players
    for plan, record in zip(plans, records, strict=True):
        result = result_of(record)
        scores = record.get("scores") or [0.0] * PLAYERS
        for seat, player in enumerate(plan.order):
            points[player] += float(scores[seat])
        for seat in result.get("winners", []):
            wins[plan.order[seat]] += 1
        for seat in result.get("faulted", []):
            faults[plan.order[seat]] += 1
    order = sorted(range(players), key=lambda p: (-points[p], -wins[p], p))
    rows: list[StandingRow] = []
    for i, p in enumerate(order):
        same = rows and (points[p], wins[p]) == (rows[-1].points, rows[-1].wins)
        rows.append(StandingRow(p, rows[-1].place if same else i + 1, whole(points[p]),
                                whole(points[p]), len(records), wins[p], faults[p]))
    return rows


def whole(value: float) -> float:
    """2.0 as 2 (points are whole or halves, and most are whole)."""
    return int(value) if float(value).is_integer() else value


def rejudge(record: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[list[str | None]]]:
    """Re-run a game from its record: every output, and every turn's requests, as the
    engine gives them from the record's wall and the recorded replies. Raises
    ValueError when the record cannot be read that far."""
    game = Game(wall_of({"wall": record["wall"]}))
    outputs = [game.output()]
    requests: list[list[str | None]] = []
    players = record.get("players") or [[] for _ in range(PLAYERS)]
    turn = 0
    while not game.finished:
        asked = game.requests()
        requests.append(list(asked))
        replies = []
        for seat, request in enumerate(asked):
            if request is None:
                replies.append(Reply("OK", None))
                continue
            entries = players[seat]
            entry = entries[turn] if turn < len(entries) else None
            if not isinstance(entry, Mapping):
                raise ValueError(f"turn {turn + 1}: seat {seat} was asked {request!r} and the "
                                 "record has no answer")
            replies.append(Reply(str(entry.get("verdict", "OK")), entry.get("response")))
        outputs.append(game.step(replies))
        turn += 1
    return outputs, requests
