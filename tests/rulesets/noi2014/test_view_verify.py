"""NOI 2014 logs read back: verify re-runs every game and finds any change, replay shows
a game step by step with each remaining player's target and chance value, report."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets.noi2014.verify import verify_path
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
SAMPLES = "sample_ai/noi2014"


def server(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round of the sample bots, kept running (fast): one wall, four games."""
    logs = tmp_path_factory.mktemp("noi-logs")
    run = server("match", "--ruleset", "noi2014", "--format", "round", "--seed", "3", "-d",
                 "--log-dir", str(logs),
                 f"keep-running:python3 {SAMPLES}/greedy_bot.py --keep-running",
                 f"keep-running:python3 {SAMPLES}/random_bot.py --keep-running",
                 f"simple+keep-running:python3 {SAMPLES}/greedy_bot.py --keep-running --simple",
                 f"keep-running:python3 {SAMPLES}/random_bot.py --keep-running")
    assert run.returncode == 0, run.stderr
    (folder,) = logs.iterdir()
    return folder


def copy_of(match: Path, tmp_path: Path) -> Path:
    shutil.copytree(match, tmp_path / "m")
    return tmp_path / "m"


def edit(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))


def test_verify_agrees_on_a_match_a_game_folder_and_a_game_file(match: Path) -> None:
    for target in (match, match / "games" / "002", match / "games" / "003" / "game.json"):
        run = server("verify", str(target))
        assert run.returncode == 0 and "all agree" in run.stdout, run.stdout


def _remaining(record: dict) -> dict:  # type: ignore[type-arg]
    return next(iter(record["judge"][-1]["result"]["remaining"].values()))


@pytest.mark.parametrize("what,change,said", [
    ("a response", lambda r: r["players"][0].__setitem__(2, {**r["players"][0][2],
                                                             "response": "PLAY W9"}),
     "turn"),
    ("a request", lambda r: r["players"][1].__setitem__(0, {**r["players"][1][0],
                                                            "request": "0 3"}),
     "turn 1, seat 1: recorded request '0 3'"),
    ("the scores", lambda r: r.__setitem__("scores", [4, 3, 2, 1]), "scores recorded"),
    ("a distance", lambda r: _remaining(r).__setitem__("distance", 0),
     "the engine's output differs"),
])
def test_verify_finds_a_changed_record_naming_where(match: Path, tmp_path: Path, what, change,
                                                    said) -> None:
    """In-process (``verify_path``, what ``server verify`` runs and prints line by line; the
    command's exit 1 and its lines are the test below's)."""
    folder = copy_of(match, tmp_path)
    edit(folder / "games" / "001" / "game.json", change)
    report = verify_path(folder)
    assert not report.ok, what
    said_all = "\n".join(report.problems)
    assert "games/001/game.json" in said_all and said in said_all, said_all


def test_verify_finds_a_changed_scoresheet_and_standings(match: Path, tmp_path: Path) -> None:
    folder = copy_of(match, tmp_path)
    sheet = folder / "scoresheet.csv"
    lines = sheet.read_text().splitlines()
    lines[1] = lines[1].rsplit(",", 1)[0] + ",9"
    sheet.write_text("\n".join(lines) + "\n")
    meta = json.loads((folder / "match.json").read_text())
    meta["standings"][0]["points"] += 1
    (folder / "match.json").write_text(json.dumps(meta))
    run = server("verify", str(folder))
    assert run.returncode == 1
    assert "scoresheet.csv:2" in run.stdout and "match.json: standings" in run.stdout


def test_a_game_file_that_is_no_json_is_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "game.json"
    bad.write_text("{not json")
    for command in ("verify", "replay"):
        run = server(command, str(bad), "--ruleset", "noi2014")
        assert run.returncode == 2 and "not JSON" in run.stderr
        assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_replay_shows_each_step_and_at_the_end_targets_and_the_chance_sequence(
        match: Path) -> None:
    game = json.loads((match / "games" / "001" / "game.json").read_text())
    run = server("replay", str(match / "games" / "001"))
    assert run.returncode == 0, run.stderr
    assert "step 0 · wall 56 · the deal" in run.stdout
    assert "the sequence: 1:" in run.stdout and "every hand and meld at" in run.stdout
    remaining = game["judge"][-1]["result"]["remaining"]
    for row in remaining.values():
        assert f"target {row['target']}" in run.stdout
        if row["valid"]:
            assert f"distance {row['distance']}" in run.stdout
            assert f"chance value {row['chance']}" in run.stdout
    at = server("replay", str(match / "games" / "001"), "--at", "3")
    assert at.returncode == 0 and at.stdout.startswith("step 3 ")
    assert "result:" not in at.stdout
    bad = server("replay", str(match / "games" / "001"), "--at", "9999")
    assert bad.returncode == 2 and "--at 9999" in bad.stderr


def test_the_html_page_steps_through_the_game_and_ends_on_targets_and_chance_values(
        match: Path, tmp_path: Path) -> None:
    from tests.browser import open_page

    out = tmp_path / "g.html"
    run = server("replay", str(match / "games" / "001"), "--html", str(out))
    assert run.returncode == 0, run.stderr
    game = json.loads((match / "games" / "001" / "game.json").read_text())
    remaining = game["judge"][-1]["result"]["remaining"]
    with open_page(out.as_uri()) as (page, errors):
        assert page.text_content("#stepno") == "0"
        assert "the deal" in (page.text_content("#view") or "")
        assert page.is_hidden("#result")
        page.keyboard.press("ArrowRight")
        assert page.text_content("#stepno") == "1"
        page.keyboard.press("End")
        assert not page.is_hidden("#result")
        result = page.inner_text("#result")
        assert "The sequence" in result
        for seat, row in remaining.items():
            assert page.locator(f"#target{seat}").count() == 1
            if row["valid"]:
                assert f"chance value {row['chance']}" in result
        assert not errors


def test_report_writes_the_standings_and_a_page_per_game(match: Path, tmp_path: Path) -> None:
    out = tmp_path / "report" / "index.html"
    run = server("report", str(match), "--html", str(out))
    assert run.returncode == 0, run.stderr
    assert len(list((tmp_path / "report" / "index-games").glob("*.html"))) == 4
    text = out.read_text()
    assert "Standings" in text and "greedy_bot.py" in text
