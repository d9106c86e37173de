"""Live feeds and output folders written by hand, in the format of the issue's
interfaces (the live helper's ``server.output.live`` writes the real ones), for the web's
tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PLAYERS = ["alice", "bob", "carol", "dave"]


def picture(turn: int, discards: list[str], text: str, *, concealed: int = 13,
            wall: int = 80) -> dict[str, Any]:
    seats = [{"name": name, "wind": "ESWN"[s], "concealed": concealed,
              "melds": [{"kind": "peng", "tiles": ["B5", "B5", "B5"], "from": 2}] if s == 1
              else [], "discards": discards if s == turn else [], "flowers": [],
              "score": None} for s, name in enumerate(PLAYERS)]
    last = {"seat": turn, "text": text, "tile": discards[-1] if discards else None}
    return {"seats": seats, "turn": turn, "last": last, "wall": wall, "wind": "E"}


def table(title: str = "Round 1, table 1", planned: int = 2) -> dict[str, Any]:
    return {"type": "table", "title": title, "ruleset": "default", "unit": "hand",
            "players": PLAYERS, "planned": planned, "at": 1764190000.5}


def start(n: int, seats: list[str] | None = None) -> dict[str, Any]:
    return {"type": "start", "n": n, "id": f"{n:08x}", "title": f"Hand {n} of 2",
            "seats": seats or PLAYERS, "picture": picture(0, [], "the deal")}


def step(n: int, turn: int, discards: list[str]) -> dict[str, Any]:
    text = f"{PLAYERS[turn]} discards {discards[-1]}"
    return {"type": "step", "n": n, "picture": picture(turn, discards, text)}


def fault(n: int) -> dict[str, Any]:
    return {"type": "fault", "n": n, "seat": 1, "name": "bob",
            "cause": "closed-output: exit status 1",
            "stderr": "Traceback (most recent call last):\nZeroDivisionError",
            "stderr_file": f"{n:03d}-{n:08x}/seat1.stderr"}


def end(n: int, scores: list[int], page: str | None = None) -> dict[str, Any]:
    return {"type": "end", "n": n, "result": "ron", "text": "carol wins on bob's discard",
            "scores": scores, "hands": [["W1"] * 13] * 4, "page": page}


def done() -> dict[str, Any]:
    return {"type": "done", "at": 1764190100.2}


def append(feed: Path, *records: dict[str, Any], partial: str = "") -> None:
    """Append whole records (one line each) and, optionally, an unfinished line."""
    feed.parent.mkdir(parents=True, exist_ok=True)
    with feed.open("a", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
        f.write(partial)


def standings_json(out: Path, points: dict[str, int], reports: int = 0) -> None:
    """A tournament's standings.json with one row per bot (and a ``stats`` each)."""
    rows = [{"rank": i + 1, "bot": name, "tables": 1, "hands": 2, "points": p,
             "per_hand": p / 2, "rating": float(p), "wins": int(p > 0), "faults": 0,
             "stats": {"games": 2, "wins": int(p > 0), "self_drawn": 0, "on_discard": 0,
                       "dealt_in": 0, "claims": 1, "mean_fan": None, "fan_histogram": {},
                       "faults": {}, "answer_ms": None, "peak_memory_mb": None,
                       "cpu_seconds": 0.1}}
            for i, (name, p) in enumerate(sorted(points.items(), key=lambda x: -x[1]))]
    tables = [{"round": 1, "table": t + 1, "players": PLAYERS,
               "report": f"matches/r01-t{t + 1:02d}.html"} for t in range(reports)]
    (out / "standings.json").write_text(json.dumps(
        {"settings": {"format": "swiss", "rounds": "1", "bots": "/home/teacher/bots"},
         "standings": rows, "tables": tables}), encoding="utf-8")
