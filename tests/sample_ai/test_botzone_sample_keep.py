"""Botzone's sample bots kept running in simple interaction read a whole first input
(data and globaldata lines included), so they answer each request once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MARKER = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


@pytest.mark.parametrize("bot", ["random_bot.py", "greedy_bot.py"])
def test_a_kept_simple_sample_bot_answers_each_request_once(bot: str) -> None:
    first = "1\n0 1 0\n\n\n"  # turn 1: the request, then the data and globaldata lines
    later = "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4\n"
    run = subprocess.run([sys.executable, str(ROOT / "sample_ai" / "botzone" / bot),
                          "--simple", "--keep-running"], input=first + later,
                         capture_output=True, text=True, timeout=60)
    lines = [line for line in run.stdout.splitlines() if line]
    assert lines == ["PASS", MARKER, "PASS", MARKER], run.stdout
