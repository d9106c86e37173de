"""--sandbox bwrap: what a bot can and cannot do, and a clear error when bwrap cannot run.

A probe program is started through the same launcher a match uses and reports
what it could do: open a network connection to the host, write outside its
scratch folder, write a file over the size limit, see other processes.
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import trio

from server.bots.processes import ProcessPeer
from server.bots.sandbox import BotLimits, SandboxError, absolute_argv
from server.bots.seats import ProcessLauncher, Sandbox, SeatRequest
from tests.server.bots.test_hostile import bwrap_or_skip, no_leftovers  # noqa: F401 (an autouse fixture)

ROOT = Path(__file__).resolve().parents[3]

PROBE = r"""
import json, os, socket, sys
port, outside = int(sys.argv[1]), sys.argv[2]
found = {"cwd": os.getcwd()}
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    found["network"] = True
except OSError as exc:
    found["network"] = False
for name, path in (("outside", outside), ("scratch", "scratch.txt"), ("home", "/root/probe.txt")):
    try:
        with open(path, "w") as f:
            f.write("x")
        found[name] = True
    except OSError:
        found[name] = False
try:
    with open("big.bin", "wb") as f:
        f.write(b"\0" * (3 << 20))
    found["big_file"] = True
except OSError:
    found["big_file"] = False
found["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
print(json.dumps(found), flush=True)
"""


async def probe(kind: str, tmp_path: Path) -> dict[str, Any]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    outside = tmp_path / "escaped.txt"
    launcher = ProcessLauncher(Sandbox(BotLimits(memory_mb=512, cpu_seconds=10, file_mb=2), kind))
    request = SeatRequest(0, "probe", (sys.executable, "-c", PROBE, str(port), str(outside)),
                          0, 0, None)
    try:
        async with trio.open_nursery() as nursery:
            peer = await launcher.open(request, nursery)
            assert isinstance(peer, ProcessPeer)
            data = b""
            with trio.fail_after(20):
                while not data.endswith(b"\n"):
                    chunk = await peer.receive_some()
                    assert chunk, data
                    data += chunk
            await peer.close()
    finally:
        listener.close()
    found: dict[str, Any] = json.loads(data)
    found["outside_exists"] = outside.exists()
    return found


async def test_without_a_sandbox_the_probe_reaches_the_network(tmp_path: Path) -> None:
    """(So that the sandbox test below shows the sandbox, not a broken probe.)"""
    found = await probe("none", tmp_path)
    assert found["network"] and found["outside"] and found["scratch"]
    assert not found["big_file"]  # the file size limit holds everywhere
    assert "mahjong-bots-" in found["cwd"] and "hand001-seat0" in found["cwd"]


async def test_a_sandboxed_bot_has_no_network_and_writes_only_its_scratch(
        tmp_path: Path) -> None:
    bwrap_or_skip()
    found = await probe("bwrap", tmp_path)
    assert found["network"] is False
    assert found["outside"] is False and not found["outside_exists"]
    assert found["home"] is False
    assert found["scratch"] is True and found["cwd"] == "/tmp"
    assert found["big_file"] is False  # the scratch tmpfs is capped at the file limit
    assert found["processes"] <= 3  # its own PID namespace: bwrap and the bot


def test_missing_bwrap_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SandboxError, match="bubblewrap is not installed"):
        Sandbox(kind="bwrap").check()


def test_bwrap_that_cannot_start_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(SandboxError, match="cannot start a sandbox here: bwrap: No perm"):
        Sandbox(kind="bwrap").check()


def test_match_command_refuses_a_sandbox_it_cannot_use(tmp_path: Path) -> None:
    import subprocess

    bot = str(ROOT / "tests" / "bots" / "drawbot.py")
    env = {**os.environ, "PATH": str(tmp_path)}  # an empty folder: no bwrap on PATH
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()", "match",
                           bot, bot, bot, bot, "--sandbox", "bwrap", "--groups", "1"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "bubblewrap is not installed" in done.stderr


@pytest.mark.parametrize(("status", "tail", "sandboxed", "detail"), [
    (-24, b"", False, "killed by SIGXCPU (cpu limit)"),
    (-25, b"", False, "killed by SIGXFSZ (file size limit)"),
    (-9, b"", False, "killed by SIGKILL (cpu hard limit, or killed from outside)"),
    (-11, b"", False, "killed by SIGSEGV"),
    (1, b"...\nMemoryError\n", False, "exit status 1 (memory limit)"),
    (1, b"OSError: [Errno 27] File too large\n", False, "exit status 1 (file size limit)"),
    (0, b"", False, "exit status 0"),
    (128 + 24, b"", True, "killed by SIGXCPU (cpu limit)"),  # bwrap's way to say it
    (None, b"", False, ""),
])
def test_exit_statuses_name_the_limit_that_stopped_the_bot(
        status: int | None, tail: bytes, sandboxed: bool, detail: str) -> None:
    from server.bots.sandbox import describe_exit

    assert describe_exit(status, tail, sandboxed) == detail


def test_an_unknown_sandbox_is_refused() -> None:
    with pytest.raises(SandboxError, match="must be one of none, bwrap"):
        Sandbox(kind="docker").check()



def test_a_program_under_tmp_stays_visible_inside_the_private_tmp() -> None:
    """The sandbox mounts its own /tmp; a checkout under /tmp is bound back read-only."""
    from server.bots.sandbox import BotLimits, bwrap_argv

    with tempfile.TemporaryDirectory(dir="/tmp") as folder:  # /tmp itself, whatever TMPDIR says
        tmp_path = Path(folder)
        bot = tmp_path / "bot.py"
        bot.write_text("print('join')\n")
        argv = bwrap_argv([sys.executable, str(bot)], BotLimits())
    root = str(Path(*tmp_path.parts[:3]))
    tmpfs = argv.index("--tmpfs")
    bind = [i for i in range(len(argv) - 2) if argv[i:i + 3] == ["--ro-bind", root, root]]
    assert bind and bind[0] > tmpfs  # mounted on top of the private /tmp


def test_a_bot_another_table_registers_while_a_sweep_reads_proc_is_spared(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables in parallel: a stopping bot's sweep reads /proc in a thread while
    another table starts a bot. That bot is already in the scan (it has forked)
    but registered only afterwards; the sweep must ask who is alive after its
    scan, not before, or it kills the new bot as a stray."""
    import subprocess

    from server.bots import sandbox

    sandbox.enable_subreaper()
    env = {k: v for k, v in os.environ.items() if k != "MAHJONG_BOT_ID"}
    newcomer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                                start_new_session=True, env=env)
    stopped = subprocess.Popen(["true"], start_new_session=True)
    stopped.wait()
    alive: frozenset[int] = frozenset()
    scan = sandbox.processes

    def scan_then_register() -> Any:
        nonlocal alive
        table = scan()
        alive = frozenset({newcomer.pid})  # the other table's start finishes now
        return table

    monkeypatch.setattr(sandbox, "processes", scan_then_register)
    try:
        found, _ = sandbox.sweep(stopped.pid, "stopped-bot",
                                 lambda: (alive, frozenset(), False))
        assert newcomer.pid not in found
        assert newcomer.poll() is None
    finally:
        newcomer.kill()
        newcomer.wait()


def test_a_relative_program_path_is_made_absolute_without_following_its_link(
        tmp_path: Path) -> None:
    """``.venv/bin/python bot.py``: the venv's python is a link to the system's, and
    followed it would run without the venv's packages."""
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "real-python").write_text("")
    (tmp_path / "venv" / "bin" / "python").symlink_to(tmp_path / "real-python")
    (tmp_path / "bot.py").write_text("")
    argv = absolute_argv(["venv/bin/python", "./bot.py", "-v", "missing.py"],
                         cwd=tmp_path)
    assert argv == [str(tmp_path / "venv" / "bin" / "python"), str(tmp_path / "bot.py"),
                    "-v", "missing.py"]
