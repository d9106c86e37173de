"""The default ruleset's per-bot facts, read from a hand's ``events.jsonl`` alone.

For each seat of a hand (``server.seam.bot_stats.SeatFacts``):

* a win: the result's ``winner_seat``; self-drawn when the result is ``tsumo``, on
  another's tile when it is ``ron`` (a discard) or ``qgang`` (a robbed kong);
* a deal-in: the result's ``payer_seat`` of a ``ron`` or ``qgang``;
* claims: the ``chi``, ``peng`` and ``gang`` events (a kong claimed on a discard), not
  the concealed (``agang``) and added (``jgang``) kongs, which take no one's tile;
* the win's fan: the result's ``fan_total`` (the simplified GB fan total);
* faults: the result's ``faults`` (the hand's charged faults), by the first word of
  the cause; a bug a bot's framework reported on stderr is no fault;
* answer times: the result's ``answer_ms`` of the seat (every answer the table
  timed; a fault's hard limit is not an answer);
* resources: the result's ``resources`` of the seat (None in a log written before
  they were kept, and for a TCP seat).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from server.seam.bot_stats import SeatFacts, fault_kind

EVENTS = "events.jsonl"
CLAIMS = frozenset({"chi", "peng", "gang"})


def hand_facts(folder: Path) -> list[SeatFacts]:
    """The four seats' facts of the hand in ``folder``; [] if it has no result yet."""
    try:
        lines = (folder / EVENTS).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    records = [json.loads(line) for line in lines if line.strip()]
    if not records or records[0].get("type") != "hand" or records[-1].get("type") != "result":
        return []
    seats = [int(s["player"]) for s in records[0]["seats"]]
    claims = [0] * len(seats)
    for record in records:
        if record.get("type") == "event" and record.get("kind") in CLAIMS:
            claims[int(record["seat"])] += 1
    return [seat_facts(records[-1], seat, player, claims[seat])
            for seat, player in enumerate(seats)]


def seat_facts(result: Mapping[str, Any], seat: int, player: int, claims: int) -> SeatFacts:
    """One seat's facts from the hand's result record."""
    kind = result.get("result")
    won = result.get("winner_seat") == seat and kind in ("tsumo", "ron", "qgang")
    dealt_in = kind in ("ron", "qgang") and result.get("payer_seat") == seat
    faults = result.get("faults") or {}
    cause = faults.get(str(seat))
    times = result.get("answer_ms") or []
    resources = (result.get("resources") or [])
    used = resources[seat] if seat < len(resources) and resources[seat] else {}
    return SeatFacts(
        player, wins=int(won), self_drawn=int(won and kind == "tsumo"),
        on_discard=int(won and kind != "tsumo"), dealt_in=int(dealt_in), claims=claims,
        fan=float(result.get("fan_total") or 0) if won else None,
        faults=(fault_kind(str(cause)),) if cause is not None else (),
        answer_ms=tuple(float(ms) for ms in times[seat]) if seat < len(times) else (),
        peak_memory_mb=used.get("peak_memory_mb"), cpu_seconds=used.get("cpu_seconds"))


def match_facts(root: Path) -> list[SeatFacts]:
    """Every finished hand's facts in a match folder, in the order played."""
    facts: list[SeatFacts] = []
    for folder in sorted(root.iterdir()):
        if folder.is_dir() and folder.name[:3].isdigit():
            facts += hand_facts(folder)
    return facts
