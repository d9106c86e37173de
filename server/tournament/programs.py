"""Hand-ins: the program each player plays a table with, pinned for the whole table.

A player may hand in a new program while a tournament runs, by replacing the
program's file or by changing its entry's command in BOTS. Bots are started
afresh every hand (the default ruleset) or every turn (Botzone, NOI 2014), so
a file replaced while a table plays would change the program in the middle of
the table. ``pin`` prevents that: when a table starts, the files its command
names are copied into a snapshot named by their contents,
``OUT/programs/<first 16 hex digits of the hash>/``, and the table runs that
copy with the command rewritten to it.

* The files pinned are the words of the command (the argv; a ruleset's own
  form, such as Botzone's ``json:CMD``, is split by ``Ruleset.split_command``)
  that are absolute paths of regular files outside the system (``/usr``,
  ``/bin``, ``/lib``..., the server's Python: ``sys.prefix``,
  ``sys.base_prefix``; a virtual environment's ``bin``), so that
  interpreters are not copied: in ``python3 /abs/bot.py --level 2`` only
  ``bot.py``. A ``*.py`` file brings the modules and packages beside it that
  it imports (``from _helpers import x``), so a bot made of a few files still
  runs.
* The snapshot keeps each file's name and exec bit, and its files are
  read-only: 0444 or 0555, its folders 0755, whatever the umask, since a
  sandboxed bot runs as another user; ``programs/`` around them is made 0700
  (the sandbox binds the one program it runs, so the bot need not pass it).
  Files from the program's folder sit at the top of the snapshot; files from
  other folders in ``1/``, ``2/``... beside them.
* The program's hash is ``sha256:<hex>`` over the pinned files' names (as in
  the snapshot) and bytes. A command that names no file (``python3 -m pkg``,
  a program on PATH, ``java -cp DIR Main``) is not pinned: it runs as it is,
  and its hash is of the command's words.
* A program that finds other files through its own location (``__file__``,
  ``argv[0]``) looks for them beside the pinned copy, where they are not:
  name such a file in the command (it is pinned too), or build it in. A hand-in
  through the page is pinned with every file of its upload (``folder``).

Plain blocking file work, no trio: the runner calls ``pin`` in a worker thread.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server.seam.contract import Ruleset
from server.tournament.entries import imported_names

# Folders whose files are the system's (interpreters, shells, libraries), never pinned.
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc",
               "/opt", "/nix", "/snap", "/proc", "/sys", "/dev")
PROGRAMS = "programs"  # OUT/programs/<hash16>/
SKIP = ("__pycache__",)


@dataclass(frozen=True, slots=True)
class Program:
    """One player's program at one table."""

    command: tuple[str, ...]  # the entry's command, as handed in (stored)
    run: tuple[str, ...]  # what the table runs: the command with the pinned copies
    hash: str  # "sha256:<hex>"
    files: tuple[str, ...] = ()  # the pinned files, where they were handed in

    @property
    def short(self) -> str:
        """The hash as the console shows it: sha256:<12 hex digits>…"""
        return self.hash[:19] + "…"


def _system_roots() -> list[Path]:
    roots = [Path(d) for d in SYSTEM_DIRS]
    for prefix in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}:
        roots.append(Path(prefix).resolve())
    return roots


def is_system(path: Path) -> bool:
    """Whether a file belongs to the system or a Python installation (not a program
    to pin): under a system folder or the server's Python, or in a virtual
    environment's ``bin``."""
    roots = _system_roots()
    for p in (path, path.resolve()):
        if any(p.is_relative_to(root) for root in roots):
            return True
        if (p.parent.parent / "pyvenv.cfg").exists():
            return True
    return False


def pinnable(argv: Sequence[str]) -> list[int]:
    """The indices of the words of ``argv`` that name files to pin."""
    out = []
    for i, word in enumerate(argv):
        if not os.path.isabs(word):
            continue
        path = Path(word)
        try:
            if path.is_file() and not is_system(path):
                out.append(i)
        except OSError:
            continue
    return out


def _package_files(folder: Path) -> list[Path]:
    return sorted(f for f in folder.rglob("*") if f.is_file()
                  and not any(part in SKIP or part.startswith(".")
                              for part in f.relative_to(folder).parts))


def _source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def python_companions(script: Path) -> list[Path]:
    """The modules (``NAME.py``) and packages (``NAME/``) beside ``script`` that it
    imports, and theirs in turn: what a several-file Python bot needs beside it."""
    base = script.parent
    found: dict[Path, None] = {}
    todo = [script]
    seen = {script}
    while todo:
        source = todo.pop()
        for name in sorted(imported_names(_source(source))):
            module, package = base / f"{name}.py", base / name
            if module.is_file() and module not in seen:
                seen.add(module)
                found[module] = None
                todo.append(module)
            elif package.is_dir() and package not in seen and name not in SKIP and \
                    any(package.glob("*.py")):
                seen.add(package)
                for f in _package_files(package):
                    found[f] = None
                    if f.suffix == ".py":
                        todo.append(f)
    return list(found)


def _layout(named: Sequence[Path], folder: Path | None = None
            ) -> tuple[dict[Path, str], list[str]]:
    """Each file to pin with its name in the snapshot, and the snapshot name of each
    named file: the first named file's folder at the top, other folders numbered; with
    ``folder``, every file under it too."""
    folders: list[Path] = []
    names: dict[Path, str] = {}

    def place(path: Path, base: Path) -> str:
        if base not in folders:
            folders.append(base)
        k = folders.index(base)
        rel = path.relative_to(base).as_posix()
        return rel if k == 0 else f"{k}/{rel}"

    for path in named:
        if path not in names:
            names[path] = place(path, path.parent)
        if path.suffix == ".py":
            for extra in python_companions(path):
                if extra not in names:
                    names[extra] = place(extra, path.parent)
    if folder is not None and named:
        top = named[0].parent
        for extra in _package_files(folder):
            if extra not in names:
                names[extra] = place(extra, top if extra.is_relative_to(top) else folder)
    return names, [names[p] for p in named]


def digest(files: Sequence[tuple[str, bytes]]) -> str:
    """``sha256:<hex>`` of files by name (in the snapshot) and bytes."""
    h = hashlib.sha256()
    for name, data in sorted(files):
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return "sha256:" + h.hexdigest()


def command_digest(command: Sequence[str]) -> str:
    """The hash of a command that names no file: of its words."""
    return "sha256:" + hashlib.sha256(json.dumps(list(command)).encode()).hexdigest()


def pin(command: Sequence[str], rules: Ruleset, out: Path, folder: Path | None = None
        ) -> Program:
    """``command`` (an entry's, as stored) with its program pinned under ``out/programs``;
    with ``folder`` (a hand-in through the page: its upload's folder), every file in it
    is pinned too, so that a program finds its data beside it (a model's weights).

    The snapshot is written once (to a temporary folder, then renamed): tables
    that pin the same program at once share it. A file that cannot be read is an
    ``OSError`` for the caller.
    """
    command = tuple(command)
    prefix, argv = rules.split_command(command)
    indices = pinnable(argv)
    if not indices:
        return Program(command, command, command_digest(command))
    named = [Path(argv[i]) for i in indices]
    names, named_as = _layout(named, folder)
    contents = [(names[p], p.read_bytes(), os.access(p, os.X_OK)) for p in names]
    hashed = digest([(name, data) for name, data, _ in contents])
    folder = (out / PROGRAMS / hashed.removeprefix("sha256:")[:16]).resolve()
    if not folder.exists():
        folder.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".pin-", dir=folder.parent))
        tmp.chmod(0o755)
        try:
            for name, data, executable in contents:
                target = tmp / name
                for made in reversed(target.relative_to(tmp).parents[:-1]):
                    (tmp / made).mkdir(exist_ok=True)
                    (tmp / made).chmod(0o755)  # whatever the umask: see the module's doc
                target.write_bytes(data)
                read = stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH
                run = stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH
                target.chmod(read | run if executable else read)
            try:
                tmp.rename(folder)
            except OSError:  # another table pinned the same program meanwhile
                if not folder.exists():
                    raise
        finally:
            if tmp.exists():
                shutil.rmtree(tmp)
    words = list(argv)
    for i, name in zip(indices, named_as, strict=True):
        words[i] = str(folder / name)
    return Program(command, rules.join_command(prefix, words), hashed,
                   tuple(str(p) for p in names))
