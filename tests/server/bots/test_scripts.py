"""The script a bot's interpreter would run, read from its command line, and the
pre-check that refuses a command whose script does not exist."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from server.bots.processes import BotCommandError, parse_command
from server.bots.scripts import script_of

ROOT = Path(__file__).resolve().parents[3]

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


def _crlf_bot(folder: Path) -> Path:
    """A framework bot saved with Windows line endings (an editor's default)."""
    bot = folder / "mybot.py"
    source = ("#!/usr/bin/env python3\nimport sys\nfrom sample_ai.framework import Bot, run_stdio\n"
              "sys.exit(run_stdio(Bot))\n")
    bot.write_bytes(source.replace("\n", "\r\n").encode())
    bot.chmod(0o755)
    return bot


def test_a_shebang_with_windows_line_endings_is_refused_with_the_fix(tmp_path: Path) -> None:
    bot = _crlf_bot(tmp_path)
    with pytest.raises(BotCommandError) as refused:
        parse_command(str(bot))
    message = str(refused.value)
    assert "Windows line endings (CRLF)" in message
    assert r"'#!/usr/bin/env python3\r'" in message
    assert f"dos2unix {bot}" in message
    # Run through an interpreter, the first line is only a comment: nothing to refuse.
    assert parse_command(f"python3 {bot}") == ["python3", str(bot)]


@pytest.mark.parametrize("command", ["match", "check-bot", "tournament"])
def test_a_crlf_bot_is_refused_before_anything_starts(tmp_path: Path, command: str) -> None:
    """In a match, check-bot and a tournament: exit 2 and the cause, no hand played."""
    bot = _crlf_bot(tmp_path)
    greedy = str(ROOT / "sample_ai" / "greedy.py")
    if command == "match":
        args = ["match", str(bot), greedy, greedy, greedy, "--groups", "1"]
    elif command == "check-bot":
        args = ["check-bot", str(bot)]
    else:
        toml = tmp_path / "bots.toml"
        toml.write_text(f'[[bot]]\nname = "mine"\ncommand = "{bot}"\n'
                        f'[[bot]]\nname = "greedy"\ncommand = "{greedy}"\n')
        args = ["tournament", "--seed", "0", str(toml), "--out", str(tmp_path / "out")]
    done = subprocess.run([sys.executable, "-m", "server.cli.app", *args], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Windows line endings (CRLF)" in done.stderr + done.stdout
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "matches").exists()
