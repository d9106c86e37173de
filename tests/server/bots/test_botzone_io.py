"""Botzone's bot protocol as data: specs, limits, inputs and outputs (SPEC-botzone §7)."""

from __future__ import annotations

import re
import shlex
import sys

import pytest

from server.bots.botzone_io import (
    BAD_OUTPUT,
    OK,
    BotzoneLimits,
    format_input,
    format_kept,
    infer_language,
    parse_output,
    parse_spec,
    spec_prefix,
    split_marker,
)
from server.seam.errors import InputError

PY = sys.executable


def test_time_limits_follow_botzone_table() -> None:
    limits = BotzoneLimits()
    table = {"cpp": (1, 2, 1), "java": (3, 6, 2), "javascript": (2, 4, 2), "python": (6, 12, 4)}
    for language, (turn, first, kept) in table.items():
        assert limits.seconds(language, first=False, kept=False) == turn
        assert limits.seconds(language, first=True, kept=False) == first
        assert limits.seconds(language, first=True, kept=True) == first
        assert limits.seconds(language, first=False, kept=True) == kept


def test_base_seconds_and_factor_override_the_table() -> None:
    limits = BotzoneLimits(base_seconds=0.5, factor=1)
    assert limits.seconds("python", first=True, kept=False) == 1.0
    assert limits.seconds("python", first=False, kept=True) == 0.5
    assert BotzoneLimits(base_seconds=0.5).seconds("java", first=False, kept=False) == 1.5


@pytest.mark.parametrize(("argv", "language"), [
    (["python3", "bot.py"], "python"), (["/usr/bin/python3.11", "-u", "b.py"], "python"),
    (["./bot.py"], "python"), (["java", "-jar", "bot.jar"], "java"), (["node", "bot.js"],
    "javascript"), (["./bot"], "cpp"), (["/usr/bin/env", "node", "x.js"], "javascript"),
])
def test_language_is_read_from_the_command(argv: list[str], language: str) -> None:
    assert infer_language(argv) == language


def test_specs_name_the_mode_and_default_to_json() -> None:
    bot = f"{PY} tests/bots/botzone/discarder.py json"
    assert parse_spec(bot).mode == "json"
    assert parse_spec(f"json:{bot}").mode == "json"
    spec = parse_spec(f"simple:{bot}")
    assert spec.mode == "simple" and spec.argv[0] == PY and spec.language == "python"
    assert parse_spec(f"simple:{bot}", language="C++").language == "cpp"


@pytest.mark.parametrize(("text", "says"), [
    ("json:", "no command after json:"),
    ("simple:   ", "no command after simple:"),
    (f"json:{PY} tests/bots/botzone/nosuch.py", "nosuch.py, which does not exist"),
    ("simple:./nosuch-bot", "does not exist"),
    ("no-such-program-here", "no program"),
    (f"keep:{PY} x.py", "keep: is not a mode or a setting: write json: or simple:"),
    (f"json+keep:{PY} x.py", "json+keep: is not a mode or a setting"),
    (f"keep_running:{PY} x.py", "with +keep-running for a bot that keeps running"),
    (f"json+simple:{PY} x.py", "json+simple: is not a mode or a setting"),
    (f"simple+keep-running+keep-running:{PY} x.py", "is not a mode or a setting"),
    ("json+keep-running:", "no command after json+keep-running:"),
])
def test_bad_specs_are_refused_with_one_clear_line(text: str, says: str) -> None:
    with pytest.raises(InputError, match=re.escape(says)):
        parse_spec(text)


@pytest.mark.parametrize(("prefix", "mode", "keep"), [
    ("", "json", False), ("json:", "json", False), ("simple:", "simple", False),
    ("json+keep-running:", "json", True), ("simple+keep-running:", "simple", True),
    ("keep-running:", "json", True), ("keep-running+simple:", "simple", True),
    ("Simple+Keep-Running:", "simple", True),
])
def test_keep_running_is_a_setting_in_the_spec_prefix_off_by_default(
        prefix: str, mode: str, keep: bool) -> None:
    spec = parse_spec(f"{prefix}{PY} tests/bots/botzone/discarder.py {mode}")
    assert (spec.mode, spec.keep_running, spec.argv[0]) == (mode, keep, PY)
    assert spec.text == f"{prefix}{PY} tests/bots/botzone/discarder.py {mode}"
    again = parse_spec(spec_prefix(mode, keep) + shlex.join(spec.argv))  # as a bots file stores
    assert (again.mode, again.keep_running, again.argv) == (mode, keep, spec.argv)


def test_unknown_language_is_refused() -> None:
    with pytest.raises(InputError, match="unknown language 'cobol'"):
        parse_spec(f"{PY} tests/bots/botzone/discarder.py json", language="cobol")


def test_json_input_is_one_compact_line_with_the_whole_history() -> None:
    data = format_input("json", ["0 1 0", "2 W1"], ["PASS"], "d", "g", 2.0, 256)
    assert data == (b'{"requests":["0 1 0","2 W1"],"responses":["PASS"],"data":"d",'
                    b'"globaldata":"g","time_limit":2,"memory_limit":256}\n')


def test_simple_input_has_the_turn_number_history_data_and_globaldata_lines() -> None:
    data = format_input("simple", ["0 1 0", "2 W1"], ["PASS"], "", "", 1.0, 256)
    assert data == b"2\n0 1 0\nPASS\n2 W1\n\n\n"


def test_kept_bots_get_the_new_request_alone() -> None:
    assert format_kept("json", "2 W1") == b'"2 W1"\n'
    assert format_kept("simple", "2 W1") == b"2 W1\n"


def test_keep_running_marker_must_be_a_line_of_its_own() -> None:
    marker = b">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
    assert split_marker(b"PASS\n" + marker + b"\n") == (b"PASS\n", True)
    assert split_marker(b"PASS\r\n" + marker + b"\r\nmore") == (b"PASS\r\n", True)
    assert split_marker(b"PASS " + marker + b"\n") == (b"PASS " + marker + b"\n", False)
    assert split_marker(b"PASS\n" + marker) == (b"PASS\n" + marker, False)


@pytest.mark.parametrize(("mode", "raw", "verdict", "response", "cause"), [
    ("json", b'{"response":"PASS","debug":"hi","data":"1","globaldata":"2"}\n', OK, "PASS", ""),
    ("json", b'{"response":""}\n', OK, "", ""),
    ("json", b'{"debug":"no response"}\n', OK, "", ""),
    ("json", b'{"response":12}\n', OK, "12", ""),
    ("json", b"PASS\n", BAD_OUTPUT, None, "output is not JSON"),
    ("json", b'["PASS"]\n', BAD_OUTPUT, None, "output is JSON but not an object (list)"),
    ("json", b"\xffPASS\n", BAD_OUTPUT, None, "output is not UTF-8 (byte 0xff at 0)"),
    ("json", b"", BAD_OUTPUT, None, "exited without printing anything"),
    ("simple", b"PLAY W1\r\ndebug\ndata\nglobal\n", OK, "PLAY W1", ""),
    ("simple", b"\n", OK, "", ""),
    ("simple", b"PASS", OK, "PASS", ""),
    ("simple", b"", BAD_OUTPUT, None, "exited without printing anything"),
])
def test_outputs_are_read_as_botzone_reads_them(mode: str, raw: bytes, verdict: str,
                                                 response: str | None, cause: str) -> None:
    out = parse_output(mode, raw)
    assert (out.verdict, out.response) == (verdict, response)
    assert out.cause.startswith(cause)


def test_data_and_globaldata_are_carried_only_when_given() -> None:
    out = parse_output("json", b'{"response":"PASS","data":{"a":1}}')
    assert (out.data, out.globaldata) == ('{"a":1}', None)
    out = parse_output("simple", b"PASS\ndbg\nd\ng1\ng2\n")
    assert (out.debug, out.data, out.globaldata) == ("dbg", "d", "g1\ng2")
    assert parse_output("simple", b"PASS\ndbg\nd\ng\n", kept=True).data is None
    assert len(parse_output("json", b'{"response":"PASS","debug":"' + b"x" * 5000 + b'"}')
               .debug or "") == 1024
