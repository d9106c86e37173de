"""Bad input, and exceptions told as one line.

Every command treats a mistake in what it was given (a path, an option, a
bot's command) the same way: one line on stderr naming the problem, and exit
status 2 (``server.cli.app.refuse``). ``InputError`` is the root of such
mistakes that ``server.cli.app.main`` catches for every command, so code deep
inside a command can refuse its input without knowing about the console.

Pure: no trio, no rich, so the core may use ``reason`` too.
"""

from __future__ import annotations

EXIT_BAD_INPUT = 2


class InputError(ValueError):
    """A mistake in what the command was given: one line, exit status 2."""


def reason(exc: BaseException) -> str:
    """An exception as one line a person reads: never empty.

    An ``OSError`` says its files and its cause (``logs: Not a directory``,
    not ``[Errno 20] ...``); an exception raised without a message is named
    by its type, so a line never ends in ``()``.
    """
    if isinstance(exc, OSError) and exc.strerror:
        files = [str(f) for f in (exc.filename, exc.filename2) if f is not None]
        return f"{' -> '.join(files)}: {exc.strerror}" if files else exc.strerror
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return "; ".join(lines) or type(exc).__name__
