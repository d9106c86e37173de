"""``--serve``: the web server child of a match or a tournament starts, says its URL, and
is gone when the run ends however it ends (``server.bots.web_child``)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest

from server.bots import web_child
from server.bots.web_child import serve_argv, serving
from server.output.stopping import EXIT_NOT_COMPLETED
from server.seam.errors import InputError
from tests.signals import ctrl_c_works

ROOT = Path(__file__).resolve().parents[3]


def web_servers(folder: Path) -> list[int]:
    """The pids of ``server serve FOLDER`` processes running now."""
    found = []
    wanted = f"server.cli\0serve\0{folder}\0".encode()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if wanted in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


def no_web_server_left(out: Path) -> bool:
    """The run's web server is gone within 10 s."""
    deadline = time.monotonic() + 10
    while web_servers(out) and time.monotonic() < deadline:
        time.sleep(0.05)
    return web_servers(out) == []


def kill_all(process: subprocess.Popen[str], out: Path) -> None:
    """Whatever a failed test left: the run's group and its web servers."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for pid in web_servers(out):
        os.kill(pid, signal.SIGKILL)


def test_the_child_serves_the_folder_and_is_stopped_after(tmp_path: Path) -> None:
    (tmp_path / "live.jsonl").write_text(json.dumps(
        {"type": "table", "title": "t", "ruleset": "default", "unit": "hand",
         "players": ["a", "b", "c", "d"], "planned": 1, "at": 0}) + "\n")
    with serving(tmp_path, "127.0.0.1:0") as url:
        assert url.startswith("http://127.0.0.1:") and url.endswith("/")
        assert web_servers(tmp_path)
        with urllib.request.urlopen(url + "api/tables", timeout=30) as r:
            assert json.load(r)["tables"][0]["players"] == ["a", "b", "c", "d"]
    assert web_servers(tmp_path) == []


def test_a_port_in_use_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(InputError, match="did not start"), \
                serving(tmp_path, f"127.0.0.1:{port}"):
            pass
    assert web_servers(tmp_path) == []


def wait_for_url(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("serving "):
            return line.split()[1]
        assert line, "the run ended before it served"
    raise AssertionError("no URL")


@pytest.mark.parametrize("how", ["ctrl-c", "kill -9"])
def test_a_tournament_stopped_leaves_no_web_server(tmp_path: Path, how: str) -> None:
    # 12 rounds: still playing when it is stopped, however loaded the machine (3 rounds
    # had once ended, status 0, before the Ctrl-C came)
    out = tmp_path / "out"
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "tournament", "--seed", "0",
         str(ROOT / "sample_ai"), "--out",
         str(out), "--rounds", "12", "--serve", "127.0.0.1:0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=(tmp_path / "stderr").open("w"), text=True,
        start_new_session=True,  # its own terminal's foreground group, as a shell gives it
        preexec_fn=ctrl_c_works,  # Ctrl-C's default, whoever started the tests
        env={**os.environ, "MAHJONG_RUN_DIR": str(tmp_path / "runs")})
    try:
        url = wait_for_url(process)
        with urllib.request.urlopen(url + "api/standings", timeout=30) as r:
            assert json.load(r)["kind"] in ("tournament", "empty")
        assert web_servers(out)
        deadline = time.monotonic() + 60  # the tables play (Ctrl-C then stops them)
        while not any((out / "matches").glob("r01-t01*")) and time.monotonic() < deadline:
            time.sleep(0.05)
        if how == "ctrl-c":
            os.killpg(process.pid, signal.SIGINT)  # what the terminal does
            # 130, or (seldom, with or without --serve) the tournament dies of the signal
            assert process.wait(60) in (130, -signal.SIGINT), (tmp_path / "stderr").read_text()
        else:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(60)
        assert no_web_server_left(out)
    finally:
        kill_all(process, out)


def test_a_match_with_serve_writes_its_folder_and_serves_it(tmp_path: Path) -> None:
    """--serve implies -d: the match folder is written, and served while it plays."""
    drawbot = f"{sys.executable} {ROOT}/tests/bots/drawbot.py"
    crash = f"{sys.executable} {ROOT}/tests/bots/crash_mid_hand.py 4"  # ends it: short
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "match", "--groups", "1", "--seed", "1",
         "--on-fault", "end", "--log-dir", str(tmp_path / "logs"), "--serve", "127.0.0.1:0",
         crash, *[drawbot] * 3],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        start_new_session=True, env={**os.environ, "MAHJONG_RUN_DIR": str(tmp_path / "runs")})
    try:
        url = wait_for_url(process)
        [folder] = (tmp_path / "logs").iterdir()
        assert web_servers(folder)
        with urllib.request.urlopen(url + "api/standings", timeout=30) as r:
            assert json.load(r)["kind"] in ("match", "empty")
        assert process.wait(120) == EXIT_NOT_COMPLETED  # ended by the fault
        assert (folder / "match.json").is_file()
        deadline = time.monotonic() + 10
        while web_servers(folder) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert web_servers(folder) == []
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_the_child_takes_hand_ins_when_asked() -> None:
    """One server, one port: --handins goes to the child's own ``server serve``."""
    assert serve_argv(Path("out"), "127.0.0.1:0", handins=True)[-3:] == [
        "--bind", "127.0.0.1:0", "--handins"]
    assert "--handins" not in serve_argv(Path("out"), "127.0.0.1:0")


def test_a_tournament_refuses_handins_without_serve_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "tournament", str(ROOT / "sample_ai"), "--out",
         str(tmp_path / "out"), "--handins"], cwd=ROOT, capture_output=True, text=True,
        timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "--serve" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def fetch(url: str) -> int:
    with urllib.request.urlopen(url, timeout=30) as r:
        status: int = r.status
        return status


def killed_and_back(folder: Path, url: str, said: Callable[[], str], times: int = 1) -> None:
    """Kill -9 the web server of ``folder``; the console says so and it serves ``url``
    again (a new process)."""
    [old] = web_servers(folder)
    os.kill(old, signal.SIGKILL)
    deadline = time.monotonic() + 60
    while said().count("is back") < times and time.monotonic() < deadline:
        time.sleep(0.05)
    text = said()
    assert text.count(f"(pid {old}) stopped (killed by SIGKILL); restarting it on") == 1, text
    assert text.count("is back") == times, text
    [new] = web_servers(folder)
    assert new != old
    assert fetch(url) == 200


def test_a_killed_child_is_said_and_restarted_on_its_port_until_the_limit(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
        ) -> None:
    monkeypatch.setattr(web_child, "RESTARTS", 1)
    err: list[str] = []

    def said() -> str:
        err.append(capfd.readouterr().err)
        return "".join(err)

    with serving(tmp_path, "127.0.0.1:0") as url:
        assert fetch(url) == 200
        killed_and_back(tmp_path, url, said)
        [pid] = web_servers(tmp_path)
        os.kill(pid, signal.SIGKILL)  # the second in a minute: over the limit
        deadline = time.monotonic() + 30
        while "not restarted again" not in said() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert f"(pid {pid}) stopped (killed by SIGKILL): 2 times in 60 s, so it is " \
            f"not restarted again; the run goes on without {url}" in said()
        assert web_servers(tmp_path) == []
    assert web_servers(tmp_path) == []


def test_a_tournaments_killed_web_server_is_said_and_serves_the_same_url_again(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    stderr = tmp_path / "stderr"
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "tournament", "--seed", "0",
         str(ROOT / "sample_ai"), "--out",
         str(out), "--rounds", "12", "--serve", "127.0.0.1:0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=stderr.open("w"), text=True,
        start_new_session=True, preexec_fn=ctrl_c_works,
        env={**os.environ, "MAHJONG_RUN_DIR": str(tmp_path / "runs")})
    try:
        url = wait_for_url(process)
        assert fetch(url) == 200
        killed_and_back(out, url, lambda: stderr.read_text(errors="replace"))
        assert fetch(url + "api/standings") == 200
        assert process.poll() is None, "the tournament goes on"
        os.killpg(process.pid, signal.SIGINT)
        assert process.wait(60) in (130, -signal.SIGINT)
        assert no_web_server_left(out)
    finally:
        kill_all(process, out)


def test_a_restarted_child_binds_the_port_first_bound_and_its_end_is_said_in_words() -> None:
    assert web_child._bound_again("127.0.0.1:0", "http://127.0.0.1:41234/") == \
        "127.0.0.1:41234"
    assert web_child._bound_again("0", "http://127.0.0.1:41234/") == "41234"
    assert web_child._bound_again("0.0.0.0:8000", "http://0.0.0.0:8000/") == "0.0.0.0:8000"
    assert web_child.exit_words(-signal.SIGKILL) == "killed by SIGKILL"
    assert web_child.exit_words(1) == "exit status 1"
