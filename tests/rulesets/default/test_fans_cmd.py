"""`server fans`: one hand as a readable table, or many as JSON lines (--batch)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from rulesets.default.fans_cmd import hand_from_json, parse_melds_text, score_batch
from scoring.fans import HandError


def codes(text: str) -> list[str]:
    return text.split()


CLI = [sys.executable, "-c", "from server.cli.app import main; main()", "fans"]


def run_fans(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([*CLI, *args], input=stdin, capture_output=True, text=True,
                          encoding="utf-8", env=env, timeout=60, check=False)


SINGLE_WAIT = {"hand": ["7T", "8T", "9T", "W"], "melds": [["chi", "1M"], ["peng", "9S"],
               ["chi", "4T"]], "win": "W"}
FOUR_CONCEALED_PUNGS = {"hand": codes("1M 1M 1M 5S 5S 5S 9T 9T 9T E E 7M 7M"), "win": "E",
                        "self_drawn": True}

# (description, the batch line, the answer): answers are {"total", "fans"} or {"error"}.
BATCH = [
    ("a single wait", json.dumps(SINGLE_WAIT), {"total": 1, "fans": [["单钓将", 1]]}),
    ("self-drawn four concealed pungs", json.dumps(FOUR_CONCEALED_PUNGS),
     {"total": 65, "fans": [["四暗刻", 64], ["自摸", 1]]}),
    ("five of a kind",
     json.dumps({"hand": codes("1M 1M 1M 1M 2M 3M 4S 5S 6S 7T 8T 9T E"), "win": "1M"}),
     "more than 4 copies of 1M"),
    ("wrong tile count",
     json.dumps({"hand": codes("1M 2M 3M 4S 5S 6S 7T 8T 9T E E E"), "win": "Z"}),
     "12 concealed tiles"),
    ("unknown tile",
     json.dumps({"hand": codes("1M 2M 3M 4S 5S 6S 7T 8T 9T E E E 0Z"), "win": "Z"}),
     "unknown tile '0Z'"),
    ("not winning",
     json.dumps({"hand": codes("1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N"), "win": "Z"}),
     "not a winning hand"),
    ("bad JSON", '{"hand": [', "not JSON"),
    ("blank line", "", "not JSON"),
    ("not an object", "[1, 2]", "JSON object"),
    ("unknown field", json.dumps({**SINGLE_WAIT, "seat": 1}), "unknown field(s): seat"),
    ("bad meld", json.dumps({**SINGLE_WAIT, "melds": [["pong", "1M"]]}), "kind chi, peng"),
    ("impossible chow", json.dumps({**SINGLE_WAIT, "melds": [["chi", "8M"]]}),
     "no chow starts at 8M"),
    ("self_drawn not a boolean", json.dumps({**SINGLE_WAIT, "self_drawn": "yes"}),
     "'self_drawn' must be true or false"),
]


def expected_answer(answer: dict[str, object] | str, got: dict[str, object]) -> bool:
    if isinstance(answer, str):
        return set(got) == {"error"} and answer in str(got["error"])
    return got == answer


@pytest.mark.parametrize(("line", "answer"), [b[1:] for b in BATCH], ids=[b[0] for b in BATCH])
def test_score_batch_answers_each_line(line, answer):
    (out,) = score_batch([line + "\n"])
    assert expected_answer(answer, json.loads(out))


def test_hand_from_json_reads_melds_and_defaults():
    hand = hand_from_json(SINGLE_WAIT)
    assert [str(m) for m in hand.melds] == ["chi 1M", "peng 9S", "chi 4T"]
    assert hand.self_drawn is False
    with pytest.raises(HandError, match="'hand' must be a list"):
        hand_from_json({"hand": "1M 2M", "win": "1M"})


def test_parse_melds_text_reads_a_comma_separated_list():
    assert [str(m) for m in parse_melds_text("chi 3M, peng E,gang 5T , agang Z")] == [
        "chi 3M", "peng E", "gang 5T", "agang Z"]
    assert parse_melds_text("") == []


# --- the real command -----------------------------------------------------------------


def test_fans_prints_a_readable_table():
    result = run_fans("--hand", "1M 1M 1M 5S 5S 5S 9T 9T 9T E E 7M 7M", "--win", "E",
                      "--self-drawn")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[1]: line for line in result.stdout.splitlines()
            if len(line.split()) > 1}
    assert "Four Concealed Pungs" in rows["四暗刻"] and "64" in rows["四暗刻"]
    assert "Self-Drawn" in rows["自摸"]
    assert "65" in rows["total"]
    assert "门前清" not in result.stdout  # excluded by 四暗刻


def test_fans_reads_melds():
    result = run_fans("--hand", "7T 8T 9T W", "--melds", "chi 1M, peng 9S, chi 4T", "--win", "W")
    assert result.returncode == 0, result.stderr
    assert "单钓将" in result.stdout and "Single Wait" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--hand", "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E 0Z", "--win", "Z"], "'0Z'"),
        (["--hand", "1M 2M 3M 4S 5S 6S 7T 8T 9T E E E Z", "--win", "Q"], "'Q'"),
        (["--hand", "1M 4M 7M 1S 4S 7S 1T 4T 7T E S W N", "--win", "Z"], "not a winning hand"),
    ],
    ids=["bad tile in the hand", "bad winning tile", "not winning"],
)
def test_fans_exits_2_with_a_message_on_a_bad_hand(args, message):
    result = run_fans(*args)
    assert result.returncode == 2
    assert message in result.stdout + result.stderr


def test_fans_batch_answers_every_line_in_order():
    lines = [line for _, line, _ in BATCH]
    result = run_fans("--batch", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    outs = result.stdout.splitlines()
    assert len(outs) == len(BATCH)
    for (name, _, answer), out in zip(BATCH, outs, strict=True):
        assert expected_answer(answer, json.loads(out)), (name, out)


def test_fans_batch_refuses_other_options():
    result = run_fans("--batch", "--win", "E")
    assert result.returncode == 2


def _documented_example(text: str) -> tuple[str, str]:
    """The (input, output) pair of the batch example in a piece of documentation."""
    lines = text.splitlines()
    (i,) = [n for n, x in enumerate(lines) if '{"hand": ["7T"' in x]
    line_in = lines[i][lines[i].index("{"):]
    line_in = line_in[: line_in.rindex("}") + 1]
    line_out = lines[i + 1].strip().removeprefix("out:").strip()
    return line_in, line_out


@pytest.mark.parametrize("where", ["help", "docs"])
def test_the_batch_format_is_documented_with_an_example_that_works(where: str) -> None:
    from pathlib import Path

    if where == "help":
        helped = run_fans("--help")
        assert helped.returncode == 0
        text = helped.stdout
        assert '"self_drawn"' in text and "agang" in text
    else:
        docs = Path(__file__).resolve().parents[3] / "docs"
        text = (docs / "reference" / "match.md").read_text(encoding="utf-8")
    line_in, line_out = _documented_example(text)
    done = run_fans("--batch", stdin=line_in + "\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == line_out + "\n"
