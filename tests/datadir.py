"""Where the public test data lives: ``tests/data/`` in this repository.

Every test and benchmark that reads the reference data takes its folder from
here. The data is part of the repository, so a missing file is a broken
checkout and must fail loudly (``games`` and ``files`` check the count), never
skip. Each folder's README says what its files are and where they come from.
"""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
BOTZONE = DATA / "botzone"  # 34 games judged by Botzone's official judge
LEGACY_LOGS = DATA / "legacy-logs"  # 5 per-game logs of the original Rust server
THUPC = DATA / "thupc2021"  # 10 THUPC 2021 cases: N.in (a wall) and N.ans (its log)

BOTZONE_GAMES = 34
LEGACY_LOG_COUNT = 5
THUPC_CASES = 10


def files(folder: Path, pattern: str, count: int) -> list[Path]:
    """The files of ``folder`` matching ``pattern``, sorted: exactly ``count``, or an error."""
    found = sorted(folder.glob(pattern))
    if len(found) != count:
        raise FileNotFoundError(
            f"{folder} should hold {count} files matching {pattern!r}, it holds {len(found)}: "
            "the repository's test data is incomplete"
        )
    return found


def botzone_games() -> list[Path]:
    """The 34 Botzone reference games (``c*`` classic, ``d*`` duplicate), sorted by name."""
    return files(BOTZONE, "*.json", BOTZONE_GAMES)


def legacy_logs() -> list[Path]:
    """The 5 logs of the original server, sorted by name."""
    return files(LEGACY_LOGS, "*.mahjong.log", LEGACY_LOG_COUNT)
