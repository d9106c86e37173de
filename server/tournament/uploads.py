"""Hand-ins through the page, as the tournament reads them: ``OUT/handins/<name>/current.json``.

The upload page (``server.web.handins``) writes, for a student whose upload
passed check-bot::

    OUT/handins/<name>/current.json
        {"n": 3, "command": ["python3", "bot.py"], "at": 1764190000.5,
         "report": "check-bot ...: 2 hands ... ok"}

``command`` is the program's argv with its files relative to the upload's
folder ``OUT/handins/<name>/<n>/``. When a table starts, the runner takes it
over BOTS's command for that entry (``current_command``): its words that name a
file in the folder become absolute paths, the entry's own prefix (Botzone's
``json:``, ``keep-running``) is kept, and the program is pinned and hashed as any
hand-in. This module is the one reader of that file; the page writes it with
``write_current``.

Plain blocking file work, no trio.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from server.output.paths import write_atomic

HANDINS = "handins"  # OUT/handins/
CURRENT = "current.json"  # OUT/handins/<name>/current.json


@dataclass(frozen=True, slots=True)
class PageHandIn:
    """A passed upload: which one, and its command with absolute paths."""

    n: int
    argv: tuple[str, ...]
    folder: Path


def student_dir(out: Path, name: str) -> Path:
    return out / HANDINS / name


def absolute_command(command: Sequence[str], folder: Path) -> tuple[str, ...] | None:
    """A stored command with its files made absolute (inside ``folder``), or None when a
    word climbs out of it. Words that name no file in ``folder`` stay as they are."""
    root = folder.resolve()
    out = []
    for word in command:
        if os.path.isabs(word) or ".." in PurePosixPath(word).parts:
            return None
        path = root / word
        out.append(str(path) if path.is_file() and not path.is_symlink() else word)
    return tuple(out)


def current_command(out: Path, name: str) -> PageHandIn | str | None:
    """``name``'s latest passed upload (None: none; a string: why it cannot be used)."""
    path = student_dir(out, name) / CURRENT
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        return f"{path}: {exc}"
    n, command = (data.get("n"), data.get("command")) if isinstance(data, dict) else (0, 0)
    if not isinstance(n, int) or n < 1 or not isinstance(command, list) or not command \
            or not all(isinstance(w, str) and w for w in command):
        return f"{path}: not a hand-in written by the upload page (n, command)"
    folder = student_dir(out, name) / str(n)
    if not folder.is_dir():
        return f"{path}: upload {n} is not there ({folder})"
    argv = absolute_command(command, folder)
    if argv is None:
        return f"{path}: the command names a file outside upload {n}'s folder"
    return PageHandIn(n, argv, folder)


def write_current(out: Path, name: str, n: int, command: Sequence[str], report: str) -> Path:
    """``current.json`` of ``name``: upload ``n`` plays from the next table (written whole:
    a table starting meanwhile reads the old one or the new one)."""
    folder = student_dir(out, name)
    path = folder / CURRENT
    write_atomic(path, json.dumps({"n": n, "command": list(command), "at": time.time(),
                                   "report": report}, ensure_ascii=False, indent=1) + "\n")
    return path
