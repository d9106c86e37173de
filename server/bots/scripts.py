"""The script an interpreter in a bot's command would run, so that a missing one is
refused before anything starts (``python3 nosuch.py`` would otherwise start, fail
and be faulted in every hand).

Only interpreters whose command lines are well known are read: Python, the
POSIX shells, Node.js, Ruby, Perl, PHP and Lua. Their options are skipped (with
the value of those that take one); code given inline (``python3 -c``,
``bash -c``, ``node -e``), a module (``python3 -m``) or standard input (``-``)
means there is no script to check. Python's options are read exactly, so its
first other word is always the script; for the others, whose options are too
many to list, a word is taken for a script only when it looks like a file (a
``/`` or a suffix such as ``.js``), so an unusual option's value is never
mistaken for a missing script.

A program run by its own first line (``#!/usr/bin/env python3``) is read too:
a file saved with Windows line endings ends that line with a carriage return,
so the system looks for an interpreter named ``python3`` plus a carriage
return, and the bot would fail in every hand (``shebang_problem``).

This module does not import trio.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

_PYTHON = re.compile(r"(python|pypy)[0-9.]*$")


@dataclass(frozen=True, slots=True)
class _Rules:
    """How an interpreter's command line names its script."""

    inline: frozenset[str] = frozenset()  # options after which no script is read
    values: frozenset[str] = frozenset()  # options whose value is the next word
    inline_chars: str = ""  # in a group of short flags (``-ec``): no script either
    script_option: str = ""  # an option whose value is the script (``php -f FILE``)


_SHELL = _Rules(frozenset({"-"}), frozenset({"-o", "+o", "-O", "+O", "--rcfile", "--init-file"}),
                inline_chars="cs")
_RULES: dict[str, _Rules] = {
    **dict.fromkeys(("sh", "bash", "dash", "zsh", "ksh", "mksh"), _SHELL),
    **dict.fromkeys(("node", "nodejs"), _Rules(
        frozenset({"-", "-e", "--eval", "-p", "--print", "-i", "--interactive"}),
        frozenset({"-r", "--require", "--import", "--loader", "--experimental-loader", "-C",
                   "--conditions", "--input-type", "--title", "--inspect-port"}))),
    "ruby": _Rules(frozenset({"-", "-e"}), frozenset({"-r", "-I", "-C", "-E", "--encoding"})),
    "perl": _Rules(frozenset({"-", "-e", "-E"})),
    "php": _Rules(frozenset({"-", "-r", "-a", "-R", "-B", "-E", "-F"}),
                  frozenset({"-c", "-d", "-z"}), script_option="-f"),
    **dict.fromkeys(("lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4"), _Rules(
        frozenset({"-", "-e", "-i"}), frozenset({"-l"}))),
}


def script_of(argv: Sequence[str]) -> str | None:
    """The script file ``argv``'s interpreter would run, or None when there is none
    to check (not an interpreter read here, inline code, a module, stdin)."""
    if not argv:
        return None
    name = os.path.basename(argv[0])
    if _PYTHON.match(name):
        return _python_script(argv[1:])
    rules = _RULES.get(name)
    if rules is None:
        return None
    word = _first_operand(argv[1:], rules)
    if word is None or not ("/" in word or PurePath(word).suffix):
        return None
    return word


def _python_script(args: Sequence[str]) -> str | None:
    """Python's command line: ``python [options] [-c cmd | -m mod | file | -] [args]``."""
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if arg == "-":
            return None
        if arg.startswith("--"):  # --check-hash-based-pycs MODE; --help, --version
            i += 2 if arg == "--check-hash-based-pycs" else 1
            continue
        if arg.startswith("-"):
            for j, ch in enumerate(arg[1:], start=1):
                if ch in "cm":  # -c CMD, -m MOD (also -Im, -cCODE): no script
                    return None
                if ch in "WX":  # -W ARG, -X OPT; attached (-Wignore) or the next word
                    if j == len(arg) - 1:
                        i += 1
                    break
            i += 1
            continue
        return arg
    return None  # no script: the interactive interpreter


def _first_operand(args: Sequence[str], rules: _Rules) -> str | None:
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            return args[i + 1] if i + 1 < len(args) else None
        if arg in rules.inline:
            return None
        if rules.script_option and arg == rules.script_option:
            return args[i + 1] if i + 1 < len(args) else None
        if arg in rules.values:
            i += 2
            continue
        if arg.startswith(("-", "+")) and len(arg) > 1:
            if not arg.startswith("--") and any(ch in rules.inline_chars for ch in arg[1:]):
                return None
            i += 1
            continue
        return arg
    return None


def shebang_problem(path: str) -> str | None:
    """What is wrong with the first line of the program file ``path``, if it is a
    ``#!`` line the system cannot run as written; None if it is fine or unreadable
    (a missing or unreadable file is reported by whoever runs it)."""
    try:
        with open(path, "rb") as file:
            head = file.read(512)
    except (OSError, ValueError):
        return None
    if not head.startswith(b"#!"):
        return None
    line = head.split(b"\n", 1)[0]
    if not line.endswith(b"\r"):
        return None
    shown = line.decode("utf-8", "replace").replace("\r", "\\r")
    return (f"its first line '{shown}' ends with a carriage return: the file has Windows "
            f"line endings (CRLF), so the system would look for a program whose name ends "
            f"in \\r; convert it to Unix line endings (dos2unix {path}, or "
            f"sed -i 's/\\r$//' {path}, or \"LF\" in your editor)")
