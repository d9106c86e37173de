"""What a person sees on the console with -v, and what the log folder keeps."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import structlog

from server.output.console import configure_logging
from tests.rulesets.default.test_match_e2e import (
    DRAWBOT,
    GREEDY,
    RANDOM,
    match_dir,
    no_leftover_bots,
    run_server,
)

__all__ = ["no_leftover_bots"]  # the autouse fixture: no bot outlives a test

ACCOUNT = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} h\d+ +(P\d s\d|     ) ([<>=*?!~#]) ")


@pytest.fixture(autouse=True)
def _reset_logging() -> Iterator[None]:
    yield
    structlog.reset_defaults()


def test_verbose_match_prints_a_readable_line_per_message_and_keeps_json_in_the_folder(
        tmp_path: Path) -> None:
    # Four hands, not a 16-hand group: every kind of line is in each hand's account.
    proc = run_server(GREEDY, GREEDY, RANDOM, DRAWBOT, "-v", "-d", "--seed", "3",
                      "--hands", "4", "--log-dir", str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    folder = match_dir(tmp_path)
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("match ") and lines[-1].startswith("logs: ")
    account = lines[1:-1]
    assert all(ACCOUNT.match(x) for x in account), next(x for x in account
                                                          if not ACCOUNT.match(x))
    assert max(map(len, account)) <= 88
    # No structlog key=value pairs, JSON or log levels on the console.
    noise = re.compile(r"\w=\S|[{}\"]|\[debug|\[info|event")
    assert not [x for x in account if noise.search(x)]
    # One line per message, as the transcripts have them.
    transcripts = sorted(folder.glob("*/seat*.transcript"))
    assert len(transcripts) == 4 * 4
    sent_and_read = [x for x in account if ACCOUNT.match(x).group(2) in "<>"]  # type: ignore[union-attr]
    assert len(sent_and_read) == sum(len(t.read_text().splitlines()) for t in transcripts)
    # A known message in the readable form: hand 1's deal to seat 0, and an answer's time.
    _, _, init = next(x for x in (folder.glob("001-*/seat0.transcript").__next__()
                                  .read_text().splitlines()) if " init " in x).partition("> ")
    assert any(re.fullmatch(r"\S+ h1   P0 s0 > {12}" + re.escape(init), x) for x in account)
    assert any(re.fullmatch(r"\S+ h1   P\d s\d < +\d+\.\d ms out \S+", x) for x in account)
    assert sum(1 for x in account if " # " in x and (" wins: " in x or " draw: " in x)) == 4
    # The structured events are in the match folder, one JSON object a line.
    events = [json.loads(x) for x in (folder / "server-events.jsonl").read_text().splitlines()]
    assert sum(1 for e in events if e["event"] in ("send", "recv")) == len(sent_and_read)
    assert {"hand_start", "accept", "hand_over"} <= {e["event"] for e in events}


def test_without_verbose_the_console_shows_no_account(tmp_path: Path) -> None:
    proc = run_server(DRAWBOT, DRAWBOT, DRAWBOT, DRAWBOT, "-d", "--seed", "3", "--hands", "2",
                      "--log-dir", str(tmp_path))  # two hands: no account in either
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert not [x for x in proc.stderr.splitlines() if ACCOUNT.match(x)]
    events = (match_dir(tmp_path) / "server-events.jsonl").read_text().splitlines()
    kinds = {json.loads(x)["event"] for x in events}
    assert "hand_over" in kinds and "send" not in kinds  # decisions only, no lines


def test_without_verbose_lines_never_reach_a_processor() -> None:
    """Off, -v costs one no-op call per line: the logger drops debug events itself."""
    configure_logging(False)
    seen: list[Any] = []
    processors = structlog.get_config()["processors"]
    structlog.configure(processors=[lambda _, __, ev: seen.append(ev) or ev, *processors])
    log = structlog.get_logger().bind(hand=1, players=(0, 1, 2, 3))
    log.debug("send", seat=0, line="pick 3M")
    log.debug("recv", seat=0, line="out 3M", ms=1.0)
    assert seen == []
