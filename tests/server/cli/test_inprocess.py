"""The in-process runner of ``server`` leaves the test's process as it found it."""

from __future__ import annotations

import os
from pathlib import Path

from tests.server.cli.inprocess import server_here


def test_a_command_that_writes_run_in_process_leaves_the_umask_as_it_was(
        tmp_path: Path) -> None:
    before = os.umask(0o022)
    os.umask(before)
    done = server_here("tokens", str(tmp_path / "out"), "alice")  # it writes: umask 077
    after = os.umask(before)
    assert (done.returncode, after) == (0, before), done.stderr
