"""A hand-in through the page as the tournament reads it: ``OUT/handins/<name>/current.json``."""

from __future__ import annotations

import json
from pathlib import Path

from server.tournament.uploads import PageHandIn, current_command, write_current


def test_a_passed_upload_is_its_command_with_its_files_made_absolute(tmp_path: Path) -> None:
    assert current_command(tmp_path, "alice") is None
    folder = tmp_path / "handins" / "alice" / "2"
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text("print(1)\n")
    write_current(tmp_path, "alice", 2, ["python3", "bot.py", "--level", "3"], "ok")
    got = current_command(tmp_path, "alice")
    assert got == PageHandIn(2, ("python3", str(folder.resolve() / "bot.py"), "--level", "3"),
                             tmp_path / "handins" / "alice" / "2")


def test_a_current_file_that_cannot_be_used_says_why(tmp_path: Path) -> None:
    student = tmp_path / "handins" / "bob"
    (student / "1").mkdir(parents=True)
    current = student / "current.json"
    for text, why in (("{", "current.json: "), ('{"n": 0, "command": ["x"]}', "not a hand-in"),
                      ('{"n": 3, "command": ["x"]}', "upload 3 is not there"),
                      ('{"n": 1, "command": ["python3", "../../x.py"]}', "outside upload 1"),
                      ('{"n": 1, "command": ["/bin/sh"]}', "outside upload 1")):
        current.write_text(text)
        got = current_command(tmp_path, "bob")
        assert isinstance(got, str) and why in got, (text, got)
    current.write_text(json.dumps({"n": 1, "command": ["python3", "missing.py"]}))
    assert current_command(tmp_path, "bob") == PageHandIn(1, ("python3", "missing.py"),
                                                          student / "1")
