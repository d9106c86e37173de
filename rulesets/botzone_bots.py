"""What the rulesets whose bots speak Botzone's protocol share (botzone, noi2014): how a
bots file's entry is stored (``json:CMD`` or ``simple:CMD``, ``+keep-running`` before the
colon for a bot with that setting: ``server.bots.botzone_io``), the house bot that fills
a tournament's field, a tournament's stored settings, how a game record or a match
folder of theirs is found, and what their per-bot statistics read alike (the records of
a match's games, the times of the answers the platform took).

Pure: no trio.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from server.bots.botzone_io import spec_prefix, split_prefix
from server.seam.contract import Ruleset
from server.seam.errors import InputError

MODES = ("json", "simple")


def read_record(path: Path, accept: Callable[[object], bool]) -> dict[str, Any] | None:
    """The game record in a ``.json`` file or a game folder's ``game.json`` if ``accept``
    takes it; None if there is none. A ``.json`` file that is no JSON is bad input."""
    file = path / "game.json" if path.is_dir() else path
    if not file.is_file() or file.suffix != ".json":
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{file}: not a UTF-8 text file") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except OSError as exc:
        raise InputError(f"{file}: {exc.strerror}") from None
    return data if accept(data) else None


def match_records(root: Path, find: Callable[[Path], dict[str, Any] | None],
                  ) -> list[dict[str, Any]]:
    """The record of every finished game in a match folder (``games/*``), in the order
    played; ``find``: the ruleset's own reader of a game folder's record."""
    games = root / "games"
    folders = sorted(games.iterdir()) if games.is_dir() else []
    return [record for folder in folders
            if folder.is_dir() and (record := find(folder)) is not None]


def answer_times(answers: Sequence[Mapping[str, Any] | None]) -> tuple[float, ...]:
    """The time (ms) of each answer the platform took (verdict OK) of a seat's answers."""
    return tuple(float(a["ms"]) for a in answers
                 if a and a.get("verdict") == "OK" and a.get("ms") is not None)


def not_a_record(path: Path, what: str) -> str:
    """Why ``path`` is no game record of the ruleset (``what`` names the record), and where
    the records are when it is a match folder or its ``games`` folder."""
    games = path / "games" if (path / "games").is_dir() else path
    folders = sorted(p for p in games.iterdir() if p.is_dir()) if games.is_dir() else []
    if folders and (folders[0] / "game.json").is_file():
        return (f"{path}: a folder of {len(folders)} games, not one game record: name "
                f"one of them, e.g. {folders[0]}")
    return f"{path}: not a {what}"


def is_match_folder(path: Path, ruleset: str) -> bool:
    """A match folder (``match.json``) written by ``ruleset``."""
    try:
        meta = json.loads((path / "match.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("ruleset") == ruleset


def is_match_or_games_folder(path: Path, ruleset: str) -> bool:
    """A match folder written by ``ruleset``, or its ``games`` folder (which ``owns`` takes
    so that replay and verify name a game in it)."""
    return path.is_dir() and (is_match_folder(path, ruleset) or (
        path.name == "games" and is_match_folder(path.parent, ruleset)))


class BotzoneBotsRuleset(Ruleset):
    """A ruleset whose bots are Botzone bots; ``samples`` holds its ``random_bot.py``."""

    command_modes = MODES
    stats_unit = "games"
    samples: ClassVar[Path]
    tournament_defaults: ClassVar[Mapping[str, str]] = {}

    def check_settings(self, settings: dict[str, str]) -> None:
        """Refuse settings this ruleset cannot play (InputError)."""

    def table_cpus(self, settings: Mapping[str, str]) -> float:
        """Four: every bot of a table is asked at each turn, all at the same time, and a
        restarted bot starts its interpreter every turn (``server.bots.botzone_bots``)."""
        return 4.0

    def tournament_settings(self, given: Mapping[str, Any],
                            stored: Mapping[str, str] | None) -> dict[str, str]:
        settings = dict(self.tournament_defaults)
        settings.update({k: v for k, v in (stored or {}).items() if k in settings})
        for key in settings:
            value = given.get(key)
            if value is None:
                continue
            if stored is not None and str(value) != stored.get(key, settings[key]):
                raise InputError(f"--{key.replace('_', '-')} {value}: this tournament is "
                                 f"played with {stored.get(key)}; a resume keeps it")
            settings[key] = str(value)
        self.check_settings(settings)
        return settings

    def entry_command(self, argv: Sequence[str], io: str | None, where: str,
                      keep_running: bool | None = None) -> tuple[str, ...]:
        mode = io or "json"
        if mode not in MODES:
            raise InputError(f"{where}: io = {io!r}: a {self.name} bot talks json or simple")
        return (spec_prefix(mode, bool(keep_running)) + shlex.join(argv),)

    def split_command(self, command: Sequence[str]) -> tuple[str, tuple[str, ...]]:
        """``MODE[+keep-running]:COMMAND LINE`` as (its prefix as written, its argv)."""
        (text,) = command
        prefix = split_prefix(text)
        if prefix is None:
            return "", tuple(shlex.split(text))
        return prefix[0], tuple(shlex.split(prefix[3]))

    def fill_in_command(self, k: int) -> tuple[str, ...]:
        argv = [sys.executable, str(self.samples / "random_bot.py"), "--keep-running"]
        return (spec_prefix("json", True) + shlex.join(argv),)
