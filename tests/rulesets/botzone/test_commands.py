"""check-bot and tournament in the botzone ruleset, and whole duplicate matches of real
bot processes (the sample AIs, and bots with the habits of the public Botzone bots)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.datadir import BOTZONE
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
KEPT = "python3 tests/bots/botzone/discarder.py {} 1000"
GREEDY = "json+keep-running:python3 sample_ai/botzone/greedy_bot.py --keep-running"
RANDOM = "json+keep-running:python3 sample_ai/botzone/random_bot.py --keep-running"


def server(*args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "200"})


def test_check_bot_names_each_bad_verdict_with_its_request_and_exits_1() -> None:
    run = server("check-bot", "--ruleset", "botzone", "json:python3 tests/bots/botzone/like_ccr.py")
    assert run.returncode == 1, run.stderr
    assert "RE: exit status 1; its stderr ends: KeyError: 'BUHUA'" in run.stdout
    assert "(request '3 0 BUHUA" in run.stdout
    assert run.stdout.rstrip().endswith("2 game(s), 2 problem(s)")


def test_check_bot_passes_a_good_bot() -> None:
    """One that reads its input to end of file, as Botzone's sample bot does."""
    run = server("check-bot", "--ruleset", "botzone", "--games", "1", "--variant", "duplicate",
                 "json:python3 tests/bots/botzone/like_sample.py")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 game(s), 0 problem(s)" in run.stdout


def test_check_bot_refuses_a_bad_spec_in_one_line() -> None:
    run = server("check-bot", "--ruleset", "botzone", "keep:python3 x.py")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "is not a mode" in run.stderr


@pytest.mark.slow
def test_a_botzone_swiss_with_io_modes_and_a_fill_in_runs_stores_and_resumes(
        tmp_path: Path) -> None:
    bots = tmp_path / "BOTS.toml"
    bots.write_text("".join(
        f'[[bot]]\nname = "{name}"\ncommand = "{KEPT.format(io)}"\nio = "{io}"\n'
        f'ruleset = "botzone"\nkeep_running = true\n\n'
        for name, io in (("a", "json"), ("b", "simple"), ("c", "json"), ("d", "simple"),
                         ("e", "json"), ("f", "simple"))))
    out = tmp_path / "out"
    run = server("tournament", "--seed", "0",
                 str(bots), "--ruleset", "botzone", "--walls", "1", "--orders",
                 "2", "--rounds", "2", "--out", str(out), "--variant", "duplicate")
    assert run.returncode == 0, run.stderr
    db = sqlite3.connect(out / "tournament.sqlite")
    meta = dict(db.execute("SELECT key, value FROM meta"))
    assert meta["ruleset"] == "botzone" and meta["variant"] == "duplicate"
    assert meta["walls"] == "1" and meta["orders"] == "2"
    commands = [json.loads(c) for (c,) in db.execute("SELECT command FROM entries")]
    assert commands[1][0].startswith("simple+keep-running:")
    assert commands[0][0].startswith("json+keep-running:")
    assert "random_bot.py" in commands[-1][0]  # the fill-in: Botzone's sample bot's part
    games = db.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    assert games == 2 * 2 * 2 * 4  # rounds x tables x games x seats
    assert (out / "tournament.html").exists()
    table = sorted((out / "matches").glob("r01-t01"))[0]
    assert server("verify", str(table)).returncode == 0
    again = server("tournament", "--resume", "--out", str(out))
    assert again.returncode == 0, again.stderr
    wrong = server("tournament", "--resume", "--out", str(out), "--variant", "classic")
    assert wrong.returncode == 2 and "a resume keeps it" in wrong.stderr
    mixed = tmp_path / "MIXED.toml"
    mixed.write_text('[[bot]]\nname = "x"\ncommand = "python3 bot.py"\nruleset = "default"\n')
    refused = server("tournament", "--seed", "0", str(mixed), "--ruleset", "botzone", "--out",
                     str(tmp_path / "o2"))
    assert refused.returncode == 2 and "plays the default ruleset" in refused.stderr


@pytest.mark.slow
def test_greedy_beats_random_by_a_wide_margin_over_a_full_duplicate_match(
        tmp_path: Path) -> None:
    run = server("match", "--ruleset", "botzone", "--format", "duplicate", "--orders", "4",
                 "--seed", "2026", "-d", "--log-dir", str(tmp_path), GREEDY, RANDOM, GREEDY,
                 RANDOM)
    assert run.returncode == 0, run.stderr
    (match,) = tmp_path.iterdir()
    meta = json.loads((match / "match.json").read_text())
    rows = {r["player"]: r for r in meta["standings"]}
    assert len(meta["plan"]) == 16  # 4 walls x 4 seat orders, the rotations
    # the two greedy bots are the same program: over the rotations they tie
    assert max(rows[0]["place"], rows[2]["place"]) <= 2
    assert min(rows[1]["place"], rows[3]["place"]) >= 3
    assert all(r["penalties"] == 0 for r in rows.values())
    margin = (rows[0]["score"] + rows[2]["score"]) - (rows[1]["score"] + rows[3]["score"])
    assert margin / 16 > 10, margin  # points a game, greedy pair over random pair
    assert rows[0]["points"] + rows[2]["points"] >= 4 * (4 + 3) - 2  # nearly every wall
    assert server("verify", str(match)).returncode == 0


@pytest.mark.slow
def test_a_duplicate_match_of_bots_like_the_public_botzone_bots_ends_and_verifies(
        tmp_path: Path) -> None:
    # The three restarted every turn, as the public bots are (the sample-like one reads
    # its input to end of file), with the greedy sample kept running: one game, on a wall
    # the greedy bot wins early (55 judge turns, so each restarted bot starts about 50
    # times; seed 6's game ran 103 turns: twice the starts, the same check).
    bots = ["json:python3 tests/bots/botzone/like_sample.py",
            "simple:python3 tests/bots/botzone/like_wr786.py",
            "json:python3 tests/bots/botzone/like_ccr.py", GREEDY]
    run = server("match", "--ruleset", "botzone", "--variant", "duplicate", "--format",
                 "duplicate", "--walls", "1", "--orders", "1", "--seed", "24", "-d",
                 "--log-dir", str(tmp_path), *bots)
    assert run.returncode == 0, run.stderr
    (match,) = tmp_path.iterdir()
    check = server("verify", str(match))
    assert check.returncode == 0 and "checked 2 item(s): all agree" in check.stdout, check.stdout


def test_without_the_calculator_every_command_says_how_to_install_it(tmp_path: Path) -> None:
    blocker = tmp_path / "MahjongGB"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('not installed (test)')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "COLUMNS": "200"}
    bot = "json+keep-running:" + KEPT.format("json")
    data = BOTZONE / "c05_robbed_added_kong.json"
    assert data.is_file(), f"{data} is missing from the repository's test data"
    for args in (["match", "--ruleset", "botzone", bot, bot, bot, bot],
                 ["check-bot", "--ruleset", "botzone", bot],
                 ["verify", str(data)]):
        run = subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                             timeout=60, env=env)
        assert run.returncode == 2, (args, run.stderr)
        assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1
        assert "PyMahjongGB 1.1.0" in run.stderr
        assert "pip install 'mahjong-match-server[botzone]'" in run.stderr


@pytest.mark.parametrize(("initdata", "said"), [
    ('{"walltiles": "W1 W2"}', "--initdata: walltiles too short"),
    ("[1, 2]", "--initdata: not a JSON object"),
    ("{nope", "--initdata: not JSON"),
    ("no/such/file.json", "--initdata no/such/file.json: neither JSON nor a readable file"),
])
def test_an_initdata_the_judge_cannot_start_from_is_refused_in_one_line(
        initdata: str, said: str) -> None:
    bot = "json+keep-running:" + KEPT.format("json")
    run = server("match", "--ruleset", "botzone", "--initdata", initdata, bot, bot, bot, bot)
    assert run.returncode == 2 and "Traceback" not in run.stderr, run.stderr
    assert said in run.stderr and len(run.stderr.strip().splitlines()) == 1
