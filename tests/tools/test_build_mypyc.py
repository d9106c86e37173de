"""The install's build of the compiled core (setup.py, tools/build_mypyc.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from protocol.compiled import FORCE, SHARED_LIBRARY
from tools.build_mypyc import COPIED, CORES, GROUP, origins, sources

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_compiles_the_cores_and_the_copy_of_the_sample_bots() -> None:
    assert sources()[:len(CORES)] == list(CORES)
    assert len(sources()) == len(origins()) == len(CORES) + len(COPIED)
    assert all((ROOT / path).is_file() for path in origins())
    assert GROUP == SHARED_LIBRARY  # where protocol.compiled looks for the build


def test_a_build_without_a_c_compiler_is_plain_python_and_says_so(tmp_path: Path) -> None:
    """CC=false: the compiler fails on everything, as if there were none. The build
    (what pip's wheel holds) goes on without extensions and says why in one line."""
    done = subprocess.run(
        [sys.executable, "setup.py", "build", "--build-base", str(tmp_path)], cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != FORCE}, "CC": "false"},
        capture_output=True, text=True, timeout=300,
        check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if line.startswith("mahjong:")]
    assert len(said) == 1 and "the compiled core was NOT built (no working C compiler" in said[0]
    assert "install g++" in said[0]
    [lib] = tmp_path.glob("lib*")
    assert (lib / "rulesets/default/engine/hand.py").is_file()
    assert not list(lib.rglob("*.so")) and not (lib / "_compiled_bots").exists()
