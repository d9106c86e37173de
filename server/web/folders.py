"""What a served folder holds, read from its files only, and which of its files the web
may hand out.

A folder is a *tournament* (``standings.json`` or ``tournament.sqlite``), a *match*
(``match.json`` or a ``live.jsonl`` at its top), a folder of *several* of those (an
index links each), or *empty* for now (a tournament about to write its first file).

Path safety (``safe_path``): a URL path is taken apart into names; ``..``, ``.``, names
starting with a dot, backslashes and NUL are refused, the path is resolved (links
followed) and must stay under the root. Some files are never handed out, at any depth
(a folder of several runs holds each run's): the tournament's SQLite store, the programs
the bots played (``programs/``) and the hand-ins (``handins/``: uploads and hashed
tokens).

Sealed tables (``withheld``): a table whose deals some table has still to play is listed
in its run's ``sealed.json`` (``{"tables": ["r02-t01", ...]}``, written by the
tournament's runner); a table whose feed is in play is sealed too. Nothing of a sealed
table is handed out, its HTML pages included (a hand's page and the table's report show
every tile): its folder ``matches/T/`` and the files beside it named after it
(``matches/T.html``, ``matches/T-hands/``). A ``sealed.json`` that cannot be read seals
every table of its run.
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
SEALED = "sealed.json"  # OUT/sealed.json: the tables whose deals are still to be played
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
    if names is None or private(names):
        return None
    try:
        target = root.joinpath(*names).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if target != root and not target.is_relative_to(root):
        return None
    rest = target.relative_to(root).parts
    if private(rest) or any(p.startswith(".") for p in rest):
        return None  # a link inside the root that leads to a private file
    return target


def private(names: tuple[str, ...] | list[str]) -> bool:
    """Whether a path (its names under the root) is private at any depth."""
    return any(n in PRIVATE_DIRS or n.endswith(PRIVATE_SUFFIXES) for n in names)


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


def sealed_names(run: Path) -> frozenset[str] | None:
    """The tables ``run/sealed.json`` lists (empty when there is none; None, every table,
    when it is there but cannot be read)."""
    try:
        text = (run / SEALED).read_text(encoding="utf-8")
    except FileNotFoundError:
        return frozenset()
    except OSError:
        return None
    try:
        tables = json.loads(text)["tables"]
    except (ValueError, KeyError, TypeError):
        return None
    if not isinstance(tables, list):
        return None
    return frozenset(str(t) for t in tables)


def table_names(name: str) -> list[str]:
    """The tables a name in ``matches/`` may belong to: itself and each of its prefixes
    ending before a ``.`` or ``-`` (``r01-t01-hands`` -> ``r01``, ``r01-t01``, itself)."""
    cuts = [i for i, c in enumerate(name) if c in ".-"]
    return [name[:i] for i in cuts if i] + [name]


def table_sealed(run: Path, name: str, sealed: frozenset[str] | None) -> bool:
    """Whether ``run/matches/name`` is (or belongs to) a sealed table of ``run``."""
    if sealed is None:
        return True
    return any(table in sealed or feed_in_play(run / TABLES / table / FEED)
               for table in table_names(name))


def withheld(root: Path, target: Path) -> bool:
    """A file of a sealed table (the module's docstring), or of a run in play."""
    if target.is_dir():
        return False
    parts = target.relative_to(root).parts
    for depth in range(len(parts) - 1, -1, -1):
        folder = root.joinpath(*parts[:depth])
        if feed_in_play(folder / FEED):
            return True
        if depth + 1 < len(parts) and parts[depth] == TABLES and table_sealed(
                folder, parts[depth + 1], sealed_names(folder)):
            return True
    return False


def folder_sealed(root: Path, folder: Path) -> bool:
    """Whether ``folder`` (under ``root``) is a sealed table or lies inside one."""
    return withheld(root, folder / FEED)


def sealed_end(record: dict[str, Any]) -> dict[str, Any]:
    """A live ``end`` record of a sealed table with nothing that shows a tile (revealed
    hands, kongs, the text that names the winning tile and fans, the hand's page): its
    number, result word and scores stay."""
    return {"type": "end", "n": record.get("n"), "result": record.get("result"),
            "scores": record.get("scores"), "sealed": True}


def sealed_fault(record: dict[str, Any]) -> dict[str, Any]:
    """A live ``fault`` record of a sealed table with nothing a bot wrote: a bot could
    print its own hand on stderr, or as a malformed line that its cause quotes. Who,
    when, the kind of fault (the cause's first word) and the stderr file's name (served
    once the table is unsealed) stay."""
    cause = str(record.get("cause") or "")
    return {"type": "fault", "n": record.get("n"), "seat": record.get("seat"),
            "name": record.get("name"), "cause": cause.split(":", 1)[0].split(" (", 1)[0],
            "stderr": None, "stderr_file": record.get("stderr_file"), "sealed": True}
