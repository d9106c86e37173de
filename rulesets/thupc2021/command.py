"""``server thupc [WALL_FILE]``: the I/O shell around ``simulator.run``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO, TextIO

from rulesets.thupc2021.simulator import run
from rulesets.thupc2021.tiles import WallError

EXIT_BAD_INPUT = 2


def _read(wall_file: Path | None, stdin: BinaryIO) -> str:
    if wall_file is None or str(wall_file) == "-":
        data, name = stdin.read(), "standard input"
    else:
        try:
            data, name = wall_file.read_bytes(), str(wall_file)
        except OSError as exc:
            raise WallError(f"cannot read {wall_file}: {exc.strerror}") from None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError:
        raise WallError(f"{name} is not ASCII text") from None


def thupc_command(wall_file: Path | None, stdin: BinaryIO | None = None,
                  stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Print the game log for the wall in ``wall_file`` (stdin if None or "-"); the exit status."""
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    try:
        log = run(_read(wall_file, stdin))
    except WallError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_BAD_INPUT
    stdout.write(log)
    stdout.flush()
    return 0
