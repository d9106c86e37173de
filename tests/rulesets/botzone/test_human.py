"""Botzone's human match records: read, written, judged, drawn and converted.

The test file ``tests/data/botzone_human/games.txt`` is four seeded games of
``human_games.play`` written by ``to_match``: a robbed kong (seed 26), a kong
claimed on a discard (11), a concealed and an added kong (14), and a draw with
two ``Ignore`` clauses (24).
"""

from __future__ import annotations

import functools
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rulesets.botzone.env import env
from rulesets.botzone.human import (
    ACTIONS,
    Action,
    Claim,
    HumanFormatError,
    blocks,
    format_action,
    format_file,
    parse_action,
    parse_file,
)
from rulesets.botzone.human_arrays import arrays, convert_blocks
from rulesets.botzone.human_cmd import game_records, verify_file
from rulesets.botzone.human_judge import judge_match, to_match
from rulesets.botzone.ruleset import RULESET
from rulesets.botzone.tiles import standard_tiles
from server.seam.contract import CommandArgs
from server.seam.errors import InputError
from tests.datadir import botzone_games
from tests.rulesets.botzone import human_games

ROOT = Path(__file__).resolve().parents[3]
DATA = ROOT / "tests" / "data" / "botzone_human" / "games.txt"
SEEDS = (26, 11, 14, 24)
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]


@functools.cache
def _played(seed: int) -> str:
    return json.dumps(human_games.play(seed))


def play(seed: int) -> dict[str, Any]:
    """The seeded game's record (each played once per test session)."""
    record: dict[str, Any] = json.loads(_played(seed))
    return record


def text() -> str:
    return DATA.read_text(encoding="utf-8")


def lines() -> list[str]:
    return text().split("\n")


def line_of(start: str, after: int = 0) -> int:
    """The number of the first line from ``after`` on that starts with ``start``."""
    return next(n for n, line in enumerate(lines(), start=1)
                if n > after and line.startswith(start))


def changed(number: int, new: str) -> str:
    edited = lines()
    edited[number - 1] = new
    return "\n".join(edited)


def problem_of(edited: str) -> tuple[str, int, str]:
    for match in parse_file(edited):
        problem = judge_match(match).problem
        if problem is not None:
            return match.match_id, problem.line, problem.text
    raise AssertionError("every match agrees")


# --- the test file: seeded games, every event kind ---------------------------------------

def test_the_test_file_is_what_the_seeded_games_give() -> None:
    games = [to_match(play(seed), f"seed-{seed}") for seed in SEEDS]
    assert all(g is not None for g in games)
    assert format_file([g for g in games if g is not None]) == text()


def test_the_test_file_holds_every_event_kind_an_ignore_a_draw_and_a_robbed_kong() -> None:
    matches = parse_file(text())
    kinds = {a.kind for m in matches for a in m.actions}
    assert kinds == set(ACTIONS)
    assert sum(len(a.ignored) for m in matches for a in m.actions) >= 2
    assert [m.huang for m in matches] == [False, False, False, True]
    robbed = matches[0].actions[-2:]
    assert [a.kind for a in robbed] == ["BuGang", "Hu"] and robbed[0].tile == robbed[1].tile
    assert any(name == "抢杠和" for name, _ in matches[0].fan[1])  # type: ignore[index]


# --- reading and writing ----------------------------------------------------------------

def test_a_file_read_and_written_again_is_identical_byte_for_byte() -> None:
    matches = parse_file(text())
    assert format_file(matches) == text()
    assert parse_file(format_file(matches)) == matches


def test_every_item_keeps_its_line_number() -> None:
    matches = parse_file(text())
    second = matches[1]
    assert second.lines["Match"] == line_of("Match seed-11")
    assert second.actions[0].line == second.lines["Deal 3"] + 1
    assert second.lines["Score"] == line_of("Score", second.lines["Match"])


LINES = [
    ("Player 2 Draw W1", Action(2, "Draw", "W1")),
    ("Player 0 Chi T3", Action(0, "Chi", "T3")),
    ("Player 1 Peng J2 Ignore Player 0 Chi J2", Action(1, "Peng", "J2", (Claim(0, "Chi", "J2"),))),
    ("Player 3 Hu B5 Ignore Player 1 Hu B5 Ignore Player 2 Peng B5",
     Action(3, "Hu", "B5", (Claim(1, "Hu", "B5"), Claim(2, "Peng", "B5")))),
    ("Player 1 AnGang F4", Action(1, "AnGang", "F4")),
]


@pytest.mark.parametrize(("line", "action"), LINES, ids=[line for line, _ in LINES])
def test_one_table_reads_and_writes_each_action_line(line: str, action: Action) -> None:
    assert parse_action(line.split(" "), 7) == action
    assert format_action(action) == line


def test_extra_spaces_are_read_and_written_as_one() -> None:
    spaced = text().replace("Wind 2", "Wind  2 ").replace("Player 0 Draw J1", "Player 0 Draw J1 ")
    assert parse_file(spaced) == parse_file(text())
    assert format_file(parse_file(spaced)) == text()


@pytest.mark.parametrize(("line", "said"), [
    ("Player 0 Play X9", "'X9' is no tile"),
    ("Player 5 Play W1", "'5' is no seat"),
    ("Player 0 Jump W1", "expected 'Player P KIND TILE'"),
    ("Player 0 Peng W1 Ignore Player 1 Play W1", "expected 'Ignore Player Q KIND TILE'"),
    ("Player 0 Peng W1 Ignore Player", "expected 'Ignore Player Q KIND TILE'"),
    ("Player 0 Play W1 Ignore Player 1 Peng W1", "an Ignore clause follows a claim"),
    ("Score 1 2 3", "expected 'Score S0 S1 S2 S3'"),
    ("Hello", "not a line of the format"),
])
def test_a_malformed_line_is_reported_at_its_line(line: str, said: str) -> None:
    number = line_of("Player 0 Play")
    with pytest.raises(HumanFormatError, match=f"line {number}: .*{said}"):
        parse_file(changed(number, line))


def test_a_short_deal_and_a_match_without_its_wind_are_reported() -> None:
    deal = line_of("Player 2 Deal")
    with pytest.raises(HumanFormatError, match=f"line {deal}: a deal is 13 tiles, got 12"):
        parse_file(changed(deal, lines()[deal - 1].rsplit(" ", 1)[0]))
    without = "\n".join(lines()[:1] + lines()[2:])
    with pytest.raises(HumanFormatError, match="line 6: the play starts after 'Wind'"):
        parse_file(without)


def test_blank_lines_and_windows_line_ends_are_read_too() -> None:
    messy = "\n\n" + text().replace("\n", "\r\n").replace("\r\n\r\n", "\r\n\r\n\r\n")
    assert parse_file(messy) == parse_file(text())


# --- on the judge -----------------------------------------------------------------------

def test_every_match_agrees_with_the_judge_and_gives_the_same_game_back() -> None:
    for match in parse_file(text()):
        judged = judge_match(match)
        assert judged.problem is None
        assert judged.record["scores"] == list(match.score or ())
        again = to_match(judged.record, match.match_id)
        assert again == match


def test_a_tile_never_drawn_is_reported_at_its_play() -> None:
    """Seat 1's first discard in match seed-11 changed to a tile it was never dealt or drew."""
    match = parse_file(text())[1]
    number = line_of("Player 1 Play", match.lines["Match"])
    drawn = lines()[number - 2].split(" ")[-1]
    held = {*match.deal_of(1), drawn}
    missing = next(t for t in ("J3", "J2", "J1", "F4", "W9", "B9") if t not in held)
    assert problem_of(changed(number, f"Player 1 Play {missing}"))[:2] == ("seed-11", number)
    said = problem_of(changed(number, f"Player 1 Play {missing}"))[2]
    assert said.startswith(f"seat 1 plays {missing}, which is not in its hand")


def test_a_win_of_too_few_fan_and_a_claim_the_hand_cannot_make_are_reported() -> None:
    play = line_of("Player 0 Play F1")
    assert lines()[play - 2] == "Player 0 Draw J1"
    match_id, line, said = problem_of(changed(play, "Player 0 Hu J1"))
    assert (match_id, line) == ("seed-26", play)
    assert said.startswith("'Player 0 Hu J1': not an action the judge accepts now (seat 0 "
                           "may: PLAY W5") and said.endswith("a HU needs 8 fan, flowers not "
                                                             "counted")
    chi = line_of("Player 0 Chi T2")
    match_id, line, said = problem_of(changed(chi, "Player 0 Peng T1"))
    assert (match_id, line) == ("seed-26", chi)
    assert said.startswith("'Player 0 Peng T1': not an action the judge accepts now")


def test_a_wrong_score_and_a_wrong_fan_are_reported_at_their_lines() -> None:
    score = line_of("Score")
    assert problem_of(changed(score, "Score -8 -24 41 -8")) == (
        "seed-26", score, "Score: recorded -8 -24 41 -8, the judge scores -8 -24 40 -8")
    fan = line_of("Fan")
    match_id, line, said = problem_of(changed(fan, "Fan 17 抢杠和*1+圈风刻*1"))
    assert (match_id, line) == ("seed-26", fan) and said.startswith("Fan: recorded 17")


def test_a_fifth_copy_drawn_is_reported_at_its_draw() -> None:
    """Seat 0 is dealt W5 twice; the first three draws made W5 too: the third is a fifth."""
    assert parse_file(text())[0].deal_of(0).count("W5") == 2
    rows = lines()
    draws = [n for n, line in enumerate(rows, start=1) if " Draw " in line][:3]
    for n in draws:
        rows[n - 1] = " ".join([*rows[n - 1].split(" ")[:3], "W5"])
    assert problem_of("\n".join(rows)) == ("seed-26", draws[2],
                                           "a fifth W5 drawn: the wall holds four")


def test_a_turn_the_record_skips_and_a_claim_out_of_order_are_reported() -> None:
    draw = line_of("Player 1 Draw")
    match_id, line, said = problem_of(changed(draw, "Player 2 Draw B5"))
    assert (match_id, line) == ("seed-26", draw)
    assert said.startswith("the judge has seat 1 draw next")
    ignore = line_of("Player 3 Peng W8 Ignore")
    match_id, line, said = problem_of(changed(ignore, "Player 3 Peng W8 Ignore Player 2 "
                                                      "Hu W8"))
    assert (match_id, line) == ("seed-24", ignore)
    assert "not a claim seat 2 could make" in said


def test_a_huang_with_tiles_left_and_a_game_that_goes_on_are_reported() -> None:
    hu = line_of("Player 2 Hu B8")
    match_id, _line, said = problem_of(changed(hu, "Huang"))
    assert (match_id == "seed-26" and "the judge expects" in said) or "Huang" in said
    score = line_of("Score")
    edited = "\n".join([*lines()[:score], "Player 3 Draw W1", *lines()[score:]])
    with pytest.raises(HumanFormatError, match=f"line {score + 1}: .*nothing may follow"):
        parse_file(edited)


def test_corrupted_records_are_reported_never_a_crash() -> None:
    """Seeded corruptions of the first match (a word changed, a line dropped, swapped or
    doubled, a stray Ignore clause): each is a format error or a problem, never a crash."""
    rng = random.Random(7)
    first = text().split("\n\n")[0].split("\n")
    reported = 0
    for _ in range(60):
        rows = list(first)
        i = rng.randrange(2, len(rows))
        words = rows[i].split(" ")
        how = rng.randrange(5)
        if how == 0:
            words[rng.randrange(1, len(words))] = rng.choice(["W1", "J3", "0", "Hu", ""])
            rows[i] = " ".join(words)
        elif how == 1:
            del rows[i]
        elif how == 2:
            rows[i - 1], rows[i] = rows[i], rows[i - 1]
        elif how == 3:
            rows.insert(i, rows[i])
        else:
            rows[i] += f" Ignore Player {rng.randrange(4)} Peng {rng.choice(['W1', 'B8'])}"
        try:
            (match,) = parse_file("\n".join(rows))
        except HumanFormatError:
            reported += 1
            continue
        reported += judge_match(match).problem is not None or rows == first
    assert reported == 60


# --- training arrays --------------------------------------------------------------------

def test_every_decision_becomes_a_row_whose_action_its_mask_allows() -> None:
    found = list(blocks(text()))
    whole = arrays([convert_blocks(found, 0, "default")])
    split = arrays([convert_blocks(found[:1], 0, "default"),
                    convert_blocks(found[1:], 1, "default")])
    for key in whole:
        assert np.array_equal(whole[key], split[key])
    rows = len(whole["action"])
    assert whole["obs"].shape == (rows, 11, 34) and whole["mask"].shape == (rows, 235)
    assert whole["mask"][np.arange(rows), whole["action"]].all()
    assert sorted(set(whole["match"].tolist())) == [0, 1, 2, 3]
    draws = sum(1 for m in parse_file(text()) for a in m.actions if a.kind == "Draw")
    assert rows > draws  # every draw decides, and so do the claims
    course = arrays([convert_blocks(found, 0, "course")])
    assert course["obs"].shape == (rows, 6, 4, 9)
    assert np.array_equal(course["action"], whole["action"])


def test_a_match_the_judge_disagrees_with_gives_no_rows_and_is_said() -> None:
    score = line_of("Score")
    found = list(blocks(changed(score, "Score 0 0 0 0")))
    chunk = convert_blocks(found, 0, "default")
    assert set(chunk.matches) == {1, 2, 3}
    assert chunk.problems == [f"match seed-26, line {score}: Score: recorded 0 0 0 0, the "
                              "judge scores -8 -24 40 -8"]


# --- any Botzone game written in the format ---------------------------------------------

def test_the_games_of_a_folder_are_written_and_read_back_the_same(tmp_path: Path) -> None:
    """Game records as ``server match`` leaves them (``games/NNN/game.json``) and an
    environment's ``write_log``: written, read back, judged, the same games."""
    folder = tmp_path / "match" / "games"
    for k, seed in enumerate(SEEDS[:2], start=1):
        (folder / f"{k:03d}").mkdir(parents=True)
        (folder / f"{k:03d}" / "game.json").write_text(json.dumps(play(seed)),
                                                       encoding="utf-8")
    (tmp_path / "match" / "match.json").write_text(
        json.dumps({"ruleset": "botzone", "players": [], "plan": []}), encoding="utf-8")
    game = env(variant="classic")
    rng = random.Random(3)
    tiles = standard_tiles("duplicate")
    rng.shuffle(tiles)
    game.reset(seed=3, options={"initdata": {"walltiles": " ".join(tiles), "quan": 1}})
    for _ in game.agent_iter():
        obs, _, done, cut, _ = game.last()
        game.step(None if done or cut else
                  int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    log = game.unwrapped.write_log(tmp_path / "selfplay.json")
    found = list(game_records([tmp_path / "match", log]))
    assert [name for name, _ in found] == ["match/games/001", "match/games/002", "selfplay"]
    matches = [to_match(record, name) for name, record in found]
    assert all(m is not None for m in matches)
    written = format_file([m for m in matches if m is not None])
    assert written.split("\n\n")[0].replace("Match match/games/001", "Match seed-26") == \
        text().split("\n\n")[0]
    for (name, record), match in zip(found, parse_file(written), strict=True):
        judged = judge_match(match)
        assert judged.problem is None, (name, judged.problem)
        assert judged.record["scores"] == record["scores"]
        assert format_file([to_match(judged.record, name)]) == format_file([match])  # type: ignore[list-item]


def test_games_judged_on_botzone_are_written_and_read_back_the_same() -> None:
    written = 0
    for path in botzone_games():
        record = json.loads(path.read_text(encoding="utf-8"))
        match = to_match(record, path.stem)
        if match is None:
            continue
        written += 1
        assert parse_file(format_file([match])) == [match]
        assert len(match.deals) == 4 and all(len(tiles) == 13 for _, tiles in match.deals)
    assert written >= 10


# --- the commands -----------------------------------------------------------------------

def test_verify_and_replay_read_a_file_of_human_records(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert RULESET.owns(DATA)
    report = verify_file(DATA)
    assert report.ok and report.checked == [f"seed-{s}" for s in SEEDS]
    args: dict[str, Any] = {"path": DATA, "match_id": "seed-26", "at": None, "codes": True,
                            "html_out": None}
    assert RULESET.replay(CommandArgs(args)) == 0
    shown = capsys.readouterr().out
    assert "BUGANG" in shown or "B8" in shown
    page = tmp_path / "seed-26.html"
    assert RULESET.replay(CommandArgs({**args, "html_out": page})) == 0
    assert "Human match seed-26" in page.read_text(encoding="utf-8")
    with pytest.raises(InputError, match="no match 'nope'"):
        RULESET.replay(CommandArgs({**args, "match_id": "nope"}))
    with pytest.raises(InputError, match="several matches: say which with --match"):
        RULESET.replay(CommandArgs({**args, "match_id": None}))
    binary = tmp_path / "bad.txt"
    binary.write_bytes(b"Match 1\n\xff\xfe\n")
    with pytest.raises(InputError, match="not UTF-8 text"):
        verify_file(binary)


def test_server_verify_convert_and_write_end_to_end(tmp_path: Path) -> None:
    """The commands as a user runs them: a corrupted file is reported at its line with
    exit 1 and no traceback; convert with two jobs; write a folder of games."""
    bad = tmp_path / "bad.txt"
    score = line_of("Score")
    bad.write_text(changed(score, "Score 1 2 3 4"), encoding="utf-8")
    run = subprocess.run([*SERVER, "verify", str(bad)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 1, run.stderr
    assert f"match seed-26, line {score}: Score: recorded 1 2 3 4" in run.stdout
    assert "checked 4 item(s): 1 disagreement(s)" in run.stdout
    assert "Traceback" not in run.stderr
    out = tmp_path / "arrays.npz"
    run = subprocess.run([*SERVER, "human", "convert", str(DATA), "--out", str(out),
                          "--jobs", "2"], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "of 4 match(es) (0 skipped)" in run.stderr
    with np.load(out) as data:
        assert list(data["match_id"]) == [f"seed-{s}" for s in SEEDS]
    games = tmp_path / "games" / "001"
    games.mkdir(parents=True)
    (games / "game.json").write_text(json.dumps(play(26)), encoding="utf-8")
    written = tmp_path / "written.txt"
    run = subprocess.run([*SERVER, "human", "write", str(tmp_path / "games"), "--out",
                          str(written)], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert written.read_text(encoding="utf-8").startswith("Match games/001\nWind 2\n")
    run = subprocess.run([*SERVER, "verify", str(tmp_path / "nothing.txt")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0 and "Traceback" not in run.stderr


def test_convert_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    args = {"action": "convert", "path": DATA, "out": tmp_path / "a.npz", "encoder": "default",
            "jobs": 2, "cluster": "local"}
    with pytest.raises(InputError, match="--jobs and --cluster: give one"):
        RULESET.human(CommandArgs(args, frozenset({"jobs", "cluster"})))
    with pytest.raises(InputError, match="--encoder pixels: one of default, course"):
        RULESET.human(CommandArgs({**args, "encoder": "pixels", "cluster": None}))
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InputError, match="no match in the file"):
        RULESET.human(CommandArgs({**args, "path": empty, "cluster": None}))
    assert not (tmp_path / "a.npz").exists()
