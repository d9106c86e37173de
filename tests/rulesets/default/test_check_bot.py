"""``server check-bot``: each kind of protocol problem is found and shown with its line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.default.check_bot import CheckReport, _late_answers, check_bot, format_report
from rulesets.default.table import TranscriptLine
from server.bots.seats import TableOptions
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401 (an autouse fixture)

ROOT = Path(__file__).resolve().parents[3]
# Four Python bots starting at once took over 1 s to join on a loaded 2-core machine.
FAST = TableOptions(hard_limit=1.5, join_limit=5.0)


async def check(script: str, *args: str) -> CheckReport:
    return await check_bot([sys.executable, str(ROOT / script), *args], hands=1, options=FAST)


async def test_a_correct_bot_passes_every_check() -> None:
    report = await check("tests/bots/drawbot.py")
    assert report.ok and report.answers > 10
    assert format_report(report, "drawbot")[-1] == "the bot speaks the protocol correctly"


async def test_an_illegal_move_is_shown_with_the_line_that_made_it() -> None:
    report = await check("tests/hostile/illegal.py", "discard")
    (problem,) = report.problems
    assert problem.check == "legal moves"
    assert problem.what.startswith("illegal: out 9M: not in hand")
    assert problem.line.endswith("< out 9M")


async def test_a_bot_that_never_joins_fails_the_join_check() -> None:
    report = await check("tests/hostile/never_joins.py")
    assert [p.check for p in report.problems] == ["joins"]


async def test_silence_and_ignoring_sigterm_are_two_problems() -> None:
    report = await check("tests/hostile/ignore_sigterm.py")
    checks = sorted(p.check for p in report.problems)
    assert checks == ["answers in time", "exits when killed"]
    late = next(p for p in report.problems if p.check == "answers in time")
    assert late.what.startswith("hard-limit") and " > " in late.line  # the unanswered prompt


async def test_a_bot_that_leaves_a_daemon_behind_is_reported() -> None:
    report = await check("tests/hostile/setsid_daemon.py")
    assert [p.check for p in report.problems] == ["exits when killed"]
    assert "left 1 process" in report.problems[0].what


async def test_late_answers_are_listed_with_the_prompt_and_the_answer() -> None:
    report = await check("tests/bots/slow.py", "--turns", "2")
    late = [p for p in report.problems if p.check == "answers in time"]
    assert len(late) == 2 and all("> pick" in p.line and "< out" in p.line for p in late)


@pytest.mark.parametrize(("bot", "status"), [("tests/bots/drawbot.py", 0),
                                             ("tests/hostile/invalid_utf8.py", 1)])
def test_check_bot_command_exit_status(bot: str, status: int) -> None:
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                           "check-bot", f"{sys.executable} {bot}", "--hands", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == status, done.stdout + done.stderr
    if status:
        assert "malformed: line is not ASCII" in done.stdout
        assert "< b'\\xff\\xfe" in done.stdout
    else:
        assert "the bot speaks the protocol correctly" in done.stdout


def test_check_bot_runs_the_bot_in_the_servers_environment(tmp_path: Path) -> None:
    """A student's bot outside the repository, checked without the venv activated."""
    from tests.rulesets.default.test_match_e2e import BARE_PATH, student_bot

    bot = student_bot(tmp_path / "student")
    env = {**os.environ, "COLUMNS": "200", "PATH": BARE_PATH}
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                           "check-bot", str(bot), "--hands", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the bot speaks the protocol correctly" in done.stdout


def test_check_bot_refuses_a_missing_script_before_starting_anything() -> None:
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                           "check-bot", "python3 nosuch.py", "--hands", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (f"error: AI 'python3 nosuch.py': python3 would run "
                                   f"nosuch.py, which does not exist (in {ROOT})")


@pytest.mark.parametrize(("script", "status", "stderr"), [
    ("import no_such_module\n", 1, "ModuleNotFoundError: No module named 'no_such_module'"),
    ("", 0, "(nothing)"),  # an empty script
    ("import sys\nprint('cannot start', file=sys.stderr)\nsys.exit(1)\n", 1, "cannot start"),
], ids=["import-error", "empty", "exit-1"])
async def test_a_bot_that_dies_before_join_never_started(
        tmp_path: Path, script: str, status: int, stderr: str) -> None:
    """Not "joins ok" and a closed-output problem: it never started, and here is why."""
    bot = tmp_path / "bot.py"
    bot.write_text(script)
    report = await check_bot([sys.executable, str(bot)], hands=1, options=FAST)
    (problem,) = report.problems
    assert problem.check == "joins"
    assert problem.what == ("never started: it ended before saying join "
                            f"(closed-output: exit status {status})")
    assert problem.stderr[-1] == stderr
    lines = format_report(report, "bot.py")
    assert lines[1:5] == ["  joins                1 problem(s)", "  answers in time      ok",
                          "  legal moves          ok", "  exits when killed    ok"]
    assert f"    stderr: {stderr}" in lines


def test_check_bot_command_shows_the_traceback_of_a_bot_that_never_started(
        tmp_path: Path) -> None:
    bot = tmp_path / "mybot.py"
    bot.write_text("#!/usr/bin/env python3\nimport no_such_module\n")
    bot.chmod(0o755)
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()",
                           "check-bot", str(bot), "--hands", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "hand 1, seat 0: [joins] never started: it ended before saying join " \
        "(closed-output: exit status 1)" in done.stdout
    assert "    stderr:     import no_such_module\n" \
        "    stderr: ModuleNotFoundError: No module named 'no_such_module'\n" in done.stdout
    assert "  joins                ok" not in done.stdout


def test_an_answer_late_only_because_the_machine_held_it_up_is_no_problem() -> None:
    """The match's own timings decide: the host's share (a fourth field) comes off first,
    as in a tournament, so a busy machine does not fail a good bot at hand-in time."""
    lines = [TranscriptLine(0.0, ">", "pick 0 1M"), TranscriptLine(1.4, "<", "out 1M"),
             TranscriptLine(2.0, ">", "pick 0 2M"), TranscriptLine(3.5, "<", "out 2M"),
             TranscriptLine(4.0, ">", "mout 1 3M"), TranscriptLine(4.2, "<", "pass")]
    timings = [(0, 1400.0, 1000, 600.0),  # 400 ms of its own: in time
               (1, 900.0, 1000),  # another seat's
               (0, 1500.0, 1000, 200.0),  # 1,300 ms of its own: late
               (0, 200.0, 500)]
    late = _late_answers(lines, 0, timings)
    assert [what for what, _ in late] == [
        "answered 1500 ms after the prompt (limit 1000 ms, 200 ms of it the machine's)"]
    assert "> pick 0 2M" in late[0][1] and "< out 2M" in late[0][1]
    report = CheckReport(1, host_stalls=1)
    assert "late only because this machine was busy" in "\n".join(format_report(report, "b"))
