"""Botzone's bot protocol as data: the bot spec, the time limits, what a bot is
sent and how its output is read (SPEC-botzone §7). Pure: no trio, no processes;
``server.bots.botzone_bots`` runs the bots.

A bot is ``PREFIX:CMD`` or a bare ``CMD`` (JSON, keep-running off). The prefix
names its interaction, ``json`` or ``simple``, and its keep-running setting,
``keep-running``, joined by ``+``: ``json:CMD``, ``simple:CMD``,
``json+keep-running:CMD``, ``simple+keep-running:CMD`` (``keep-running:CMD`` is
JSON). Keep-running is a setting chosen before the game, as Botzone's
``enable_keep_running``: only a bot with it on keeps its input open after its
request and is kept (stopped) when it prints ``KEEP_RUNNING`` after its answer;
any other bot's input is closed once its request is written (end of file).
A restarted bot is sent the whole history (``format_input``); a kept one only
the new request (``format_kept``). Its output is read by ``parse_output`` into
an ``Answer``.

Verdicts: ``OK``, ``TLE``, ``MLE``, ``RE`` as Botzone gives them, and
``BAD_OUTPUT`` for output Botzone's platform could not read (JSON mode: not one
JSON object; either mode: nothing at all, bytes that are not UTF-8, or more
than ``OUTPUT_CAP`` bytes). The judge treats every non-OK verdict alike.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from server.output.say import one_line
from server.seam.errors import InputError

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
MODES = ("json", "simple")
KEEP_FLAG = "keep-running"  # the prefix word that turns the keep-running setting on
OUTPUT_CAP = 1 << 20  # bytes of output per turn (data and globaldata are 100 KB each on Botzone)
DEBUG_CAP = 1024  # characters of debug kept, as on Botzone
MEMORY_MB = 256

OK = "OK"
TLE = "TLE"
MLE = "MLE"
RE = "RE"
BAD_OUTPUT = "BAD_OUTPUT"
VERDICTS = (OK, TLE, MLE, RE, BAD_OUTPUT)
NOTHING = "exited without printing anything"


class Answer(NamedTuple):
    """One bot's answer to one request: what the judge and the log need."""

    verdict: str  # one of VERDICTS
    response: str | None  # None unless OK ("" is OK: the judge then says WA)
    debug: str | None
    ms: int  # the bot's time for this turn
    cause: str  # why the verdict is not OK, in plain words; "" if OK


@dataclass(frozen=True, slots=True)
class Language:
    """A Botzone language's time multipliers (SPEC-botzone §7)."""

    name: str
    turn: float  # x base seconds per turn (doubled on a game's first turn)
    kept: float  # x base seconds on a kept (keep-running) bot's later turns


LANGUAGES: dict[str, Language] = {
    "cpp": Language("C/C++", 1, 1),
    "java": Language("Java", 3, 2),
    "javascript": Language("JavaScript", 2, 2),
    "python": Language("Python", 6, 4),
}
_LANGUAGE_NAMES = {"c": "cpp", "c++": "cpp", "cpp": "cpp", "pascal": "cpp", "java": "java",
                   "js": "javascript", "javascript": "javascript", "node": "javascript",
                   "python": "python", "py": "python", "python3": "python"}


def find_language(name: str) -> str:
    """A language's key in LANGUAGES from a name a user writes (``py``, ``C++``)."""
    key = _LANGUAGE_NAMES.get(name.strip().lower())
    if key is None:
        raise InputError(f"unknown language {name!r}: use one of cpp, java, javascript, python")
    return key


_PYTHON = re.compile(r"(python|pypy)[0-9.]*$")


def infer_language(argv: Sequence[str]) -> str:
    """The language a command runs, for its time limits: C/C++ unless it shows otherwise."""
    words = [os.path.basename(w).lower() for w in argv[:3]]
    if not words:
        return "cpp"
    if _PYTHON.match(words[0]) or any(w.endswith((".py", ".pyc", ".pyz")) for w in words):
        return "python"
    if words[0] == "java" or any(w.endswith((".jar", ".class")) for w in words):
        return "java"
    if words[0] in ("node", "nodejs") or any(w.endswith((".js", ".mjs", ".cjs")) for w in words):
        return "javascript"
    return "cpp"


@dataclass(frozen=True, slots=True)
class BotzoneSpec:
    """A Botzone bot: how to run it and how it talks."""

    argv: tuple[str, ...]
    mode: str = "json"  # "json" or "simple"
    language: str = "cpp"  # a LANGUAGES key: sets the time limits
    text: str = ""  # as the user wrote it
    keep_running: bool = False  # its input stays open and its marker keeps it (stopped)


@dataclass(frozen=True, slots=True)
class Dialect:
    """How a ruleset's platform words the JSON input and what it allows (Botzone's own,
    or a contest run on Botzone's protocol such as NOI 2014)."""

    name: str
    globaldata: bool = True  # the JSON input carries globaldata
    limits_as_text: bool = False  # time_limit "1000" (ms) and memory_limit "256" as strings
    first_turn_factor: float = 2.0  # x the time limit on a bot's first turn of a game
    data_cap: int | None = None  # bytes of ``data`` a bot may leave (None: the output cap)


BOTZONE = Dialect("botzone")
# SPEC-noi2014 §4, §6: the statement's input line, 1000 ms every step, data up to 64 KiB.
NOI2014 = Dialect("noi2014", globaldata=False, limits_as_text=True, first_turn_factor=1.0,
                  data_cap=64 * 1024)


@dataclass(frozen=True, slots=True)
class BotzoneLimits:
    """Time and memory as Botzone sets them, configurable.

    A turn gets ``base_seconds`` x the language's factor, twice that on the
    bot's first turn of a game, and x its keep-running factor on a kept bot's
    later turns. ``factor`` overrides the language's factors (all turns).
    """

    base_seconds: float = 1.0
    factor: float | None = None
    memory_mb: int | None = MEMORY_MB  # address space (RLIMIT_AS) of every bot process
    cpu_seconds: int | None = 3600  # per process: a kept bot lives a whole game
    file_mb: int | None = 64
    dialect: Dialect = BOTZONE

    def seconds(self, language: str, *, first: bool, kept: bool) -> float:
        """The time limit of one turn."""
        lang = LANGUAGES[language]
        if self.factor is not None:
            factor = self.factor
        else:
            factor = lang.kept if kept and not first else lang.turn
        return self.base_seconds * factor * (self.dialect.first_turn_factor if first else 1)


def spec_prefix(mode: str, keep_running: bool) -> str:
    """The prefix that gives a bot ``mode`` and its keep-running setting:
    ``json:``, ``simple+keep-running:``."""
    return mode + (f"+{KEEP_FLAG}" if keep_running else "") + ":"


def split_prefix(text: str) -> tuple[str, str, bool, str] | None:
    """``PREFIX:CMD`` as (prefix as written, with its colon; mode; keep-running; CMD),
    or None when ``text`` has no prefix (a bare command). A would-be prefix that
    is not one (``keep:``, ``json+simple:``) raises InputError."""
    head, sep, rest = text.partition(":")
    if not sep or not re.fullmatch(r"\s*[A-Za-z][A-Za-z0-9_+-]*\s*", head):
        return None
    words = [word.strip().lower() for word in head.split("+")]
    modes = [word for word in words if word in MODES]
    keeps = [word for word in words if word == KEEP_FLAG]
    if len(modes) + len(keeps) == len(words) and len(modes) <= 1 and len(keeps) <= 1:
        return head + sep, modes[0] if modes else "json", bool(keeps), rest
    if "+" in head or len(modes) > 1 or any("keep" in word for word in words):
        raise InputError(
            f"Botzone bot {text!r}: {head.strip()}: is not a mode or a setting: write "
            f"json: or simple: before the command, with +{KEEP_FLAG} for a bot that keeps "
            f"running (json+{KEEP_FLAG}:CMD, simple+{KEEP_FLAG}:CMD)")
    return None


def parse_spec(text: str, language: str | None = None) -> BotzoneSpec:
    """``json:CMD``, ``simple:CMD`` (with ``+keep-running`` before the colon for the
    setting) or ``CMD`` (JSON) as a BotzoneSpec.

    CMD is checked as any bot's command is (``server.bots.processes.parse_command``); the
    language (for time limits) is read from CMD unless ``language`` is given.
    Bad specs raise InputError.
    """
    from server.bots.processes import BotCommandError, parse_command  # bots imports trio

    mode, keep_running, command = "json", False, text
    prefix = split_prefix(text)
    if prefix is not None:
        head, mode, keep_running, command = prefix
        if not command.strip():
            raise InputError(f"Botzone bot {text!r}: no command after {head.strip()}:")
    try:
        argv = parse_command(command.strip())
    except BotCommandError as exc:
        raise InputError(f"Botzone bot: {exc}") from None
    lang = find_language(language) if language is not None else infer_language(argv)
    return BotzoneSpec(tuple(argv), mode, lang, text, keep_running)


# --- what a bot is sent ------------------------------------------------------------------


def format_input(mode: str, requests: Sequence[str], responses: Sequence[str],
                 data: str, globaldata: str, time_limit: float, memory_mb: int | None,
                 dialect: Dialect = BOTZONE) -> bytes:
    """A restarted bot's input: the whole history, the current request last."""
    if len(responses) != len(requests) - 1:
        raise ValueError("a bot's history has one response fewer than requests")
    if mode == "json":
        memory = memory_mb if memory_mb is not None else MEMORY_MB
        message: dict[str, Any] = {"requests": list(requests), "responses": list(responses),
                                   "data": data}
        if dialect.globaldata:
            message["globaldata"] = globaldata
        if dialect.limits_as_text:
            message.update(time_limit=str(round(time_limit * 1000)), memory_limit=str(memory))
        else:
            message.update(time_limit=_number(time_limit), memory_limit=memory)
        return (json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    lines = [str(len(requests))]
    for i, request in enumerate(requests):
        lines.append(_one_line(request))
        if i < len(responses):
            lines.append(_one_line(responses[i]))
    lines += [_one_line(data), _one_line(globaldata)]
    return ("\n".join(lines) + "\n").encode()


def format_kept(mode: str, request: str) -> bytes:
    """A kept bot's input: the new request alone (JSON: as a JSON string)."""
    if mode == "json":
        return (json.dumps(request, ensure_ascii=False) + "\n").encode()
    return (_one_line(request) + "\n").encode()


def _one_line(text: str) -> str:
    return text.replace("\r", " ").replace("\n", " ")


def _number(seconds: float) -> int | float:
    return int(seconds) if float(seconds).is_integer() else seconds


# --- what a bot says ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Output:
    """A bot's output read: an Answer's fields, and what it carries on."""

    verdict: str
    response: str | None
    debug: str | None = None
    data: str | None = None  # None: not given (the previous turn's is kept)
    globaldata: str | None = None
    cause: str = ""


def split_marker(buffer: bytes) -> tuple[bytes, bool]:
    """The output before a keep-running marker line, and whether there is one."""
    marker = KEEP_RUNNING.encode()
    start = 0
    while True:
        end = buffer.find(b"\n", start)
        if end < 0:
            return buffer, False
        if buffer[start:end].rstrip(b"\r").strip() == marker:
            return buffer[:start], True
        start = end + 1


def parse_output(mode: str, raw: bytes, *, kept: bool = False) -> Output:
    """A bot's output of one turn (without the marker) as an Output.

    ``kept``: the bot was continued (keep-running): only its response counts.
    """
    if not raw:
        return Output(BAD_OUTPUT, None, cause=NOTHING)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Output(BAD_OUTPUT, None,
                      cause=f"output is not UTF-8 (byte 0x{raw[exc.start]:02x} at {exc.start})")
    if mode == "simple":
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        lines = [line.removesuffix("\r") for line in lines]
        response = lines[0]
        if kept:
            return Output(OK, response)
        return Output(OK, response, _debug(lines[1] if len(lines) > 1 else None),
                      lines[2] if len(lines) > 2 else None,
                      "\n".join(lines[3:]) if len(lines) > 3 else None)
    try:
        message = json.loads(text)
    except ValueError as exc:
        return Output(BAD_OUTPUT, None, cause=f"output is not JSON ({exc}): {_printed(text)}")
    if not isinstance(message, dict):
        return Output(BAD_OUTPUT, None, cause=f"output is JSON but not an object "
                      f"({type(message).__name__}): {_printed(text)}")
    response = _text(message.get("response", ""))
    debug = _debug(None if message.get("debug") is None else _text(message["debug"]))
    if kept:
        return Output(OK, response, debug)
    return Output(OK, response, debug,
                  None if "data" not in message else _text(message["data"]),
                  None if "globaldata" not in message else _text(message["globaldata"]))


SHOWN = 100  # characters of a bad output shown in its cause


def _printed(text: str) -> str:
    """What a bot printed, for its BAD_OUTPUT cause: one line, escaped and cut (debug
    text printed on stdout is the usual culprit, and the bot's author must see it)."""
    return f'it printed "{one_line(text, SHOWN)}"'


def _text(value: Any) -> str:
    """A JSON value as the string a bot meant (a non-string in compact JSON)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _debug(value: str | None) -> str | None:
    return None if value is None else value[:DEBUG_CAP]
