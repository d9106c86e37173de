"""What a served folder is, and which paths the web refuses (``server.web.folders``)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from server.web.folders import kind_of, safe_path, sub_folders, withheld
from tests.server.web.feeds_by_hand import append, done, start, table


def test_kinds_of_folder(tmp_path: Path) -> None:
    assert kind_of(tmp_path) == "empty"
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "standings.json").write_text("{}")
    append(tmp_path / "m" / "live.jsonl", table())
    assert kind_of(tmp_path / "t") == "tournament"
    assert kind_of(tmp_path / "m") == "match"
    assert kind_of(tmp_path) == "several"
    assert sub_folders(tmp_path) == [("m", "match"), ("t", "tournament")]


def test_safe_paths_stay_inside_the_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "matches").mkdir(parents=True)
    (root / "tournament.html").write_text("ok")
    (tmp_path / "secret.txt").write_text("no")
    assert safe_path(root, "tournament.html") == root / "tournament.html"
    assert safe_path(root, "matches/") == root / "matches"
    assert safe_path(root, "") == root
    for bad in ("../secret.txt", "matches/../../secret.txt", "..", "./tournament.html",
                "matches\\..\\..\\secret.txt", "tournament.html\x00", "missing.html"):
        assert safe_path(root, bad) is None, bad


def test_links_out_of_the_root_and_private_files_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.txt").write_text("no")
    os.symlink(tmp_path / "secret.txt", root / "escape.txt")
    os.symlink(tmp_path, root / "up")
    (root / "handins" / "alice").mkdir(parents=True)
    (root / "handins" / "tokens.json").write_text("{}")
    (root / "programs").mkdir()
    (root / "programs" / "bot.py").write_text("")
    (root / "tournament.sqlite").write_text("")
    (root / ".hidden").write_text("")
    os.symlink(root / "handins" / "tokens.json", root / "tokens-link.json")
    for bad in ("escape.txt", "up/secret.txt", "handins/tokens.json", "programs/bot.py",
                "tournament.sqlite", ".hidden", "tokens-link.json", "handins/"):
        assert safe_path(root.resolve(), bad) is None, bad


def test_a_table_in_play_shows_nothing_not_even_its_pages(tmp_path: Path) -> None:
    """Its hands' pages and its report show every tile, as its logs do."""
    table_dir = tmp_path / "matches" / "r01-t01"
    append(table_dir / "live.jsonl", table(), start(1))
    log = table_dir / "001-00000001" / "game.log"
    log.parent.mkdir()
    log.write_text("every concealed tile")
    page = tmp_path / "matches" / "r01-t01-hands" / "001.html"
    page.parent.mkdir()
    page.write_text("a finished hand")
    inside_page = table_dir / "report.html"
    inside_page.write_text("")
    report = tmp_path / "matches" / "r01-t01.html"
    report.write_text("the table's report")
    other = tmp_path / "matches" / "r01-t011.html"
    other.write_text("another table's report")
    assert withheld(tmp_path, log)
    assert withheld(tmp_path, page)
    assert withheld(tmp_path, inside_page)
    assert withheld(tmp_path, report)
    assert not withheld(tmp_path, other)
    append(table_dir / "live.jsonl", done())
    assert not any(withheld(tmp_path, p) for p in (log, page, inside_page, report))


def test_a_feed_long_unwritten_is_a_stopped_run_not_a_table_in_play(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    append(feed, table(), start(1))
    log = tmp_path / "001" / "game.log"
    log.parent.mkdir()
    log.write_text("")
    assert withheld(tmp_path, log)
    old = time.time() - 3600
    os.utime(feed, (old, old))
    assert not withheld(tmp_path, log)
