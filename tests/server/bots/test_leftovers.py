"""A server killed outright leaves no bot behind (issue 14, point 7).

The bots of these tests (``tests/hostile/fork_sleep_before_join.py``) ignore
SIGTERM, fork a child and a ``setsid`` daemon, and sleep before they would
join. The server is killed with SIGKILL while it waits for them: its direct
children die with it at once (the parent-death signal), and what they started
is stopped by the next start, or by ``--resume``, which says so. Every process
is real; each test's processes carry a mark in their environment, and each
test has a registry folder of its own (``MAHJONG_RUN_DIR``), so that servers
run meanwhile by other tests or people are neither taken nor counted.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.bots import leftovers, memlimit

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
MARK = "LEFTOVERS_TEST_MARK"
HOLD_BOT = ROOT / "tests" / "hostile" / "fork_sleep_before_join.py"
DIE_WITHIN = 1.5  # seconds: the signal is immediate; the margin is for a loaded machine
START_WITHIN = 60.0  # seconds for a server and its bots to start on a loaded machine


def marked(mark: str) -> dict[int, tuple[int, int]]:
    """Live processes (zombies aside) carrying ``mark``: pid -> (parent, session)."""
    needle = f"{MARK}={mark}".encode()
    found: dict[int, tuple[int, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if needle not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            text = (entry / "stat").read_text()
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if fields[0] not in ("Z", "X"):
            found[int(entry.name)] = int(fields[1]), int(fields[3])
    return found


@pytest.fixture
def mark(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A mark for this test's processes, and a registry folder of its own; nothing left."""
    value = uuid.uuid4().hex
    monkeypatch.setenv(MARK, value)
    monkeypatch.setenv(leftovers.DIR_VARIABLE, str(tmp_path / "runs"))
    # No memory cgroups: a dead server's bot cgroups are removed, with what is left in them,
    # by whichever server on the machine next makes its own (``memlimit._remove_stale``),
    # which in a busy suite is another test's before this test's next start can look.
    monkeypatch.setenv(memlimit.SWITCH, "0")
    yield value
    left = marked(value)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    assert not left, f"processes left running: {left}"


def cli(*args: str) -> list[str]:
    return [PY, "-c", "from server.cli.app import main; main()", *args]


def kill_when_bots_wait(server: subprocess.Popen[str], mark: str, bots: int) -> list[int]:
    """SIGKILL ``server`` once its ``bots`` bots and all they start run; the bots' pids.

    All: each bot (the server's child, leading its session) has its child (in its
    session), and its daemon (in a session whose leader has exited) is running.
    """
    give_up = time.monotonic() + START_WITHIN
    while time.monotonic() < give_up:
        found = marked(mark)
        found.pop(server.pid, None)
        # (the server, a subreaper, adopts the daemons too: they lead no session)
        direct = [pid for pid, (parent, session) in found.items()
                  if parent == server.pid and session == pid]
        children = [pid for pid, (parent, _) in found.items() if parent in direct]
        daemons = [pid for pid, (_, session) in found.items()
                   if session not in direct and session not in found]
        if (len(direct), len(children), len(daemons), len(found)) == (bots, bots, bots, 3 * bots):
            break
        assert server.poll() is None, server.communicate()
        time.sleep(0.05)
    else:
        server.kill()
        pytest.fail(f"the bots did not start in {START_WITHIN} s: {marked(mark)}")
    server.kill()
    server.communicate()
    return direct


def assert_die_at_once(pids: list[int], mark: str) -> None:
    give_up = time.monotonic() + DIE_WITHIN
    while (alive := set(pids) & set(marked(mark))) and time.monotonic() < give_up:
        time.sleep(0.02)
    assert not alive, f"bots still running {DIE_WITHIN} s after their server was killed"


def test_a_match_killed_outright_takes_its_bots_and_the_next_start_the_rest(
        tmp_path: Path, mark: str) -> None:
    hold = tmp_path / "hold"
    hold.touch()
    bot = f"{PY} {HOLD_BOT} {hold}"
    server = subprocess.Popen(cli(bot, bot, bot, bot, "--join-limit", "60", "--groups", "1"),
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    bots = kill_when_bots_wait(server, mark, 4)
    assert_die_at_once(bots, mark)
    # What the bots started outlives them: only the next start can find it.
    assert len(marked(mark)) == 8
    # So do the bots' working folders, which only the server removed.
    scratch = list(Path(tempfile.gettempdir()).glob(f"mahjong-bots-{server.pid}-*"))
    assert scratch
    hold.unlink()
    done = subprocess.run(cli("check-bot", f"{PY} {HOLD_BOT} {hold}", "--hands", "1"),
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    said = " ".join(done.stderr.split())
    assert "stopped 8 processes that an earlier server" in said, said
    assert f"python3 {HOLD_BOT.name} hold (pids " in said
    assert marked(mark) == {}
    assert list((tmp_path / "runs").iterdir()) == []  # every run file is gone
    assert not any(folder.exists() for folder in scratch)


def test_a_tournament_killed_outright_leaves_nothing_after_resume(
        tmp_path: Path, mark: str) -> None:
    hold = tmp_path / "hold"
    hold.touch()
    entries = []
    for name in "abcd":
        entries += ["[[bot]]", f'name = "{name}"',
                    f'command = ["{PY}", "{HOLD_BOT}", "{hold}"]']
    bots = tmp_path / "bots.toml"
    bots.write_text("\n".join(entries) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    # Bare bots: the test counts each bot's processes (a child and a daemon) by the mark
    # in their environment, which bwrap's own processes and its cleared environment change.
    args = ("--format", "swiss", "--rounds", "1", "--hands", "1", "--jobs", "1",
            "--join-limit", "60", "--sandbox", "none", "--out", str(out))
    server = subprocess.Popen(cli("tournament", str(bots), *args), cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    direct = kill_when_bots_wait(server, mark, 4)
    assert_die_at_once(direct, mark)
    assert len(marked(mark)) == 8
    hold.unlink()
    done = subprocess.run(cli("tournament", "--resume", "--out", str(out)), cwd=ROOT,
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "stopped 8 processes that an earlier server" in " ".join(done.stderr.split())
    assert marked(mark) == {}


# --- the registry, process by process ----------------------------------------------------


def sleeper(mark: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([PY, "-c", "import time; time.sleep(60)"],
                            env={**os.environ, **env}, start_new_session=True)


def run_file(folder: Path, server: int, started: int, run: str, bots: dict[int, int]) -> Path:
    path = folder / f"run-{server}-{started}.bots"
    path.write_text(f"server {server} {started} {run}\n"
                    + "".join(f"bot {pid} {at}\n" for pid, at in bots.items()))
    return path


def test_only_runs_whose_server_is_gone_are_stopped(mark: str) -> None:
    folder = leftovers.registry_dir()
    assert folder is not None
    live_server = sleeper(mark)
    dead_server = subprocess.run([PY, "-c", "import os; print(os.getpid())"],
                                 capture_output=True, text=True, check=True)
    dead_pid = int(dead_server.stdout)
    live_start = leftovers.start_time(live_server.pid)
    assert live_start is not None
    own = sleeper(mark, **{leftovers.RUN_VARIABLE: "live-run"})  # a running server's bot
    orphan = sleeper(mark, **{leftovers.RUN_VARIABLE: "dead-run"})  # a dead server's
    unrelated = sleeper(mark)  # recorded with the wrong start time: its pid was reused
    unrelated_start = leftovers.start_time(unrelated.pid)
    assert unrelated_start is not None
    try:
        run_file(folder, live_server.pid, live_start, "live-run", {own.pid: 1})
        dead_file = run_file(folder, dead_pid, 12345, "dead-run",
                             {unrelated.pid: unrelated_start - 1})
        stopped = leftovers.stop_earlier_bots()
        assert [s.pid for s in stopped] == [orphan.pid]
        assert orphan.wait(timeout=5) == -signal.SIGKILL
        assert own.poll() is None and unrelated.poll() is None and live_server.poll() is None
        assert not dead_file.exists()
        assert leftovers.stop_earlier_bots() == []
    finally:
        for process in (live_server, own, orphan, unrelated):
            process.kill()
            process.wait()


def test_a_recorded_bot_still_running_is_stopped_with_its_group(mark: str) -> None:
    folder = leftovers.registry_dir()
    assert folder is not None
    # A bot whose environment was scrubbed: found by its pid and start time, and its
    # child by the process group the bot leads.
    bot = subprocess.Popen([PY, "-c", "import os, time; os.fork(); time.sleep(60)"],
                           env={MARK: mark}, start_new_session=True)
    try:
        give_up = time.monotonic() + 10
        while len(marked(mark)) < 2 and time.monotonic() < give_up:
            time.sleep(0.02)
        started = leftovers.start_time(bot.pid)
        assert started is not None
        run_file(folder, 999_999_999, 1, "gone-run", {bot.pid: started})
        stopped = leftovers.stop_earlier_bots()
        assert len(stopped) == 2 and bot.pid in {s.pid for s in stopped}
        bot.wait(timeout=5)
        give_up = time.monotonic() + DIE_WITHIN
        while marked(mark) and time.monotonic() < give_up:
            time.sleep(0.02)
    finally:
        bot.kill()
        bot.wait()


def test_the_console_line_names_what_was_stopped() -> None:
    line = leftovers.stopped_line([leftovers.Stopped(12, "/usr/bin/python3 /a/bot.py [red]x\x1b"),
                                   leftovers.Stopped(13, "/usr/bin/python3 /a/bot.py [red]x\x1b"),
                                   leftovers.Stopped(14, "x" * 100)])
    assert line.plain.startswith("stopped 3 processes that an earlier server")
    assert "python3 bot.py [red]x? (pids 12, 13); " in line.plain  # as it is, never markup
    assert "x" * 59 + "… (pid 14)" in line.plain and "x" * 60 not in line.plain


# --- scratch folders ---------------------------------------------------------------------------


def test_scratch_folders_whose_owner_is_gone_are_swept_and_no_other(tmp_path: Path) -> None:
    """A folder named by ``scratch_prefix`` goes once its process is gone (or its pid
    belongs to another process now); the living's, an older server's unstamped folder,
    a symlink and what it points to stay."""
    gone = subprocess.Popen([PY, "-c", "import time; time.sleep(60)"])
    gone_started = leftovers.start_time(gone.pid)
    gone.kill()
    gone.wait()
    me, my_start = os.getpid(), leftovers.start_time(os.getpid())
    assert gone_started is not None and my_start is not None
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_text("x")
    parent = tmp_path / "tmp"
    parent.mkdir()
    names = {
        "table of a dead worker": f"mahjong-table-{gone.pid}-{gone_started}-k2j4x_9a",
        "bots of a dead server": f"mahjong-bots-{gone.pid}-{gone_started}-0123456789ab",
        "a pid given to another": f"mahjong-table-{me}-{my_start + 1}-abcdefgh",
        "mine": f"mahjong-table-{me}-{my_start}-abcdefgh",
        "unstamped": f"mahjong-bots-{gone.pid}-0123456789ab",
        "not ours": f"mahjong-tables-{gone.pid}-{gone_started}-abc",
    }
    for name in names.values():
        (parent / name / "hand001-seat0").mkdir(parents=True)
        (parent / name / "hand001-seat0" / "out.txt").write_text("x")
    link = parent / f"mahjong-table-{gone.pid}-{gone_started}-link"
    link.symlink_to(outside)
    removed = leftovers.sweep_scratch(parent)
    swept = {"table of a dead worker", "bots of a dead server", "a pid given to another"}
    assert sorted(removed) == sorted(parent / names[k] for k in swept)
    assert {p.name for p in parent.iterdir()} == \
        {names[k] for k in names.keys() - swept} | {link.name}
    assert (outside / "keep").exists()


def test_a_scratch_prefix_names_its_owner() -> None:
    prefix = leftovers.scratch_prefix("mahjong-table-")
    assert prefix == f"mahjong-table-{os.getpid()}-{leftovers.start_time(os.getpid())}-"
