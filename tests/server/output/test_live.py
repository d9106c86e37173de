"""The live feed's writer and reader: whole JSON lines, a partial last line left for later,
reading on from an offset, the stderr excerpt, and a feed that cannot be written."""

from __future__ import annotations

import json
from pathlib import Path

from server.output.live import STDERR_EXCERPT, LiveFeed, excerpt, read_feed, read_new

PICTURE = {"seats": [{"name": "alice", "wind": None, "concealed": 13, "melds": [],
                      "discards": [], "flowers": None, "score": None}],
           "turn": 0, "last": None, "wall": 84, "wind": None}


def test_each_record_is_one_whole_line_in_the_order_written(tmp_path: Path) -> None:
    path = tmp_path / "t" / "live.jsonl"
    feed = LiveFeed(path, report="matches/r01-t02")
    feed.table("Round 1, table 2", "default", "hand", ["alice", "bob", "carol", "数"], 16)
    feed.start(1, "8c683523", "Hand 1 of 16", ["alice", "bob", "carol", "数"], PICTURE)
    feed.step(1, PICTURE)
    feed.fault(1, 3, "数", "closed-output: exit status 1", b"Traceback\n\xff boom\n",
               "001-8c683523/seat3.stderr")
    feed.end(1, "ron", "alice wins", [12.0, 0, 2.5, -14.5], [["W1"], [], [], []],
             "-hands/001-8c683523.html", [[], ["J1"], [], []])
    feed.done()
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 7
    records = [json.loads(line) for line in lines[:-1]]
    assert [r["type"] for r in records] == ["table", "start", "step", "fault", "end", "done"]
    assert records == read_feed(path)
    assert records[0]["players"][3] == "数" and records[0]["planned"] == 16
    assert records[3]["stderr"] == "Traceback\n\ufffd boom\n"
    assert records[4]["scores"] == [12, 0, 2.5, -14.5]
    assert isinstance(records[4]["scores"][0], int)
    assert records[4]["page"] == "matches/r01-t02-hands/001-8c683523.html"
    assert records[4]["kongs"] == [[], ["J1"], [], []]
    assert records[2]["picture"] == PICTURE


def test_a_feed_without_a_report_names_no_page(tmp_path: Path) -> None:
    feed = LiveFeed(tmp_path / "live.jsonl")
    feed.end(2, "draw", "a draw", [0, 0, 0, 0], [[], [], [], []], "-games/game002.html")
    feed.close()
    (end,) = read_feed(tmp_path / "live.jsonl")
    assert end["page"] is None and end["kongs"] == [[], [], [], []]


def test_the_reader_leaves_a_partial_last_line_and_reads_it_once_whole(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    assert read_feed(path) == [] and read_new(path, 0) == ([], 0)  # no feed yet
    whole = b'{"type": "table", "n": 1}\n'
    path.write_bytes(whole + b'{"type": "st')
    records, offset = read_new(path)
    assert records == [{"type": "table", "n": 1}] and offset == len(whole)
    assert read_feed(path) == [{"type": "table", "n": 1}]
    with path.open("ab") as f:
        f.write(b'ep", "n": 1}\nnot json\n[1, 2]\n{"type": "done"}\n')
    more, offset2 = read_new(path, offset)
    assert more == [{"type": "step", "n": 1}, {"type": "done"}]  # broken lines skipped
    assert offset2 == path.stat().st_size
    assert read_new(path, offset2) == ([], offset2)


def test_the_stderr_excerpt_is_its_last_two_kilobytes() -> None:
    tail = b"a" * 5000 + b"the end\n"
    text = excerpt(tail)
    assert len(text.encode()) == STDERR_EXCERPT == 2048 and text.endswith("the end\n")
    assert excerpt(None) == "" and excerpt(b"") == ""


def test_a_feed_that_cannot_be_written_lets_the_table_play_on(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    feed = LiveFeed(blocker / "live.jsonl")
    feed.table("t", "default", "hand", ["a"], 1)  # the folder cannot be made: no error
    feed.step(1, PICTURE)
    feed.done()
    assert not (blocker / "live.jsonl").exists()
