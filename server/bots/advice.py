"""What a bot's author should do about a mistake, in the bot's own language.

A fault line says what happened; for the two mistakes every beginner makes it
also says how to fix them in the language the bot is written in: output that
is buffered (a line written but not flushed reaches the server only when the
buffer fills or the bot exits) and debug text written on stdout (which the
server reads as the protocol). The language is read from the bot's command
(``server.bots.botzone_io.infer_language``: ``python3 bot.py``, ``java -cp .
Main``, ``bot.jar``) or, for a program run by itself, from the program: a
compiled binary (ELF) is taken for C/C++; anything else gets the advice of every
language.

Shared by the rulesets: a line-protocol bot and a Botzone bot buffer alike.
This module does not import trio.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

from server.bots.botzone_io import infer_language

FLUSH = {
    "python": "Python: print(..., flush=True) or sys.stdout.flush()",
    "cpp": "C++: std::endl or std::cout << std::flush; C: fflush(stdout)",
    "java": "Java: System.out.flush(), or new PrintWriter(System.out, true) (autoflush)",
    "javascript": "JavaScript: console.log(...), not a buffered stream of your own",
}
STDERR = {
    "python": "Python: print(..., file=sys.stderr)",
    "cpp": "C++: std::cerr << ...; C: fprintf(stderr, ...)",
    "java": "Java: System.err.println(...)",
    "javascript": "JavaScript: console.error(...)",
}
_EVERY = ("python", "cpp", "java")  # a command that names no language we know


def language(argv: Sequence[str]) -> str | None:
    """The bot's language (a key of ``FLUSH``), or None when the command does not say."""
    found = infer_language(argv)
    if found != "cpp":
        return found
    return "cpp" if argv and _is_binary(argv[0]) else None  # infer_language's default


def _is_binary(program: str) -> bool:
    path = program if "/" in program else shutil.which(program)
    if path is None:
        return False
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def _in(table: dict[str, str], argv: Sequence[str]) -> str:
    known = language(argv)
    return table[known] if known is not None else "; ".join(table[k] for k in _EVERY)


def flush_advice(argv: Sequence[str]) -> str:
    """How to flush stdout after each line, in the bot's language."""
    return f"flush stdout after each line ({_in(FLUSH, argv)})"


def stderr_advice(argv: Sequence[str]) -> str:
    """Where debug output belongs, in the bot's language."""
    return f"debug output belongs on stderr ({_in(STDERR, argv)})"
