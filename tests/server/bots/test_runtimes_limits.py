"""Real runtimes under every ruleset's default limits, and limits that mean one thing.

Java (a JVM with its defaults), Node and Python with numpy start and play under
each ruleset's default memory limit, in a match and a tournament, with and without
bubblewrap: the limit is on memory used (``server.bots.memlimit``), not on the address
space a JVM reserves. A bot that really uses more gets the memory verdict with a
cause that names the limit; ``--help`` shows each ruleset's own defaults; what a
bot wrote on stdout before it died is in its fault line.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server.bots import memlimit
from server.bots.processes import start_bot
from server.bots.sandbox import BotLimits
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[3]
RUNTIMES = ROOT / "tests" / "bots" / "runtimes"
HOSTILE = ROOT / "tests" / "hostile"
GREEDY = f"python3 {ROOT / 'sample_ai' / 'greedy.py'}"
RULESETS = ("default", "botzone", "noi2014")


def server(*args: str, cwd: Path | None = None, timeout: float = 300,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "server.cli.app", *args], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd or ROOT, env=env, check=False)


@pytest.fixture(scope="module")
def java_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """``java -cp DIR Main``: the bot compiled once for the module; its command line
    without the mode word."""
    need("java")
    javac = need("javac")
    out = tmp_path_factory.mktemp("java")
    out.chmod(0o755)  # under bwrap the bot runs as nobody: its program must be readable
    subprocess.run([javac, "-d", str(out), str(RUNTIMES / "Main.java")], check=True,
                   timeout=120)
    return f"java -cp {out} Main"


@pytest.fixture(scope="module")
def node_bot() -> str:
    need("node")
    return f"node {RUNTIMES / 'bot.js'}"


def check_bot_args(command: str, sandbox: str) -> list[str]:
    """One hand of ``check-bot`` under the default ruleset's default limits."""
    return ["check-bot", f"{command} line", "--hands", "1", "--sandbox", sandbox]


def match_args(ruleset: str, commands: list[str], sandbox: str) -> list[str]:
    """A match of one game under the ruleset's default limits (botzone, noi2014: their
    check-bot's sample opponents restart every turn: slow)."""
    return ["match", *[f"json+keep-running:{command} json" for command in commands],
            "--ruleset", ruleset, "--seed", "1", "--sandbox", sandbox]


def no_verdict_charged(done: subprocess.CompletedProcess[str]) -> None:
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert not re.search(r"\b(TLE|RE|MLE|BAD_OUTPUT)\b|faulted|faults:", said), said


def bwrap_or_skip(sandbox: str) -> None:
    if sandbox == "bwrap":
        need("bwrap")


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_java_bot_plays_under_the_default_limits(java_bot: str, sandbox: str) -> None:
    bwrap_or_skip(sandbox)
    no_verdict_charged(server(*check_bot_args(java_bot, sandbox)))


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
def test_node_bot_plays_under_the_default_limits(node_bot: str, sandbox: str) -> None:
    bwrap_or_skip(sandbox)
    done = server(*check_bot_args(node_bot, sandbox))
    if sandbox == "bwrap":
        # Node tears down slowly after bwrap dies of SIGTERM: on a loaded machine the
        # sweep may still find it ("exits when killed"), which is check-bot's race, not
        # a limit's; every other check must pass.
        for check in ("joins", "answers in time", "legal moves"):
            assert re.search(rf"{check} +ok", done.stdout), done.stdout
        return
    no_verdict_charged(done)


@pytest.mark.parametrize("sandbox", ["none", "bwrap"])
@pytest.mark.parametrize("ruleset", ["botzone", "noi2014"])
def test_java_and_node_bots_play_a_match_under_the_default_limits(
        java_bot: str, node_bot: str, ruleset: str, sandbox: str) -> None:
    """Two seats each, one game: a verdict charged to either names its seat (a match of
    one runtime in every seat showed nothing more, at twice the start-ups)."""
    bwrap_or_skip(sandbox)
    no_verdict_charged(server(*match_args(ruleset, [java_bot, node_bot] * 2, sandbox)))


def test_numpy_bot_starts_under_the_smallest_default_limit() -> None:
    """256 MB (botzone, noi2014) is the smallest default: a numpy bot plays a hand."""
    done = server("check-bot", f"python3 {RUNTIMES / 'numpy_bot.py'}", "--hands", "1",
                  "--mem-limit", "256")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("ruleset", RULESETS)
def test_java_and_node_bots_play_a_tournament(java_bot: str, node_bot: str, ruleset: str,
                                              tmp_path: Path) -> None:
    if ruleset == "default":
        commands = [f"{java_bot} line", f"{node_bot} line", f"{java_bot} line",
                    f"{node_bot} line"]
        extra = ["--hands", "1"]
        io = ""
    else:
        commands = [f"{java_bot} json", f"{node_bot} json", f"{java_bot} json",
                    f"{node_bot} json"]
        extra = ["--walls", "1", "--orders", "1"]
        io = 'io = "json"\nkeep_running = true\n'
    bots = tmp_path / "BOTS.toml"
    bots.write_text("".join(f'[[bot]]\nname = "b{k}"\ncommand = "{c}"\n{io}'
                            for k, c in enumerate(commands)))
    done = server("tournament", "--seed", "0", str(bots), "--ruleset", ruleset, "--rounds", "1",
                  "--out", str(tmp_path / "t"), "--jobs", "1", *extra)
    no_verdict_charged(done)
    rows = json.loads((tmp_path / "t" / "standings.json").read_text())["standings"]
    assert all(row.get("faults", 0) == 0 and row.get("penalties", 0) == 0 for row in rows), rows
    assert sum(row.get("hands", row.get("games", 0)) for row in rows) >= 4, rows


# --- the memory verdict --------------------------------------------------------------------


def test_a_bot_over_the_limit_is_stopped_with_a_cause_naming_it() -> None:
    done = server("check-bot", f"python3 {HOSTILE / 'memory_hog.py'}", "--hands", "1",
                  "--mem-limit", "200")
    assert done.returncode == 1
    assert "memory limit of 200 MB reached" in done.stdout, done.stdout


@pytest.mark.parametrize("ruleset", ["botzone", "noi2014"])
def test_a_botzone_bot_over_the_limit_gets_mle(ruleset: str) -> None:
    hog = f"json:python3 {ROOT / 'tests' / 'bots' / 'botzone' / 'hostile.py'} json memory_hog"
    done = server("check-bot", hog, "--ruleset", ruleset, "--games", "1")
    assert "MLE: killed by SIGKILL (memory limit of 256 MB reached" in done.stdout, done.stdout


async def _hog(limit_mb: int) -> str:
    argv = [sys.executable, "-c",
            "import sys; h = []\nwhile True: h.append(b'x' * (16 << 20))"]
    peer = await start_bot(argv, "hog", None, limits=BotLimits(limit_mb, 30, 8))
    while await peer.receive_some():
        pass
    await peer.close()
    return peer.exit_detail


async def test_where_no_cgroup_can_be_made_sampling_keeps_the_limit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memlimit, "cgroups", lambda: None)
    detail = await _hog(128)
    assert detail.startswith("killed by SIGKILL (memory limit of 128 MB reached"), detail
    assert "killed by the server" in detail


async def test_the_limit_holds_with_the_mechanism_this_machine_allows() -> None:
    """A cgroup where the server may make one (the kernel stops the bot, and the cgroup
    is removed after), else sampling (the server stops it)."""
    groups = memlimit.cgroups()
    detail = await _hog(128)
    assert detail.startswith("killed by SIGKILL (memory limit of 128 MB reached"), detail
    if groups is None:
        assert "killed by the server" in detail
    else:
        assert "killed by the kernel" in detail
        assert not list(groups.folder.glob("bot-*"))


# --- one meaning of every limit option ------------------------------------------------------


@pytest.mark.parametrize("command", ["match", "check-bot", "tournament", "replay"])
def test_help_shows_each_rulesets_own_defaults(command: str) -> None:
    done = server(command, "--help")
    text = " ".join(done.stdout.split())
    assert "4096 (default ruleset), 256 (botzone, noi2014)" in text, text
    assert "300 (default ruleset), 3600 (botzone, noi2014)" in text
    assert "64 (every ruleset)" in text


def _probe_limits(stderr_text: str) -> set[str]:
    return set(re.findall(r"limits mem=\S+ cpu=\S+ file=\S+", stderr_text))


@pytest.mark.parametrize(("options", "want"), [
    ((), "limits mem=4096 cpu=300 file=64"),
    (("--mem-limit", "0", "--cpu-limit", "0", "--file-limit", "0"),
     "limits mem=none cpu=none file=none"),
    (("--mem-limit", "300", "--cpu-limit", "20", "--file-limit", "5"),
     "limits mem=300 cpu=20 file=5"),
])
def test_a_bot_gets_the_same_limits_in_every_command(options: tuple[str, ...], want: str,
                                                    tmp_path: Path) -> None:
    """check-bot, a tournament and replay --bot give the probe the limits the options say
    (a match is the tournament's table)."""
    probe = f"python3 {RUNTIMES / 'limits_probe.py'}"
    bots = tmp_path / "BOTS.toml"
    bots.write_text("".join(f'[[bot]]\nname = "p{k}"\ncommand = "{probe}"\n' for k in range(4)))
    # --sandbox none as check-bot and replay run: inside bwrap's PID and cgroup namespaces
    # the probe cannot see the memory cgroup the server put it in.
    done = server("tournament", "--seed", "0", str(bots), "--rounds", "1", "--hands", "1", "--out",
                  str(tmp_path / "t"), "--jobs", "1", "--sandbox", "none", *options)
    assert done.returncode == 0, done.stderr
    stderr = "".join(p.read_text() for p in (tmp_path / "t").rglob("*.stderr"))
    assert _probe_limits(stderr) == {want}, stderr
    hand = next(p.parent for p in (tmp_path / "t").rglob("seat0.transcript"))
    said = tmp_path / "said"
    done = server("replay", str(hand), "--seat", "0", "--bot", probe, *options,
                  env={"LIMITS_PROBE_FILE": str(said)})
    assert done.returncode == 0, done.stdout + done.stderr
    assert _probe_limits(said.read_text()) == {want}


# --- what a bot said before it died ---------------------------------------------------------


def test_what_a_dying_bot_printed_on_stdout_is_in_its_fault_line(tmp_path: Path) -> None:
    """Default ruleset: the JVM's reason, printed on stdout, reaches the console."""
    fails = f"python3 {RUNTIMES / 'vm_fails.py'}"
    bots = tmp_path / "BOTS.toml"
    bots.write_text(f'[[bot]]\nname = "vm"\ncommand = "{fails}"\n' + "".join(
        f'[[bot]]\nname = "g{k}"\ncommand = "{GREEDY}"\n' for k in range(3)))
    done = server("tournament", "--seed", "0", str(bots), "--rounds", "1", "--hands", "1", "--out",
                  str(tmp_path / "t"), "--jobs", "1")
    said = done.stderr + done.stdout
    assert "the line was: Error occurred during initialization of VM" in said, said
    assert "its stdout had: Could not reserve enough space for code cache" in said, said


@pytest.mark.parametrize("ruleset", ["botzone", "noi2014"])
def test_what_a_dying_botzone_bot_printed_is_in_its_cause(ruleset: str) -> None:
    done = server("check-bot", f"json:python3 {RUNTIMES / 'vm_fails.py'}", "--ruleset", ruleset,
                  "--games", "1")
    assert "its stdout ends: Could not reserve enough space for code cache" in done.stdout, \
        done.stdout
