"""No path of the machine in any file of an output folder that the web may serve.

A real tournament (its bots in the test's folder, run by this interpreter, which
lies under the server's working folder) and a real ``server match -d``; then every
file of the folder but the private ones (``handins/``, ``programs/``, the SQLite
store) is searched for the test's folder, the home folder and the working folder.
The tables' files are read back by their readers: verify, and the reports.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.default.verify import verify_path

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
PRIVATE = ("handins", "programs")


def served_files(out: Path) -> list[Path]:
    return [p for p in out.rglob("*") if p.is_file()
            and p.relative_to(out).parts[0] not in PRIVATE and ".sqlite" not in p.name]


def machine_paths_in(out: Path, *places: Path) -> list[str]:
    needles = {str(p) for place in places for p in (place, place.resolve())}
    found = []
    for file in served_files(out):
        text = file.read_bytes().decode("utf-8", errors="replace")
        found += [f"{file.relative_to(out)}: {n}" for n in sorted(needles) if n in text]
    return found


def bots_folder(tmp_path: Path) -> Path:
    bots = tmp_path / "bots"
    shutil.copytree(ROOT / "sample_ai", bots, ignore=shutil.ignore_patterns("__pycache__"))
    return bots


def test_a_tournaments_served_files_name_no_path_of_the_machine(tmp_path: Path) -> None:
    bots = bots_folder(tmp_path)
    toml = tmp_path / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "g{i}"\ncommand = ["{PY}", "{bots}/greedy.py", '
                            f'"--seed", "{i}"]\n' for i in range(4)), encoding="utf-8")
    out = tmp_path / "out"
    done = subprocess.run(
        [PY, "-m", "server.cli", "tournament", str(toml), "--format", "round-robin",
         "--rounds", "2", "--hands", "2", "--jobs", "2", "--out", str(out),
         "--sandbox", "none"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (out / "matches/r01-t01/programs.json").is_file()
    assert len(served_files(out)) > 20
    assert machine_paths_in(out, tmp_path, Path.home(), ROOT) == []
    for table in sorted((out / "matches").glob("r0?-t0?")):
        if table.is_dir():
            report = verify_path(table)
            assert not report.problems, report.problems


@pytest.mark.slow  # a match end to end
def test_a_matchs_folder_names_no_path_of_the_machine(tmp_path: Path) -> None:
    bots_folder(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        # Four hands, not 16: every file a hand writes, each with its paths, is in each hand.
        [PY, "-m", "server.cli", "match", "-d", "--hands", "4", "--seed", "5",
         "--log-dir", "logs", *["python3 bots/greedy.py"] * 4], cwd=tmp_path, env=env,
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    [folder] = (tmp_path / "logs").iterdir()
    assert (folder / "match.json").is_file()
    assert machine_paths_in(folder, tmp_path, Path.home(), ROOT) == []
    assert not verify_path(folder).problems
