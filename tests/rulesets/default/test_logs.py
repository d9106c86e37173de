"""The scoresheet's rows and header: players by name, faults with their whole cause."""

from __future__ import annotations

import csv
from pathlib import Path

from rulesets.default.logs import MatchFiles, ScoreRow, scoresheet_header, sheet_names

ROW = ScoreRow(1, 2, [9, -3, -3, -43], "abcd1234", "ron", 0, 3, 8, [0, 0, 0, 40],
               [(3, "closed-output: exit status 1\n(killed)")])


def test_a_row_names_the_winner_the_payer_and_each_fault_with_its_cause() -> None:
    names = ["alice", "bob", "carol", "dave"]
    assert ROW.cells(names) == ["1", "2", "9", "-3", "-3", "-43", "abcd1234", "ron", "alice",
                                "dave", "8", "0", "0", "0", "40",
                                "dave: closed-output: exit status 1 (killed)"]
    # Without names, the player numbers and the cause's first word, as before.
    assert ROW.cells()[8:10] == ["0", "3"] and ROW.cells()[-1] == "3:closed-output"


def test_players_of_the_same_name_are_told_apart_by_number(tmp_path: Path) -> None:
    assert sheet_names(["greedy.py", "random.py", "greedy.py", "x"]) == \
        ["greedy.py (P0)", "random.py", "greedy.py (P2)", "x"]
    files = MatchFiles(tmp_path, ["a", "b", "a", "c"])
    files.add_row(ROW)
    files.close([9, -3, -3, -43])
    with (tmp_path / "scoresheet.csv").open(newline="", encoding="utf-8") as f:
        header, row, total = list(csv.reader(f))
    assert header == scoresheet_header(["a (P0)", "b", "a (P2)", "c"])
    assert header[2:6] == ["a (P0)", "b", "a (P2)", "c"] and header[11] == "Fines a (P0)"
    assert row[8:10] == ["a (P0)", "c"] and total[:2] == ["Total", ""]
