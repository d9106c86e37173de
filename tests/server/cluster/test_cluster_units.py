"""The cluster's parts that need no cluster: moving commands, packing folders, the record
of where tables were played and of replays, and refusals before Ray is reached."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from server.bots.seats import Sandbox, TableOptions
from server.tournament.cluster import missing, pack, relocate, unpack
from server.tournament.report import Machines
from server.tournament.schedule import TablePlan
from server.tournament.store import Entry, PlayerResult, Store
from server.tournament.tables import TableJob

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
PLAN = TablePlan(1, 2, (0, 1, 2, 3), 99)


def test_relocate_moves_only_paths_under_the_snapshots() -> None:
    run = ("/usr/bin/python3", "/out/programs/ab12/bot.py", "--x", "/out/programs-old/y",
           "/out/programs")
    assert relocate(run, "/out/programs", "/node/p") == (
        "/usr/bin/python3", "/node/p/ab12/bot.py", "--x", "/out/programs-old/y", "/node/p")


def test_pack_gives_the_same_bytes_for_the_same_files_and_unpacks_them(tmp_path: Path) -> None:
    a = tmp_path / "a"
    (a / "sub").mkdir(parents=True)
    (a / "bot.py").write_text("print(1)\n")
    (a / "sub" / "x.txt").write_text("x")
    (a / "bot.py").chmod(0o555)
    first = pack(a)
    os.utime(a / "bot.py", (1, 1))  # another time, the same contents
    assert pack(a) == first
    unpack(first, tmp_path / "b")
    assert (tmp_path / "b" / "sub" / "x.txt").read_text() == "x"
    assert os.access(tmp_path / "b" / "bot.py", os.X_OK)


def job(*runs: tuple[str, ...]) -> TableJob:
    return TableJob(PLAN, tuple(f"b{i}" for i in range(len(runs))), runs, "default", {}, 1, 1,
                    TableOptions(), Sandbox())


def test_a_program_the_node_lacks_is_named_with_its_bot() -> None:
    good = (PY, str(ROOT / "sample_ai" / "random_bot.py"))
    assert missing(job(good, good), [(), ()]) is None
    why = missing(job(good, ("no-such-tool-here",)), [(), ()])
    assert why is not None and why.startswith("b1's program 'no-such-tool-here' is not on node")
    why = missing(job(good, good), [(), ("/no/such/file.py",)])
    assert why is not None and "b1's file /no/such/file.py is not on node" in why


def store_with_a_table(path: Path) -> Store:
    store = Store(path)
    store.initialise({"format": "swiss"}, [Entry(f"b{i}", ("x",)) for i in range(4)])
    store.schedule([PLAN])
    return store


def results(points: int) -> list[PlayerResult]:
    return [PlayerResult(e, points, 0, 0, 0, 0, 0, 1) for e in range(4)]


def test_replays_are_numbered_per_table_and_a_table_is_never_counted_twice(
        tmp_path: Path) -> None:
    store = store_with_a_table(tmp_path / "t.sqlite")
    assert store.replayed(PLAN, "n1/aaaa", "node died") == 1
    assert store.replayed(PLAN, "n2/bbbb", "worker crashed") == 2
    store.finish(PLAN, results(5), [], [], node="n3/cccc")
    store.finish(PLAN, results(7), [], [], node="n4/dddd")  # a late second result
    assert store.table_results()[0].points == (5, 5, 5, 5)
    assert store.nodes() == [("n3/cccc", 1, 0)]
    assert store.replays() == [(1, 2, 1, "n1/aaaa", "node died"),
                               (1, 2, 2, "n2/bbbb", "worker crashed")]
    machines = Machines(store.nodes(), store.replays())
    assert machines.as_json()["replays"][1] == {"round": 1, "table": 2, "attempt": 2,
                                                "node": "n2/bbbb", "reason": "worker crashed"}
    assert "played again from its start" in machines.html()
    store.close()


def test_a_file_of_an_older_version_gains_the_node_column(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE tables (round INTEGER NOT NULL, tbl INTEGER NOT NULL, "
               "seed INTEGER NOT NULL, players TEXT NOT NULL, status TEXT NOT NULL DEFAULT "
               "'scheduled', log_dir TEXT, started_at REAL, finished_at REAL, "
               "PRIMARY KEY (round, tbl))")
    db.execute("INSERT INTO tables (round, tbl, seed, players, status) VALUES "
               "(1, 1, 5, '[0, 1, 2, 3]', 'done')")
    db.commit()
    db.close()
    store = Store(path)
    assert store.nodes() == [("", 1, 0)]
    assert store.replays() == []
    store.close()


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([PY, "-m", "server.cli.app", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, timeout=120)


def bots(folder: Path) -> Path:
    lines = []
    for i in range(4):
        lines += ["[[bot]]", f'name = "b{i}"',
                  f'command = ["{PY}", "{ROOT}/sample_ai/random_bot.py"]']
    path = folder / "bots.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_jobs_with_cluster_is_refused(tmp_path: Path) -> None:
    done = cli("tournament", "--seed", "0",
               str(bots(tmp_path)), "--cluster", "local", "--jobs", "2",
               "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert "--jobs is for tables on this machine" in done.stderr
    assert not (tmp_path / "out").exists()


def test_without_ray_cluster_says_how_to_install_it(tmp_path: Path) -> None:
    blocked = tmp_path / "blocked"
    (blocked / "ray").mkdir(parents=True)
    (blocked / "ray" / "__init__.py").write_text("raise ImportError('no ray here')\n")
    env = {"PYTHONPATH": f"{blocked}:{ROOT}"}
    done = cli("tournament", "--seed", "0", str(bots(tmp_path)), "--cluster", "local",
               "--out", str(tmp_path / "out"), env=env)
    assert done.returncode == 2, done.stderr
    assert "pip install 'mahjong-match-server[cluster]'" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "out" / "tournament.sqlite").exists()
    # Without --cluster, nothing asks for Ray.
    plain = cli("tournament", "--seed", "0", str(bots(tmp_path)), "--rounds", "1", "--hands", "1",
                "--out", str(tmp_path / "plain"), env=env)
    assert plain.returncode == 0, plain.stderr[-2000:]
    data = json.loads((tmp_path / "plain" / "standings.json").read_text())
    assert data["replays"] == [] and len(data["nodes"]) == 1


def test_an_address_where_no_cluster_listens_is_one_line_at_once(tmp_path: Path) -> None:
    for address, said in (("127.0.0.1:1", "cannot reach the Ray cluster at 127.0.0.1:1"),
                          ("nonsense", "--cluster must be HOST:PORT")):
        done = cli("tournament", "--seed", "0", str(bots(tmp_path)), "--cluster", address,
                   "--out", str(tmp_path / "out"))
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "out" / "tournament.sqlite").exists()


# What Ray 2.60 raised, word for word, when the node a table's task ran on was removed
# under it (the error's only account of the node is its text).
NODE_ID = "8da78f66867693bb1bb5cba3ef5522c80116c3a78b375cc899e19bd9"
NODE_DIED = (
    "Task failed because the node it was running on is dead or unavailable. Node IP: "
    f"192.0.2.2, node ID: {NODE_ID}. This can happen if the node was preempted, had a "
    "hardware failure, or its raylet crashed unexpectedly. To see node death information, "
    f"use `ray list nodes --filter node_id={NODE_ID}`, check the Ray dashboard cluster page, "
    "search the node ID in the GCS logs, or use `ray logs raylet.out -ip 192.0.2.2`.")


def test_a_lost_task_names_the_node_ray_says_it_died_with() -> None:
    """A table lost before its node told the tracker it had begun is recorded on the node
    Ray's own error names, not as 'a node that had not started it'."""
    import trio
    from ray import exceptions

    from server.cluster.ray_cluster import Cluster, NodeLost, died_node_id

    assert died_node_id(exceptions.NodeDiedError(NODE_DIED)) == NODE_ID
    assert died_node_id(exceptions.WorkerCrashedError()) is None

    def get(ref: object) -> object:
        raise exceptions.NodeDiedError(NODE_DIED)

    # Ray's side as the driver sees it: the task has ended, its result is Ray's error,
    # and the node is listed dead.
    ray = type("Ray", (), {
        "exceptions": exceptions,
        "wait": staticmethod(lambda refs, timeout: (refs, [])),
        "get": staticmethod(get),
        "nodes": staticmethod(lambda: [{"NodeID": NODE_ID, "Alive": False,
                                        "NodeManagerHostname": "node-b",
                                        "NodeManagerAddress": "192.0.2.2"}]),
    })
    cluster = Cluster(ray)  # type: ignore[arg-type]
    try:
        trio.run(cluster.result, object())
    except NodeLost as exc:
        lost = exc
    else:
        raise AssertionError("no NodeLost")
    assert lost.node == f"node-b/{NODE_ID[:8]}"
    assert str(lost) == "Task failed because the node it was running on is dead or unavailable"
