"""A fault tells the bot's author what to fix: buffered output is told how to flush in the
bot's language; debug text on stdout is shown as the problem and sent to stderr."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
import structlog
from rich.console import Console

from rulesets.default.advice import buffered_line, fault_advice
from rulesets.default.check_bot import check_bot, format_report
from rulesets.default.console import say_faults
from rulesets.default.engine.rng import match_plan
from rulesets.default.match import MatchConfig, MatchResult, Player, PlayerTotals, play_match_hand
from server.bots.seats import TableOptions
from server.output.say import Repeats
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401 (an autouse fixture)
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[3]
DRAWBOT = str(ROOT / "tests" / "bots" / "drawbot.py")
RUNTIMES = ROOT / "tests" / "bots" / "runtimes"
PYTHON = [sys.executable, DRAWBOT]
FLUSH_PYTHON = "Python: print(..., flush=True) or sys.stdout.flush()"


# --- what the advice says, from what a bot's stdout held ----------------------------------


def test_a_join_read_only_after_a_no_join_fault_is_buffered_output() -> None:
    advice = fault_advice("no-join", PYTHON, b"join\n")
    assert advice.startswith("its output is buffered: it wrote 'join', but the line reached "
                             "the server only when it exited, after the join limit; ")
    assert advice.endswith(f"flush stdout after each line ({FLUSH_PYTHON})")


def test_an_answer_read_only_after_the_hard_limit_is_buffered_output() -> None:
    assert buffered_line("hard-limit", b"out 1M\npass\n") == "out 1M"
    assert "after the hard limit" in fault_advice("hard-limit", PYTHON, b"out 1M\n")


def test_late_text_that_is_no_answer_is_not_called_buffered() -> None:
    assert buffered_line("no-join", b"loading model...\n") is None
    assert buffered_line("hard-limit", b"join\n") is None  # its join came in time
    assert buffered_line("closed-output", b"join\n") is None
    assert fault_advice("hard-limit", PYTHON, b"") == ""


def test_debug_text_is_the_problem_and_the_legal_line_after_it_context() -> None:
    advice = fault_advice("malformed: unknown keyword 'DEBUG'", PYTHON,
                          b"DEBUG drew 2M\nout 2M\n")
    assert advice == ("the line was: DEBUG drew 2M; debug output belongs on stderr (Python: "
                      "print(..., file=sys.stderr)); after it, its stdout had: out 2M")


def test_debug_text_before_join_is_sent_to_stderr_in_the_bots_language() -> None:
    advice = fault_advice("no-join: said 'loading' first", ["java", "-cp", ".", "Main"],
                          b"loading\n")
    assert advice == ("the line was: loading; debug output belongs on stderr "
                      "(Java: System.err.println(...))")


def test_a_legal_line_alone_is_never_shown_as_the_problem() -> None:
    assert fault_advice("malformed: unknown keyword 'DEBUG'", PYTHON, b"out 2M\n") == ""


# --- real bots in three languages ---------------------------------------------------------


@pytest.fixture(scope="module")
def cpp_bot(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    gpp = need("g++")
    program = tmp_path_factory.mktemp("cpp") / "unflushed"
    subprocess.run([gpp, "-O1", "-o", str(program), str(RUNTIMES / "unflushed.cpp")],
                   check=True, timeout=120)
    return [str(program)]


@pytest.fixture(scope="module")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    java, javac = need("java"), need("javac")
    out = tmp_path_factory.mktemp("java")
    subprocess.run([javac, "-d", str(out), str(RUNTIMES / "Unflushed.java")], check=True,
                   timeout=120)
    return [java, "-cp", str(out), "Unflushed"]


# The join limit leaves the JVM time to start: its join is buffered all the same.
JOIN = TableOptions(hard_limit=1.0, join_limit=2.0)


async def test_check_bot_tells_an_unflushed_python_bot_how_to_flush(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)  # the bot runs in our environment
    report = await check_bot([*PYTHON, "--flush", "none"], hands=1, options=JOIN)
    assert len(report.problems) == 1, report.problems
    (problem,) = report.problems
    assert problem.check == "joins"
    assert problem.what.startswith("no-join: its output is buffered: it wrote 'join'")
    assert FLUSH_PYTHON in problem.what
    assert problem.line == "(said nothing in time; 'join' came when it exited)"
    assert "(said nothing)" not in "\n".join(format_report(report, "bot"))


@pytest.mark.parametrize(("bot", "advice"), [
    ("cpp_bot", "C++: std::endl or std::cout << std::flush; C: fflush(stdout)"),
    pytest.param("java_bot", "Java: System.out.flush(), or new PrintWriter(System.out, true)",
                 marks=pytest.mark.slow),  # a JVM's start: 5 to 7 s on a loaded machine
])
async def test_check_bot_tells_unflushed_cpp_and_java_bots_how_to_flush(
        bot: str, advice: str, request: pytest.FixtureRequest) -> None:
    report = await check_bot(request.getfixturevalue(bot), hands=1, options=JOIN)
    assert len(report.problems) == 1, report.problems
    (problem,) = report.problems
    assert problem.what.startswith("no-join: its output is buffered"), problem
    assert advice in problem.what


async def play_one(argv: list[str], options: TableOptions) -> str:
    """Hand 1 of a match of the bot against three drawbots: its fault line."""
    players = (Player("bot", tuple(argv)),
               *(Player(f"d{k}", (sys.executable, DRAWBOT)) for k in range(3)))
    config = MatchConfig(players, 1, 1, None, options)
    summary = await play_match_hand(config, next(iter(match_plan(1, 1))), None,
                                    structlog.get_logger())
    result = MatchResult(config, [PlayerTotals() for _ in players])
    console = Console(file=io.StringIO(), width=400)
    say_faults(console, Repeats(), summary, result)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


async def test_a_match_says_a_bot_whose_answers_are_buffered_is_not_silent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Its join flushed, its answers not: the hard limit's fault line says why, not
    "its stdout ends: out 1M" as if that line were the problem."""
    monkeypatch.delenv("PYTHONUNBUFFERED", raising=False)
    said = await play_one([*PYTHON, "--flush", "join"], TableOptions(hard_limit=1.0))
    assert "player 0 (bot) faulted: hard-limit; its output is buffered: it wrote " in said
    assert FLUSH_PYTHON in said and "its stdout ends" not in said


async def test_a_match_shows_debug_text_as_the_problem_and_sends_it_to_stderr() -> None:
    said = await play_one([*PYTHON, "--debug"], TableOptions())
    assert "faulted: malformed: unknown keyword 'DEBUG'; the line was: DEBUG drew " in said
    assert "debug output belongs on stderr (Python: print(..., file=sys.stderr))" in said
    assert "its stdout ends" not in said
