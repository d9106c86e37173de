"""Terminal output that quotes users and bots: never read as markup, wide enough in a pipe."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from server.output.say import (
    PIPE_WIDTH,
    err_console,
    error_line,
    fault_line,
    last_line,
    out_console,
)
from server.seam.errors import reason


def test_an_error_quoting_markup_and_emoji_codes_prints_them_as_written() -> None:
    buffer = io.StringIO()
    console = Console(file=buffer, emoji=False, width=200)
    console.print(error_line("bots/[/x]/[bold]bot.py :ghost: not found"))
    assert buffer.getvalue() == "error: bots/[/x]/[bold]bot.py :ghost: not found\n"


def test_the_error_console_writes_to_stderr_without_emoji_codes() -> None:
    console = err_console()
    assert console.stderr
    with console.capture() as captured:
        console.print("tcp:ghost: token", markup=False)
    assert captured.get() == "tcp:ghost: token\n"


def test_results_in_a_pipe_get_room_for_wide_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert not out_console().is_terminal  # pytest captures stdout
    assert out_console().width == PIPE_WIDTH
    monkeypatch.setenv("COLUMNS", "120")
    assert out_console().width == 120


@pytest.mark.parametrize(("data", "line"), [
    (b"Traceback (most recent call last):\n  ...\nValueError: bad\n\n", "ValueError: bad"),
    (b"no newline at the end", "no newline at the end"),
    (b"\x1b[31mred\x1b[0m and a bell\x07\n", "\\x1b[31mred\\x1b[0m and a bell\\x07"),
    (b"50%\r100%\n", "100%"),  # a carriage return ends a line too
    (b"bytes \xff\xfe and \xe4\xb8\xad\n", "bytes \\xff\\xfe and 中"),
    (b"x" * 300, "x" * 159 + "…"),
    (b"", ""),
    (b"\n  \n", ""),
])
def test_a_bots_last_stderr_line_is_escaped_and_cut_to_one_line(data: bytes, line: str) -> None:
    assert last_line(data) == line


def test_a_fault_line_names_where_who_why_and_the_bots_last_stderr_line() -> None:
    tail = b"Traceback ...\nModuleNotFoundError: No module named 'sample_ai'\n"
    path = Path("logs/m/001-ab/seat2.stderr")
    assert fault_line("hand 1", "player 0 (mybot.py)", "closed-output: exit status 1", tail,
                      path) == ("hand 1: player 0 (mybot.py) faulted: closed-output: exit "
                                "status 1; its stderr ends: ModuleNotFoundError: No module "
                                "named 'sample_ai' (all of it in logs/m/001-ab/seat2.stderr)")
    assert fault_line("hand 1", "P0", "hard-limit", b"", path) == \
        "hand 1: P0 faulted: hard-limit; nothing on its stderr"
    assert fault_line("hand 1", "P0", "closed-output", b"oops\n", None) == \
        "hand 1: P0 faulted: closed-output; its stderr ends: oops (not kept: -d keeps it in " \
        "the log folder)"
    assert fault_line("hand 1", "P0", "no-join: no connection", None, None) == \
        "hand 1: P0 faulted: no-join: no connection"  # a remote seat: no stderr here
    # A cause that already ends with the line (a Botzone or NOI bot's RE) is not repeated.
    assert fault_line("r1t1 game 2", "crash", "RE: exit status 1; its stderr ends: boom",
                      b"Traceback\nboom\n", path) == (
        "r1t1 game 2: crash faulted: RE: exit status 1; its stderr ends: boom "
        "(all of it in logs/m/001-ab/seat2.stderr)")
@pytest.mark.parametrize(("exc", "text"), [
    (StopIteration(), "StopIteration"),
    (ValueError(""), "ValueError"),
    (KeyError("wall"), "'wall'"),
    (NotADirectoryError(20, "Not a directory", "logs/x"), "logs/x: Not a directory"),
    (ValueError("first\nsecond"), "first; second"),
])
def test_an_exception_is_told_in_one_line_and_never_as_an_empty_message(
        exc: BaseException, text: str) -> None:
    assert reason(exc) == text
    assert error_line(exc).plain == f"error: {text}"
