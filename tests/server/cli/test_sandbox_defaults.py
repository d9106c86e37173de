"""Which commands sandbox their bots by default, and what they make private (issue 32).

Where bubblewrap cannot start (here: no ``bwrap`` on PATH), every command whose
sandbox is bwrap, by default or by choice, stops before anything plays: one line,
exit status 2, and nothing written in its output folder. Real commands, real files.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-m", "server.cli"]
GREEDY = ROOT / "sample_ai" / "greedy.py"


def without_bwrap(tmp_path: Path) -> dict[str, str]:
    """The environment of a machine without bubblewrap: a PATH with only Python."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in ("python3", "python"):
        if not (bin_dir / name).exists():
            (bin_dir / name).symlink_to(sys.executable)
    return {**os.environ, "PATH": str(bin_dir), "COLUMNS": "200"}


def bots_file(tmp_path: Path) -> Path:
    path = tmp_path / "BOTS.toml"
    path.write_text("".join(f'[[bot]]\nname = "b{i}"\ncommand = "{sys.executable} {GREEDY}"\n'
                            for i in range(4)))
    return path


def mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("command", [
    ["tournament", "{bots}", "--out", "{out}"],
    ["tournament", "{bots}", "--out", "{out}", "--ruleset", "botzone"],
    ["match", "--serve", "127.0.0.1:0", "--log-dir", "{out}", *[str(GREEDY)] * 4],
    ["match", "--ruleset", "botzone", "--serve", "127.0.0.1:0", "--log-dir", "{out}",
     *[f"{sys.executable} {GREEDY}"] * 4],
    ["serve", "{made}", "--handins", "--bind", "127.0.0.1:0"],
    ["check-bot", "--sandbox", "bwrap", str(GREEDY)],
], ids=["tournament", "botzone-tournament", "match-serve", "botzone-match-serve",
        "serve-handins", "check-bot-bwrap"])
def test_a_sandboxed_command_without_bubblewrap_stops_first_saying_how_to_fix_it(
        tmp_path: Path, command: list[str]) -> None:
    out, made = tmp_path / "out", tmp_path / "made"
    made.mkdir()
    argv = [w.format(bots=bots_file(tmp_path), out=out, made=made) for w in command]
    done = subprocess.run([*SERVER, *argv], env=without_bwrap(tmp_path), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("error: --sandbox bwrap") and "--sandbox none" in line, line
    assert not out.exists(), "nothing is written before the sandbox is known to work"
    assert list(made.iterdir()) == []


def test_the_help_says_which_commands_sandbox_by_default_and_why() -> None:
    def said(command: str) -> str:
        done = subprocess.run([*SERVER, command, "--help"], capture_output=True, text=True,
                              timeout=60, env={**os.environ, "COLUMNS": "300"})
        return " ".join(done.stdout.split())

    assert "[default: bwrap; stored, and kept on --resume]" in said("tournament")
    match = said("match")
    assert "default: none for a match of local programs (your own code and the sample AIs" \
        in match and "bwrap with --serve" in match
    assert "none (the bot runs as you)" in said("check-bot")


def test_tokens_are_the_servers_users_alone(tmp_path: Path) -> None:
    out = tmp_path / "out"
    subprocess.run([*SERVER, "tokens", str(out), "alice"], capture_output=True, timeout=60,
                   check=True)
    assert (mode(out), mode(out / "handins")) == (0o700, 0o700)
    assert mode(out / "handins" / "tokens.json") == 0o600
