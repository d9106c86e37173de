"""The shared page parts: paths shown without the machine's folders, the stderr excerpt
a fault shows, the link back up and a table's title."""

from __future__ import annotations

from pathlib import Path

from server.output.pages import back_link, output_root, shown_paths, stderr_excerpt, table_title


def test_paths_inside_the_output_folder_are_relative_and_others_shortened() -> None:
    out = Path("/srv/class/out")
    text = ('json:/opt/venv/bin/python /srv/class/out/programs/ab12/bot.py --seed 1; '
            'File "/usr/lib/python3.11/json/decoder.py", see https://example.org/x/y')
    assert shown_paths(text, out) == (
        'json:…/bin/python programs/ab12/bot.py --seed 1; '
        'File "…/json/decoder.py", see https://example.org/x/y')
    assert shown_paths("a/b/c and ./d/e stay", out) == "a/b/c and ./d/e stay"


def test_the_stderr_excerpt_is_its_last_lines_with_paths_relative(tmp_path: Path) -> None:
    (tmp_path / "tournament.sqlite").write_text("")
    table = tmp_path / "matches" / "r01-t01"
    hand = table / "001-abc"
    hand.mkdir(parents=True)
    assert output_root(table) == tmp_path and output_root(Path("/x/y")) == Path("/x")
    lines = [f"line {i}" for i in range(40)] + [f'  File "{tmp_path}/programs/h/bot.py"',
                                                "ValueError: \udcff bad"]
    (hand / "seat2.stderr").write_bytes("\n".join(lines).encode("utf-8", "surrogateescape"))
    said = stderr_excerpt(hand / "seat2.stderr", lines=3, base=tmp_path)
    assert said == 'line 39\n  File "programs/h/bot.py"\nValueError: \ufffd bad'
    assert stderr_excerpt(hand / "seat0.stderr") == ""  # no file: nothing to show
    big = "x" * 5000 + "\nlast line"
    (hand / "seat1.stderr").write_text(big)
    assert stderr_excerpt(hand / "seat1.stderr", limit=100) == "last line"


def test_a_tables_title_and_its_link_back() -> None:
    assert table_title(2, 3, ["alice", "bob", "carol", "dave"]) == \
        "Round 2, table 3 — alice, bob, carol, dave"
    assert back_link(None) == ""
    assert back_link(("../tournament.html", "a <b>")) == \
        "<p class='back'><a href='../tournament.html'>&larr; a &lt;b&gt;</a></p>"
