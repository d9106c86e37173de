"""Playing the deals of ``server compare`` here, on worker processes or on a Ray cluster, and
feeding them to the SPRT in deal order.

Theory of operation. Deal ``i`` is a ``DealRequest`` (seed, index, the bots) that the
ruleset plays the same anywhere (``Ruleset.play_deal``: its deal and its bots' seeds come
from the seed and the index alone). The deals are handed out in index order, a few per
worker at a time; their scores come back in any order and wait (``Feed``) until every
deal before them is in, and are then given to the test one by one, in index order. The
test stops at the first deal whose LLR crosses a bound, exactly where one process playing
the deals one after the other stops: deals already handed out past that one are abandoned
(their workers stopped) or, if they came back, not counted (``Outcome.uncounted``). So the
result (which deals count, the statistics, the decision) is the same with any ``--jobs``
and on a cluster; only the time and the number of uncounted deals differ.

* ``jobs == 1``: each deal in this process, in order.
* ``jobs > 1``: a ``ProcessPoolExecutor`` of ``spawn``-ed workers (this folder, this
  ``sys.path``; they ignore Ctrl-C, which this process handles).
* ``cluster``: each deal a Ray task (``server.cluster.ray_cluster``), at most two per CPU
  of the cluster in flight; a deal lost with its node is played again elsewhere. The
  bots must be found on every node: the sample AIs and installed modules are; a bot file
  is named by its absolute path here, so it must be at that path on the node (with
  ``--cluster local``, it is).

May import: ``server.seam``, ``server.cluster``, ``server.compare.stats``. Never a ruleset:
the worker finds it by name in the registry.
"""

from __future__ import annotations

import multiprocessing
import re
import signal
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from pathlib import Path

from server.compare.stats import Deal, Model, Sprt
from server.seam.contract import DealRequest, DealScores
from server.seam.errors import InputError
from server.seam.registry import load

POLL_SECONDS = 0.2
MAX_ATTEMPTS = 4  # a deal lost with its node this often stops the comparison
_FILE_SPEC = re.compile(r"^(?P<source>[^\s:]+\.py):(?P<attr>[A-Za-z_]\w*)$")


@dataclass(frozen=True, slots=True)
class Plan:
    """What to compare, and how long at most."""

    ruleset: str
    candidate: str
    baseline: str
    opponents: tuple[str, ...]
    variant: str | None
    seed: int
    max_deals: int
    model: Model
    alpha: float = 0.05
    beta: float = 0.05

    def request(self, index: int) -> DealRequest:
        return DealRequest(index, self.seed, self.candidate, self.baseline, self.opponents,
                           self.variant)


def anchored(spec: str) -> str:
    """A ``file.py:NAME`` bot with its file's absolute path, so a worker elsewhere (another
    folder, a node) finds it; any other bot as given."""
    found = _FILE_SPEC.match(spec)
    if found is None or not Path(found.group("source")).exists():
        return spec
    return f"{Path(found.group('source')).resolve()}:{found.group('attr')}"


def play_one(ruleset: str, request: DealRequest) -> DealScores:
    """One deal, its ruleset found by name (what a worker process or a Ray task runs)."""
    return load(ruleset).play_deal(request)


@dataclass(slots=True)
class Outcome:
    test: Sprt
    scores: list[DealScores] = field(default_factory=list)  # the counted deals, in order
    uncounted: int = 0  # deals played past the stop (other workers), not counted
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def faults(self) -> tuple[int, int]:
        return (sum(s.faults[0] for s in self.scores), sum(s.faults[1] for s in self.scores))

    @property
    def notes(self) -> list[str]:
        return [note for s in self.scores for note in s.notes]


Progress = Callable[[Outcome], None]


@dataclass(slots=True)
class Feed:
    """Deals handed out in index order; their scores counted in index order until the
    test decides or the plan's deals are all in."""

    plan: Plan
    outcome: Outcome
    on_deal: Progress | None = None
    handed: int = 0  # deals handed out so far: 0 .. handed - 1
    waiting: dict[int, DealScores] = field(default_factory=dict)

    @property
    def stopped(self) -> bool:
        return self.outcome.test.finished \
            or len(self.outcome.scores) >= self.plan.max_deals

    def take(self) -> int | None:
        """The next deal to hand out, or None (none left, or decided)."""
        if self.stopped or self.handed >= self.plan.max_deals:
            return None
        self.handed += 1
        return self.handed - 1

    def arrive(self, index: int, scores: DealScores) -> None:
        if self.stopped:
            self.outcome.uncounted += 1
            return
        self.waiting[index] = scores
        while not self.stopped and len(self.outcome.scores) in self.waiting:
            got = self.waiting.pop(len(self.outcome.scores))
            self.outcome.scores.append(got)
            self.outcome.test.add(Deal(tuple(got.candidate), tuple(got.baseline)))
            if self.on_deal is not None:
                self.on_deal(self.outcome)
        if self.stopped:
            self.outcome.uncounted += len(self.waiting)
            self.waiting.clear()


def compare(plan: Plan, jobs: int = 1, cluster: str | None = None,
            on_deal: Progress | None = None) -> Outcome:
    """Play and test the plan's deals; Ctrl-C stops early with the deals counted so far."""
    outcome = Outcome(Sprt(plan.model, plan.alpha, plan.beta))
    feed = Feed(plan, outcome, on_deal)
    start = time.perf_counter()
    try:
        if cluster is not None:
            _on_cluster(feed, cluster)
        elif jobs > 1:
            _on_processes(feed, jobs)
        else:
            while (index := feed.take()) is not None:
                feed.arrive(index, play_one(plan.ruleset, plan.request(index)))
    except KeyboardInterrupt:
        outcome.interrupted = True
    outcome.seconds = time.perf_counter() - start
    return outcome


# --- processes on this machine ------------------------------------------------------------

def _worker_start() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle


def _on_processes(feed: Feed, jobs: int) -> None:
    executor = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start)
    under_way: dict[Future[DealScores], int] = {}
    try:
        while True:
            while len(under_way) < 2 * jobs and (index := feed.take()) is not None:
                under_way[executor.submit(play_one, feed.plan.ruleset,
                                          feed.plan.request(index))] = index
            if not under_way:
                return
            ended, _ = wait(under_way, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in sorted(ended, key=under_way.__getitem__):
                index = under_way.pop(future)
                try:
                    feed.arrive(index, future.result())
                except BrokenProcessPool:
                    raise InputError(f"a worker process died playing deal {index}: a bot "
                                     "ended it (os._exit, a crash in native code); --jobs 1 "
                                     "shows which") from None
            if feed.stopped:
                return
    finally:
        if under_way:  # deals past the stop (or Ctrl-C): not wanted, stop them now
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                process.terminate()
        executor.shutdown(wait=True, cancel_futures=True)


# --- a Ray cluster -----------------------------------------------------------------------

def _on_cluster(feed: Feed, address: str) -> None:
    import trio

    from server.cluster.ray_cluster import ClusterError, NodeLost, connected

    plan = replace(feed.plan, candidate=anchored(feed.plan.candidate),
                   baseline=anchored(feed.plan.baseline),
                   opponents=tuple(anchored(s) for s in feed.plan.opponents))
    with connected(address) as cluster:
        in_flight = max(2, 2 * int(sum(n.cpus for n in cluster.nodes())))

        async def play() -> None:
            send, receive = trio.open_memory_channel[tuple[int, DealScores]](in_flight)

            async def one(index: int) -> None:
                for _ in range(MAX_ATTEMPTS):
                    ref = cluster.submit(play_one, plan.ruleset, plan.request(index), cpus=1)
                    try:
                        scores = await cluster.result(ref)
                    except NodeLost:
                        continue
                    await send.send((index, scores))
                    return
                raise ClusterError(f"deal {index} was lost with its node {MAX_ATTEMPTS} "
                                   "times: is the cluster sound?")

            async with trio.open_nursery() as nursery:
                running = 0
                while True:
                    while running < in_flight and (index := feed.take()) is not None:
                        nursery.start_soon(one, index)
                        running += 1
                    if running == 0:
                        break
                    index, scores = await receive.receive()
                    running -= 1
                    feed.arrive(index, scores)
                    if feed.stopped:
                        nursery.cancel_scope.cancel()  # the deals past the stop: cancelled
                        break

        try:
            trio.run(play)
        except BaseExceptionGroup as group:  # the first error as itself
            error: BaseException = group
            while isinstance(error, BaseExceptionGroup) and error.exceptions:
                error = error.exceptions[0]
            raise error from None

