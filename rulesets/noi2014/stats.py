"""NOI 2014's per-bot facts, read from a game record alone (the engine's events in each
judge output, the result, each seat's answers and our ``resources``).

For each seat of a game (``server.seam.bot_stats.SeatFacts``):

* wins: the ``HU`` events (several seats win one game, each once: winners leave);
  self-drawn when the event says ``self``, else on the discard of the seat it names
  ``from``, which dealt in (a seat may deal in more than once in a game; nobody robs a
  kong in this ruleset);
* claims: the ``PENG`` events and the ``GANG`` events of an ``exposed`` kong (claimed
  on a discard); there is no chow;
* the win's "fan": NOI 2014 has no fan table, a win is a win, so what a win is worth
  is the game's points it earned: 4, 3 or 2 for the first, second or third winner
  (the record's ``scores``);
* faults: the ``FAULT`` events, by kind: a verdict's code (``TLE``, ``RE``, ``MLE``,
  ``BAD_OUTPUT``) or ``illegal`` for an answer the rules refuse;
* answer times: ``ms`` of each of the seat's answers with the verdict OK;
* resources: the record's ``resources`` of the seat (None in a record written before
  they were kept).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rulesets.botzone_bots import answer_times, match_records
from rulesets.noi2014 import formats
from rulesets.noi2014.engine import VERDICT_SAID
from rulesets.noi2014.records import find_record
from server.seam.bot_stats import SeatFacts

_VERDICT_OF = {said: code for code, said in VERDICT_SAID.items()}


def fault_kind(cause: str) -> str:
    """A NOI 2014 fault's kind: its verdict's code, or ``illegal``."""
    return _VERDICT_OF.get(cause, "illegal")


def game_facts(record: Mapping[str, Any]) -> list[SeatFacts]:
    """The facts of each seat of a finished game; [] if the game did not finish."""
    if not formats.result_of(record):
        return []
    order: Sequence[int] = record.get("order") or range(4)
    seats = len(order)
    wins, self_drawn, dealt_in, claims = ([0] * seats for _ in range(4))
    faults: list[list[str]] = [[] for _ in range(seats)]
    for output in record.get("judge") or []:
        for event in output.get("events", []) if isinstance(output, Mapping) else []:
            act, seat = event.get("act"), event.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < seats:
                continue
            if act == "HU":
                wins[seat] += 1
                if event.get("self"):
                    self_drawn[seat] += 1
                elif isinstance(event.get("from"), int):
                    dealt_in[event["from"]] += 1
            elif act == "PENG" or (act == "GANG" and event.get("how") == "exposed"):
                claims[seat] += 1
            elif act == "FAULT":
                faults[seat].append(fault_kind(str(event.get("cause"))))
    scores = record.get("scores") or [0] * seats
    players = record.get("players") or []
    resources = record.get("resources") or []
    facts = []
    for seat, player in enumerate(order):
        answers = players[seat] if seat < len(players) and players[seat] else []
        used = resources[seat] if seat < len(resources) and resources[seat] else {}
        facts.append(SeatFacts(
            int(player), wins=wins[seat], self_drawn=self_drawn[seat],
            on_discard=wins[seat] - self_drawn[seat], dealt_in=dealt_in[seat],
            claims=claims[seat], fan=float(scores[seat]) if wins[seat] else None,
            faults=tuple(faults[seat]),
            answer_ms=answer_times(answers),
            peak_memory_mb=used.get("peak_memory_mb"), cpu_seconds=used.get("cpu_seconds")))
    return facts


def match_facts(root: Path) -> list[SeatFacts]:
    """Every finished game's facts in a match folder, in the order played."""
    return [fact for record in match_records(root, find_record) for fact in game_facts(record)]
