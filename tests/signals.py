"""Starting the CLI so that Ctrl-C reaches it, however the tests themselves were started;
and ending a started server's process group."""

from __future__ import annotations

import os
import signal
import subprocess


def ctrl_c_works() -> None:
    """In the child before exec: SIGINT back to its default action.

    A shell starts a background job (``cmd &``, ``nohup``) with SIGINT ignored,
    and an ignored signal stays ignored across fork and exec: Python then never
    installs its KeyboardInterrupt handler, and a test's SIGINT would be lost.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def end_group(process: subprocess.Popen[str], grace: float = 10.0) -> None:
    """A started server's process group ended as a user would: SIGTERM, ``grace`` seconds
    for it to stop its bots and itself, then SIGKILL. Nothing if it has ended."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
