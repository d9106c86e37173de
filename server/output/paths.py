"""Paths a person names on the command line, checked before anything starts.

A file where a folder is wanted, a folder where a file is, a parent that is
a file, a folder nobody may write in: each is a ``PathError`` that names the
option, the path and what is wrong with it, in one line (``server.seam.errors``).
Folders to write in are made, with their parents, as ``mkdir -p`` would.

``write_atomic``: a file others read while it is rewritten (match.json, standings.json,
a hand-in's current.json) is replaced whole, never seen half written.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

from server.seam.errors import InputError


class PathError(InputError):
    """A path that cannot be used as the command needs it."""


def _file_in_the_way(path: Path) -> Path | None:
    """The first of ``path`` and its parents that exists, if it is not a folder."""
    for p in (path, *path.parents):
        if p.exists():
            return None if p.is_dir() else p
    return None


def _cannot_write(folder: Path) -> str | None:
    """Why nothing can be written in ``folder`` (made if missing), or None.

    Writing is tried for real, a probe folder made and removed: permissions do
    not stop root, but a read-only or virtual file system (``/sys``) does.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        Path(tempfile.mkdtemp(prefix=".probe-", dir=folder)).rmdir()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    return None


def output_folder(path: Path, what: str) -> Path:
    """``path`` as a folder to write in, made if missing; ``what`` names the
    argument (``--log-dir``)."""
    blocker = _file_in_the_way(path)
    if blocker == path:
        raise PathError(f"{what} {path}: a file, not a folder")
    if blocker is not None:
        raise PathError(f"{what} {path}: {blocker} is a file, not a folder")
    existed = path.exists()
    if (why := _cannot_write(path)) is not None:
        raise PathError(f"{what} {path}: cannot {'write in' if existed else 'make'} this "
                        f"folder ({why})")
    return path


def output_file(path: Path, what: str) -> Path:
    """``path`` as a file to write: not a folder; its folder made if missing."""
    if path.is_dir():
        raise PathError(f"{what} {path}: a folder; give a file's name, such as "
                        f"{path / 'report.html'}")
    blocker = _file_in_the_way(path.parent)
    if blocker is not None:
        raise PathError(f"{what} {path}: {blocker} is a file, not a folder")
    if (why := _cannot_write(path.parent)) is not None:
        raise PathError(f"{what} {path}: cannot write in {path.parent} ({why})")
    return path


def write_atomic(path: Path, text: str, *, mode: int | None = None,
                 encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` through a new file beside it renamed over it, so a reader
    sees the old file or the new one, never a part; the new file gets ``mode``, or by
    default what any new file gets (0666 less the umask: 0600 under a command that
    keeps its files private, ``server.cli.app.private_files``)."""
    while True:
        tmp = str(path.parent / f".{path.name}-{secrets.token_hex(4)}")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as f:
            f.write(text)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
