"""The field: a BOTS.toml file or a folder of bots, read into entries.

BOTS.toml lists each bot as a table with a name and a command (a quoted
command line, or a list of words)::

    [[bot]]
    name = "alice"
    command = "python3 bots/alice.py --level 2"

A command that is the one word ``tcp:NAME`` is a remote seat, as in a match:
the bot connects to the tournament's listener (``server connect ... --name
NAME``). The one word ``web:NAME`` is a person, who plays from a page whose link
the tournament prints at its start (``server.tournament.runner``). NAME follows
the protocol's rules (no spaces) and no two entries share one. A bot of a
ruleset on Botzone's protocol may also say ``io = "simple"`` (its interaction;
json by default) and ``keep_running = true`` (off by default), stored in its
command as ``simple+keep-running:...``.

A folder holds one bot per file, named after the file's stem (as ``server
tournament --help`` and docs/guides/teachers.md say):
each executable file, and each ``*.py`` file (run with this Python), except

* names that start with ``_`` or ``.`` (``__init__.py``, ``_helpers.py``);
* a ``*.py`` file that another ``*.py`` file in the folder imports and that
  cannot run as a program (no ``#!`` line, no ``if __name__ == "__main__":``
  block): a module the bots share, like the sample AIs' ``framework.py``.

``scan_folder`` also says which files it passed over and why, for the console.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

from server.bots.person import PREFIX as PERSON
from server.bots.person import PersonSetupError
from server.bots.person import check_name as check_person
from server.bots.processes import BotCommandError, parse_command
from server.bots.remote import PREFIX, RemoteSetupError, check_name
from server.seam.errors import InputError, reason
from server.seam.registry import DEFAULT, load
from server.tournament.store import Entry

FILL_IN_NAME = "fill-in-{}"
# The keys a [[bot]] table of BOTS.toml may have.
ENTRY_KEYS = ("name", "command", "ruleset", "io", "keep_running")


class EntriesError(ValueError):
    """A bots file or folder that cannot be used."""


def fill_in(k: int, ruleset: str = DEFAULT) -> Entry:
    """The k-th house bot (0-based): the greedy sample AI with its own seed (another
    ruleset's own house bot: Botzone pads a field with its sample bot)."""
    if ruleset != DEFAULT:
        return Entry(FILL_IN_NAME.format(k + 1), load(ruleset).fill_in_command(k), True)
    return Entry(FILL_IN_NAME.format(k + 1),
                 (sys.executable, "-m", "sample_ai.greedy", "--seed", str(1000 + k)), True)


def load_entries(path: Path, ruleset: str = DEFAULT) -> list[Entry]:
    """The bots of a tournament of ``ruleset``: a BOTS.toml entry may say its ruleset
    (it must be the tournament's), its ``io`` (how it talks, if the ruleset has
    more than one way: Botzone's json or simple) and its ``keep_running`` (true or
    false, a setting of bots on Botzone's protocol: ``server.bots.botzone_io``)."""
    if not path.exists():
        raise EntriesError(f"{path}: no such file or folder (BOTS is a bots file or a folder "
                           "of bots)")
    entries = _from_folder(path) if path.is_dir() else _from_toml(path, ruleset)
    if path.is_dir() and ruleset != DEFAULT:
        rules = load(ruleset)
        ruled, problems = [], []
        for e in entries:  # every bot that cannot be used, said at once
            try:
                ruled.append(Entry(e.name, rules.entry_command(e.command, None,
                                                               f"{path}: {e.name}")))
            except InputError as exc:
                problems.append(str(exc).removeprefix(f"{path}: "))
        _refuse_all(path, problems)
        entries = ruled
    names = [e.name for e in entries]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise EntriesError(f"{path}: bot names must differ: {', '.join(dupes)}")
    if len(entries) < 2:
        raise EntriesError(f"{path}: a tournament needs at least two bots")
    return entries


def _from_toml(path: Path, ruleset: str = DEFAULT) -> list[Entry]:
    base = path.parent
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise EntriesError(f"{path}: not a text file (BOTS is a TOML file or a folder of "
                           "bots)") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise EntriesError(f"{path}: {reason(exc)}") from None
    _check_keys(path, data)
    out = []
    problems = []  # every bot that cannot be used, said at once
    for i, item in enumerate(data.get("bot", [])):
        try:
            out.append(_toml_entry(path, i, item, ruleset, base))
        except EntriesError as exc:
            problems.append(str(exc).removeprefix(f"{path}: "))
    _refuse_all(path, problems)
    seen: dict[str, str] = {}
    for entry in out:
        if (remote := entry.remote) is not None:
            if remote in seen:
                raise EntriesError(f"{path}: bots {seen[remote]!r} and {entry.name!r} are "
                                   f"both {PREFIX}{remote}: each remote bot needs a NAME "
                                   "of its own")
            seen[remote] = entry.name
        if (person := entry.person) is not None:
            if f"{PERSON}{person}" in seen:
                raise EntriesError(f"{path}: bots {seen[PERSON + person]!r} and "
                                   f"{entry.name!r} are both {PERSON}{person}: each person "
                                   "needs a NAME of their own")
            seen[f"{PERSON}{person}"] = entry.name
    return out


def _refuse_all(path: Path, problems: Sequence[str]) -> None:
    """Every bot that cannot be used, said at once (numbered when more than one)."""
    if len(problems) == 1:
        raise EntriesError(f"{path}: {problems[0]}")
    if problems:
        raise EntriesError(f"{path}: {len(problems)} bots cannot be used: "
                           + "; ".join(f"({n}) {p}" for n, p in enumerate(problems, 1)))


def _toml_entry(path: Path, i: int, item: object, ruleset: str, base: Path) -> Entry:
    """The ``i``-th ``[[bot]]`` table of a bots file, or EntriesError naming it."""
    if not isinstance(item, dict):
        raise EntriesError(f"{path}: bot {i + 1}: bot is a table ([[bot]] with name = "
                           "and command =), not a value")
    name, command = item.get("name"), item.get("command")
    unknown = sorted(set(item) - set(ENTRY_KEYS))
    if unknown:
        which = repr(name) if isinstance(name, str) and name else str(i + 1)
        raise EntriesError(f"{path}: bot {which}: {_unknown(unknown, ENTRY_KEYS)} (a bot's "
                           f"keys are {', '.join(ENTRY_KEYS)})")
    if not isinstance(name, str) or not name or name.startswith("fill-in-"):
        raise EntriesError(f"{path}: bot {i + 1} needs a name (not fill-in-N)")
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        command = command[0] if len(command) == 1 \
            and command[0].startswith((PREFIX, PERSON)) \
            else shlex.join(command)
    if not isinstance(command, str):
        raise EntriesError(f"{path}: bot {name!r} needs a command")
    own = item.get("ruleset", ruleset)
    if own != ruleset:
        raise EntriesError(f"{path}: bot {name!r} plays the {own} ruleset, and this "
                           f"tournament is of the {ruleset} ruleset (--ruleset)")
    io = item.get("io")
    if io is not None and not isinstance(io, str):
        raise EntriesError(f"{path}: bot {name!r}: io must be a string")
    keep_running = item.get("keep_running")
    if keep_running is not None and not isinstance(keep_running, bool):
        raise EntriesError(f"{path}: bot {name!r}: keep_running must be true or false, "
                           f"not {keep_running!r}")
    if command.strip().startswith(PERSON):
        if io is not None or keep_running is not None:
            raise EntriesError(f"{path}: bot {name!r}: io and keep_running are for a bot "
                               f"the server starts, not a person ({PERSON}NAME)")
        return Entry(name, (_person(path, name, command.strip()),))
    if command.strip().startswith(PREFIX):
        if keep_running is not None:
            raise EntriesError(f"{path}: bot {name!r}: keep_running is for a bot the "
                               f"server starts, not a remote one ({PREFIX}NAME)")
        return Entry(name, (_remote(path, name, command.strip()),))
    try:
        argv = parse_command(_rebase(command, base))
        stored = tuple(argv) if ruleset == DEFAULT and io is None and keep_running is None \
            else load(ruleset).entry_command(argv, io, f"{path}: bot {name!r}", keep_running)
    except (BotCommandError, InputError) as exc:
        raise EntriesError(f"{path}: bot {name!r}: {reason(exc)}"
                           if isinstance(exc, BotCommandError) else str(exc)) from None
    return Entry(name, stored)


def _check_keys(path: Path, data: dict[str, object]) -> None:
    """Refuse what a bots file holds besides its ``[[bot]]`` tables, by name: a
    misspelt table would otherwise leave the field empty without a word."""
    unknown = sorted(set(data) - {"bot"})
    if unknown:
        raise EntriesError(f"{path}: {_unknown(unknown, ('bot',), table=True)} (a bots file "
                           "holds [[bot]] tables, each with name = and command =)")
    if not isinstance(data.get("bot", []), list):
        raise EntriesError(f"{path}: bot must be a list of tables, written [[bot]], not "
                           "[bot] or bot =")


def _unknown(keys: Sequence[str], known: Sequence[str], table: bool = False) -> str:
    """What was not understood, each with the name it was likely meant to be."""
    def shown(key: str) -> str:
        return f"[[{key}]]" if table else repr(key)

    said = []
    for key in keys:
        close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
        said.append(shown(key) + (f" (did you mean {shown(close[0])}?)" if close else ""))
    if len(said) == 1:
        return f"{'table' if table else 'key'} {said[0]} is not understood"
    return f"{'tables' if table else 'keys'} {', '.join(said)} are not understood"


def _remote(path: Path, name: str, command: str) -> str:
    """A remote entry's command, ``tcp:NAME``, checked."""
    words = command.split()
    if len(words) != 1:
        raise EntriesError(f"{path}: bot {name!r}: a remote bot's command is just "
                           f"{PREFIX}NAME, not {command[:40]!r}")
    try:
        check_name(f"bot {name!r}: {PREFIX}NAME", words[0][len(PREFIX):])
    except RemoteSetupError as exc:
        raise EntriesError(f"{path}: {reason(exc)}") from None
    return words[0]


def _person(path: Path, name: str, command: str) -> str:
    """A person's entry's command, ``web:NAME``, checked."""
    words = command.split()
    if len(words) != 1:
        raise EntriesError(f"{path}: bot {name!r}: a person's command is just "
                           f"{PERSON}NAME, not {command[:40]!r}")
    try:
        check_person(words[0][len(PERSON):])
    except PersonSetupError as exc:
        raise EntriesError(f"{path}: bot {name!r}: {reason(exc)}") from None
    return words[0]


def _rebase(command: str, base: Path) -> str:
    """The command with its relative paths made absolute: as seen from here if they exist
    here, else from beside the bots file.

    Stored absolute, an entry runs the same program whichever folder the
    tournament is resumed from.
    """
    words = shlex.split(command)
    out = []
    for word in words:
        path = Path(word)
        if ("/" in word or word.endswith(".py")) and not path.is_absolute():
            if path.exists():
                word = str(path.resolve())
            elif (base / path).exists():
                word = str((base / path).resolve())
        out.append(word)
    return shlex.join(out)


# The names an import statement mentions: ``import a.b as c, d`` and ``from .a.b import c``.
_IMPORT = re.compile(r"^\s*(?:from\s+([.\w]+)\s+import\s+\(?([\w\s,]+)|import\s+([\w.,\s]+))",
                     re.MULTILINE)
_MAIN = re.compile(r"""^if\s+__name__\s*==\s*['"]__main__['"]\s*:""", re.MULTILINE)


def _source(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def imported_names(source: str) -> set[str]:
    names: set[str] = set()
    for module, items, plain in _IMPORT.findall(source):
        for part in (module, items, plain):
            names.update(w for w in re.split(r"[\s,.]+", part) if w and w != "as")
    return names


def _runs_as_program(source: str) -> bool:
    return source.startswith("#!") or _MAIN.search(source) is not None


def scan_folder(folder: Path) -> tuple[list[Entry], list[tuple[str, str]]]:
    """The bots in ``folder`` (the rule above), and the files passed over with why.

    Files that are plainly no program (``notes.txt``, ``bot.cpp``) are not listed.
    """
    files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
    sources = {f: _source(f) for f in files if f.suffix == ".py"}
    bots: list[Entry] = []
    skipped: list[tuple[str, str]] = []
    for f in files:
        is_py, executable = f.suffix == ".py", os.access(f, os.X_OK)
        if not (is_py or executable):
            if not f.suffix:
                skipped.append((f.name, "not executable (chmod +x?)"))
            continue
        if f.name.startswith("_"):
            skipped.append((f.name, "the name starts with _"))
            continue
        if is_py and not _runs_as_program(sources[f]):
            importers = sorted((g.name for g, text in sources.items()
                                if g != f and f.stem in imported_names(text)),
                               key=lambda name: (name.startswith("_"), name))
            if importers:
                skipped.append((f.name, f"a module {importers[0]} imports, not a program"))
                continue
        command = (sys.executable, str(f.resolve())) if is_py else (str(f.resolve()),)
        bots.append(Entry(f.stem, command))
    return bots, skipped


def _from_folder(folder: Path) -> list[Entry]:
    return scan_folder(folder)[0]
