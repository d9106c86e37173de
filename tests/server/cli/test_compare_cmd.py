"""``server compare``: the verdicts of real comparisons, the JSON object, and bad input
(exit status 2, one line). Each comparison is a real ``server`` process, as a user runs
it; the bad input cases call its entry point in this process (``tests.server.cli.inprocess``),
one of them in a real process too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.cli.inprocess import server_here

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
KEYS = {"games", "deals", "mean", "ci_low", "ci_high", "decision", "finding", "llr",
        "llr_baseline", "bounds", "ci",
        "candidate_mean", "baseline_mean", "score", "elo", "model", "alpha", "beta",
        "faults", "interrupted", "ruleset", "variant", "seed", "candidate", "baseline",
        "opponents", "elo0", "elo1"}


def server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-c", "from server.cli.app import main; main()", "compare",
                           *args], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "COLUMNS": "400"})


def verdict(*args: str) -> dict[str, object]:
    done = server(*args, "--json")
    assert done.returncode == 0, done.stderr
    value = json.loads(done.stdout)
    assert isinstance(value, dict)
    return value


def test_greedy_beats_random_in_the_default_ruleset_and_the_test_stops_early(tmp_path: Path
                                                                             ) -> None:
    # --elo1 30 (the default 10 takes 83 deals here): the test still has to stop itself
    done = server("greedy", "random", "--elo1", "30", "-o", str(tmp_path))
    assert done.returncode == 0, done.stderr
    assert "verdict: greedy (the candidate) is better, by" in done.stdout
    got = json.loads((tmp_path / "summary.json").read_text())  # what --json prints
    assert got["decision"] == "candidate" and got["deals"] < 1000  # the cap: 4000 games
    assert isinstance(got["llr"], float) and got["llr"] >= got["bounds"][1]  # type: ignore[index]
    assert 0 < got["ci_low"] < got["mean"] < got["ci_high"]  # type: ignore[operator]


def test_greedy_beats_random_in_botzone() -> None:
    got = verdict("greedy", "random", "--ruleset", "botzone", "--opponents",
                  "random,random,random", "--elo1", "50")
    assert got["decision"] == "candidate" and got["games"] == 4 * got["deals"]  # type: ignore[operator]


def test_greedy_beats_random_in_noi2014() -> None:
    got = verdict("greedy", "random", "--ruleset", "noi2014", "--opponents",
                  "random,random,random")
    assert got["decision"] == "candidate"
    assert got["mean"] > 0  # type: ignore[operator]


def test_the_json_object_and_jobs_change_nothing(tmp_path: Path) -> None:
    args = ("random", "greedy", "--games", "40", "--seed", "3")
    one = verdict(*args)
    two = verdict(*args, "--jobs", "2", "-o", str(tmp_path / "out"))
    assert one == two
    assert set(one) == KEYS
    assert one["games"] == 40 and one["deals"] == 10
    assert one["decision"] in ("candidate", "baseline", "none")
    rows = (tmp_path / "out" / "deals.csv").read_text().splitlines()
    assert len(rows) == 1 + 10
    assert json.loads((tmp_path / "out" / "summary.json").read_text()) == one


def test_two_real_bot_commands_compare_end_to_end() -> None:
    folder = ROOT / "sample_ai" / "noi2014"
    got = verdict(f"json+keep-running:{PY} {folder}/greedy_bot.py --keep-running",
                  f"json+keep-running:{PY} {folder}/random_bot.py --keep-running",
                  "--ruleset", "noi2014", "--opponents", "random,random,random",
                  "--games", "4")
    assert got["deals"] == 1 and got["decision"] == "none"
    assert got["faults"] == {"candidate": 0, "baseline": 0}
    assert got["ci_low"] is None  # one deal: no interval


BAD_INPUT = [
    (("random", "greedy", "--ruleset", "chess"), "no ruleset 'chess'"),
    (("random", "greedy", "--ruleset", "thupc2021"), "plays no bots"),
    (("random", "greedy", "--elo0", "5", "--elo1", "0"), "--elo0 must be below --elo1"),
    (("random", "greedy", "--alpha", "0.7"), "--alpha must be above 0 and below 0.5"),
    (("random", "greedy", "--beta", "0"), "--beta must be above 0"),
    (("random", "greedy", "--points", "1"), "--points '1': two numbers"),
    (("random", "greedy", "--points", "0,1", "--elo1", "5"), "not both"),
    (("nosuchbot", "greedy"), "nosuchbot"),
    (("random", "greedy", "--ruleset", "botzone", "--variant", "riichi"), "--variant"),
    (("random", "greedy", "--opponents", "random"), "give 3 bots"),
    (("random", "greedy", "--jobs", "2", "--cluster", "local"), "--jobs is for processes"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_status_2(args: tuple[str, ...], message: str) -> None:
    one_line_and_status_2(server_here("compare", *args, columns=400), message)


def test_the_compare_process_given_bad_input_exits_2_with_one_line() -> None:
    args, message = BAD_INPUT[2]
    one_line_and_status_2(server(*args), message)


def one_line_and_status_2(done: subprocess.CompletedProcess[str], message: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
