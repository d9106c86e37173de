"""``server ARGS`` through its entry point in the test's own process.

For checks of what the command line says and its exit status where the process itself is
not the point: a ``server`` process costs a second of start-up (imports) apiece. Each test
file that uses it keeps a real process for its promise too.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def server_here(*args: str, cwd: Path = ROOT,
                columns: int = 80) -> subprocess.CompletedProcess[str]:
    """``server ARGS`` run by ``server.cli.app.main`` in this process, from ``cwd``: its
    exit status, stdout and stderr as the process would have them (an exception that
    escapes it, as the traceback Python would print, and status 1). The working folder,
    ``sys.argv``, ``COLUMNS`` and the umask are put back after: a command that writes
    sets the umask to 077 (``private_files``), and left so, every file a later test of
    this worker wrote was unreadable to a sandboxed bot (which runs as nobody)."""
    from server.cli.app import main

    out, err = io.StringIO(), io.StringIO()
    status: int | str | None = 0
    umask = os.umask(0o022)
    os.umask(umask)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        patch.setenv("COLUMNS", str(columns))
        patch.setattr(sys, "argv", ["server", *args])
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as stop:
                status = stop.code
            except Exception:  # what the process would print before dying
                err.write(traceback.format_exc())
                status = 1
            finally:
                os.umask(umask)
    if isinstance(status, str):  # SystemExit("message"): printed, status 1
        err.write(status + "\n")
        status = 1
    return subprocess.CompletedProcess(["server", *args], status or 0, out.getvalue(),
                                       err.getvalue())
