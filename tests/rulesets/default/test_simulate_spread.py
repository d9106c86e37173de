"""``server simulate --jobs N`` and ``--cluster``: the hands spread out, the same summary.

Every run is the real command in a subprocess. Each carries a mark in its
environment, which its worker processes (and Ray's, which the command starts)
inherit: a process left behind after the command ended is found.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from rulesets.default.simulate_spread import Luggage, pack
from server.cluster.ray_cluster import INSTALL
from tests.rulesets.default.test_simulate import server_command, without_timing
from tests.server.tournament.test_tournament import MARK, marked, wait_gone
from tests.signals import ctrl_c_works

ROOT = Path(__file__).resolve().parents[3]
CRASHER = "tests.sim_bots:Crasher"
UNBUILDABLE = "tests.sim_bots:Unbuildable"

MY_BOTS = """\
from sample_ai.greedy import GreedyBot
from sample_ai.random_bot import RandomBot

from helper import NAME  # a module beside the bot file: its folder travels whole


class MyBot(GreedyBot):
    name = NAME


class Crasher(RandomBot):
    \"\"\"Raises on its 40th line of every hand.\"\"\"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.lines = 0

    def receive(self, message):
        self.lines += 1
        if self.lines == 40:
            raise ZeroDivisionError("the bug in a bot file")
        return super().receive(message)
"""
MOD_BOT = """\
from sample_ai.random_bot import RandomBot


class ModBot(RandomBot):
    pass


class ModCrasher(RandomBot):
    \"\"\"Raises on its 60th line of every hand.\"\"\"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.lines = 0

    def receive(self, message):
        self.lines += 1
        if self.lines == 60:
            raise ValueError("the bug in a module bot")
        return super().receive(message)
"""


def run(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None,
        argv: list[str] | None = None) -> subprocess.CompletedProcess[str]:
    """``server simulate ARGS`` to its end; no process of it may be left."""
    mark = uuid.uuid4().hex
    done = subprocess.run([*(argv or server_command()), "simulate", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "COLUMNS": "200", MARK: mark, **(env or {})})
    wait_gone(mark)
    return done


def summary_of(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def student_folder(tmp_path: Path) -> Path:
    """A student's folder: a module bot in it, bot files in ``bots/`` (with a helper)."""
    (tmp_path / "bots").mkdir(parents=True)
    (tmp_path / "bots" / "mine.py").write_text(MY_BOTS)
    (tmp_path / "bots" / "helper.py").write_text('NAME = "mine"\n')
    (tmp_path / "modbot.py").write_text(MOD_BOT)
    return tmp_path


@pytest.mark.parametrize(("bots", "hands", "seed"), [
    ("random,random,greedy,greedy", 30, 3),
    (f"{CRASHER},greedy,random,{UNBUILDABLE}", 24, 5),
    ("greedy,greedy,greedy,random", 9, 0),
], ids=["samples", "crashers", "fewer-hands-than-chunks"])
def test_jobs_2_gives_the_summary_of_one_process(bots: str, hands: int, seed: int) -> None:
    args = ("--bots", bots, "--hands", str(hands), "--seed", str(seed), "--json")
    one = run(*args)
    two = run(*args, "--jobs", "2")
    assert without_timing(summary_of(two)) == without_timing(summary_of(one))
    # The crashes are counted the same, and told with the same first traceback.
    assert two.stderr == one.stderr


def test_jobs_resolve_bot_files_and_modules_of_the_current_folder(tmp_path: Path) -> None:
    """Workers find ``module:Class`` in the current folder and ``path/to/bot.py:Class``
    as the command did, though ``server`` puts neither on the module path."""
    folder = student_folder(tmp_path)
    args = ("--bots", "bots/mine.py:MyBot,modbot:ModBot,bots/mine.py:Crasher,greedy",
            "--hands", "20", "--seed", "4", "--json")
    one = summary_of(run(*args, cwd=folder))
    three = run(*args, "--jobs", "3", cwd=folder)
    assert without_timing(summary_of(three)) == without_timing(one)
    assert "P2 (bots/mine.py:Crasher) raised an exception in 20 hand(s)" in \
        " ".join(three.stderr.split())


def test_a_bad_bot_is_refused_before_any_worker_starts(tmp_path: Path) -> None:
    done = run("--bots", "random,random,greedy,nosuch.py:Bot", "--jobs", "2", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line == "error: bot 'nosuch.py:Bot': no file nosuch.py"


def test_jobs_0_is_refused() -> None:
    done = run("--jobs", "0")
    assert done.returncode == 2
    assert "Invalid value for '--jobs'" in done.stderr


def test_jobs_and_cluster_together_are_refused() -> None:
    done = run("--jobs", "2", "--cluster", "local")
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: --jobs is for processes on this machine")


def test_cluster_without_ray_says_how_to_install_it() -> None:
    blocked = [sys.executable, "-c",
               "import sys; sys.modules['ray'] = None\n"  # import ray: ImportError
               "from server.cli.app import main; main()"]
    done = run("--cluster", "local", "--hands", "2", argv=blocked)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: --cluster needs Ray") and INSTALL in line


def test_bots_folders_too_big_to_travel_are_refused_before_ray_starts(
        tmp_path: Path) -> None:
    folder = student_folder(tmp_path)
    (folder / "bots" / "model.bin").write_bytes(bytes(64 * 1024))
    (folder / ".venv").mkdir()  # never travels, however big
    (folder / ".venv" / "big").write_bytes(bytes(1024 * 1024))
    # Ray's start is a trap here: a refusal that came after it would exit 3 (not 2).
    trapped = [sys.executable, "-c",
               "import sys, ray; ray.init = lambda *a, **k: sys.exit(3)\n"
               "from server.cli.app import main; main()"]
    done = run("--bots", "bots/mine.py:MyBot,random,random,random", "--cluster", "local",
               cwd=folder, env={"MAHJONG_CLUSTER_MAX_MB": "0.05"}, argv=trapped)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    (line,) = done.stderr.splitlines()
    assert f"the bots' folders ({folder}/bots) come to more than the 0.05 MiB" in line
    assert "MAHJONG_CLUSTER_MAX_MB" in line


@pytest.mark.parametrize("json_out", [False, True])
def test_ctrl_c_with_jobs_prints_what_the_ended_chunks_played(
        tmp_path: Path, json_out: bool) -> None:
    marker, mark = tmp_path / "started", uuid.uuid4().hex
    argv = [*server_command(), "simulate", "--bots",
            ",".join(["tests.sim_bots:Announcer"] * 4), "--hands", "1000000", "--jobs", "2",
            *(["--json"] if json_out else [])]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, preexec_fn=ctrl_c_works,
                            env={**os.environ, "SIM_STARTED": str(marker), MARK: mark})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until each worker has ended chunks (50 hands)
            if marker.exists() and marker.stat().st_size >= 4 * 300:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
        proc.wait()
    wait_gone(mark, seconds=5)  # the workers were stopped, not left playing
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "Traceback" not in err
    if json_out:
        summary = json.loads(out)
        assert 0 < summary["hands"] < 1000000 and summary["hands"] % 50 == 0
        assert summary["draws"] + sum(summary["wins"].values()) == summary["hands"]
    else:
        assert "hands, seed 0" in out and "draws" in out


def test_a_killed_command_leaves_no_worker_behind() -> None:
    """Workers waiting for work would never learn that their parent is gone: they look."""
    mark = uuid.uuid4().hex
    proc = subprocess.Popen([*server_command(), "simulate", "--hands", "1000000",
                             "--jobs", "2"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, MARK: mark})
    deadline = time.monotonic() + 30
    while len(marked(mark)) < 3 and time.monotonic() < deadline:  # the command, 2 workers
        time.sleep(0.05)
    time.sleep(0.5)
    proc.kill()
    proc.wait()
    wait_gone(mark, seconds=5)


# --- what travels to a cluster's nodes ---------------------------------------------------

def test_installed_bots_travel_not(tmp_path: Path) -> None:
    assert pack(["random", "greedy", "sample_ai.greedy:GreedyBot", "random"], tmp_path) == \
        Luggage((), ("random", "greedy", "sample_ai.greedy:GreedyBot", "random"), None)


def test_a_module_of_the_current_folder_takes_the_folder_along(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = student_folder(tmp_path).resolve()
    monkeypatch.chdir(folder)
    monkeypatch.syspath_prepend(str(folder))  # as resolving the bots here left it
    luggage = pack(["modbot:ModBot", "bots/mine.py:MyBot", f"{folder}/bots/mine.py:Crasher",
                    "greedy"], folder)
    assert luggage == Luggage((folder,), ("modbot:ModBot", "0/bots/mine.py:MyBot",
                                          "0/bots/mine.py:Crasher", "greedy"), 0)


def test_bot_files_take_their_own_folders_along(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    folder = student_folder(tmp_path / "me").resolve()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "bot.py").write_text(MOD_BOT)
    monkeypatch.chdir(folder)
    luggage = pack(["bots/mine.py:MyBot", "../other/bot.py:ModBot", "random", "random"],
                   folder)
    assert luggage == Luggage((folder / "bots", tmp_path.resolve() / "other"),
                              ("0/mine.py:MyBot", "1/bot.py:ModBot", "random", "random"), None)


@pytest.mark.slow
def test_cluster_local_gives_the_summary_of_one_process(tmp_path: Path) -> None:
    """A Ray instance started by the command; the bots' folders reach its tasks through
    the cluster's object store (the crashes' tracebacks name the tasks' copies)."""
    folder = student_folder(tmp_path / "me")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "crash.py").write_text(MY_BOTS)
    (tmp_path / "other" / "helper.py").write_text('NAME = "other"\n')
    args = ("--bots", "bots/mine.py:MyBot,modbot:ModCrasher,../other/crash.py:Crasher,greedy",
            "--hands", "24", "--seed", "6", "--json")
    one = run(*args, cwd=folder)
    # RAY_ADDRESS=local: a Ray instance of its own, never one another test (or person)
    # started on this machine.
    ray = run(*args, "--cluster", "local", cwd=folder, env={"RAY_ADDRESS": "local"})
    assert without_timing(summary_of(ray)) == without_timing(summary_of(one))
    crashes = [line for line in ray.stderr.splitlines() if "raised an exception in" in line]
    assert crashes == [line for line in one.stderr.splitlines()
                       if "raised an exception in" in line]
    assert [line[:2] for line in crashes] == ["P1", "P2"]
    assert "ValueError: the bug in a module bot" in ray.stderr
    assert "ZeroDivisionError: the bug in a bot file" in ray.stderr
    assert "/mahjong-simulate-" in ray.stderr and str(tmp_path) not in ray.stderr
