"""Checks every ruleset's live-feed test makes (``server.output.live``): the records of a
table in order, and pictures that show no concealed tile."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SEAT_KEYS = {"name", "wind", "concealed", "melds", "discards", "flowers", "score"}
HIDDEN = "??"


def check_fair(picture: dict[str, Any]) -> None:
    """A hand in play shows counts, public tiles and face-down concealed kongs only; the
    tile a seat draws is its secret (a flower it sets aside is shown)."""
    assert set(picture) == {"seats", "turn", "last", "wall", "wind"}
    for seat in picture["seats"]:
        assert set(seat) == SEAT_KEYS and isinstance(seat["concealed"], int)
        for meld in seat["melds"]:
            assert set(meld) == {"kind", "tiles", "from"}
            assert (meld["kind"] == "angang") == (meld["tiles"] == [HIDDEN] * 4)
    last = picture["last"]
    if last is not None and " draws" in last["text"]:
        assert last["tile"] is None or ("flower" in last["text"] and last["tile"][0] == "H")


def hand_records(records: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """Hand (game) ``n``'s records, checked to be in order: start, steps, its faults (after
    its last step), end."""
    mine = [r for r in records if r.get("n") == n]
    types = [r["type"] for r in mine]
    assert types[0] == "start" and types[-1] == "end", types
    middle = types[1:-1]
    faults = middle.count("fault")
    assert middle == ["step"] * (len(middle) - faults) + ["fault"] * faults, types
    return mine


def table_order(records: list[dict[str, Any]], games: int) -> None:
    """The table's records: ``table`` first, ``done`` last, its hands one after another."""
    assert records[0]["type"] == "table" and records[-1]["type"] == "done"
    ns = [r["n"] for r in records[1:-1]]
    assert ns == sorted(ns) and set(ns) == set(range(1, games + 1))


def server_match(*args: str) -> subprocess.CompletedProcess[str]:
    """``server match ARGS`` as a person runs it, from the repository."""
    return subprocess.run([sys.executable, "-m", "server.cli", "match", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
