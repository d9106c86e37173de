"""What a tournament exports for other programs: CSV a spreadsheet opens, typed JSON
settings, and no path of the machine it ran on.

* **CSV** files are written in UTF-8 with a byte-order mark (``utf-8-sig``):
  Excel on Windows reads a CSV without one in the machine's code page, and
  Chinese bot names come out garbled; Python's ``csv`` module, LibreOffice and
  pandas (``encoding="utf-8-sig"``) read it too.
* **The per-hand (per-game) CSV** of the whole tournament, one row per seat of
  every hand (the default ruleset: ``hands.csv``) or game (Botzone, NOI 2014:
  ``games.csv``), with the bot's name: see ``GAME_COLUMNS``.
* **Settings** are stored as text (SQLite's ``meta``); the JSON gives them as
  what they are: whole numbers as numbers, ``1.5`` as a number, ``true`` and
  ``false`` as booleans, an empty setting as null.
* **Paths.** The BOTS path is given relative to the output folder when it is
  inside it, else by its name; an absolute path in a command (a bot's program,
  its interpreter) relative to the output folder, else to BOTS's folder (where
  the command was written), else by its file name.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.seam.contract import Ruleset
from server.seam.registry import DEFAULT
from server.tournament.standings import HandRow

CSV_ENCODING = "utf-8-sig"  # UTF-8 with a byte-order mark: Excel on Windows reads it as UTF-8
HANDS_CSV = "hands.csv"  # the default ruleset's: one row per seat of every hand
GAMES_CSV = "games.csv"  # a turn-based ruleset's (Botzone, NOI 2014): per seat of every game
# The per-hand CSV's columns; a turn-based ruleset's say game, wall and order for hand,
# group and deal, and have no fines or host stalls (its tables have neither).
HAND_COLUMNS = ("round", "table", "hand", "group", "deal", "seat", "bot", "fill_in", "points",
                "fines", "host_stalls", "won", "drawn", "faulted", "bot_errors", "result")
GAME_COLUMNS = ("round", "table", "game", "wall", "order", "seat", "bot", "fill_in", "points",
                "won", "drawn", "faulted", "result")

_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]+")


def typed(value: str) -> Any:
    """A stored setting as what it is: 12 -> 12, 1.5 -> 1.5, true -> True, "" -> None."""
    if _INT.fullmatch(value):
        return int(value)
    if _FLOAT.fullmatch(value):
        return float(value)
    if value.lower() in ("true", "false"):
        return value.lower() == "true"
    if value in ("", "None"):
        return None
    return value


@dataclass(frozen=True, slots=True)
class Portable:
    """Turns the paths of the machine into paths relative to the output folder, to the
    BOTS folder, or file names."""

    out: Path | None = None
    bots: Path | None = None  # the BOTS file or folder, as stored

    @classmethod
    def of(cls, out: Path | None, meta: Mapping[str, str]) -> Portable:
        bots = meta.get("bots")
        return cls(out.resolve() if out is not None else None, Path(bots) if bots else None)

    def _bots_folder(self) -> Path | None:
        if self.bots is None:
            return None
        return self.bots if self.bots.is_dir() or not self.bots.suffix else self.bots.parent

    def path(self, word: str, *, beside_bots: bool = True) -> str:
        """``word`` as it is unless it is an absolute path: then relative to the output
        folder or (``beside_bots``) BOTS's folder when inside one, else its name."""
        path = Path(word)
        if not path.is_absolute():
            return word
        bases = [self.out, self._bots_folder() if beside_bots else None]
        for base in bases:
            if base is not None and path.is_relative_to(base) and path != base:
                return path.relative_to(base).as_posix()
        return path.name

    def bots_setting(self) -> str | None:
        """The BOTS path as the settings give it: inside the output folder, relative to it,
        else its name."""
        return None if self.bots is None else self.path(str(self.bots), beside_bots=False)

    def command(self, command: Sequence[str], rules: Ruleset) -> list[str]:
        """A stored command with every absolute path in it made portable (the ruleset
        splits its own form, Botzone's ``json:CMD``, and joins it again)."""
        try:
            prefix, argv = rules.split_command(command)
        except ValueError:  # not the ruleset's form: word by word
            return [self.path(w) for w in command]
        return list(rules.join_command(prefix, [self.path(w) for w in argv]))


def typed_settings(meta: Mapping[str, str], portable: Portable) -> dict[str, Any]:
    """The settings as the JSON gives them: typed, the BOTS path portable."""
    out = {key: typed(value) for key, value in meta.items()}
    if "bots" in meta:
        out["bots"] = portable.bots_setting()
    return out


def games_file(ruleset: str) -> str:
    return HANDS_CSV if ruleset == DEFAULT else GAMES_CSV


def write_games_csv(path: Path, rows: Sequence[tuple[HandRow, str]], names: Sequence[str],
                    fill_ins: Sequence[bool], ruleset: str) -> None:
    """Every seat of every hand (game) of the finished tables, in play order, with the
    bot's name; hand (game), group and deal numbered from 1 (Botzone's and NOI's walls
    are stored from 1, the default ruleset's groups from 0)."""
    hand = ruleset == DEFAULT
    with path.open("w", newline="", encoding=CSV_ENCODING) as f:
        w = csv.writer(f)
        w.writerow(HAND_COLUMNS if hand else GAME_COLUMNS)
        for h, result in sorted(rows, key=lambda r: (r[0].round, r[0].table, r[0].hand,
                                                     r[0].seat)):
            head = [h.round, h.table, h.hand + 1, h.group + 1 if hand else h.group,
                    h.deal + 1, h.seat, names[h.entry], int(fill_ins[h.entry]), h.points]
            extra = [h.fines, h.stalls] if hand else []
            errors = [h.errors] if hand else []
            w.writerow([*head, *extra, int(h.won), int(h.drawn), int(h.faulted), *errors, result])
