#!/usr/bin/env python3
"""A bot on sample_ai.framework whose every decision raises (a typo: ``hnd``): the
framework's safety net answers for it, and the server must still show the bug."""

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sample_ai.framework import Bot, run_stdio


class Typo(Bot):
    name = "typo"

    def on_turn(self, drawn):  # type: ignore[no-untyped-def]
        return self.table.hnd[0]  # type: ignore[attr-defined]

    def on_claim(self, seat, tile):  # type: ignore[no-untyped-def]
        return self.table.hnd  # type: ignore[attr-defined]


if __name__ == "__main__":
    sys.exit(run_stdio(Typo))
