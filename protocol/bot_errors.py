"""A bot's report of its own bug, on its stderr, that the server counts.

A bot framework with a safety net (``sample_ai.framework``: a decision that
raises, or that the rules forbid, is replaced by a safe answer) keeps the game
going, but the bug would then be seen by nobody. So the framework also writes
one line on stderr for each decision it replaced::

    mahjong-bot-error: on_claim raised KeyError: 5 (mybot.py:7); answered 'pass'
    mahjong-bot-error: on_turn gave an illegal answer; 'out 9M' after 'pick 5M'; ...

What comes before the first ``"; "`` names the problem (the same bug gives the
same text, so it is said once and counted); the rest is the detail of its first
occurrence. The server reads the bot's stderr for lines that start with ``MARKER`` and
counts them (``Reports``): a match and a tournament say them on the console,
check-bot fails the bot, simulate counts them as illegal moves. Any bot, in any
language, may write such lines.

This module is pure: no trio, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field

MARKER = "mahjong-bot-error: "
_MARKER = MARKER.encode()
LINE_CAP = 300  # characters of a report kept
KEEP = 5  # distinct reports kept per bot and hand


def report_line(what: str, detail: str = "") -> str:
    """The stderr line that reports ``what`` (and the ``detail`` of this time), as one
    line, cut."""
    text = " ".join(what.replace(";", ",").split())
    if detail:
        text += "; " + " ".join(detail.split())
    return MARKER + text[:LINE_CAP]


@dataclass(slots=True)
class Reports:
    """The reports read from one bot's stderr, fed in chunks as they come."""

    count: int = 0
    distinct: dict[str, int] = field(default_factory=dict)  # problem -> times, first KEEP
    detail: dict[str, str] = field(default_factory=dict)  # problem -> its first detail
    _partial: bytes = b""

    def feed(self, data: bytes) -> None:
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()[-4 * LINE_CAP:]
        for line in lines:
            if line.startswith(_MARKER):
                self._add(line[len(_MARKER):].decode("utf-8", "replace").strip()[:LINE_CAP])

    def close(self) -> None:
        """The end of the stream: a last line without a newline counts too."""
        if self._partial:
            self.feed(b"\n")

    def _add(self, text: str) -> None:
        self.count += 1
        what, _, detail = text.partition("; ")
        if what in self.distinct or len(self.distinct) < KEEP:
            self.distinct[what] = self.distinct.get(what, 0) + 1
            self.detail.setdefault(what, detail)

    def merge(self, other: Reports) -> None:
        """Add another hand's reports of the same bot."""
        self.count += other.count
        for what, n in other.distinct.items():
            if what in self.distinct or len(self.distinct) < KEEP:
                self.distinct[what] = self.distinct.get(what, 0) + n
                self.detail.setdefault(what, other.detail.get(what, ""))
