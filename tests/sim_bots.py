"""In-process bots for ``server simulate`` tests, loaded as ``tests.sim_bots:Class``."""

from __future__ import annotations

import os
from pathlib import Path

from protocol.messages import FromAI, ToAI
from sample_ai.random_bot import RandomBot


class Crasher(RandomBot):
    """Plays like the random bot, and raises on its 30th line of every hand."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.lines = 0

    def receive(self, message: ToAI) -> FromAI | None:
        self.lines += 1
        if self.lines == 30:
            raise ZeroDivisionError("the bug of a student's bot")
        return super().receive(message)


class Unbuildable(RandomBot):
    def __init__(self, seed: int | None = None) -> None:
        raise RuntimeError("cannot find my model file")


class Announcer(RandomBot):
    """The random bot, which adds a byte to ``$SIM_STARTED`` each time one is built.

    Four are built for each hand, once the hand before has been counted: 8 bytes
    say that a hand has been played.
    """

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        marker = os.environ.get("SIM_STARTED")
        if marker:
            with Path(marker).open("ab") as f:
                f.write(b".")
