"""Tournaments on a real Ray cluster: several nodes started on this machine by the test.

The cluster (``ray.cluster_utils.Cluster``) has a head that runs no task and
three nodes of one CPU each, so a round of three tables spreads over all
three. Every tournament is a real ``server tournament --cluster ADDRESS``
process, as a person would start it on the head. The standings of each run are
compared with a run of the same tournament on this machine alone.

Every process of the cluster, and so every bot a node starts, carries this
module's mark in its environment: a bot left alive after a table, after a node
was removed under it or after the starting process was killed is found.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray.cluster_utils as ray_cluster_utils

from rulesets.default.verify import verify_path
from server.tournament.store import Store
from tests.server.tournament.test_tournament import marked, standings_of

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
MARK = "TOURNAMENT_TEST_MARK"
CLUSTER_MARK = uuid.uuid4().hex
# Two rounds: the second is paired from the first, and a run killed in it is resumed. (A
# resume that pairs a round the killed run had not begun is the runner's, as on this
# machine alone: test_tournament.py kills its three-round Swiss in round 2.)
ARGS = ("--format", "swiss", "--rounds", "2", "--hands", "2", "--seed", "7")


def bots_toml(folder: Path) -> Path:
    """Twelve bots: five greedy, six random and one that crashes in every hand."""
    lines = []
    for i in range(1, 7):
        if i < 6:
            lines += ["[[bot]]", f'name = "greedy{i}"',
                      f'command = ["{PY}", "{ROOT}/sample_ai/greedy.py", "--seed", "{i}"]']
        lines += ["[[bot]]", f'name = "random{i}"',
                  f'command = ["{PY}", "{ROOT}/sample_ai/random_bot.py", "--seed", "{i}"]']
    lines += ["[[bot]]", 'name = "crash"',
              f'command = ["{PY}", "{ROOT}/tests/bots/crash_mid_hand.py"]']
    path = folder / "bots.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def bots_left() -> list[int]:
    """Bot processes started by the cluster's nodes that are still alive."""
    found = []
    for pid in marked(CLUSTER_MARK):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if any(part in cmdline for part in (b"sample_ai", b"tests/bots", b"mahjong-table-")):
            found.append(pid)
    return found


def assert_no_bots_left(seconds: float = 15.0) -> None:
    end = time.monotonic() + seconds
    while bots_left() and time.monotonic() < end:
        time.sleep(0.2)
    left = bots_left()
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"bots left behind: {left}"


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory
              ) -> Iterator[tuple[subprocess.Popen[str], Path]]:
    """The same tournament on this machine alone, started before the cluster: it plays
    while Ray starts (mostly waiting), and is awaited by ``here``. Its console goes to a
    file (a pipe no one reads while Ray starts could fill)."""
    folder = tmp_path_factory.mktemp("here")
    with (folder / "console.txt").open("w") as console:
        proc = subprocess.Popen([PY, "-m", "server.cli.app", "tournament",
                                 str(bots_toml(folder)), *ARGS, "--jobs", "2",
                                 "--out", str(folder / "out")], cwd=ROOT,
                                env={**os.environ, "COLUMNS": "160"}, stdout=console,
                                stderr=subprocess.STDOUT, text=True)
    try:
        yield proc, folder
    finally:
        proc.kill()
        proc.wait()


@pytest.fixture(scope="module")
def cluster(reference: object) -> Iterator[object]:
    """A head that runs nothing and three nodes of one CPU, all marked (started once the
    reference run here is under way, unmarked)."""
    os.environ[MARK] = CLUSTER_MARK  # inherited by every Ray process, and their bots
    try:
        # No dashboard: no test reads it, and it is the costliest of Ray's processes to start.
        c = ray_cluster_utils.Cluster(initialize_head=True,
                                      head_node_args={"num_cpus": 0,
                                                      "include_dashboard": False})
        for _ in range(3):
            c.add_node(num_cpus=1)
        c.wait_for_nodes()
    finally:
        del os.environ[MARK]
    try:
        yield c
    finally:
        c.shutdown()
        end = time.monotonic() + 20
        while marked(CLUSTER_MARK) and time.monotonic() < end:
            time.sleep(0.2)
        left = marked(CLUSTER_MARK)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"cluster processes left behind: {left}"


def tournament(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([PY, "-m", "server.cli.app", "tournament", *args], cwd=ROOT,
                            env={**os.environ, "COLUMNS": "160", **(env or {})},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finish(proc: subprocess.Popen[str], timeout: float = 240) -> subprocess.CompletedProcess[str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    finally:
        proc.kill()
        proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def played(out: Path) -> list[tuple[int, int, str, str]]:
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        return db.execute("SELECT round, tbl, status, COALESCE(node, '') FROM tables "
                          "ORDER BY round, tbl").fetchall()
    finally:
        db.close()


def children() -> dict[int, list[int]]:
    """Every process's children, from /proc."""
    out: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            out.setdefault(ppid, []).append(int(entry.name))
    return out


def processes_of(node: object) -> set[int]:
    """The processes a node's raylet started (its workers) and theirs (their bots)."""
    tree = children()
    todo, seen = [node.all_processes["raylet"][0].process.pid], set()  # type: ignore[attr-defined]
    while todo:
        pid = todo.pop()
        seen.add(pid)
        todo.extend(tree.get(pid, []))
    return seen


def node_playing(cluster: object, seconds: float = 60) -> object:
    """A worker node of ``cluster`` that runs bots now (a table is being played there)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        bots = set(bots_left())
        for node in cluster.worker_nodes:  # type: ignore[attr-defined]
            if processes_of(node) & bots:
                return node
        time.sleep(0.05)
    raise AssertionError("no node ever ran a bot")


def power_off(cluster: object, node: object) -> None:
    """``node`` dies as a machine does: its Ray processes and its workers at once (Ray's
    ``remove_node`` ends the node's own processes; a worker would finish its task)."""
    workers = processes_of(node)
    cluster.remove_node(node, allow_graceful=False)  # type: ignore[attr-defined]
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def same_standings(a: Path, b: Path) -> bool:
    """Standings equal but for where the tables were played (``standings_of`` leaves out
    the nodes, the replays and the host stalls)."""
    return standings_of(a) == standings_of(b)


@pytest.fixture(scope="module")
def here(reference: tuple[subprocess.Popen[str], Path]) -> Path:
    """The reference: the same tournament on this machine alone."""
    proc, folder = reference
    proc.wait(timeout=240)
    assert proc.returncode == 0, (folder / "console.txt").read_text()[-3000:]
    return folder / "out"


def wait_for(out: Path, what: str, proc: subprocess.Popen[str], seconds: float = 120) -> None:
    """Until the tournament in ``out`` has ``what``: "started 3" (tables started and not
    done) or "done 3" (tables done)."""
    kind, count = what.split()
    db_path = out / "tournament.sqlite"
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        assert proc.poll() is None, proc.communicate()[1][-3000:]
        if db_path.exists():
            store = Store(db_path)
            try:
                rows = store.db.execute("SELECT status, started_at FROM tables").fetchall()
            finally:
                store.close()
            if kind == "done":
                n = sum(status == "done" for status, _ in rows)
            else:
                n = sum(status != "done" and started is not None for status, started in rows)
            if n >= int(count):
                return
        time.sleep(0.1)
    raise AssertionError(f"the tournament never had {what}")


def test_a_twelve_bot_swiss_plays_across_the_nodes_with_the_local_standings(
        cluster: object, here: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = finish(tournament(str(bots_toml(tmp_path)), *ARGS, "--out", str(out),
                             "--cluster", cluster.address))  # type: ignore[attr-defined]
    assert done.returncode == 0, done.stderr[-3000:]
    assert same_standings(here, out)
    tables = played(out)
    assert len(tables) == 6 and {status for _, _, status, _ in tables} == {"done"}
    nodes = {node for _, _, _, node in tables}
    assert len(nodes) >= 2, nodes  # three tables a round, one CPU a node
    data = json.loads((out / "standings.json").read_text())
    assert {n["node"] for n in data["nodes"]} == nodes
    assert sum(n["tables"] for n in data["nodes"]) == 6
    assert data["replays"] == []  # the crashing bot is a fault, never a lost node
    crash = next(r for r in data["standings"] if r["bot"] == "crash")
    assert crash["faults"] == crash["hands"] == 4
    assert all(node in done.stdout for node in nodes)  # the stalls by node, at the end
    tables_here = [t for t in sorted((out / "matches").glob("r*-t*"))
                   if t.is_dir() and not t.name.endswith("-hands")]
    assert len(tables_here) == 6
    for table in tables_here:  # came back here, and verify
        assert verify_path(table).ok, table
        assert "mahjong-table-" not in (table / "match.json").read_text()
        assert str(tmp_path) not in (table / "match.json").read_text()  # no path of ours
    assert json.loads((out / "sealed.json").read_text()) == {"tables": []}
    assert_no_bots_left()


def test_a_node_removed_costs_a_replay_and_the_starting_process_killed_resumes_the_same(
        cluster: object, here: Path, tmp_path: Path) -> None:
    """One run, two losses: a node dies while its table of round 1 plays (the table is
    played again elsewhere, and recorded), then the machine that started the tournament
    dies in round 2 (the nodes' bots end, the resume finishes it). The standings are
    those of the run here all the same."""
    out = tmp_path / "out"
    address = cluster.address  # type: ignore[attr-defined]
    proc = tournament(str(bots_toml(tmp_path)), *ARGS, "--out", str(out), "--cluster", address)
    said: list[str] = []  # its console, read as it goes (a full pipe would stop it)
    stream = proc.stderr
    assert stream is not None
    reader = threading.Thread(target=lambda: said.extend(stream), daemon=True)
    reader.start()
    added = False
    try:
        wait_for(out, "started 1", proc)
        victim = node_playing(cluster)  # its table has begun: its bots run
        power_off(cluster, victim)
        wait_for(out, "done 4", proc)
        # Killed while a table plays on a node (it has a scratch folder), not between two.
        left: list[Path] = []
        end = time.monotonic() + 30
        while not left and time.monotonic() < end:
            left = scratch_of(set(marked(CLUSTER_MARK)))  # the nodes' workers' folders
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)  # a power cut on the machine that started it
        proc.wait()
    finally:
        proc.kill()
        proc.wait()
        os.environ[MARK] = CLUSTER_MARK
        try:  # the cluster as it was, for the resume and the tests after this one
            cluster.add_node(num_cpus=1)  # type: ignore[attr-defined]
            added = True
        finally:
            del os.environ[MARK]
    assert added
    reader.join(10)
    console = "".join(said)  # what it had said before it was killed
    assert left, "no table ever had a scratch folder: the test shows nothing"
    assert_no_bots_left(60)  # Ray ends the tasks of a driver that died, and so their bots
    # ... and so the workers that played them (in a while), which could not remove their
    # scratch folders
    end = time.monotonic() + 30
    while any(Path(f"/proc/{owner(p)}").exists() for p in left) and time.monotonic() < end:
        time.sleep(0.2)
    assert 4 <= sum(status == "done" for _, _, status, _ in played(out)) < 6
    store = Store(out / "tournament.sqlite")
    try:
        replays = store.replays()
    finally:
        store.close()
    assert replays, "no table was played again: " + console[-3000:]
    assert all(r == 1 and attempt == 1 for r, _, attempt, _, _ in replays), replays
    victim_id = victim.node_id  # type: ignore[attr-defined]
    # Every replay names the node that died (from Ray's error if the table had not told
    # the tracker yet), and no other.
    assert all(node.endswith("/" + victim_id[:8]) for _, _, _, node, _ in replays), replays
    assert "played again from its start" in console
    resumed = finish(tournament("--resume", "--out", str(out), "--cluster", address))
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    store = Store(out / "tournament.sqlite")
    try:
        after = store.replays()
    finally:
        store.close()
    assert after[:len(replays)] == replays  # the resume keeps the record of the replays
    data = json.loads((out / "standings.json").read_text())
    assert [(r["round"], r["table"]) for r in data["replays"]] == [(r, t) for r, t, *_ in after]
    assert same_standings(here, out)
    assert {status for _, _, status, _ in played(out)} == {"done"}
    assert_no_bots_left()
    assert [p for p in left if p.exists()] == []  # swept when the resume used the nodes


def scratch_of(pids: set[int]) -> list[Path]:
    """The scratch folders of tables (and their bots) that processes ``pids`` made
    (named after them: ``server.bots.leftovers.scratch_prefix``)."""
    return [path for prefix in ("mahjong-table-", "mahjong-bots-")
            for path in Path(tempfile.gettempdir()).glob(prefix + "*-*-*")
            if owner(path) in pids]


def owner(scratch: Path) -> int:
    """The pid a scratch folder is named after."""
    word = scratch.name.split("-")[2]
    return int(word) if word.isdigit() else 0


def test_a_program_a_node_does_not_have_stops_the_tournament_with_one_line(
        cluster: object, tmp_path: Path) -> None:
    # ``mybot`` is on the PATH of the machine that starts the tournament, not the nodes'.
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "mybot").write_text(f"#!/bin/sh\nexec {PY} {ROOT}/sample_ai/random_bot.py\n")
    (tools / "mybot").chmod(0o755)
    lines = []
    for i in range(4):
        command = '["mybot"]' if i == 0 else f'["{PY}", "{ROOT}/sample_ai/random_bot.py"]'
        lines += ["[[bot]]", f'name = "b{i}"', f"command = {command}"]
    (tmp_path / "bots.toml").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    done = finish(tournament(str(tmp_path / "bots.toml"), "--rounds", "1", "--hands", "1",
                             "--out", str(out), "--cluster",
                             cluster.address,  # type: ignore[attr-defined]
                             env={"PATH": f"{tools}:{os.environ['PATH']}"}))
    assert done.returncode == 2, done.stderr[-3000:]
    assert "b0's program 'mybot' is not on node" in done.stderr
    assert "Traceback" not in done.stderr
    assert_no_bots_left()


def test_programs_too_big_to_travel_are_refused_with_one_line(
        cluster: object, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = finish(tournament(str(bots_toml(tmp_path)), "--rounds", "1", "--hands", "1",
                             "--out", str(out), "--cluster",
                             cluster.address,  # type: ignore[attr-defined]
                             env={"MAHJONG_CLUSTER_MAX_MB": "0.001"}))
    assert done.returncode == 2, done.stderr[-3000:]
    assert "more than the 0 MiB a task takes to its node" in done.stderr
    assert "Traceback" not in done.stderr
    assert "finished tables are kept" in done.stderr


def test_a_noi2014_swiss_plays_on_the_cluster_as_it_does_here(
        cluster: object, tmp_path: Path) -> None:
    """Every ruleset goes through the same path: a table of NOI 2014 asks for its four
    CPUs, is given a whole node of one, and ends as it does on this machine. A bot's
    keep-running setting travels with its command: the greedy bots keep running there
    too. One table of four (one bot started again at every turn, the dearest to play)."""
    lines = []
    for i in range(4):
        bot = "greedy_bot.py\", \"--keep-running" if i else "random_bot.py"
        lines += ["[[bot]]", f'name = "n{i}"',
                  f'command = ["{PY}", "{ROOT}/sample_ai/noi2014/{bot}"]',
                  f"keep_running = {'true' if i else 'false'}"]
    (tmp_path / "bots.toml").write_text("\n".join(lines) + "\n")
    args = (str(tmp_path / "bots.toml"), "--ruleset", "noi2014", "--rounds", "1",
            "--orders", "1", "--seed", "5")
    local = finish(tournament(*args, "--jobs", "2", "--out", str(tmp_path / "here")))
    assert local.returncode == 0, local.stderr[-3000:]
    remote = finish(tournament(*args, "--out", str(tmp_path / "there"), "--cluster",
                               cluster.address))  # type: ignore[attr-defined]
    assert remote.returncode == 0, remote.stderr[-3000:]
    assert "uses 4 CPUs" in remote.stderr and "takes a whole node" in remote.stderr
    assert same_standings(tmp_path / "here", tmp_path / "there")
    assert {status for _, _, status, _ in played(tmp_path / "there")} == {"done"}
    specs = [p["spec"] for m in (tmp_path / "there").glob("matches/*/match.json")
             for p in json.loads(m.read_text())["players"]]
    assert len(specs) == 4
    assert sorted(s.split(":")[0] for s in specs) == ["json"] + ["json+keep-running"] * 3
    kept = [json.loads(g.read_text()) for g in (tmp_path / "there").glob(
        "matches/*/games/*/game.json")]
    assert kept and all(entry["verdict"] == "OK" for game in kept for seat in game["players"]
                        for entry in seat if entry)
    assert_no_bots_left()
