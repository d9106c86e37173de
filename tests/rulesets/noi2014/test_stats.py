"""NOI 2014's per-bot statistics in match.json, recomputed from the game records alone."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from rulesets.noi2014.stats import fault_kind

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable


def test_fault_kind_is_the_verdicts_code_or_illegal() -> None:
    assert fault_kind("no answer in time (TLE)") == "TLE"
    assert fault_kind("a false HU: its tiles are no winning hand") == "illegal"


def test_a_round_of_four_games_gives_the_stats_its_records_give(tmp_path: Path) -> None:
    bot = f"json+keep-running:{PY} {ROOT}/sample_ai/noi2014/greedy_bot.py --keep-running"
    done = subprocess.run([PY, "-m", "server.cli.app", "match", "--ruleset", "noi2014", "-d",
                           "--log-dir", str(tmp_path), "--seed", "4", "--format", "round",
                           bot, bot, bot, bot], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    (root,) = tmp_path.iterdir()
    players = json.loads((root / "match.json").read_text())["players"]
    fans: list[list[float]] = [[] for _ in players]
    counts = [Counter[str]() for _ in players]
    ms: list[list[float]] = [[] for _ in players]
    cpu: list[float] = [0.0] * len(players)
    for path in sorted(root.glob("games/*/game.json")):
        record = json.loads(path.read_text())
        order = record["order"]  # the player in each seat
        for seat, player in enumerate(order):
            counts[player]["games"] += 1
            ms[player] += [a["ms"] for a in record["players"][seat]
                           if a is not None and a["verdict"] == "OK"]
            cpu[player] += record["resources"][seat]["cpu_seconds"]
        for output in record["judge"]:
            for event in output["events"]:
                if event["act"] == "HU":
                    winner = order[event["seat"]]
                    counts[winner]["wins"] += 1
                    fans[winner].append(record["scores"][event["seat"]])
                    if event["self"]:
                        counts[winner]["self_drawn"] += 1
                    else:
                        counts[winner]["on_discard"] += 1
                        counts[order[event["from"]]]["dealt_in"] += 1
                elif event["act"] == "PENG" or event.get("how") == "exposed":
                    counts[order[event["seat"]]]["claims"] += 1
    assert sum(c["wins"] for c in counts) > 0 and sum(c["claims"] for c in counts) > 0
    for p, player in enumerate(players):
        stats = player["stats"]
        for key in ("games", "wins", "self_drawn", "on_discard", "dealt_in", "claims"):
            assert stats[key] == counts[p][key], (p, key)
        assert stats["mean_fan"] == (round(statistics.fmean(fans[p]), 2) if fans[p] else None)
        assert stats["fan_histogram"] == {f"{k:g}": v for k, v in sorted(Counter(fans[p]).items())}
        assert set(stats["fan_histogram"]) <= {"2", "3", "4"}  # a win is worth its place
        assert stats["answer_ms"] == pytest.approx(
            {"median": statistics.median(ms[p]), "p95": float(np.percentile(ms[p], 95)),
             "max": max(ms[p])}, abs=0.002)
        assert stats["cpu_seconds"] == pytest.approx(cpu[p], abs=0.011)
        assert stats["faults"] == {}
