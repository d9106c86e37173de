"""Tournament tables on a Ray cluster (``server tournament --cluster ADDRESS``).

Theory of operation. The runner decides each table as it always does (the
schedule, hand-ins, pinning each player's program) and keeps the one record,
the tournament's SQLite file on this machine; only the playing moves.
``ClusterTables.play`` sends a table to Ray as a task (``run_on_node``) that
asks for the CPUs the table really uses (``Ruleset.table_cpus``), so Ray
never packs more tables on a node than keep the bots' clocks fair. The task:

* unpacks the table's programs into a scratch folder of its own: the pinned
  snapshots ``OUT/programs/<hash>/`` of the table's players, packed here and
  put in the cluster's object store once per content (``Cluster.share``), so
  no file system is shared. Each player's command is moved from the
  snapshot's path here to its path there; a program the node does not
  have (an interpreter, a tool on PATH) stops the tournament with one line
  naming the bot, the program and the node;
* plays the table with ``play_table``, as a table here would (host-stall
  allowances measured on the node), into a scratch folder, and gives back
  the outcome and that folder, packed; the folder is unpacked into the
  table's log folder here, where ``verify`` and the reports read it.

Meanwhile the task tells a small actor on this machine's node (``Tracker``)
where it runs and each hand as it ends, and the runner's console shows them
as for a table here. A task whose node (or worker) dies raises ``NodeLost``:
the attempt is recorded (``Store.replayed``) and the table is played again
from its start, with the same seed and programs, wherever Ray finds room. A
bot that crashes is a fault inside the table, as anywhere: it never reaches
this far.
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import trio

from server.bots.leftovers import scratch_prefix, sweep_scratch
from server.cluster.ray_cluster import Cluster, ClusterError, NodeLost, here, import_ray
from server.output.console import configure_logging
from server.seam.contract import FaultNote
from server.seam.errors import InputError
from server.seam.registry import load
from server.tournament.programs import PROGRAMS
from server.tournament.runner import Runner
from server.tournament.schedule import TablePlan
from server.tournament.sealed import table_name
from server.tournament.store import Store
from server.tournament.tables import TableJob, TableOutcome, play_table

MAX_ATTEMPTS = 4  # a table lost with its node this often stops the tournament
# A lost table's node when neither Ray's error nor the table named it: a worker that died
# on a node still alive, before the table's first step.
UNNAMED = "a node Ray did not name (its worker died before the table began)"
PUMP_SECONDS = 0.5  # how often the tracker's news is fetched

Key = tuple[int, int]  # (round, table)


@dataclass(frozen=True, slots=True)
class NodeResult:
    outcome: TableOutcome
    folder: bytes  # the table's log folder, as a gzipped tar


class Tracker:
    """An actor on the starting machine's node: what the tables on the nodes report."""

    def __init__(self) -> None:
        self.news: list[tuple[Any, ...]] = []

    def started(self, key: Key, attempt: int, node: str) -> None:
        self.news.append(("started", key, attempt, node))

    def hand(self, key: Key, attempt: int, stalls: int, faults: Sequence[FaultNote]) -> None:
        self.news.append(("hand", key, attempt, stalls, tuple(faults)))

    def drain(self) -> list[tuple[Any, ...]]:
        news, self.news = self.news, []
        return news


def relocate(run: Sequence[str], old: str, new: str) -> tuple[str, ...]:
    """``run`` with every path under ``old`` (the snapshots here) moved under ``new``."""
    return tuple(new + w[len(old):] if w == old or w.startswith(old + "/") else w
                 for w in run)


def missing(job: TableJob, needs: Sequence[Sequence[str]]) -> str | None:
    """Why a player's program cannot run on this node, or None."""
    rules = load(job.ruleset)
    for name, run, files in zip(job.names, job.runs, needs, strict=True):
        argv = rules.split_command(run)[1]
        program = argv[0] if argv else ""
        found = Path(program).is_file() if "/" in program else shutil.which(program)
        if not found:
            return f"{name}'s program {program!r} is not on node {here()}"
        for file in files:
            if not Path(file).is_file():
                return f"{name}'s file {file} is not on node {here()}"
    return None


def run_on_node(job: TableJob, snapshots: str, programs: bytes,
                needs: Sequence[Sequence[str]], tracker: Any, attempt: int) -> NodeResult:
    """A Ray task: play ``job`` on this node, its programs unpacked from ``programs``."""
    ray = import_ray()
    configure_logging(False)  # as the tournament does: no line-by-line account of the table
    node = here()
    key = (job.plan.round, job.plan.table)
    # Waited for: once the table has begun, the tracker knows where it plays.
    ray.get(tracker.started.remote(key, attempt, node))
    sweep_scratch()  # what tables whose worker was killed (their driver died) left here
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("mahjong-table-")) as scratch:
        folder = Path(scratch) / "programs"
        unpack(programs, folder)
        there = str(folder)
        job = replace(job, runs=tuple(relocate(r, snapshots, there) for r in job.runs),
                      sandbox=replace(job.sandbox, work_dir=None))
        needs = [relocate(files, snapshots, there) for files in needs]
        why = missing(job, needs)
        if why is not None:
            raise InputError(why + ": install it there, or name the program's file in the "
                             "bot's command so that it travels with the table")

        def on_hand(stalls: int, faults: Sequence[FaultNote]) -> None:
            tracker.hand.remote(key, attempt, stalls, list(faults))

        root = Path(scratch) / "table"
        outcome = trio.run(play_table, job, root, on_hand)
        outcome.node = node
        for log in root.rglob("*.json"):  # the commands as the starting machine names them
            text = log.read_text(encoding="utf-8")
            if there in text:
                log.write_text(text.replace(there, snapshots), encoding="utf-8")
        return NodeResult(outcome, pack(root))


def pack(folder: Path) -> bytes:
    """``folder`` as a gzipped tar, the same bytes for the same files."""
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            info = tar.gettarinfo(path, str(path.relative_to(folder)))
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if path.is_file():
                with path.open("rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    return packed.getvalue()


def unpack(folder: bytes, root: Path) -> None:
    root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(folder), mode="r:gz") as tar:
        tar.extractall(root, filter="data")


# (table, host stalls, faults, hands): a hand ended (1), or late news of faults (0).
HandDone = Callable[[TablePlan, int, Sequence[FaultNote], int], None]
Notice = Callable[[str, bool], None]


class ClusterTables:
    """Plays each table it is given as a Ray task (the runner's ``TableCarrier``)."""

    def __init__(self, cluster: Cluster, out: Path, store: Store, cpus: float,
                 on_hand: HandDone, on_lost: Callable[[TablePlan], None],
                 notice: Notice) -> None:
        self.cluster = cluster
        self.out = out
        self.snapshots = str((out / PROGRAMS).resolve())
        self.store = store
        self.cpus = cpus
        self.on_hand = on_hand
        self.on_lost = on_lost
        self.notice = notice
        self.tracker = cluster.actor(Tracker)
        self.plans: dict[Key, TablePlan] = {}
        self.attempt: dict[Key, int] = {}  # the attempt that counts, by table
        self.where: dict[tuple[Key, int], str] = {}  # (table, attempt) -> node
        self.told: dict[Key, int] = {}  # faults told of the attempt that counts
        self.last_pump = 0.0

    async def play(self, job: TableJob, root: Path) -> TableOutcome:
        plan = job.plan
        key = (plan.round, plan.table)
        self.plans[key] = plan
        programs = self.cluster.share(await trio.to_thread.run_sync(self._pack, job),
                                      f"the programs of table {table_name(plan)}")
        needs = [self._files(run) for run in job.runs]
        attempt = 1
        while True:
            self.attempt[key] = attempt
            self.told[key] = 0
            ref = self.cluster.submit(run_on_node, job, self.snapshots, programs, needs,
                                      self.tracker, attempt, cpus=self.cpus)
            try:
                result: NodeResult = await self.cluster.result(ref, self._pump)
                break
            except NodeLost as exc:
                self._pump(force=True)
                # Ray's error names the node; the tracker heard of it only if the table
                # had begun (a node may die while its worker starts).
                node = exc.node or self.where.get((key, attempt)) or UNNAMED
                self.store.replayed(plan, node, str(exc))
                self.on_lost(plan)
                name = table_name(plan)
                if attempt >= MAX_ATTEMPTS:
                    raise ClusterError(f"table {name} was lost with its node {attempt} times "
                                       f"(last on {node}: {exc}): the cluster is failing") from None
                self.notice(f"table {name}: its node {node} died ({exc}); played again from "
                            "its start", True)
                attempt += 1
        self._pump(force=True)
        outcome = result.outcome
        await trio.to_thread.run_sync(unpack, result.folder, root)
        for note in outcome.faults[self.told.get(key, 0):]:  # news that came after the end
            self.on_hand(plan, 0, [note], 0)
        self.attempt.pop(key, None)
        return outcome

    def _pack(self, job: TableJob) -> bytes:
        """The snapshots the table's players run, packed to travel with its task."""
        with tempfile.TemporaryDirectory(prefix=".table-", dir=self.out) as staging:
            for run in job.runs:
                for word in run:
                    if word.startswith(self.snapshots + "/"):
                        snapshot = word[len(self.snapshots) + 1:].split("/")[0]
                        if not (Path(staging) / snapshot).exists():
                            shutil.copytree(Path(self.snapshots) / snapshot,
                                            Path(staging) / snapshot)
            return pack(Path(staging))

    def _files(self, run: Sequence[str]) -> tuple[str, ...]:
        """The words of ``run`` that are files here, which the node must have too."""
        return tuple(w for w in run if w.startswith("/") and Path(w).is_file())

    def _pump(self, force: bool = False) -> None:
        """The tracker's news, told to the runner (called while tables wait)."""
        now = trio.current_time()
        if not force and now - self.last_pump < PUMP_SECONDS:
            return
        self.last_pump = now
        for news in self.cluster.ray.get(self.tracker.drain.remote()):
            kind, key, attempt = news[0], news[1], news[2]
            if kind == "started":
                self.where[(key, attempt)] = news[3]
            elif self.attempt.get(key) == attempt and key in self.plans:
                faults = news[4]
                self.told[key] = self.told.get(key, 0) + len(faults)
                self.on_hand(self.plans[key], news[3], faults, 1)


def on_cluster(cluster: Cluster, runner: Runner, store: Store) -> ClusterTables:
    """The runner's tables sent to ``cluster``: as many at once as its nodes have room
    for, each asking for the CPUs its ruleset says a table uses."""
    config = runner.config
    cpus = runner.rules.table_cpus(config.settings)
    nodes = cluster.nodes()
    if not nodes:
        raise ClusterError("the Ray cluster has no node with CPUs to play tables on")
    biggest = max(n.cpus for n in nodes)
    if cpus > biggest:
        runner.notice(f"a {config.ruleset} table uses {cpus:g} CPUs (its bots think at "
                      f"once) and the largest node has {biggest:g}: each table takes a whole "
                      "node, and its bots share it", True)
        cpus = biggest
    runner.jobs = max(1, sum(int(n.cpus // cpus) for n in nodes))
    return ClusterTables(cluster, config.out, store, cpus, runner.hand_done,
                         runner.hands_lost, runner.notice)
