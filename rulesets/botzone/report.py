"""``server report`` for a Botzone match folder: standings, every game's result and a
page per game (``page.write_game_page``), through the shell's turn-match report."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any


def _kind() -> Any:
    from rulesets.botzone.page import write_game_page
    from rulesets.botzone.records import NAME, game_line, read_record
    from server.turns.report import ReportKind

    def subtitle(meta: Mapping[str, Any]) -> str:
        return f"{meta.get('variant', '')} variant, "

    return ReportKind("Botzone match", NAME, read_record,
                      lambda record, path, extra: write_game_page(
                          record, path, back=extra.back, stderr=extra.stderr), game_line,
                      "rank points", subtitle)


def write_report(root: Path, out: Path) -> int:
    from server.turns.report import write_report as write

    return write(_kind(), root, out)


def write_report_files(root: Path, out: Path, *, title: str = "",
                       back: tuple[str, str] | None = None) -> int:
    from server.turns.report import write_report_files as write

    return write(_kind(), root, out, title=title, back=back)
