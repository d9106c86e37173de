"""Lines for people at a terminal that quote what users typed or bots wrote.

Kept apart from ``server.output.console`` (progress bars, logging) so a command that
only reports an error starts without importing structlog.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.console import Console
from rich.text import Text

from protocol.bot_errors import Reports
from server.seam.errors import reason


def error_line(message: object) -> Text:
    """``error: MESSAGE``, the word in red and the message exactly as it is.

    Messages quote what users typed and bots wrote (paths, names, lines), so
    they are never read as rich markup or emoji codes: ``[/x]`` would stop the
    command with a MarkupError, and ``tcp:ghost:`` would turn into a ghost. An
    exception is told by ``reason``: never an empty message.
    """
    text = reason(message) if isinstance(message, BaseException) else str(message)
    return Text.assemble(("error:", "red"), " ", text)


def warning_line(message: object) -> Text:
    """``warning: MESSAGE``, the word in yellow, the message as it is (see ``error_line``)."""
    text = reason(message) if isinstance(message, BaseException) else str(message)
    return Text.assemble(("warning:", "yellow"), " ", text)


def err_console() -> Console:
    """The console for messages on stderr (no emoji codes: names are users')."""
    return Console(stderr=True, soft_wrap=True, emoji=False)


PIPE_WIDTH = 200  # columns for tables written to a file or a pipe


def out_console() -> Console:
    """The console for results on stdout. A terminal's own width; a file or a
    pipe gets room for the widest table (rich would assume 80 columns and cut
    a tournament's standings to "po…" and "/ha…")."""
    console = Console(emoji=False)
    if not console.is_terminal and "COLUMNS" not in os.environ:  # COLUMNS: as asked
        console = Console(emoji=False, width=PIPE_WIDTH)
    return console


STDERR_EXCERPT = 160  # characters of a bot's last stderr line shown in a fault line


def last_lines(data: bytes, count: int, limit: int = STDERR_EXCERPT) -> list[str]:
    """The last ``count`` non-blank lines of what a bot wrote, each escaped and cut.

    Bytes that are not UTF-8 and characters that are not printable (escape
    sequences, a bell) are shown as backslash escapes, so a line is one line.
    """
    return [one_line(raw.rstrip().decode("utf-8", "backslashreplace"), limit)
            for raw in [line for line in data.splitlines() if line.strip()][-count:]]


def one_line(text: str, limit: int, *, ascii_only: bool = False, more: str = "…") -> str:
    """Untrusted text (a bot's line) as one printable line of at most ``limit``
    characters: what is not printable (or not ASCII, with ``ascii_only``) is shown
    as a backslash escape, and what does not fit is cut, ending in ``more``."""
    out = "".join(c if c.isprintable() and (c.isascii() or not ascii_only)
                  else c.encode("unicode_escape").decode("ascii") for c in text)
    return out if len(out) <= limit else out[: limit - len(more)] + more


def last_line(data: bytes, limit: int = STDERR_EXCERPT) -> str:
    """The last non-blank line of what a bot wrote, escaped and cut to one short line."""
    lines = last_lines(data, 1, limit)
    return lines[0].strip() if lines else ""


def fault_line(where: str, who: str, cause: str, stderr_tail: bytes | None = None,
               stderr_path: Path | None = None, *, stdout_tail: bytes | None = None,
               advice: str = "") -> str:
    """A fault on the console: where, who, why, and what the bot last said on stderr.

    ``where`` is "hand 3" (or a tournament's "r1t2 hand 3"), ``who`` names the
    player. ``stderr_tail`` is None for a seat that is no local process (a
    remote seat's stderr stays with its ``server connect``); ``stderr_path`` is
    where the whole of it was kept, None when it was not (no log folder).
    ``stdout_tail`` is what it wrote on stdout that the protocol did not take (a
    JVM says why it cannot start there): its last line is shown too, unless ``advice``
    (what the ruleset read there for the bot's author: its output is buffered, its debug
    text belongs on stderr) says it instead.
    """
    line = f"{where}: {who} faulted: {cause}"
    printed = last_line(stdout_tail or b"")
    if advice:
        line += f"; {advice}"
    elif printed:
        line += f"; its stdout ends: {printed}"
    if stderr_tail is None:
        return line
    said = last_line(stderr_tail)
    if not said:
        return line + "; nothing on its stderr"
    kept = f"all of it in {stderr_path}" if stderr_path is not None \
        else "not kept: -d keeps it in the log folder"
    if cause.endswith(f"its stderr ends: {said}"):  # the cause quotes it (Botzone's RE)
        return line + f" ({kept})"
    return line + f"; its stderr ends: {said} ({kept})"


class Repeats:
    """Each distinct problem said once on the console, its repeats counted.

    A broken bot often fails the same way in every hand: its author needs to read the
    problem once, and to know how often it came back (``summary``, said at the end),
    while every problem that differs is still said when it happens.
    """

    def __init__(self) -> None:
        self._seen: dict[tuple[str, ...], list[str]] = {}  # key -> [who, first where, ...]

    def first(self, key: tuple[str, ...], who: str, where: str) -> bool:
        """Whether this is the first time ``key`` is met (say it); else count it."""
        wheres = self._seen.get(key)
        if wheres is None:
            self._seen[key] = [who, where]
            return True
        wheres.append(where)
        return False

    def summary(self) -> list[str]:
        """A line for each problem that came back, with how often and where."""
        out = []
        for who, first, *more in self._seen.values():
            if more:
                shown = ", ".join(more[:5]) + (", ..." if len(more) > 5 else "")
                out.append(f"{who}: the problem said at {first} came back {len(more)} more "
                           f"time(s), the same ({shown})")
        return out


def bot_error_causes(reports: Reports) -> list[str]:
    """A bot's own reported bugs of one hand (``protocol.bot_errors``), as fault-line
    causes: each distinct problem, how often, and its first occurrence."""
    return [f"its own code failed {n} time(s), answered for by its framework's safety "
            f"net: {what}" + (f" ({reports.detail[what]})" if reports.detail.get(what) else "")
            for what, n in reports.distinct.items()]


def fault_key(who: str, cause: str, stderr_tail: bytes | None) -> tuple[str, ...]:
    """What makes two fault lines the same problem: the player, the cause, and the
    last line of its stderr."""
    return (who, cause, last_line(stderr_tail) if stderr_tail else "")
