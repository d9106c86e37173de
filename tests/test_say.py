"""Terminal output that quotes users and bots: never read as markup, wide enough in a pipe."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from server.errors import reason
from server.say import PIPE_WIDTH, err_console, error_line, out_console


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
