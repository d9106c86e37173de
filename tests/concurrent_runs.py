"""Independent end-to-end runs a module's tests read, played a few at a time.

A whole match through the server command spends most of its time waiting: on
one bot process at a time, on a limit running out. Several independent ones at
once take little more than the longest. A module fixture gathers the runs of
the module's selected tests (``selected``: nothing for a test that ``-m`` or
``-k`` left out), plays them with ``run_concurrently``, and each test then
checks its own run exactly as it checked it when it played it alone.

Each run gets its own leftover tag (``tests.server.bots.test_hostile.no_leftovers``
watches only what the test itself starts): what still carries it when the run
ends is killed and kept in ``Done.leftovers``, and ``Done.result`` fails on it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

import pytest

from tests.server.bots.test_hostile import ENV_TAG, tagged_processes

T = TypeVar("T")


@dataclass
class Done(Generic[T]):
    """How one run ended: its value or its error, and the processes it left running."""

    value: T | None = None
    error: BaseException | None = None
    leftovers: dict[int, str] = field(default_factory=dict)

    def result(self) -> T:
        """The run's value; its error raised again, or a failure if it left processes."""
        assert not self.leftovers, f"processes left running: {self.leftovers}"
        if self.error is not None:
            raise self.error
        return self.value  # type: ignore[return-value]


def run_environment(tag: str) -> dict[str, str]:
    """What ``no_leftovers`` gives a test's processes: the tag, and this Python first on PATH."""
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return {**os.environ, ENV_TAG: tag, "PATH": path}


def _one(job: Callable[[dict[str, str]], T]) -> Done[T]:
    tag = uuid.uuid4().hex
    done: Done[T] = Done()
    try:
        done.value = job(run_environment(tag))
    except BaseException as error:  # handed to the test that reads the run
        done.error = error
    done.leftovers = tagged_processes(tag)
    for pid in done.leftovers:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return done


def run_concurrently(jobs: dict[str, Callable[[dict[str, str]], T]],
                     workers: int) -> dict[str, Done[T]]:
    """Each job called with its environment, ``workers`` at a time, in the order given."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = {key: pool.submit(_one, job) for key, job in jobs.items()}
    return {key: future.result() for key, future in futures.items()}


def will_skip(item: pytest.Item) -> bool:
    """Whether ``item`` is skipped before it runs: a ``skip`` mark (pytest gives one to
    the single item of an empty parameter set, whose parameters are unset) or a
    ``skipif`` whose condition is a true value."""
    if item.get_closest_marker("skip") is not None:
        return True
    for mark in item.iter_markers("skipif"):
        conditions = mark.args or (mark.kwargs.get("condition", True),)
        if any(not isinstance(c, str) and bool(c) for c in conditions):
            return True
    return False


def selected(request: pytest.FixtureRequest, test: str) -> Iterable[dict[str, Any]]:
    """The parameters of each selected test (``-m``, ``-k``) of the requesting module whose
    function is named ``test``: ``{}`` for a test without parameters. A test that will
    be skipped has no run (nothing to play, and no parameters to play it with)."""
    for item in request.session.items:
        if isinstance(item, pytest.Function) and item.module is request.module and \
                item.originalname == test and not will_skip(item):
            callspec = getattr(item, "callspec", None)
            yield dict(callspec.params) if callspec is not None else {}
