"""Lines for people at a terminal that quote what users typed or bots wrote.

Kept apart from ``server.console`` (progress bars, logging) so a command that
only reports an error starts without importing structlog.
"""

from __future__ import annotations

import os

from rich.console import Console
from rich.text import Text

from server.errors import reason


def error_line(message: object) -> Text:
    """``error: MESSAGE``, the word in red and the message exactly as it is.

    Messages quote what users typed and bots wrote (paths, names, lines), so
    they are never read as rich markup or emoji codes: ``[/x]`` would stop the
    command with a MarkupError, and ``tcp:ghost:`` would turn into a ghost. An
    exception is told by ``reason``: never an empty message.
    """
    text = reason(message) if isinstance(message, BaseException) else str(message)
    return Text.assemble(("error:", "red"), " ", text)


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
