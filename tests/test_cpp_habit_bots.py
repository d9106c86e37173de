"""The test bots that copy the wire habits of the real C++ bots really have them.

Each runs as a real process on a scripted input (``tests/bots/cpp_habits.py``
says which habit comes from which bot).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DEAL = "id 0\r\nfirst 1\r\ninit 1M 1M 1M 2S 3S 4S 5T 6T 7T E E S W\r\n"


def run_bot(name: str, lines: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ROOT / "tests/bots" / name)], input=lines,
                          capture_output=True, text=True, timeout=30, cwd=tmp_path)


@pytest.mark.parametrize("name", ["like_mahjongai.py", "like_7pairs.py", "like_sticnarf.py"])
def test_each_answers_another_seats_added_kong_with_pass(name: str, tmp_path: Path) -> None:
    done = run_bot(name, DEAL + "mpick 1\r\nmjgang 1 9S\r\n", tmp_path)
    assert done.stdout.split("\n")[:2] == ["join", "pass"]


def test_like_mahjongai_answers_its_own_added_kong_and_skips_unknown_words(
        tmp_path: Path) -> None:
    done = run_bot("like_mahjongai.py",
                   DEAL + "hello mjgang 0 1M mhu 1 1 8\r\npick 2M\r\n", tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "join\npass\n"  # and it stopped at mhu, before the pick
    assert (tmp_path / "like_mahjongai.log").read_text().startswith("id 0 -> -")


def test_like_sticnarf_aborts_on_an_unknown_word_and_at_the_end_of_its_input(
        tmp_path: Path) -> None:
    for tail in ("mhu 1 1 8\r\n", ""):
        done = run_bot("like_sticnarf.py", DEAL + "mout 1 1M\r\n" + tail, tmp_path)
        assert done.returncode == -signal.SIGABRT
        assert done.stdout == "join\npass\n"  # it does not even take a winning discard
        assert "std::bad_function_call" in done.stderr
