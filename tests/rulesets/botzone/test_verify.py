"""``server verify`` on Botzone games: every judged game agrees, a tampered one does not."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulesets.botzone.verify import verify_path, verify_record
from server.seam.contract import VerifyReport
from tests.datadir import BOTZONE as DATA
from tests.datadir import botzone_games

ROOT = Path(__file__).resolve().parents[3]
GAMES = botzone_games()


def load(name: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return record


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_game_judged_on_botzone_verifies(path: Path) -> None:
    report = verify_path(path)
    assert report.ok, report.problems
    assert report.checked == [str(path)]


def test_a_changed_response_is_found_at_its_turn() -> None:
    record = load("c02_real_mixed_discard_win.json")
    changed = copy.deepcopy(record)
    turns = changed["players"][0]
    k = next(k for k, t in enumerate(turns) if (t["response"] or "").startswith("PLAY"))
    turns[k]["response"] = "PLAY H1"  # a flower is never in hand: the game ends on WA
    report = VerifyReport()
    verify_record(changed, "game", report)
    assert report.problems and f"turn {k + 1}" in report.problems[0]


def test_changed_scores_and_a_changed_display_disagree() -> None:
    record = load("c05_robbed_added_kong.json")
    scores = copy.deepcopy(record)
    scores["scores"] = [0, 0, 0, 0]
    report = VerifyReport()
    verify_record(scores, "game", report)
    assert report.problems == ["game: scores recorded [0, 0, 0, 0], re-judged [-20, -8, 36, -8]"]
    shown = copy.deepcopy(record)
    shown["judge"][3]["display"]["canHu"] = [0, 0, 0, 0]
    report = VerifyReport()
    verify_record(shown, "game", report)
    assert len(report.problems) == 1 and "turn 3" in report.problems[0]


def test_a_changed_request_is_named_with_its_seat() -> None:
    record = copy.deepcopy(load("d14_huang_unbalanced_walls.json"))
    record["players"][2][5]["request"] = "3 1 DRAW"
    report = VerifyReport()
    verify_record(record, "game", report)
    assert report.problems and "turn 5, seat 2" in report.problems[0]


def test_the_command_line_says_all_agree_and_exits_0() -> None:
    run = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()", "verify",
                          str(GAMES[0])], cwd=ROOT, capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "200"})
    assert run.returncode == 0, run.stderr
    assert "checked 1 item(s): all agree" in run.stdout
