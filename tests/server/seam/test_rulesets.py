"""The ruleset seam from the command line: rulesets found by name, their options
checked, logs sent to the ruleset that wrote them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest

from server.seam import registry
from server.seam.contract import CommandArgs, Ruleset, Unsupported
from tests.datadir import BOTZONE as DATA

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
DRAW = "tests/bots/drawbot.py"


def server(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "200"})


def refused(run: subprocess.CompletedProcess[str]) -> str:
    """The one line of a refusal (exit 2, no traceback)."""
    assert run.returncode == 2, (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, run.stderr
    return lines[0]


def test_the_registry_lists_every_ruleset_and_loads_each_by_name() -> None:
    assert registry.names() == ["default", "botzone", "noi2014", "thupc2021"]
    for name in registry.names():
        assert registry.load(name).name == name


def test_an_unknown_ruleset_is_bad_input_naming_the_ones_there_are() -> None:
    with pytest.raises(Unsupported, match="no ruleset 'nosuch'; there are default, botzone"):
        registry.load("nosuch")
    line = refused(server("match", "--ruleset", "nosuch", DRAW, DRAW, DRAW, DRAW))
    assert "no ruleset 'nosuch'" in line


def test_server_rulesets_lists_them_with_the_default_marked() -> None:
    run = server("rulesets")
    assert run.returncode == 0, run.stderr
    assert "default (default)" in run.stdout
    assert "botzone" in run.stdout and "classic, duplicate" in run.stdout
    assert "thupc2021" in run.stdout and "simulator" in run.stdout


def test_a_simulator_ruleset_plays_no_match() -> None:
    line = refused(server("match", "--ruleset", "thupc2021", DRAW, DRAW, DRAW, DRAW))
    assert "thupc2021" in line and "plays no bots" in line


@pytest.mark.parametrize(("args", "said"), [
    (["--variant", "classic"], "--variant: not an option of match in the default ruleset"),
    (["--format", "duplicate"], "--format: not an option of match in the default ruleset"),
    (["--ruleset", "botzone", "--groups", "2"],
     "--groups: not an option of match in the botzone ruleset"),
    (["--ruleset", "botzone", "--on-fault", "end", "--announce"],
     "--announce, --on-fault: not an option of match in the botzone ruleset"),
])
def test_an_option_the_ruleset_does_not_read_is_refused_before_anything_starts(
        args: list[str], said: str) -> None:
    assert said in refused(server("match", *args, DRAW, DRAW, DRAW, DRAW))


def test_a_given_option_is_told_apart_from_a_default() -> None:
    class Probe(Ruleset):
        name = "probe"
        options: ClassVar = {"match": frozenset({"seed"})}

    Probe().check_options("match", CommandArgs({"seed": 1, "groups": 6}, frozenset({"seed"})))
    with pytest.raises(Unsupported, match="--groups"):
        Probe().check_options("match", CommandArgs({"groups": 6}, frozenset({"groups"})))


def test_a_command_a_ruleset_does_not_have_says_so() -> None:
    with pytest.raises(Unsupported, match="the thupc2021 ruleset is a simulator with no verify"):
        registry.load("thupc2021").verify(ROOT)


def test_a_log_goes_to_the_ruleset_that_wrote_it() -> None:
    botzone = registry.load("botzone")
    default = registry.load("default")
    game = DATA / "c05_robbed_added_kong.json"
    assert botzone.owns(game) and not default.owns(game)
    assert not botzone.owns(ROOT / "tests")
    run = server("replay", str(game), "--codes", "--at", "1")
    assert run.returncode == 0, run.stderr
    assert "W1" in run.stdout
