"""Per-bot statistics of real tournaments, recomputed from their logs alone.

Two small tournaments are played by ``server tournament`` with bots as processes: the
default ruleset (five bots, so three fill-ins; one bot crashes in every hand) and the
Botzone ruleset (four bots kept running between turns, one restarted every turn). This
test then reads every hand's ``events.jsonl`` and every game's ``game.json`` with its
own plain parsing (not the rulesets' readers) and recomputes each bot's statistics;
they must be those of standings.json, which also keeps the fill-ins out.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable


def tournament(out: Path, bots: Path, *args: str) -> dict[str, Any]:
    done = subprocess.run([PY, "-m", "server.cli.app", "tournament", str(bots), "--out",
                           str(out), "--rounds", "1", "--jobs", "2", "--seed", "11", *args],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    data: dict[str, Any] = json.loads((out / "standings.json").read_text(encoding="utf-8"))
    return data


class Tally:
    """One bot's numbers as this test counts them."""

    def __init__(self) -> None:
        self.games = self.wins = self.self_drawn = self.on_discard = 0
        self.dealt_in = self.claims = 0
        self.fans: list[float] = []
        self.faults: Counter[str] = Counter()
        self.ms: list[float] = []
        self.peak: list[float] = []
        self.cpu: list[float] = []

    def expected(self) -> dict[str, Any]:
        hist = Counter(self.fans)
        return {
            "games": self.games, "wins": self.wins, "self_drawn": self.self_drawn,
            "on_discard": self.on_discard, "dealt_in": self.dealt_in, "claims": self.claims,
            "mean_fan": round(statistics.fmean(self.fans), 2) if self.fans else None,
            "fan_histogram": {f"{k:g}": v for k, v in sorted(hist.items())},
            "faults": dict(sorted(self.faults.items())),
            "answer_ms": None if not self.ms else {
                "median": round(statistics.median(self.ms), 3),
                "p95": round(float(np.percentile(self.ms, 95)), 3),
                "max": round(max(self.ms), 3)},
            "peak_memory_mb": round(max(self.peak), 1) if self.peak else None,
            "cpu_seconds": round(sum(self.cpu), 2) if self.cpu else None,
        }


def check(standings: dict[str, Any], tallies: dict[str, Tally]) -> None:
    rows = {row["bot"]: row for row in standings["standings"]}
    assert set(rows) == {name for name in tallies if not name.startswith("fill-in")}
    for name, row in rows.items():
        want, got = tallies[name].expected(), row["stats"]
        assert got.keys() == want.keys()
        for key in want:
            if key == "answer_ms" and want[key] is not None:
                assert got[key] == pytest.approx(want[key], abs=0.002), (name, key)
            elif key == "cpu_seconds" and want[key] is not None:
                assert got[key] == pytest.approx(want[key], abs=0.011), (name, key)
            else:
                assert got[key] == want[key], (name, key)


def default_tallies(out: Path) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    for events in sorted(out.glob("matches/r*-t*/[0-9][0-9][0-9]-*/events.jsonl")):
        lines = [json.loads(line) for line in events.read_text().splitlines()]
        names = [seat["name"] for seat in lines[0]["seats"]]
        result = lines[-1]
        assert result["type"] == "result"
        for line in lines:
            if line["type"] == "event" and line["kind"] in ("chi", "peng", "gang"):
                tallies[names[line["seat"]]].claims += 1
        for seat, name in enumerate(names):
            t = tallies[name]
            t.games += 1
            t.ms += result["answer_ms"][seat]
            used = result["resources"][seat]
            t.peak += [used["peak_memory_mb"]] if used["peak_memory_mb"] is not None else []
            t.cpu += [used["cpu_seconds"]] if used["cpu_seconds"] is not None else []
            cause = result["faults"].get(str(seat))
            if cause is not None:
                t.faults[re.match(r"[\w-]+", cause).group()] += 1  # type: ignore[union-attr]
        kind, winner = result["result"], result["winner_seat"]
        if kind in ("tsumo", "ron", "qgang"):
            t = tallies[names[winner]]
            t.wins += 1
            t.fans.append(result["fan_total"])
            if kind == "tsumo":
                t.self_drawn += 1
            else:
                t.on_discard += 1
                tallies[names[result["payer_seat"]]].dealt_in += 1
    return tallies


def test_default_tournament_stats_agree_with_its_logs(tmp_path: Path) -> None:
    lines = []
    for name, bot in (("greedy1", "greedy.py"), ("greedy2", "greedy.py"),
                      ("random1", "random_bot.py"), ("random2", "random_bot.py")):
        lines += ["[[bot]]", f'name = "{name}"', f'command = ["{PY}", "{ROOT}/sample_ai/{bot}"]']
    lines += ["[[bot]]", 'name = "crash"',
              f'command = ["{PY}", "{ROOT}/tests/bots/crash_mid_hand.py"]']
    bots = tmp_path / "bots.toml"
    bots.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    standings = tournament(out, bots, "--hands", "3")
    tallies = default_tallies(out)
    assert any(name.startswith("fill-in") for name in tallies)  # played, and left out
    check(standings, tallies)
    crash = next(r["stats"] for r in standings["standings"] if r["bot"] == "crash")
    assert crash["faults"] == {"closed-output": 3}
    for row in standings["standings"]:  # every bot was a process: measured
        assert row["stats"]["cpu_seconds"] > 0 and row["stats"]["peak_memory_mb"] > 0
    assert sum(r["stats"]["wins"] for r in standings["standings"]) > 0
    page = (out / "tournament.html").read_text()
    assert "Bot statistics" in page and "closed-output 3" in page


def botzone_tallies(out: Path) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    for path in sorted(out.glob("matches/r*-t*/games/*/game.json")):
        record = json.loads(path.read_text())
        names, judge, players = record["names"], record["judge"], record["players"]
        final = judge[-1]["display"]
        for seat, name in enumerate(names):
            t = tallies[name]
            t.games += 1
            used = record["resources"][seat]
            t.peak += [used["peak_memory_mb"]] if used["peak_memory_mb"] is not None else []
            t.cpu += [used["cpu_seconds"]] if used["cpu_seconds"] is not None else []
            for turn, answer in enumerate(players[seat]):
                if answer is None or answer["verdict"] != "OK":
                    continue
                t.ms.append(answer["ms"])
                # a claim: CHI/PENG, or a bare GANG on a discard, that the judge applied
                words = (answer["response"] or "").split()
                claimed = words[:1] in (["CHI"], ["PENG"]) or words == ["GANG"]
                shown = judge[turn + 1].get("display", {})
                if claimed and shown.get("player") == seat \
                        and shown.get("action") == words[0]:
                    t.claims += 1
        if final["action"] == "HU":
            winner, fan = final["player"], final["fanCnt"]
            t = tallies[names[winner]]
            t.wins += 1
            t.fans.append(fan)
            # the judge's payments: a self-drawn win costs every other seat 8 + fan, a
            # discard (or robbed kong) costs its seat 8 + fan and the others 8
            payers = [s for s in range(4) if s != winner and final["score"][s] == -(8 + fan)]
            if len(payers) == 3:
                t.self_drawn += 1
            else:
                t.on_discard += 1
                (payer,) = payers
                tallies[names[payer]].dealt_in += 1
        elif final["action"] != "HUANG":
            tallies[names[final["player"]]].faults[final["action"]] += 1
    return tallies


def test_botzone_tournament_stats_agree_with_its_logs(tmp_path: Path) -> None:
    lines = []
    for k in range(3):
        lines += ["[[bot]]", f'name = "kept{k}"', "keep_running = true",
                  f'command = ["{PY}", "{ROOT}/sample_ai/botzone/greedy_bot.py", '
                  '"--keep-running"]']
    lines += ["[[bot]]", 'name = "restarted"',
              f'command = ["{PY}", "{ROOT}/sample_ai/botzone/greedy_bot.py"]']
    bots = tmp_path / "bots.toml"
    bots.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    # One game: the restarted bot starts some 150 times in it (games summed per bot are
    # checked on two games in the test below).
    standings = tournament(out, bots, "--ruleset", "botzone", "--walls", "1", "--orders", "1")
    tallies = botzone_tallies(out)
    check(standings, tallies)
    for row in standings["standings"]:
        stats = row["stats"]
        assert stats["games"] == 1
        assert stats["cpu_seconds"] > 0 and stats["peak_memory_mb"] > 0
        assert stats["answer_ms"] is not None
    records = [json.loads(p.read_text()) for p in out.glob("matches/*/games/*/game.json")]
    restarted = [r["resources"][r["names"].index("restarted")]["processes"] for r in records]
    kept = [r["resources"][r["names"].index("kept0")]["processes"] for r in records]
    assert min(restarted) > 10 and max(kept) <= 2  # a process per turn, or one kept


def test_botzone_faults_by_verdict_agree_with_the_records(tmp_path: Path) -> None:
    """A bot that crashes on its first turn ends each game there: an RE fault each."""
    lines = []
    for k in range(3):
        lines += ["[[bot]]", f'name = "kept{k}"', "keep_running = true",
                  f'command = ["{PY}", "{ROOT}/sample_ai/botzone/random_bot.py", '
                  '"--keep-running"]']
    lines += ["[[bot]]", 'name = "crash"',
              f'command = ["{PY}", "{ROOT}/tests/bots/botzone/hostile.py", "json", "crash"]']
    bots = tmp_path / "bots.toml"
    bots.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    standings = tournament(out, bots, "--ruleset", "botzone", "--walls", "1", "--orders", "2")
    check(standings, botzone_tallies(out))
    crash = next(r["stats"] for r in standings["standings"] if r["bot"] == "crash")
    assert crash["faults"] == {"RE": 2} and crash["answer_ms"] is None
    assert crash["cpu_seconds"] > 0
