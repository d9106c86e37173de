"""``tests.concurrent_runs.selected``: a module fixture gathers runs only for tests that run."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A module shaped like tests/rulesets/botzone/test_match.py: a module fixture builds the run of
# every selected test from its parameters, and one test is parametrized over a list
# that is empty here (pytest then makes one skipped item whose parameter is unset).
MODULE = textwrap.dedent("""\
    import pytest

    from tests.concurrent_runs import selected

    NAMES = []
    SKIPPED = pytest.mark.skipif(True, reason="switched off")


    @pytest.fixture(scope="module")
    def runs(request):
        found = ["plain" for _ in selected(request, "test_plain")]
        found += [NAMES[params["index"]] for params in selected(request, "test_each_name")]
        found += [params["n"] for params in selected(request, "test_switched_off")]
        return found


    def test_plain(runs):
        assert runs == ["plain"]


    @pytest.mark.parametrize("index", range(len(NAMES)))
    def test_each_name(index, runs):
        assert NAMES[index] in runs


    @SKIPPED
    @pytest.mark.parametrize("n", [1, 2])
    def test_switched_off(n, runs):
        assert n in runs
""")


def test_a_skipped_or_empty_parametrized_test_gets_no_run_and_breaks_no_other(
        tmp_path: Path) -> None:
    (tmp_path / "test_shape.py").write_text(MODULE, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
         "--rootdir", str(tmp_path), "-c", "/dev/null", str(tmp_path / "test_shape.py")],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed, 3 skipped" in done.stdout, done.stdout
