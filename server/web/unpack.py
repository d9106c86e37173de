"""A student's upload laid out in its folder: one bot file, or a zip unpacked safely.

Everything lands inside the upload folder (``OUT/handins/<name>/<n>/``) or
nowhere. A zip is checked whole before a byte is written, and every entry that
cannot be taken is named with why: an absolute path, a ``..`` that climbs out,
a symbolic link, a device or other special file, an encrypted entry, a name
given twice; too many files, or more bytes once unpacked than allowed (a zip
bomb). The bytes are counted again while they are written, since a zip's
sizes are only what it claims. Files are created new (never through a link)
with the owner's exec bit the zip gives, and nothing else of its modes: files 0644
or 0755 and folders 0755 whatever the umask, since a sandboxed bot runs as another
user (the folders above, ``OUT/handins/<name>/``, are the server's user's alone).

Then the program is found by the rule of a folder of bots
(``server.tournament.entries.scan_folder``): exactly one, at the top of the zip
or of its one top-level folder. Its command is kept relative to the upload
folder (``["python3", "bot.py"]``), as ``current.json`` stores it.

Plain blocking file work, no trio: the upload page calls it in a worker thread.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import sys
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from server.tournament.entries import scan_folder

CHUNK = 1 << 16
SHOWN = 5  # refused entries named in one answer
_DRIVE = re.compile(r"^[A-Za-z]:")
_FILE_NAME = re.compile(r"^\w[\w.+-]*$")


class Refused(Exception):
    """An upload that is not taken; the message says why, naming the entry."""


@dataclass(frozen=True, slots=True)
class UnpackLimits:
    max_files: int = 200  # files in a zip
    max_bytes: int = 64 << 20  # bytes of all its files once unpacked


def _size(n: int) -> str:
    if n >= 1 << 20:
        return f"{n / (1 << 20):.1f} MB"
    if n >= 1 << 10:
        return f"{n / (1 << 10):.0f} KB"
    return f"{n} bytes"


def upload_name(filename: str | None) -> str:
    """The uploaded file's own name (no folder), or Refused."""
    name = PurePosixPath((filename or "").replace("\\", "/")).name
    if not name:
        raise Refused("the file has no name: choose your bot's file or a zip of its folder")
    if not _FILE_NAME.match(name) or len(name) > 100:
        raise Refused(f"file name {name[:100]!r}: use letters, digits, '.', '_', '+' or '-' "
                      "(not starting with a dot), at most 100 characters")
    return name


def is_zip(name: str) -> bool:
    return name.lower().endswith(".zip")


def save_single(src: IO[bytes], name: str, dest: Path, max_bytes: int) -> tuple[str, ...]:
    """One bot file written in ``dest``; its command (relative to ``dest``)."""
    target = dest / name
    written = _copy(src, target, 0o644 if name.endswith(".py") else 0o755, max_bytes, name)
    if written == 0:
        raise Refused(f"{name}: the file is empty")
    return ("python3", name) if name.endswith(".py") else (name,)


def _copy(src: IO[bytes], target: Path, mode: int, budget: int, what: str) -> int:
    """Copy ``src`` into a new file ``target`` (never through a link), at most ``budget``
    bytes."""
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
    written = 0
    with os.fdopen(fd, "wb") as out:
        while chunk := src.read(CHUNK):
            written += len(chunk)
            if written > budget:
                raise Refused(f"{what}: more than {_size(budget)} once unpacked (the limit "
                              "of a hand-in: a zip bomb?)")
            out.write(chunk)
    os.chmod(target, mode)  # not narrowed by the umask: the sandbox's user reads it
    return written


def _entry_problem(info: zipfile.ZipInfo) -> str | None:
    """Why one zip entry cannot be unpacked, or None."""
    name = info.filename
    if "\\" in name:
        return "a backslash in its name (a Windows path: zip it with / separators)"
    if name.startswith("/") or _DRIVE.match(name):
        return "an absolute path: entries must be inside the zip's folder"
    if ".." in name.split("/"):
        return "'..' in its path: it would climb out of the upload's folder"
    if "\x00" in name or any(ord(c) < 32 for c in name):
        return "a control character in its name"
    if info.flag_bits & 0x1:
        return "encrypted: zip it without a password"
    if info.create_system == 3:  # Unix: the file's type is in the high bits
        kind = stat.S_IFMT(info.external_attr >> 16)
        if kind == stat.S_IFLNK:
            return "a symbolic link: put the file itself in the zip"
        if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
            return "a device or other special file, not a regular file"
    return None


def _parts(info: zipfile.ZipInfo) -> tuple[str, ...]:
    return tuple(p for p in info.filename.split("/") if p not in ("", "."))


def check_zip(zf: zipfile.ZipFile, limits: UnpackLimits) -> list[zipfile.ZipInfo]:
    """The zip's file entries if every entry can be unpacked; else Refused naming the
    entries and why."""
    infos = zf.infolist()
    problems = [f"{info.filename[:120]!r}: {why}" for info in infos
                if (why := _entry_problem(info)) is not None]
    files = [i for i in infos if not i.is_dir() and _parts(i)]
    seen: dict[tuple[str, ...], str] = {}
    for info in files:
        key = _parts(info)
        if key in seen:
            problems.append(f"{info.filename[:120]!r}: the same file as {seen[key][:120]!r}")
        seen[key] = info.filename
    if problems:
        more = f" (and {len(problems) - SHOWN} more)" if len(problems) > SHOWN else ""
        raise Refused(f"the zip has {len(problems)} entr{'y' if len(problems) == 1 else 'ies'} "
                      "that cannot be unpacked: " + "; ".join(problems[:SHOWN]) + more)
    if len(files) > limits.max_files:
        raise Refused(f"too many files in the zip: {len(files)} (at most {limits.max_files})")
    if not files:
        raise Refused("the zip holds no file")
    claimed = sum(i.file_size for i in files)
    if claimed > limits.max_bytes:
        raise Refused(f"too many bytes once unpacked: the zip says {_size(claimed)}, and a "
                      f"hand-in may hold {_size(limits.max_bytes)} (a zip bomb?)")
    return files


def unpack_zip(src: IO[bytes], dest: Path, limits: UnpackLimits) -> None:
    """The zip ``src`` unpacked into ``dest`` (an empty folder), or Refused."""
    try:
        zf = zipfile.ZipFile(src)
    except (zipfile.BadZipFile, OSError) as exc:
        raise Refused(f"not a zip file ({exc})") from None
    with zf:
        files = check_zip(zf, limits)
        budget = limits.max_bytes
        root = dest.resolve()
        for info in files:
            target = root.joinpath(*_parts(info))
            if not target.resolve().is_relative_to(root):  # cannot happen after the checks
                raise Refused(f"{info.filename!r}: outside the upload's folder")
            executable = info.create_system == 3 and bool((info.external_attr >> 16) & 0o100)
            try:
                _folders(target.parent, root)
                with zf.open(info) as entry:
                    budget -= _copy(entry, target, 0o755 if executable else 0o644, budget,
                                    info.filename)
            except FileExistsError:
                raise Refused(f"{info.filename!r}: the same file as another entry") from None
            except (zipfile.BadZipFile, NotADirectoryError, ValueError) as exc:
                raise Refused(f"{info.filename!r}: cannot be unpacked ({exc})") from None


def _folders(folder: Path, root: Path) -> None:
    """``folder`` and its parents up to ``root`` made, each 0755 whatever the umask: the
    sandbox's user (not the server's) reads the program's files in them."""
    missing = []
    while folder != root and not folder.exists():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(exist_ok=True)
        os.chmod(made, 0o755)


def program_command(dest: Path) -> tuple[str, ...]:
    """The command of the one program in an unpacked zip (relative to ``dest``), by the
    rule of a folder of bots; or Refused saying what was found."""
    base = dest
    top = [p for p in dest.iterdir() if not p.name.startswith(".")]
    if len(top) == 1 and top[0].is_dir() and not top[0].is_symlink():
        base = top[0]  # a zip of a folder
    bots, skipped = scan_folder(base)
    where = "at the top of the zip" if base == dest else f"in {base.name}/"
    if not bots:
        passed = "; ".join(f"{name} ({why})" for name, why in skipped)
        raise Refused(f"no program {where}: a *.py file with a '__main__' block or a #! "
                      "line, or an executable file" + (f"; passed over: {passed}" if passed
                                                       else ""))
    if len(bots) > 1:
        names = ", ".join(Path(e.command[-1]).name for e in bots)
        raise Refused(f"{len(bots)} programs {where} ({names}): hand in one (a module the "
                      "program imports, without a '__main__' block, is not one)")
    return relative_command(bots[0].command, dest)


def relative_command(command: Sequence[str], dest: Path) -> tuple[str, ...]:
    """``command`` with this Python as ``python3`` and paths relative to ``dest``."""
    out = []
    root = dest.resolve()
    for word in command:
        if word == sys.executable:
            out.append("python3")
        elif os.path.isabs(word) and Path(word).resolve().is_relative_to(root):
            out.append(Path(word).resolve().relative_to(root).as_posix())
        else:
            out.append(word)
    return tuple(out)


def discard(dest: Path) -> None:
    """Remove an upload that was not taken (it holds no link: it is removed whole)."""
    shutil.rmtree(dest, ignore_errors=True)
