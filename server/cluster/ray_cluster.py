"""Ray carries the work past one machine: tournament tables, simulated hands.

Ray (PyPI ``ray``) is an install extra (``pip install
'mahjong-match-server[cluster]'``) and is imported only here, only when a
command is given ``--cluster``; without it the commands run as they always
did, on this machine. ``connected(ADDRESS)`` joins a running cluster
(``ray start --head`` printed its address) or, with ``local``, starts a Ray
instance on this machine for the length of the command.

Work goes to a node as a Ray task (``Cluster.submit``): a plain function of
this package, found on the node by import (every node has the same
``mahjong-match-server`` installed), with the CPUs it uses. Files travel
with the task, and no file system is shared: ``Cluster.share`` puts a packed
folder in the cluster's object store once per content, and the task, given
it as an argument, unpacks it into a scratch folder of its own. (Ray's
runtime environment, ``working_dir``, was tried first: it takes a local
folder only for a whole job, not one task, and a tournament's programs change
while it runs; and the nodes of one machine share one folder of unpacked
packages, where one node's agent removed and unpacked again a folder another
node's task was running in: "FileNotFoundError" for the task's own working
folder, in the tests' cluster of three nodes on one machine.)

A node that dies takes its tasks with it: ``Cluster.result`` raises
``NodeLost``, naming the node from Ray's error (the caller plays the work
again elsewhere). Ray's own retries
are off, so that every replay is the caller's and is recorded. A task that
raises ``InputError`` on its node (a program its node does not have) comes
back as ``ClusterError``, one line; any other exception is a bug and comes
back whole.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import socket
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import trio

from server.seam.errors import InputError, reason

INSTALL = "pip install 'mahjong-match-server[cluster]'"
LOCAL = "local"  # --cluster local: a Ray instance on this machine, for this command
# The largest folder a task takes along, in MiB (MAHJONG_CLUSTER_MAX_MB overrides it):
# Ray's own limit is its gRPC message size (512 MiB); a bot's programs are far smaller.
MAX_UPLOAD_MB = 100
POLL_SECONDS = 0.1  # how often a waiting table asks Ray whether its task ended


class ClusterError(InputError):
    """The cluster cannot do what was asked: Ray missing, unreachable, a folder too big,
    a program a node does not have. One line, exit status 2."""


class NodeLost(Exception):
    """The node (or its worker process) running a task died: play the work again.
    ``node`` names it (as ``Node.label``) when Ray said which it was."""

    def __init__(self, message: str, node: str | None = None) -> None:
        super().__init__(message)
        self.node = node


# How Ray's NodeDiedError names the node a task ran on: "... Node IP: 10.0.0.2, node ID:
# 8da7...". Read from the error's text: the error carries no field for it.
_NODE_ID = re.compile(r"\bnode ID: ([0-9a-f]{16,})", re.IGNORECASE)


def died_node_id(exc: BaseException) -> str | None:
    """The id of the node a task was lost with, as Ray's error names it; None when the
    error does not say (a worker that crashed on a node still alive)."""
    found = _NODE_ID.search(str(exc))
    return found.group(1).lower() if found else None


def import_ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        raise ClusterError(f"--cluster needs Ray, which is not installed here: {INSTALL}") \
            from None
    return ray


@dataclass(frozen=True, slots=True)
class Node:
    id: str  # Ray's node id (hex)
    label: str  # what the standings call it: host (or address) and the id's first digits
    cpus: float


def node_label(host: str, node_id: str) -> str:
    return f"{host}/{node_id[:8]}"


def here() -> str:
    """The node a task runs on, named as ``Node.label``; this machine outside Ray."""
    ray = import_ray()
    if ray.is_initialized():
        return node_label(socket.gethostname(), ray.get_runtime_context().get_node_id())
    return socket.gethostname()


@contextmanager
def connected(address: str) -> Iterator[Cluster]:
    """Ray joined (``address``) or started here (``local``) for the block, then left."""
    ray = import_ray()
    if address != LOCAL:
        reachable(address)
    # ERROR: Ray's notices (token authentication, ...) are not the tournament's.
    options: dict[str, Any] = {"log_to_driver": False, "logging_level": logging.ERROR,
                               "include_dashboard": False}
    try:
        # "local" is Ray's own word for a new instance here (no address would join the
        # cluster this machine last started, or fail on its stale record).
        ray.init(address=address, **options)
    except (ConnectionError, ValueError, RuntimeError, TimeoutError) as exc:
        ray.shutdown()
        where = "start Ray on this machine" if address == LOCAL \
            else f"reach the Ray cluster at {address}"
        raise ClusterError(f"cannot {where}: {reason(exc)}") from None
    except BaseException:  # Ctrl-C while Ray starts: what it started stops
        ray.shutdown()
        raise
    try:
        yield Cluster(ray)
    finally:
        ray.shutdown()


def reachable(address: str, seconds: float = 5.0) -> None:
    """A ClusterError now, rather than Ray's minutes of retries, when nothing listens at
    ``address`` (HOST:PORT, the cluster's GCS)."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ClusterError(f"--cluster must be HOST:PORT (as `ray start --head` printed "
                           f"it) or local, not {address!r}")
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as exc:
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {reason(exc)} "
                           "(is `ray start --head` running there?)") from None


def max_upload_bytes() -> int:
    text = os.environ.get("MAHJONG_CLUSTER_MAX_MB", "")
    try:
        mb = float(text) if text else MAX_UPLOAD_MB
    except ValueError:
        raise ClusterError(f"MAHJONG_CLUSTER_MAX_MB must be a number of MiB, not {text!r}") \
            from None
    return int(mb * 1024 * 1024)


class Cluster:
    """A connection to Ray: its nodes, uploads, and tasks awaited from trio."""

    def __init__(self, ray: ModuleType) -> None:
        self.ray = ray
        self._remote: dict[Callable[..., Any], Any] = {}
        self._shared: dict[str, Any] = {}  # sha256 of bytes put in the object store -> ref
        exceptions = ray.exceptions
        # The worker, its node or the object holding the result died: the work is lost.
        self._lost: tuple[type[BaseException], ...] = tuple(
            getattr(exceptions, name) for name in (
                "NodeDiedError", "WorkerCrashedError", "LocalRayletDiedError",
                "ObjectLostError", "OwnerDiedError", "RaySystemError")
            if hasattr(exceptions, name))

    def label(self, node_id: str) -> str:
        """``Node.label`` of a node, alive or dead, by its id (its host as Ray knows it)."""
        for n in self.ray.nodes():
            if n.get("NodeID") == node_id:
                return node_label(n.get("NodeManagerHostname") or n["NodeManagerAddress"],
                                  node_id)
        return node_label("?", node_id)

    def nodes(self) -> list[Node]:
        """The nodes alive now that have CPUs to run tasks on."""
        out = []
        for n in self.ray.nodes():
            cpus = float(n.get("Resources", {}).get("CPU", 0))
            if n.get("Alive") and cpus > 0:
                out.append(Node(n["NodeID"], node_label(n.get("NodeManagerHostname")
                                                        or n["NodeManagerAddress"],
                                                        n["NodeID"]), cpus))
        return out

    def share(self, data: bytes, what: str) -> Any:
        """``data`` in the cluster's object store, once per content; the ref a task takes
        as an argument (and is given the bytes). ``what`` names it when it is too big."""
        limit = max_upload_bytes()
        if len(data) > limit:
            raise ClusterError(f"{what} come to {len(data) / 2**20:.1f} MiB, more than the "
                               f"{limit / 2**20:.0f} MiB a task takes to its node "
                               "(MAHJONG_CLUSTER_MAX_MB): leave data files out of the "
                               "programs' folders, or build them in")
        key = hashlib.sha256(data).hexdigest()
        ref = self._shared.get(key)
        if ref is None:
            ref = self._shared[key] = self.ray.put(data)
        return ref

    def submit(self, fn: Callable[..., Any], *args: Any, cpus: float) -> Any:
        """``fn(*args)`` as a task on a node with ``cpus`` free; its object ref."""
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self.ray.remote(fn)
        options: dict[str, Any] = {"num_cpus": cpus, "max_retries": 0,
                                   "retry_exceptions": False}
        return remote.options(**options).remote(*args)

    def actor(self, cls: type) -> Any:
        """An instance of ``cls`` as an actor on this machine's node (using no CPU)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        node = self.ray.get_runtime_context().get_node_id()
        strategy = NodeAffinitySchedulingStrategy(node, soft=False)
        return self.ray.remote(cls).options(num_cpus=0, scheduling_strategy=strategy).remote()

    async def result(self, ref: Any, while_waiting: Callable[[], None] | None = None) -> Any:
        """What the task returned, awaited without blocking trio; cancelled with it.
        ``while_waiting`` is called at every look (a few times a second)."""
        ray = self.ray
        try:
            ready = bool(ray.wait([ref], timeout=0)[0])
            while not ready:
                await trio.sleep(POLL_SECONDS)
                if while_waiting is not None:
                    while_waiting()
                ready = bool(ray.wait([ref], timeout=0)[0])
            return ray.get(ref)
        except self._lost as exc:
            node_id = died_node_id(exc)
            raise NodeLost(reason(exc).split("; ")[0].split(". ")[0],
                           None if node_id is None else self.label(node_id)) from None
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, InputError):
                raise ClusterError(reason(cause)) from None
            raise
        except trio.Cancelled:
            ray.cancel(ref, force=True)
            raise
