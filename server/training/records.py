"""Writing a game played in a training environment as a JSON game record (the
turn-based rulesets' ``game.json``, which ``server verify`` re-judges)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def write_game_json(path: str | Path, record: dict[str, Any]) -> Path:
    """Write ``record`` to ``path``, or to ``path/game.json`` if ``path`` is a folder."""
    target = Path(path)
    if target.is_dir():
        target = target / "game.json"
    target.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n",
                      encoding="utf-8")
    return target
