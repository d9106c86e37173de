"""The script a bot's interpreter would run, read from its command line, and the
pre-check that refuses a command whose script does not exist."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from server.bots import BotCommandError, parse_command
from server.scripts import script_of

CASES = [
    # Python: every word after the options is the script; -c, -m and - mean none.
    ("python3 bot.py --seed 3", "bot.py"),
    ("python bot", "bot"),
    ("/usr/bin/python3.11 -u bot.py", "bot.py"),
    ("pypy3 -OO -B bot.py", "bot.py"),
    ("python3 -W ignore -X dev bot.py", "bot.py"),
    ("python3 -Wignore -Xdev bot.py", "bot.py"),
    ("python3 --check-hash-based-pycs never bot.py", "bot.py"),
    ("python3 -- bot.py", "bot.py"),
    ("python3 -m sample_ai.greedy", None),
    ("python3 -Im sample_ai.greedy", None),
    ("python3 -msample_ai.greedy", None),
    ("python3 -c 'print(1)'", None),
    ("python3 -u -c 'print(1)' x.py", None),
    ("python3 -", None),
    ("python3", None),
    # Shells: -c (also in a group: -ec) and -s mean none; -o takes a value.
    ("bash x.sh", "x.sh"),
    ("sh -e ./run", "./run"),
    ("bash -o pipefail bots/run", "bots/run"),
    ("bash -ec 'exit 1'", None),
    ("sh -s", None),
    ("bash runme", None),  # no / and no suffix: maybe not a file, not checked
    # Node, Ruby, Perl, PHP, Lua.
    ("node x.js", "x.js"),
    ("node --max-old-space-size=512 -r ts-node/register bot.ts", "bot.ts"),
    ("node -e 'console.log(1)'", None),
    ("ruby -I lib bot.rb", "bot.rb"),
    ("perl -w bot.pl", "bot.pl"),
    ("perl -e 'print 1'", None),
    ("php -f bot.php", "bot.php"),
    ("php -r 'echo 1;'", None),
    ("lua -l socket bot.lua", "bot.lua"),
    # Not an interpreter read here.
    ("./bot --level 3", None),
    ("java -jar bot.jar", None),
]


@pytest.mark.parametrize(("command", "script"), CASES, ids=[c for c, _ in CASES])
def test_the_script_an_interpreter_would_run(command: str, script: str | None) -> None:
    assert script_of(shlex.split(command)) == script


@pytest.mark.parametrize("command", ["python3 nosuch.py", "python3 -u nosuch.py --seed 1",
                                     "python nosuch.py", "bash x.sh", "sh dir/x.sh"])
def test_a_missing_script_is_refused_like_a_missing_program(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    monkeypatch.chdir(tmp_path)
    script = script_of(shlex.split(command))
    message = f"would run {script}, which does not exist (in {tmp_path})"
    with pytest.raises(BotCommandError, match=re.escape(message)):
        parse_command(command)


def test_scripts_are_read_from_the_folder_the_bot_paths_are_taken_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Relative to the server's working folder, as the launcher makes them absolute."""
    (tmp_path / "alice").mkdir()
    (tmp_path / "alice" / "bot.py").write_text("print('join')\n")
    monkeypatch.chdir(tmp_path)
    assert parse_command("python3 -u alice/bot.py") == ["python3", "-u", "alice/bot.py"]
    assert parse_command(f"python3 {tmp_path}/alice/bot.py")[1] == f"{tmp_path}/alice/bot.py"
    monkeypatch.chdir(tmp_path / "alice")
    with pytest.raises(BotCommandError, match=re.escape("alice/bot.py, which does not exist")):
        parse_command("python3 alice/bot.py")


@pytest.mark.parametrize("command", ["python3 -m sample_ai.greedy",
                                     "python3 -c 'print(1)'", "sh -c 'exit 1'"])
def test_commands_without_a_script_file_are_not_refused(command: str) -> None:
    assert parse_command(command) == shlex.split(command)
