"""Messages that send a person the right way: each mistake is named as made.

Every case is refused before anything starts (exit status 2, one line, no traceback).
Most call the command line's entry point in this process (``tests.server.cli.inprocess``:
a process apiece cost a second of start-up for no check more); a mistyped command and
``python -m server.cli`` are real ``server`` processes, run as a user runs them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from server.cli.app import app
from tests.server.cli.inprocess import server_here

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
DRAWBOT = f"{ROOT}/tests/bots/drawbot.py"
COMMANDS = {c.name or (c.callback.__name__ if c.callback else "")
            for c in app.registered_commands}


def server(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return server_here(*args, cwd=cwd, columns=400)


def server_process(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-c", "from server.cli.app import main; main()", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "COLUMNS": "400"})


def refused(done: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command printed."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def bots_file(folder: Path, *tables: str) -> Path:
    path = folder / "bots.toml"
    path.write_text("\n".join(tables) + "\n", encoding="utf-8")
    return path


def good_bot(name: str, table: str = "bot") -> str:
    return f'[[{table}]]\nname = "{name}"\ncommand = ["{PY}", "{DRAWBOT}"]'


def test_a_mistyped_command_is_named_with_the_command_meant(tmp_path: Path) -> None:
    line = refused(server_process("tournamnet", "x", cwd=tmp_path))
    assert "no such command 'tournamnet'; did you mean 'tournament'?" in line
    assert "AIs" not in line.split("(")[0]


def test_a_word_that_can_be_a_bot_is_still_a_bot() -> None:
    """Only a word that names nothing runnable is taken for a misspelt command."""
    from server.cli.app import mistyped_command

    assert mistyped_command("chek-bot", COMMANDS) == "check-bot"
    assert mistyped_command("greedy", COMMANDS) is None  # far from every command
    assert mistyped_command("python3", COMMANDS) is None
    assert mistyped_command("./tournamnet", COMMANDS) is None  # a path
    assert mistyped_command("tcp:replays", COMMANDS) is None  # a remote seat


def test_a_mistyped_command_that_is_a_file_here_is_left_to_the_match(tmp_path: Path) -> None:
    (tmp_path / "verfy").write_text("#!/bin/sh\n")
    line = refused(server("verfy", DRAWBOT, DRAWBOT, DRAWBOT, cwd=tmp_path))
    assert "write ./verfy" in line and "no such command" not in line


def test_a_misspelt_table_in_a_bots_file_is_named(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, *(good_bot(n, "bots") for n in ("ann", "bob")))
    line = refused(server("tournament", str(bots), "--out", str(tmp_path / "t")))
    assert "table [[bots]] (did you mean [[bot]]?) is not understood" in line
    assert "at least two bots" not in line
    assert not (tmp_path / "t").exists()


def test_a_misspelt_key_of_a_bot_is_named(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, good_bot("ann"), good_bot("bob"),
                     f'[[bot]]\nname = "cid"\ncomand = ["{PY}", "{DRAWBOT}"]')
    line = refused(server("tournament", str(bots), "--out", str(tmp_path / "t")))
    assert "bot 'cid': key 'comand' (did you mean 'command'?) is not understood" in line


def test_every_bad_bot_of_a_tournament_is_named_at_once(tmp_path: Path) -> None:
    bots = bots_file(tmp_path, good_bot("ann"),
                     '[[bot]]\nname = "bob"\ncommand = "python3 nosuch.py"',
                     good_bot("cid"),
                     '[[bot]]\nname = "dee"\ncommand = "./missing-bot"',
                     '[[bot]]\ncommand = "./missing-bot"')
    line = refused(server("tournament", str(bots), "--out", str(tmp_path / "t"),
                          cwd=tmp_path))
    assert "3 bots cannot be used" in line
    assert "(1) bot 'bob': AI 'python3 nosuch.py': python3 would run nosuch.py" in line
    assert "(2) bot 'dee': AI './missing-bot': ./missing-bot does not exist" in line
    assert "(3) bot 5 needs a name" in line


@pytest.fixture
def spaced_bot(tmp_path: Path) -> Path:
    """A bot saved as ``dir with space/my bot.py``."""
    folder = tmp_path / "dir with space"
    folder.mkdir()
    bot = folder / "my bot.py"
    bot.write_text(Path(DRAWBOT).read_text())
    bot.chmod(0o755)
    return bot


def test_a_path_with_spaces_that_the_command_line_split_says_how_to_quote_it(
        tmp_path: Path, spaced_bot: Path) -> None:
    line = refused(server("./dir with space/my bot.py", DRAWBOT, DRAWBOT, DRAWBOT,
                          cwd=tmp_path))
    assert "./dir does not exist; './dir with space/my bot.py' exists: its spaces split " \
        "it into words, so quote it inside the command: \"'./dir with space/my bot.py'\"" \
        in line
    # Quoted as it says, the bot is found (the match then fails on the other AIs only).
    line = refused(server("'./dir with space/my bot.py'", "./nosuch", DRAWBOT, DRAWBOT,
                          cwd=tmp_path))
    assert "./nosuch does not exist" in line


def test_a_script_with_spaces_in_a_bots_file_says_how_to_quote_it(
        tmp_path: Path, spaced_bot: Path) -> None:
    bots = bots_file(tmp_path, good_bot("ann"), good_bot("bob"),
                     '[[bot]]\nname = "cid"\ncommand = "python3 ./dir with space/my bot.py"')
    line = refused(server("tournament", str(bots), "--out", str(tmp_path / "t"),
                          cwd=tmp_path))
    assert "bot 'cid'" in line
    assert "quote it inside the command: \"python3 './dir with space/my bot.py'\"" in line


def test_python_m_server_cli_runs_the_server_command_as_the_installed_script_does() -> None:
    """``python -m server.cli`` still works now that the command line is a package."""
    by_module = subprocess.run([PY, "-m", "server.cli", "rulesets"], cwd=ROOT,
                               capture_output=True, text=True, timeout=60,
                               env={**os.environ, "COLUMNS": "400"})
    assert by_module.returncode == 0, by_module.stderr
    assert by_module.stdout == server_process("rulesets").stdout
    assert "botzone" in by_module.stdout
