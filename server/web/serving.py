"""Serve an ASGI app with hypercorn's trio worker: on an address, until cancelled."""

from __future__ import annotations

import logging

import trio
from hypercorn.config import Config
from hypercorn.trio import serve as hypercorn_serve
from hypercorn.typing import ASGIFramework

from server.seam.errors import InputError


def parse_bind(text: str, default_host: str = "127.0.0.1", *,
               option: str = "--serve") -> tuple[str, int]:
    """``HOST:PORT`` or ``PORT`` (loopback) as (host, port); InputError naming what is
    wrong (and ``option``, the flag that gave it)."""
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host = default_host
    host = host.strip("[]") or default_host
    try:
        port = int(port_text)
    except ValueError:
        raise InputError(f"{option} {text!r}: expected HOST:PORT or PORT, "
                         f"with PORT a number from 0 to 65535") from None
    if not 0 <= port <= 65535:
        raise InputError(f"{option} {text!r}: the port must be from 0 to 65535")
    return host, port


def _config(host: str, port: int) -> Config:
    config = Config()
    config.bind = [f"[{host}]:{port}" if ":" in host else f"{host}:{port}"]
    config.accesslog = None
    config.errorlog = logging.getLogger("hypercorn.error")
    config.graceful_timeout = 1.0
    return config


async def serve(app: ASGIFramework, host: str, port: int, *,
                task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``app`` on host:port until cancelled; ``task_status.started`` gets the URLs
    bound (port 0 picks a free port). A port in use is an InputError."""
    try:
        await hypercorn_serve(app, _config(host, port), task_status=task_status)
    except OSError as exc:
        raise InputError(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None
    except BaseExceptionGroup as group:  # hypercorn's nurseries wrap the bind's OSError
        found, rest = group.split(OSError)
        if found is None or rest is not None:
            raise
        first = _first_leaf(found)
        raise InputError(f"cannot serve on {host}:{port}: "
                         f"{getattr(first, 'strerror', None) or first}") from None


def _first_leaf(group: BaseExceptionGroup[BaseException]) -> BaseException:
    first = group.exceptions[0]
    return _first_leaf(first) if isinstance(first, BaseExceptionGroup) else first
