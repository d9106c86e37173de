"""A student's bug is shown to the student: a bot whose framework answers for its
exceptions, debug text printed on stdout, a fault that comes back every hand."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from protocol.bot_errors import MARKER, Reports, report_line
from rulesets.noi2014.records import fault_causes
from server.bots.botzone_io import BAD_OUTPUT, parse_output

ROOT = Path(__file__).resolve().parents[1]
TYPO = str(ROOT / "tests" / "bots" / "framework_bug.py")
CHATTY = f"{sys.executable} {ROOT}/tests/bots/stdout_debug.py"
RAISED = "on_turn raised AttributeError: 'Table' object has no attribute 'hnd' (framework_bug.py:"


def server(*args: str, cwd: Path = ROOT, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli.app", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "COLUMNS": "250"})


def test_reports_are_read_from_stderr_chunks_and_counted_by_problem() -> None:
    reports = Reports()
    line = (report_line("on_turn raised KeyError: 5 (bot.py:3)", "after 'pick 5M'") + "\n"
            ).encode()
    reports.feed(b"noise\n" + line[:10])
    reports.feed(line[10:] + line.replace(b"5M", b"6M") + b"Traceback\n")
    reports.feed(report_line("on_rob gave an illegal answer", "'hu'").encode())
    reports.close()
    assert reports.count == 3
    assert reports.distinct == {"on_turn raised KeyError: 5 (bot.py:3)": 2,
                                "on_rob gave an illegal answer": 1}
    assert reports.detail["on_turn raised KeyError: 5 (bot.py:3)"] == "after 'pick 5M'"


def test_check_bot_fails_a_bot_whose_framework_hides_its_exceptions() -> None:
    """Exit 1, the exception with the bot's own line, its traceback, and said once with
    the hands it came back in (not four times)."""
    run = server("check-bot", TYPO)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "the bot speaks the protocol correctly" not in run.stdout
    assert f"[legal moves] its own code failed (its framework answered a safe move " \
           f"instead): {RAISED}" in run.stdout
    assert "stderr:     return self.table.hnd[0]" in run.stdout
    assert run.stdout.count(RAISED) == 1
    assert "... and 3 more time(s) the same, in hand(s) 2, 3, 4" in run.stdout


def test_simulate_counts_the_decisions_the_framework_replaced(tmp_path: Path) -> None:
    run = server("simulate", "--bots", f"{TYPO}:Typo,random,greedy,greedy", "--hands", "4",
                 "--json")
    assert run.returncode == 0, run.stderr
    assert MARKER in run.stderr
    players = json.loads(run.stdout)["players"]
    assert players[0]["illegal"] > 10 and all(p["illegal"] == 0 for p in players[1:])


def test_a_match_counts_and_shows_a_bot_error_once() -> None:
    greedy, rand = str(ROOT / "sample_ai" / "greedy.py"), str(ROOT / "sample_ai" / "random_bot.py")
    # Three hands, not a 16-hand group: said in the first, counted in the two after.
    run = server(TYPO, greedy, rand, rand, "--hands", "3", "--seed", "3")
    assert run.returncode == 0, run.stderr
    said = [line for line in run.stderr.splitlines() if RAISED in line]
    assert len(said) == 2, run.stderr  # the line of hand 1, and the count of the rest
    assert said[0].startswith(f"hand 1: player 0 ({TYPO}): its own code failed ")
    assert "came back 2 more time(s)" in said[1]
    assert "bot errors" in run.stdout


def test_bad_output_quotes_what_the_bot_printed() -> None:
    out = parse_output("json", b"thinking\x1b[0m...\n{\"response\": \"PASS\"}\n")
    assert out.verdict == BAD_OUTPUT
    assert out.cause.startswith("output is not JSON (Expecting value: line 1 column 1")
    assert out.cause.endswith('it printed "thinking\\x1b[0m...\\n{"response": "PASS"}\\n"')
    long = parse_output("json", b"x" * 5000).cause
    assert len(long) < 200 and long.endswith('…"')


def test_a_noi_fault_line_gives_the_cause_beside_the_verdict(tmp_path: Path) -> None:
    # The opponents are kept running (one process each, not one a turn): only the chatty
    # bot's fault line is checked.
    rand = f"json+keep-running:{sys.executable} {ROOT}/sample_ai/noi2014/random_bot.py " \
        "--keep-running"
    run = server("match", "--ruleset", "noi2014", CHATTY, rand, rand, rand, "--seed", "1")
    assert run.returncode == 0, run.stderr
    assert "(BAD_OUTPUT): output is not JSON (Expecting value: line 1 column 1 (char 0)): " \
           "it printed \"debug: 1 requests so far\\n" in run.stderr
    assert "; debug output belongs on stderr (Python: print(..., file=sys.stderr))" \
        in run.stderr
    record = {"players": [[{"verdict": "BAD_OUTPUT", "cause": "exited without printing "
                            "anything"}]],
              "judge": [{"events": [{"act": "FAULT", "seat": 0, "cause": "BAD_OUTPUT"}]}]}
    assert fault_causes(record) == {0: "(BAD_OUTPUT: exited without printing anything)"}


def test_a_botzone_tournament_says_its_fault_lines_once_with_a_count(tmp_path: Path) -> None:
    bots = tmp_path / "BOTS.toml"
    rand = f"{sys.executable} {ROOT}/sample_ai/botzone/random_bot.py"
    bots.write_text(f'[[bot]]\nname = "chatty"\ncommand = "{CHATTY}"\nruleset = "botzone"\n'
                    f'[[bot]]\nname = "r"\ncommand = "{rand}"\nruleset = "botzone"\n')
    run = server("tournament", str(bots), "--ruleset", "botzone", "--walls", "1", "--orders",
                 "4", "--rounds", "1", "--variant", "duplicate", "--seed", "0",
                 "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if "chatty" in line]
    assert len(lines) == 2, run.stderr
    assert lines[0].startswith("r1t1 game 1: chatty (P0) faulted: BAD_OUTPUT: output is not "
                               "JSON")
    assert 'it printed "debug: 1 requests so far' in lines[0]
    assert lines[1] == ("chatty: the problem said at r1t1 game 1 came back 3 more time(s), "
                        "the same (r1t1 game 2, r1t1 game 3, r1t1 game 4)")


def test_a_tournament_says_a_framework_bug_without_calling_it_a_fault(tmp_path: Path) -> None:
    """No fault is charged for a move the framework answered for: the line says the
    bot's own code failed, and not that it faulted."""
    bots = tmp_path / "BOTS.toml"
    greedy = ROOT / "sample_ai" / "greedy.py"
    bots.write_text(f'[[bot]]\nname = "typo"\ncommand = "{TYPO}"\n'
                    f'[[bot]]\nname = "g"\ncommand = "{greedy}"\n')
    run = server("tournament", "--seed", "0",
                 str(bots), "--rounds", "1", "--hands", "2", "--jobs", "1",
                 "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.startswith("r1t1 ")]
    assert lines, run.stderr
    assert lines[0].startswith("r1t1 hand 1: typo (P"), lines
    assert ": its own code failed " in lines[0], lines
    assert "AttributeError: 'Table' object has no attribute 'hnd'" in lines[0], lines
    assert not any("faulted" in line for line in lines), lines
