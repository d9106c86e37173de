"""The compiled core and plain Python play the same games, every ruleset (issue 34).

``bench/exactness.py`` prints one digest per seeded game; it runs here twice at once,
compiled and with ``MAHJONG_PURE=1`` (plain Python, the reference), and every line
must agree. In the suite a small sample; ``EXACTNESS_GAMES=100000`` is the long run
(bench/README.md, "The compiled core against plain Python"):

    EXACTNESS_GAMES=100000 .venv/bin/pytest tests/test_exactness.py -n 0 -p no:cacheprovider
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.compiled import FORCE, SAID, compiled

ROOT = Path(__file__).resolve().parents[1]
HARNESS = ROOT / "bench" / "exactness.py"
SAMPLE = {"simulate": 60, "default-env": 6, "botzone-duplicate": 6, "botzone-classic": 6,
          "noi2014": 6, "course": 20}
LONG = int(os.environ.get("EXACTNESS_GAMES", "0"))


def _digests(name: str, games: int, pure: bool, into: Path) -> subprocess.Popen[str]:
    """The harness's run, its lines written to ``into`` (a file, not a pipe: a pipe
    nobody reads while the other run's is read would stall this run at 64 KB)."""
    env = {**os.environ, FORCE: "1" if pure else ""}
    env.pop(SAID, None)  # each run says whether it is plain (asserted below)
    with into.open("w") as out:
        return subprocess.Popen([sys.executable, str(HARNESS), name, str(games)], cwd=ROOT,
                                env=env, stdout=out, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("name", list(SAMPLE))
def test_compiled_and_plain_python_play_the_same_games(name: str, tmp_path: Path) -> None:
    if not compiled():
        pytest.skip("the core is not compiled here: nothing to compare plain Python with")
    games = LONG or SAMPLE[name]
    outputs = [tmp_path / "compiled.txt", tmp_path / "plain.txt"]
    runs = [_digests(name, games, pure, into)
            for pure, into in zip((False, True), outputs, strict=True)]
    fast_err, plain_err = (run.communicate()[1] for run in runs)
    assert [run.returncode for run in runs] == [0, 0], fast_err + plain_err
    assert FORCE in plain_err and FORCE not in fast_err  # each ran as it was asked
    fast_lines, plain_lines = (into.read_text().splitlines() for into in outputs)
    assert len(fast_lines) == len(plain_lines) == games
    differ = [a for a, b in zip(fast_lines, plain_lines, strict=True) if a != b]
    assert not differ, f"{len(differ)} of {games} games differ, the first: {differ[0]}"
