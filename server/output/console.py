"""Logging for every command: structured events, as JSON lines in a run's folder and,
with -v, as a ruleset's readable account on stderr.

May import: ``server.output.say``.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import structlog
from structlog.typing import EventDict


class _JsonLines:
    """A processor that appends each event to a file as one JSON line."""

    def __init__(self, path: Path) -> None:
        # Open for as long as this logging configuration, so the rest of the process;
        # line-buffered: whatever stops the match, the events so far are on disk.
        self.file = path.open("a", encoding="utf-8", buffering=1)

    def __call__(self, _: Any, __: str, event: EventDict) -> EventDict:
        self.file.write(json.dumps(event, default=str, ensure_ascii=False) + "\n")
        return event


# A ruleset's readable account: the line -v prints for an event, or None (not shown).
Account = Callable[[Mapping[str, Any]], str | None]


class _Account:
    """The console's line for an event, by the ruleset's ``Account``, or drop it."""

    def __init__(self, account: Account) -> None:
        self.account = account

    def __call__(self, _: Any, __: str, event: EventDict) -> str:
        line = self.account(event)
        if line is None:
            raise structlog.DropEvent
        return line


def _drop(_: Any, __: str, event: EventDict) -> str:
    raise structlog.DropEvent


def configure_logging(verbose: bool, events: Path | None = None,
                      account: Account | None = None) -> None:
    """-v: the readable account on stderr (``account``'s lines); ``events``: every event
    as JSON lines.

    Without -v the table's debug events (every line sent and received) are
    dropped by the logger before any processor runs, so they cost one no-op
    call each. ``events``, a file in the match folder, gets them too with -v,
    else the info events (fines, faults, hands).
    """
    level = logging.DEBUG if verbose else logging.INFO if events else logging.CRITICAL
    processors: list[Any] = [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=False),
    ]
    if events is not None:
        processors.append(_JsonLines(events))
    processors.append(_Account(account) if verbose and account is not None else _drop)
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
