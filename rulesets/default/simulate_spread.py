"""``server simulate --jobs N`` and ``--cluster ADDRESS``: the hands spread out.

Theory of operation. A simulated hand depends only on the seed and its number
(its deal, its bots' seeds: ``rulesets.default.engine.simulate.play_hands``), so
``range(hands)`` is cut into consecutive chunks (``chunks``), each chunk is
played elsewhere exactly as one process plays it (``play_chunk``), and the
per-hand records that come back are summed here in the order of the hands:
the summary is the one a single process gives, all but the seconds. The
progress bar advances as each chunk ends. Ctrl-C abandons the chunks under
way, as one process abandons the hand under way, and the summary is of the
chunks that ended.

* ``on_processes``: N worker processes on this machine
  (``ProcessPoolExecutor``). They are started with ``spawn``, not ``fork``
  (no copy of the parent's threads and locks), in this folder and with this
  ``sys.path``, so a bot spec resolves there as it did here; they ignore
  SIGINT, so Ctrl-C at a terminal reaches this process alone, which stops
  them; and each leaves by itself when this process is killed.
* ``on_cluster``: each chunk a Ray task (``server.cluster.ray_cluster``). What travels
  with the tasks (``pack``): the folder of each bot given as
  ``path/to/bot.py:Class``, and the current folder when a bot is a module
  found there (``mybot:Class``); not version control, virtual environments
  or caches (``LEFT_HOME``). They go as one packed file in the cluster's
  object store (``Cluster.share``, as a tournament's programs do), which
  each task unpacks into a scratch folder of its own, and works in when the
  current folder travelled. A module of an installed distribution (the
  sample AIs, anything pip installed) travels not: install it on every node.
  A chunk lost with its node is played again, elsewhere, from its first hand.
"""

from __future__ import annotations

import io
import multiprocessing
import os
import shutil
import signal
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from importlib.metadata import packages_distributions
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import trio

from rulesets.default.engine.simulate import (
    SAMPLE_BOTS,
    BotSpecError,
    HandRecord,
    Summary,
    chunks,
    play_chunk,
    summarize,
)
from server.bots.leftovers import scratch_prefix, sweep_scratch
from server.cluster.ray_cluster import (
    Cluster,
    ClusterError,
    NodeLost,
    connected,
    here,
    max_upload_bytes,
)
from server.seam.errors import InputError
from server.seam.python_bots import is_file_spec

Advance = Callable[[int], None]  # told how many hands a chunk that ended played
# Never sent to a node: version control, virtual environments, caches, build leftovers.
LEFT_HOME = (".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__",
             ".mypy_cache", ".pytest_cache", ".ruff_cache", "*.egg-info", "*.pyc")
POLL_SECONDS = 0.2  # how often the wait for chunks looks whether Ctrl-C was pressed
ORPHAN_CHECK_SECONDS = 0.5  # how often a worker process looks whether its parent lives
MAX_ATTEMPTS = 4  # a chunk lost with its node this often stops the simulation


def _summary(specs: Sequence[str], done: dict[int, list[HandRecord]], start: float,
             interrupted: bool) -> Summary:
    summary = summarize(specs, (r for i in sorted(done) for r in done[i]),
                        time.perf_counter() - start)
    summary.interrupted = interrupted
    return summary


# --- processes on this machine ------------------------------------------------------------

def _worker_start(parent: int) -> None:
    """In each worker: Ctrl-C is the parent's to handle, and the worker leaves when the
    parent has gone (killed), which a worker waiting for work would otherwise never
    notice (it holds both ends of its queue)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _stop(executor: ProcessPoolExecutor, abandon: bool) -> None:
    """The workers gone; with ``abandon``, at once, their chunks under way left unplayed.
    The executor's own thread is waited for in both cases: left running, it races the
    interpreter's exit and prints an error."""
    if abandon:
        # Python 3.14 calls this terminate_workers(); before, the processes are private.
        for process in list((getattr(executor, "_processes", None) or {}).values()):
            process.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


def on_processes(specs: Sequence[str], hands: int, seed: int, jobs: int,
                 advance: Advance) -> Summary:
    """Hands on ``jobs`` processes here; the bots must resolve here first (the caller's
    ``check_specs``). Called from the main thread: it takes Ctrl-C over while it runs."""
    pieces = chunks(hands, jobs)
    workers = min(jobs, len(pieces))
    done: dict[int, list[HandRecord]] = {}
    under_way: dict[Future[list[HandRecord]], int] = {}
    start = time.perf_counter()
    executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_worker_start, initargs=(os.getpid(),))
    stop = threading.Event()

    def submit_more() -> None:  # a few chunks queued per worker, not all of them at once
        for i in range(len(done) + len(under_way), len(pieces)):
            if len(under_way) >= 2 * workers:
                break
            under_way[executor.submit(play_chunk, list(specs), seed, pieces[i].start,
                                      pieces[i].stop)] = i

    # Ctrl-C sets a flag, looked at between waits, rather than raising wherever this
    # thread is (inside the executor's locks, say). While the workers start, it is
    # ignored: they keep it so (an ignored signal stays ignored across exec).
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        submit_more()  # the workers start here
        signal.signal(signal.SIGINT, lambda *_: stop.set())
        while under_way and not stop.is_set():
            ended, _ = wait(under_way, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            for future in sorted(ended, key=under_way.__getitem__):
                i = under_way.pop(future)
                try:
                    done[i] = future.result()
                except BrokenProcessPool:
                    raise InputError(f"a worker process died playing hands {pieces[i].start}-"
                                     f"{pieces[i].stop - 1}: a bot ended it (os._exit, a "
                                     "crash in native code); --jobs 1 shows which") from None
                advance(len(pieces[i]))
            submit_more()
    finally:
        _stop(executor, abandon=bool(under_way))
        signal.signal(signal.SIGINT, previous)
    return _summary(specs, done, start, len(done) < len(pieces))


# --- a Ray cluster -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Luggage:
    """What the tasks take along: folders, and the bot specs as they name them there.

    Folder ``i`` travels as ``<i>/`` of the task's scratch folder; a bot file's spec
    becomes ``<i>/path/in/folder.py:Class``; ``home`` is the number of the current
    folder's copy when it travels (the task works in it, as ``server simulate`` works
    here), else None."""

    folders: tuple[Path, ...]
    specs: tuple[str, ...]
    home: int | None


def _travels(module: str, cwd: Path) -> bool:
    """Whether module ``module`` was found in ``cwd`` (not installed): the bots resolved
    here before, so it imports."""
    top = module.partition(".")[0]
    if top in packages_distributions():
        return False
    spec = find_spec(top)
    where = spec.origin if spec is not None and spec.origin else None
    if where is None and spec is not None and spec.submodule_search_locations:
        where = next(iter(spec.submodule_search_locations), None)
    return where is not None and Path(where).resolve().is_relative_to(cwd)


def pack(specs: Sequence[str], cwd: Path) -> Luggage:
    """Decide what travels for ``specs`` (resolved here already)."""
    wanted: list[Path] = []
    for spec in specs:
        source = SAMPLE_BOTS.get(spec, spec).rpartition(":")[0]
        if is_file_spec(source):
            wanted.append(Path(source).resolve().parent)
        elif _travels(source, cwd):
            wanted.append(cwd)
    # A folder inside another travels with it; the others in the order of the bots.
    outer = {f for f in wanted if not any(f != o and f.is_relative_to(o) for o in wanted)}
    folders = sorted(outer, key=lambda f: next(i for i, w in enumerate(wanted)
                                               if w.is_relative_to(f)))

    def there(spec: str) -> str:
        source, _, attr = SAMPLE_BOTS.get(spec, spec).rpartition(":")
        if not is_file_spec(source):
            return spec
        path = Path(source).resolve()
        i = next(i for i, f in enumerate(folders) if path.is_relative_to(f))
        return f"{i}/{path.relative_to(folders[i]).as_posix()}:{attr}"

    home = folders.index(cwd) if cwd in folders else None
    return Luggage(tuple(folders), tuple(there(s) for s in specs), home)


def bundle(luggage: Luggage, what: str) -> bytes | None:
    """The folders that travel as one gzipped tar (folder ``i`` as ``<i>/``), or None;
    refused as soon as they come to more than a task takes along."""
    if not luggage.folders:
        return None
    limit, size = max_upload_bytes(), 0
    ignored = shutil.ignore_patterns(*LEFT_HOME)
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz", dereference=True) as tar:
        for i, folder in enumerate(luggage.folders):
            for root, dirs, files in os.walk(folder):
                skip = ignored(root, [*dirs, *files])
                dirs[:] = sorted(d for d in dirs if d not in skip)
                for name in sorted(set(files) - skip):
                    path = Path(root, name)
                    if not path.is_file():  # a broken link, a socket
                        continue
                    size += path.stat().st_size
                    if size > limit:
                        raise ClusterError(
                            f"{what} come to more than the {limit / 2**20:.3g} MiB a task "
                            "takes to its node (MAHJONG_CLUSTER_MAX_MB): run from a folder "
                            "that holds the bots alone, or give them as path/to/bot.py:Class")
                    tar.add(path, arcname=f"{i}/{path.relative_to(folder).as_posix()}",
                            recursive=False)
    return packed.getvalue()


def play_on_node(folders: bytes | None, specs: Sequence[str], home: int | None, seed: int,
                 start: int, stop: int) -> list[HandRecord]:
    """A Ray task: hands ``start`` to ``stop - 1``, the bots' ``folders`` (``bundle``)
    unpacked into a scratch folder, and forgotten after (their modules, the module path)
    as if the chunk had had a process of its own."""
    if folders is None:
        return _play_here(specs, seed, start, stop)
    cwd, path, modules = os.getcwd(), list(sys.path), set(sys.modules)
    sweep_scratch()  # what chunks whose worker was killed left on this node
    with tempfile.TemporaryDirectory(prefix=scratch_prefix("mahjong-simulate-")) as scratch:
        with tarfile.open(fileobj=io.BytesIO(folders), mode="r:gz") as tar:
            tar.extractall(scratch, filter="data")
        specs = [os.path.join(scratch, spec) if is_file_spec(spec.rpartition(":")[0])
                 else spec for spec in specs]
        try:
            if home is not None:  # a module bot is found in it, as in the current folder
                os.chdir(os.path.join(scratch, str(home)))
            return _play_here(specs, seed, start, stop)
        finally:
            os.chdir(cwd)
            sys.path[:] = path
            for name in set(sys.modules) - modules:
                if (getattr(sys.modules[name], "__file__", None) or "").startswith(scratch):
                    del sys.modules[name]


def _play_here(specs: Sequence[str], seed: int, start: int, stop: int) -> list[HandRecord]:
    try:
        return play_chunk(specs, seed, start, stop)
    except BotSpecError as exc:
        raise InputError(f"on node {here()}: {exc}: install it on every node, or run from "
                         "the folder that holds it") from None


async def _play_chunks(cluster: Cluster, folders: Any, luggage: Luggage, seed: int,
                       pieces: Sequence[range], advance: Advance,
                       done: dict[int, list[HandRecord]]) -> None:
    in_flight = trio.CapacityLimiter(max(2, 2 * int(sum(n.cpus for n in cluster.nodes()))))

    async def one(i: int, piece: range) -> None:
        async with in_flight:  # a few tasks queued per CPU, not all of them at once
            for _ in range(MAX_ATTEMPTS):
                ref = cluster.submit(play_on_node, folders, list(luggage.specs), luggage.home,
                                     seed, piece.start, piece.stop, cpus=1)
                try:
                    done[i] = await cluster.result(ref)
                except NodeLost:
                    continue  # its node died: the whole chunk again, wherever Ray has room
                advance(len(piece))
                return
        raise ClusterError(f"hands {piece.start}-{piece.stop - 1} were lost with their node "
                           f"{MAX_ATTEMPTS} times: is the cluster sound?")

    async with trio.open_nursery() as nursery:
        for i, piece in enumerate(pieces):
            nursery.start_soon(one, i, piece)


def on_cluster(specs: Sequence[str], hands: int, seed: int, address: str,
               advance: Advance) -> Summary:
    """Hands as Ray tasks on the cluster at ``address`` (or ``local``); the bots must
    resolve here first (the caller's ``check_specs``)."""
    luggage = pack(specs, Path.cwd().resolve())
    what = "the bots' folders (" + ", ".join(map(str, luggage.folders)) + ")"
    packed = bundle(luggage, what)  # refused, when too big, before Ray starts
    done: dict[int, list[HandRecord]] = {}
    start = time.perf_counter()
    try:
        with connected(address) as cluster:
            folders = None if packed is None else cluster.share(packed, what)
            start = time.perf_counter()  # the hands' time, not Ray's start
            pieces = chunks(hands, max(1, int(sum(n.cpus for n in cluster.nodes()))))

            async def play() -> None:
                await _play_chunks(cluster, folders, luggage, seed, pieces, advance, done)

            interrupted = trio.run(_until_sigint, play)
    except KeyboardInterrupt:  # while Ray started: nothing played
        interrupted = True
    return _summary(specs, done, start, interrupted)


async def _until_sigint(play: Callable[[], Awaitable[None]]) -> bool:
    """Run ``play``; Ctrl-C cancels it (its tasks cancelled on the cluster). True when it
    did. An error of ``play`` reaches the caller as itself, not in an exception group."""
    interrupted = False
    try:
        with trio.open_signal_receiver(signal.SIGINT) as signals:
            async with trio.open_nursery() as nursery:

                async def watch() -> None:
                    nonlocal interrupted
                    async for _ in signals:
                        interrupted = True
                        nursery.cancel_scope.cancel()

                nursery.start_soon(watch)
                await play()
                nursery.cancel_scope.cancel()
    except BaseExceptionGroup as group:
        error: BaseException = group
        while isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        raise error from None
    return interrupted
