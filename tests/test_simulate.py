"""``server simulate``: in-process hands with Python bots, summarised as one JSON line.

The command runs in a subprocess, exactly as a user types it; a few tests call
``server.engine.simulate`` directly, where that is quicker to check.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.engine.simulate import BotSpecError, resolve_bot, simulate

ROOT = Path(__file__).resolve().parents[1]
BOTS = "random,random,greedy,greedy"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from server.cli import main; main()", "simulate", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "hands_per_second")}


def test_json_output_has_exactly_the_keys_the_issue_specifies() -> None:
    summary = simulate_json("--bots", BOTS, "--hands", "8", "--seed", "3")
    assert list(summary) == ["hands", "seconds", "hands_per_second", "draws", "wins",
                             "players"]
    assert summary["hands"] == 8
    assert isinstance(summary["seconds"], float) and summary["seconds"] > 0
    assert isinstance(summary["hands_per_second"], float) and summary["hands_per_second"] > 0
    assert list(summary["wins"]) == ["self_drawn", "discard", "robbed_kong"]
    assert summary["draws"] + sum(summary["wins"].values()) == 8
    assert [p["bot"] for p in summary["players"]] == ["random", "random", "greedy", "greedy"]
    for player in summary["players"]:
        assert list(player) == ["bot", "points", "wins", "illegal"]
        assert all(isinstance(player[k], int) for k in ("points", "wins", "illegal"))
    assert sum(p["wins"] for p in summary["players"]) == sum(summary["wins"].values())
    assert sum(p["points"] for p in summary["players"]) == 0
    assert all(p["illegal"] == 0 for p in summary["players"])


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    args = ("--bots", BOTS, "--hands", "8")
    first = simulate_json(*args, "--seed", "11")
    again = simulate_json(*args, "--seed", "11")
    other = simulate_json(*args, "--seed", "12")
    assert without_timing(first) == without_timing(again)
    assert without_timing(first) != without_timing(other)


def test_bots_named_as_module_and_class_resolve() -> None:
    spec = "sample_ai.random_bot:RandomBot"
    named = simulate_json("--bots", ",".join([spec] * 4), "--hands", "4", "--seed", "5")
    short = simulate_json("--bots", "random,random,random,random", "--hands", "4",
                          "--seed", "5")
    assert [p["bot"] for p in named["players"]] == [spec] * 4
    strip = [{k: v for k, v in p.items() if k != "bot"} for p in named["players"]]
    assert strip == [{k: v for k, v in p.items() if k != "bot"} for p in short["players"]]


@pytest.mark.parametrize(("bots", "message"), [
    ("random,random,nosuchbot,greedy", "unknown bot 'nosuchbot'"),
    ("random,random,greedy,no_such_module:Bot", "cannot import 'no_such_module'"),
    ("random,random,greedy,sample_ai.random_bot:NoSuchBot", "has no class 'NoSuchBot'"),
    ("random,random,greedy", "need 4 bots, got 3"),
])
def test_an_unknown_bot_exits_with_status_2_and_says_which(bots: str, message: str) -> None:
    done = run_cli("--bots", bots, "--hands", "2", "--json")
    assert done.returncode == 2
    assert message in " ".join(done.stderr.split())  # the console may wrap the line
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_resolve_bot_names_the_known_bots_when_it_fails() -> None:
    with pytest.raises(BotSpecError, match="random, greedy, or module:Class"):
        resolve_bot("nosuchbot")
    with pytest.raises(BotSpecError, match="no receive"):
        resolve_bot("json:JSONDecoder")


def test_players_rotate_one_seat_every_hand() -> None:
    """In hand h, seat s is played by player (s + h) mod 4: points follow the players."""
    deltas: list[tuple[int, ...]] = []
    summary = simulate(["random", "greedy", "random", "greedy"], 6, seed=9,
                       on_hand=lambda h, played: deltas.append(played.result.deltas))
    assert len(deltas) == 6
    for player in range(4):
        expected = sum(d[(player - h) % 4] for h, d in enumerate(deltas))
        assert summary.players[player].points == expected
    assert summary.draws + sum(summary.wins.values()) == 6
