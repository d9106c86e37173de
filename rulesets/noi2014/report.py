"""``server report`` for a NOI 2014 match folder, through the shell's turn-match report;
each game's page is ``replay.write_game_page``."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _kind() -> Any:
    from rulesets.noi2014.records import NAME, game_line, read_record
    from rulesets.noi2014.replay import write_game_page
    from server.turns.report import ReportKind

    return ReportKind("NOI 2014 match", NAME, read_record,
                      lambda record, path, extra: write_game_page(
                          record, path, back=extra.back, stderr=extra.stderr), game_line,
                      win_worth="points")


def write_report(root: Path, out: Path) -> int:
    from server.turns.report import write_report as write

    return write(_kind(), root, out)


def write_report_files(root: Path, out: Path, *, title: str = "",
                       back: tuple[str, str] | None = None) -> int:
    from server.turns.report import write_report_files as write

    return write(_kind(), root, out, title=title, back=back)
