"""Tournament tables on a Ray cluster against ``--jobs`` on one machine.

Plays the same Swiss (``--bots`` sample bots, greedy and random by turns, each
with its own ``--seed``) as a real ``server tournament`` process, first on this
machine with ``--jobs 1, 2, 4``, then with ``--cluster ADDRESS`` on Ray
clusters of 1, 2 and 4 nodes of one CPU each, all on this machine
(``ray.cluster_utils.Cluster``, a head with no CPU, as the tests start them).
Every cluster is started for its run and shut down after it. For each run it
reports, from the tournament's SQLite file (``tables.started_at`` and
``finished_at``):

* tables per minute over the play (first table started to last one finished)
  and the whole command's wall time (start-up, connecting, play, reports);
* each table's wall time (mean, median): a table's own time on the machine
  that started it, from the moment the runner takes it to the moment its
  result is stored, so on a cluster it includes sending the programs, Ray's
  scheduling, a worker's start on the node and the log folder coming back;
* the time from starting the command to its first table;
* the CPU time per table of every process of the run, in four parts: the
  bots, the tournament process (with the tables' server side when there is no
  cluster), the Ray workers (the tables' server side on the nodes) and Ray's
  own processes (``CpuMeter``); on a loaded machine it says more than the
  wall clock;
* the host stalls and the load average before and after.

Then Ray's cost per table (a 1-node cluster against ``--jobs 1``: both play
one table at a time on the same two cores), the cluster's start-up time, and
the time ``ray.init(address=...)`` takes to connect a driver, measured apart.
The standings of every run must equal the first run's (less the host stalls,
the nodes, the replays and the BOTS path, as ``tests/server/tournament/test_tournament.py``
compares them); a run that differs is named and the exit status is 1.

    .venv/bin/python bench/bench_cluster.py [--bots 16] [--rounds 4] [--hands 4] \\
        [--jobs 1,2,4] [--nodes 1,2,4] [--seed 7] [--keep FOLDER]

Every process the bench starts (tournaments, bots, Ray's processes and
workers) carries a mark in its environment; at the end, on Ctrl-C or on
SIGTERM, the running tournament is stopped, the cluster shut down and any
marked process still alive is killed and named.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import platform
import resource
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
MARK = "BENCH_CLUSTER_MARK"
RUN_MARK = uuid.uuid4().hex
TOURNAMENT_TIMEOUT = 900.0  # seconds: a run that takes longer is stopped as a failure


@dataclass
class Run:
    label: str
    where: str  # "local" or "cluster"
    width: int  # --jobs, or nodes
    out: Path
    wall: float = 0.0  # the whole command
    to_first: float = 0.0  # command start to the first table's start
    tables: list[tuple[float, float, str]] = field(default_factory=list)  # start, end, node
    stalls: int = 0
    cpu: float = 0.0  # CPU seconds of every process of the run (``CpuMeter``)
    cpu_parts: dict[str, float] = field(default_factory=dict)
    load: tuple[float, float] = (0.0, 0.0)  # 1-minute load average before, after
    startup: float | None = None  # the cluster's, seconds
    connect: float | None = None  # ray.init(address=...), seconds
    same: bool | None = None  # standings equal to the first run's

    @property
    def span(self) -> float:
        return max(e for _, e, _ in self.tables) - min(s for s, _, _ in self.tables)

    @property
    def per_minute(self) -> float:
        return 60 * len(self.tables) / self.span

    @property
    def per_table(self) -> list[float]:
        return [e - s for s, e, _ in self.tables]

    @property
    def nodes_used(self) -> int:
        return len({n for _, _, n in self.tables})


def bots_toml(folder: Path, n: int) -> Path:
    """``n`` bots: greedy and random by turns, each with its own seed."""
    lines = []
    for i in range(n):
        kind = "greedy" if i % 2 == 0 else "random_bot"
        lines += ["[[bot]]", f'name = "{kind.split("_")[0]}{i + 1}"',
                  f'command = ["{PY}", "{ROOT}/sample_ai/{kind}.py", "--seed", "{i + 1}"]']
    path = folder / "bots.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def standings_of(folder: Path) -> tuple[object, list[list[str]]]:
    """standings.json and .csv less what measures the run, not the players: host stalls,
    where the tables were played, tables played again, and the BOTS path."""
    data = json.loads((folder / "standings.json").read_text().replace(str(folder), ""))
    for key in ("host_stalls", "nodes", "replays"):
        data.pop(key, None)
    data["settings"].pop("bots", None)
    for row in data["standings"]:
        row.pop("host_stalls", None)
    rows = list(csv.reader((folder / "standings.csv").read_text().splitlines()))
    k = rows[0].index("host_stalls")
    return data, [row[:k] + row[k + 1:] for row in rows]


def marked() -> list[int]:
    """Live processes this bench started, at any depth (they carry its mark)."""
    needle = f"{MARK}={RUN_MARK}\0".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if needle in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                pass
    return found


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:100]
    except OSError:
        return "?"


def sweep(seconds: float) -> list[str]:
    """Wait up to ``seconds`` for the marked processes to end, then kill those left;
    what was killed."""
    end = time.monotonic() + seconds
    while marked() and time.monotonic() < end:
        time.sleep(0.2)
    left = [f"{pid} {command_of(pid)}" for pid in marked()]
    for pid in marked():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return left


TICK = os.sysconf("SC_CLK_TCK")
SAMPLE_SECONDS = 0.2


def stat_of(pid: int) -> tuple[str, float, float] | None:
    """A process's title (its command's first word), its own CPU seconds and those of
    its children that ended and that it waited for."""
    try:
        title = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, UnicodeDecodeError):
        return None
    ticks = [int(x) / TICK for x in fields[11:15]]  # utime stime cutime cstime
    return title, ticks[0] + ticks[1], ticks[2] + ticks[3]


def is_worker(title: str) -> bool:
    """A Ray worker (a table, the tracker, an idle worker): Ray titles it
    ``ray::<task or actor>``, and its own agents ``ray::...Agent``."""
    return title.startswith("ray::") and not title.endswith("Agent")


Stat = tuple[str, float, float]  # title, own CPU seconds, ended children's


class CpuMeter:
    """CPU time used by every process the bench started, ended or alive, over a run, in
    four parts: the bots; the tournament process (without a cluster, the tables'
    server side too); the Ray workers (the tables' server side on the nodes, the
    tracker); Ray's own processes (the GCS, the raylets, their agents).

    A process that ends is counted in its parent's children's time once the parent
    waits for it: the tournament in the bench's own ``RUSAGE_CHILDREN``, a bot in its
    table's process (the tournament here, a Ray worker on a node). A raylet does not
    count the workers it started, so while a run lasts a thread keeps the last
    reading of every worker and of the tournament process; a worker that ended counts
    with its last reading, and the tournament's own time with its last one (what
    either did after it, within ``SAMPLE_SECONDS``, is lost or counted as its bots').
    """

    def __init__(self) -> None:
        self.tournament: int | None = None  # its pid, once started
        self.seen: dict[int, Stat] = {}  # last readings of the workers and the tournament
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.parts: dict[str, float] = {}

    def _live(self) -> dict[int, Stat]:
        return {pid: st for pid in marked() if (st := stat_of(pid)) is not None}

    def _children_total(self) -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def _sample(self) -> None:
        while not self.stop.wait(SAMPLE_SECONDS):
            for pid, st in self._live().items():
                if pid == self.tournament or is_worker(st[0]):
                    self.seen[pid] = st

    def __enter__(self) -> CpuMeter:
        self.start = self._live()
        self.start_children = self._children_total()
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        end = self._live()
        tournament = self._children_total() - self.start_children  # with what it waited for
        own = self.seen[self.tournament][1] if self.tournament in self.seen else 0.0
        workers = bots = ray = 0.0
        for pid in {*self.start, *self.seen, *end}:
            last = end.get(pid) or self.seen.get(pid)
            if last is None or pid == self.tournament:
                continue
            first = self.start.get(pid, ("", 0.0, 0.0))
            if is_worker(last[0]):
                workers += last[1] - first[1]
                bots += last[2] - first[2]
            elif pid in end:
                ray += last[1] + last[2] - first[1] - first[2]
        self.parts = {"bots": bots + tournament - own, "tournament": own,
                      "workers": workers, "ray": ray}

    @property
    def seconds(self) -> float:
        return sum(self.parts.values())


def interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


@contextmanager
def deferred_interrupts(notice: str = "stopping once the cluster has started") \
        -> Iterator[Callable[[], None]]:
    """Ctrl-C and SIGTERM held until the block ends: a cluster half started or half shut
    down would have processes that its ``shutdown`` does not know of. Each node Ray
    starts in this process installs its own SIGTERM handler (it stops that node and
    exits); the block calls what it is given after each to hold SIGTERM again."""
    held: list[int] = []

    def hold(signum: int, frame: object) -> None:
        if not held:
            print(f"\n{notice}", file=sys.stderr, flush=True)
        held.append(signum)

    signals = [sig for sig in (signal.SIGINT, signal.SIGTERM)
               if signal.getsignal(sig) is not signal.SIG_IGN]  # ignored while cleaning up
    previous = {sig: signal.getsignal(sig) for sig in signals}

    def keep() -> None:
        for sig in signals:
            signal.signal(sig, hold)

    keep()
    try:
        yield keep
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if held:
        raise KeyboardInterrupt


@contextmanager
def marked_environment() -> Iterator[None]:
    """Processes started in the block (and theirs) carry the mark."""
    os.environ[MARK] = RUN_MARK
    try:
        yield
    finally:
        del os.environ[MARK]


def tournament(bots: Path, args: argparse.Namespace, out: Path, extra: Sequence[str],
               meter: CpuMeter) -> tuple[float, float]:
    """One ``server tournament`` process to its end: its wall time and start (epoch)."""
    cmd = [PY, "-m", "server.cli.app", "tournament", str(bots), "--format", "swiss",
           "--rounds", str(args.rounds), "--hands", str(args.hands), "--seed", str(args.seed),
           "--out", str(out), *extra]
    if (out / "tournament.sqlite").exists():  # a --keep folder's earlier run
        shutil.rmtree(out)
    log = out.parent / f"{out.name}.log"
    with log.open("w") as sink, marked_environment():
        start, began = time.time(), time.perf_counter()
        # Its own session: Ctrl-C reaches the bench, which stops the tournament itself.
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True,
                                env={**os.environ, "COLUMNS": "160"})
    meter.tournament = proc.pid
    try:
        code = proc.wait(timeout=TOURNAMENT_TIMEOUT)
    finally:
        if proc.poll() is None:
            proc.terminate()  # it stops its tables and their bots, and keeps what is done
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    wall = time.perf_counter() - began
    if code != 0:
        raise SystemExit(f"{' '.join(cmd)} ended with {code}; its output, {log}:\n"
                         + log.read_text()[-3000:])
    return wall, start


def read_tables(out: Path) -> tuple[list[tuple[float, float, str]], int]:
    db = sqlite3.connect(out / "tournament.sqlite")
    try:
        tables = db.execute("SELECT started_at, finished_at, COALESCE(node, '') FROM tables "
                            "WHERE status = 'done' ORDER BY round, tbl").fetchall()
        stalls = db.execute("SELECT COALESCE(SUM(stalls), 0) FROM results").fetchone()[0]
    finally:
        db.close()
    return [(float(s), float(e), str(n)) for s, e, n in tables], int(stalls)


def play(run: Run, bots: Path, args: argparse.Namespace, extra: Sequence[str]) -> Run:
    before = os.getloadavg()[0]
    with CpuMeter() as meter:
        run.wall, start = tournament(bots, args, run.out, extra, meter)
    run.cpu = meter.seconds
    run.cpu_parts = meter.parts
    run.load = (before, os.getloadavg()[0])
    run.tables, run.stalls = read_tables(run.out)
    run.to_first = min(s for s, _, _ in run.tables) - start
    print(f"  {run.label}: {len(run.tables)} tables in {run.wall:.1f} s, "
          f"{run.per_minute:.1f} tables/min, {run.cpu:.1f} s of CPU, "
          f"{run.nodes_used} node(s), load {run.load[0]:.1f} -> {run.load[1]:.1f}",
          file=sys.stderr, flush=True)
    return run


def connect_time(address: str) -> float:
    """Seconds ``ray.init(address=...)`` takes in a fresh driver (its import not counted)."""
    code = ("import logging, time, ray\n"
            "t = time.perf_counter()\n"
            f"ray.init(address={address!r}, log_to_driver=False, "
            "logging_level=logging.WARNING, include_dashboard=False)\n"
            "print(time.perf_counter() - t)\n"
            "ray.shutdown()\n")
    with marked_environment():
        done = subprocess.run([PY, "-c", code], cwd=ROOT, capture_output=True, text=True,
                              timeout=120, start_new_session=True)
    if done.returncode != 0:
        raise SystemExit(f"connecting to {address} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout.strip().splitlines()[-1])


class Clusters:
    """The Ray cluster of the moment, started and shut down by the bench."""

    def __init__(self) -> None:
        self.current: Any = None
        # Ray's session folders (logs, sockets) here, not in /tmp/ray, and gone at the end;
        # short, for the sockets' paths.
        self.temp = tempfile.mkdtemp(prefix="bench-ray-")

    def start(self, nodes: int) -> tuple[str, float]:
        from ray.cluster_utils import Cluster

        began = time.perf_counter()
        # Every Ray process, its workers and their bots carry the mark.
        with deferred_interrupts() as keep, marked_environment():
            try:
                self.current = Cluster(initialize_head=True, head_node_args={
                    "num_cpus": 0, "temp_dir": self.temp})
                keep()
                for _ in range(nodes):
                    self.current.add_node(num_cpus=1, temp_dir=self.temp)
                    keep()
                self.current.wait_for_nodes()
            except SystemExit:  # Ray's SIGTERM handler: it stopped the node it was starting
                raise KeyboardInterrupt from None
        return str(self.current.address), time.perf_counter() - began

    def stop(self) -> None:
        if self.current is not None:
            with deferred_interrupts("stopping once the cluster has shut down"):
                self.current.shutdown()
            self.current = None


def by_start(run: Run) -> list[float]:
    """Each table's wall time, in the order the tables started."""
    return [e - s for s, e, _ in sorted(run.tables)]


def fmt(x: float, digits: int = 1) -> str:
    return f"{x:,.{digits}f}"


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import ray

    return (f"{os.cpu_count()} CPUs ({cpu}), usable {len(os.sched_getaffinity(0))}; "
            f"Python {platform.python_version()}, Ray {ray.__version__}")


def report(runs: list[Run], args: argparse.Namespace, seconds: float) -> None:
    first = runs[0]
    n = len(first.tables)
    print(f"\n{args.bots} bots (greedy and random), Swiss of {args.rounds} rounds, "
          f"{args.hands} hands a table, seed {args.seed}: {n} tables, "
          f"{-(-args.bots // 4)} a round. {machine()}. Whole bench {seconds:.0f} s.\n")
    cores = len(os.sched_getaffinity(0))
    base = runs[0].per_minute
    print(f"| run | tables/min | vs {runs[0].label} | per table mean s | median s | "
          "command wall s | to first table s | nodes used | host stalls | "
          "load before -> after | same standings |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in runs:
        note = " (oversubscribed)" if r.where == "cluster" and r.width > cores else ""
        print(f"| {r.label}{note} | {fmt(r.per_minute)} | {r.per_minute / base:.2f} | "
              f"{fmt(statistics.mean(r.per_table), 2)} | "
              f"{fmt(statistics.median(r.per_table), 2)} | {fmt(r.wall)} | {fmt(r.to_first, 2)} | "
              f"{r.nodes_used} | {r.stalls} | {r.load[0]:.1f} -> {r.load[1]:.1f} | "
              f"{'yes' if r.same else 'NO'} |")
    print("\nCPU seconds per table, every process of the run (start-up and reports "
          "included):\n")
    print("| run | all | bots | tournament process | Ray workers (tables, tracker) | "
          "Ray's own processes |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in runs:
        parts = [r.cpu_parts.get(k, 0.0) / len(r.tables)
                 for k in ("bots", "tournament", "workers", "ray")]
        print(f"| {r.label} | {fmt(r.cpu / len(r.tables), 2)} | "
              + " | ".join(fmt(x, 2) for x in parts) + " |")
    clusters = [r for r in runs if r.where == "cluster"]
    if clusters:
        print("\n| cluster | start-up s (head + nodes, until all registered) | "
              "connect s (ray.init) |")
        print("|---|---:|---:|")
        for r in clusters:
            print(f"| {r.width} node(s) | {fmt(r.startup or 0, 2)} | {fmt(r.connect or 0, 2)} |")
    local1 = next((r for r in runs if r.where == "local" and r.width == 1), None)
    node1 = next((r for r in clusters if r.width == 1), None)
    if local1 is not None and node1 is not None:
        mean = statistics.mean(node1.per_table) - statistics.mean(local1.per_table)
        median = statistics.median(node1.per_table) - statistics.median(local1.per_table)
        # The first table on a node waits for a fresh worker process to start.
        ones, locals_ = by_start(node1), by_start(local1)
        first_extra = ones[0] - locals_[0]
        later = statistics.mean(ones[1:]) - statistics.mean(locals_[1:]) if n > 1 else mean
        cpu = (node1.cpu - local1.cpu) / n
        print(f"\nRay's cost per table (1 node against --jobs 1): wall time mean {mean:+.2f} s, "
              f"median {median:+.2f} s (the first table {first_extra:+.2f} s, "
              f"the others {later:+.2f} s on average); CPU time {cpu:+.2f} s. "
              f"Before the first table: {node1.to_first - local1.to_first:+.2f} s.")
    bad = [r.label for r in runs if not r.same]
    if bad:
        print(f"\nSTANDINGS DIFFER from {first.label}'s in: {', '.join(bad)}")


def numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bots", type=int, default=16, help="bots in the Swiss (4 a table)")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--hands", type=int, default=4, help="hands a table")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--jobs", type=numbers, default=[1, 2, 4],
                        help="--jobs of the runs on this machine alone (empty: none)")
    parser.add_argument("--nodes", type=numbers, default=[1, 2, 4],
                        help="nodes of one CPU of each cluster run (empty: none)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep the tournaments' folders here (default: a temporary one)")
    args = parser.parse_args(argv)
    try:
        import ray  # noqa: F401
    except ImportError:
        print("needs Ray: pip install 'mahjong-match-server[cluster]'", file=sys.stderr)
        return 2
    # Ctrl-C stops the bench even where it was started with SIGINT ignored (``&``).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, interrupted)
    began = time.perf_counter()
    clusters = Clusters()
    runs: list[Run] = []
    status = 0
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        bots = bots_toml(folder, args.bots)
        try:
            for jobs in args.jobs:
                runs.append(play(Run(f"--jobs {jobs}", "local", jobs, folder / f"jobs{jobs}"),
                                 bots, args, ["--jobs", str(jobs)]))
            for nodes in args.nodes:
                address, startup = clusters.start(nodes)
                print(f"  a cluster of {nodes} node(s) started in {startup:.1f} s at {address}",
                      file=sys.stderr, flush=True)
                run = Run(f"--cluster, {nodes} node(s)", "cluster", nodes,
                          folder / f"nodes{nodes}", startup=startup)
                run.connect = connect_time(address)
                runs.append(play(run, bots, args, ["--cluster", address]))
                clusters.stop()
            if runs:
                reference = standings_of(runs[0].out)
                for r in runs:
                    r.same = standings_of(r.out) == reference
                report(runs, args, time.perf_counter() - began)
                status = 0 if all(r.same for r in runs) else 1
        except KeyboardInterrupt:
            print("\ninterrupted: stopping", file=sys.stderr)
            status = 130
        finally:
            # Cleanup is not to be cut short by a second Ctrl-C.
            signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            try:
                clusters.stop()
            finally:
                left = sweep(20.0)
                shutil.rmtree(clusters.temp, ignore_errors=True)
                if left:
                    print("processes left behind, killed:\n  " + "\n  ".join(left),
                          file=sys.stderr)
                    status = status or 1
    return status


if __name__ == "__main__":
    sys.exit(main())
