"""What a served folder holds, read from its files only, and which of its files the web
may hand out.

A folder is a *tournament* (``standings.json`` or ``tournament.sqlite``), a *match*
(``match.json`` or a ``live.jsonl`` at its top), a folder of *several* of those (an
index links each), or *empty* for now (a tournament about to write its first file).

Path safety (``safe_path``): a URL path is taken apart into names; ``..``, ``.``, names
starting with a dot, backslashes and NUL are refused, the path is resolved (links
followed) and must stay under the root. Some files are never handed out: the
tournament's SQLite store, the programs the bots played (``programs/``) and the hand-ins
(``handins/``: uploads and hashed tokens). While a table is in play nothing of its folder
but its HTML pages is handed out: its logs show every concealed tile.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

Kind = Literal["tournament", "match", "several", "empty"]

FEED = "live.jsonl"
TABLES = "matches"  # a tournament's table folders: OUT/matches/rRR-tTT/
STANDINGS = "standings.json"
MATCH = "match.json"
DB = "tournament.sqlite"
PRIVATE_DIRS = frozenset({"programs", "handins"})  # at the top of a served folder
PRIVATE_SUFFIXES = (".sqlite", ".sqlite-wal", ".sqlite-shm", ".sqlite-journal", ".tmp")
STALE_SECONDS = 120.0  # a feed without "done" unwritten this long: a run that was stopped


def kind_of(folder: Path) -> Kind:
    """What ``folder`` holds (see the module's docstring)."""
    if (folder / STANDINGS).is_file() or (folder / DB).is_file():
        return "tournament"
    if (folder / MATCH).is_file() or (folder / FEED).is_file():
        return "match"
    if sub_folders(folder):
        return "several"
    return "empty"


def sub_folders(folder: Path) -> list[tuple[str, Kind]]:
    """The tournaments and matches directly inside ``folder``, by name."""
    found: list[tuple[str, Kind]] = []
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir()
                          and not p.name.startswith("."))
    except OSError:
        return []
    for child in children:
        if (child / STANDINGS).is_file() or (child / DB).is_file():
            found.append((child.name, "tournament"))
        elif (child / MATCH).is_file() or (child / FEED).is_file():
            found.append((child.name, "match"))
    return found


def url_names(rel: str) -> list[str] | None:
    """The names of a URL path inside the root, or None when the path is refused."""
    if "\\" in rel or "\x00" in rel:
        return None
    names = [n for n in rel.split("/") if n]
    if any(n in (".", "..") or n.startswith(".") for n in names):
        return None
    return names


def safe_path(root: Path, rel: str) -> Path | None:
    """The existing file or folder ``rel`` names under ``root``, or None (refused or absent).

    ``root`` is resolved by the caller. Links are followed and the target must still be
    under ``root``; the private files (the module's docstring) are refused.
    """
    names = url_names(rel)
    if names is None:
        return None
    if names and names[0] in PRIVATE_DIRS:
        return None
    if names and names[-1].endswith(PRIVATE_SUFFIXES):
        return None
    try:
        target = root.joinpath(*names).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if target != root and not target.is_relative_to(root):
        return None
    rest = target.relative_to(root).parts
    if rest and (rest[0] in PRIVATE_DIRS or target.name.endswith(PRIVATE_SUFFIXES)
                 or any(p.startswith(".") for p in rest)):
        return None  # a link inside the root that leads to a private file
    return target


def last_record(feed: Path) -> dict[str, Any] | None:
    """The last whole record of a live feed (its tail only is read), or None."""
    try:
        with feed.open("rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - 65536))
            tail = f.read()
    except OSError:
        return None
    lines = tail.split(b"\n")[:-1]  # the part after the last newline is being written
    for line in reversed(lines):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        return value if isinstance(value, dict) else None
    return None


def feed_in_play(feed: Path) -> bool:
    """A table whose feed has no "done" record and was written lately."""
    try:
        mtime = feed.stat().st_mtime
    except OSError:
        return False
    if time.time() - mtime > STALE_SECONDS:
        return False
    last = last_record(feed)
    return last is None or last.get("type") != "done"


def withheld(root: Path, target: Path) -> bool:
    """A file of a table in play other than an HTML page: its logs show concealed tiles."""
    if target.is_dir() or target.suffix == ".html":
        return False
    folder = target.parent
    while folder == root or folder.is_relative_to(root):
        if feed_in_play(folder / FEED):
            return True
        if folder == root:
            break
        folder = folder.parent
    return False
