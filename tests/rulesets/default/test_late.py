"""Late answers are said when they happen (a bot's first, then counted) and marked at their
step on the hand page with their fine."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
import structlog
import trio
from rich.console import Console

from rulesets.default.console import say_faults, say_repeats
from rulesets.default.engine.hand import REJECTED_INPUT
from rulesets.default.engine.rng import match_plan
from rulesets.default.late import LateAnswer, late_answers
from rulesets.default.logs import MatchFiles
from rulesets.default.match import (
    HandSummary,
    MatchConfig,
    MatchResult,
    Player,
    PlayerTotals,
    play_match_hand,
)
from rulesets.default.pages import late_steps, write_hand_page
from rulesets.default.replay import load_hand
from server.output.say import Repeats
from tests.browser import open_page

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots"


def test_each_fined_answer_is_paired_with_its_step() -> None:
    """Seat 1's answers at steps 2, 6 and 9 (the last one refused), then its fault: the
    fault's own timing and an autoplayed input are no answers."""
    inputs = [(0, "", 1), (1, "", 2), (1, "", 6), (0, "", 7), (1, REJECTED_INPUT, 9),
              (1, "illegal: out 9M", 9), (1, "auto", 12)]
    timings = [(0, 200.0, 1000), (1, 2100.0, 1000), (1, 400.0, 500), (0, 1600.0, 1000, 250.0),
               (1, 720.0, 500), (1, 5000.0, 1000)]
    assert late_answers(inputs, timings) == [
        LateAnswer(1, 2, 2100.0, 1000, 11), LateAnswer(0, 7, 1600.0, 1000, 4, 250.0),
        LateAnswer(1, 9, 720.0, 500, 2)]
    assert LateAnswer(0, 7, 1600.0, 1000, 4, 250.0).said() == \
        "answered in 1600 ms (limit 1000 ms, 250 ms of it the machine's): fined 4"


@pytest.fixture(scope="module")
def slow_hand(tmp_path_factory: pytest.TempPathFactory) -> tuple[HandSummary, MatchConfig, Path]:
    """Hand 1 of a match in which player 0 answers its first two turns late (real
    processes, played once for the module)."""
    root = tmp_path_factory.mktemp("late")
    drawbot = (sys.executable, str(BOTS / "drawbot.py"))
    players = (Player("slow", (sys.executable, str(BOTS / "slow.py"), "--delay", "1.1",
                               "--turns", "2")),
               *(Player(f"d{k}", drawbot) for k in range(3)))
    config = MatchConfig(players, 1, 1, root)
    files = MatchFiles(root)

    async def play() -> HandSummary:
        return await play_match_hand(config, next(iter(match_plan(1, 1))), files,
                                     structlog.get_logger())

    summary = trio.run(play)
    files.close([0, 0, 0, 0])
    (folder,) = [p for p in root.iterdir() if p.is_dir()]
    return summary, config, folder


def test_a_bots_first_late_answer_is_said_then_counted(
        slow_hand: tuple[HandSummary, MatchConfig, Path]) -> None:
    summary, config, _ = slow_hand
    result = MatchResult(config, [PlayerTotals() for _ in config.players])
    console = Console(file=io.StringIO(), width=400)
    repeats = Repeats()
    say_faults(console, repeats, summary, result)
    say_faults(console, repeats, summary, result)  # as if the next hand were the same
    say_repeats(console, repeats)
    lines = console.file.getvalue().splitlines()  # type: ignore[attr-defined]
    assert len(lines) == 2, lines
    assert lines[0].startswith("hand 1: player 0 (slow) answered late (step ")
    assert "limit 1000 ms, fined " in lines[0]
    assert "; 2 late answers in this hand, fined " in lines[0]
    assert lines[1] == ("player 0 (slow), late answers: the problem said at hand 1 came back 1 "
                        "more time(s), the same (hand 1)")


def test_the_hand_page_lists_each_late_answer_with_its_step_and_fine(
        slow_hand: tuple[HandSummary, MatchConfig, Path], tmp_path: Path) -> None:
    summary, _, folder = slow_hand
    late = late_steps(load_hand(folder))
    assert [item["name"] for item in late] == ["slow", "slow"]
    assert sum(int(item["said"].rsplit(" ", 1)[1]) for item in late) == summary.fines[0]
    out = tmp_path / "hand.html"
    write_hand_page(folder, out)
    text = out.read_text()
    for item in late:
        assert (f"Late answer: slow (<a href='#step={item['step']}'>step {item['step']}</a>) "
                f"{item['said']}") in text


@pytest.mark.slow
def test_the_hand_page_shows_a_late_answer_at_its_step(
        slow_hand: tuple[HandSummary, MatchConfig, Path], tmp_path: Path) -> None:
    _, _, folder = slow_hand
    late = late_steps(load_hand(folder))
    out = tmp_path / "hand.html"
    write_hand_page(folder, out)
    step = late[0]["step"]
    with open_page(f"{out.as_uri()}#step={step}") as (page, errors):
        assert page.inner_text(".late-box") == f"Late answer: slow {late[0]['said']}"
        page.click("#next")
        assert page.locator(".late-box").count() == 0
        page.click("#last")
        assert f"Late answer: slow (step {step}) answered in " in page.inner_text("#result")
        assert errors == []
