"""`server replay`, `server verify` and `server report` on written and legacy logs.

The shared matches are real ``server`` processes; the tools read them through the command
line's entry point in this process (``tests.server.cli.inprocess``: a process each cost a
second of start-up), and verify once as a real process too."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.datadir import legacy_logs
from tests.server.cli.inprocess import server_here

SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
BOTS = ["sample_ai/greedy.py", "sample_ai/greedy.py", "sample_ai/random_bot.py",
        "sample_ai/random_bot.py"]


# Hands in each shared match: the tests read the first five, and verify reads each one
# (six: the fifth, the first with the players in other seats, and one after it; a 16-hand
# group, read the same way, showed nothing more).
HANDS = 6


def server_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], capture_output=True, text=True, timeout=300)


def server(*args: str) -> subprocess.CompletedProcess[str]:
    """A tool's command line, in this process (a match: ``server_process``)."""
    return server_here(*args)


@pytest.fixture(scope="module")
def match_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One short match written with -d, shared by the tests here (read-only)."""
    logs = tmp_path_factory.mktemp("logs")
    run = server_process(*BOTS, "-d", "--seed", "5", "--hands", str(HANDS), "--log-dir",
                         str(logs))
    assert run.returncode == 0, run.stderr
    (folder,) = logs.iterdir()
    return folder


@pytest.fixture
def copy_of(match_dir: Path, tmp_path: Path) -> Path:
    target = tmp_path / match_dir.name
    shutil.copytree(match_dir, target)
    return target


def hands(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir())


def test_verify_accepts_an_untouched_match(match_dir: Path) -> None:
    run = server_process("verify", str(match_dir))
    assert run.returncode == 0, run.stdout
    assert "all agree" in run.stdout
    assert f"checked {HANDS + 1} item(s)" in run.stdout  # the hands and the scoresheet


def test_verify_accepts_one_hand_folder(match_dir: Path) -> None:
    run = server("verify", str(hands(match_dir)[0]))
    assert run.returncode == 0, run.stdout


def test_verify_catches_a_single_changed_tile(copy_of: Path) -> None:
    game_log = hands(copy_of)[2] / "game.log"
    lines = game_log.read_text().split("\n")
    lines[7] = lines[7].replace(lines[7].split(" ")[0], "9M" if lines[7][:2] != "9M" else "1M",
                                1)
    game_log.write_text("\n".join(lines))
    run = server("verify", str(copy_of))
    assert run.returncode == 1
    assert f"{game_log}:8" in run.stdout.replace("\n", "")


def test_verify_catches_a_changed_tile_in_the_structured_events(copy_of: Path) -> None:
    events = hands(copy_of)[1] / "events.jsonl"
    rows = events.read_text().splitlines()
    i = next(i for i, r in enumerate(rows) if '"kind": "out"' in r)
    row = json.loads(rows[i])
    row["tile"] = "1M" if row["tile"] != "1M" else "2M"
    rows[i] = json.dumps(row)
    events.write_text("\n".join(rows) + "\n")
    run = server("verify", str(copy_of))
    assert run.returncode == 1
    assert f"events.jsonl:{i + 1}" in run.stdout.replace("\n", "")


def test_verify_catches_a_changed_score(copy_of: Path) -> None:
    sheet = copy_of / "scoresheet.csv"
    rows = sheet.read_text().splitlines()
    cells = rows[3].split(",")
    cells[2] = str(int(cells[2]) + 1)
    rows[3] = ",".join(cells)
    sheet.write_text("\n".join(rows) + "\n")
    run = server("verify", str(copy_of))
    assert run.returncode == 1
    assert "scoresheet.csv:4" in run.stdout.replace("\n", "")


def test_verify_catches_a_missing_event(copy_of: Path) -> None:
    events = hands(copy_of)[0] / "events.jsonl"
    rows = events.read_text().splitlines()
    i = next(i for i, r in enumerate(rows) if '"type": "event"' in r) + 5
    del rows[i]
    events.write_text("\n".join(rows) + "\n")
    run = server("verify", str(copy_of))
    assert run.returncode == 1
    assert f"events.jsonl:{i + 1}" in run.stdout.replace("\n", "")


def test_verify_rescores_legacy_logs_and_lists_differences() -> None:
    for log in legacy_logs():
        run = server("verify", str(log))
        assert run.returncode == 0, run.stdout
        assert "all agree" in run.stdout


def test_replay_shows_a_written_hand_step_by_step(match_dir: Path) -> None:
    run = server("replay", str(hands(match_dir)[0]), "--codes")
    assert run.returncode == 0, run.stderr
    assert "step 0/" in run.stdout and "result" in run.stdout
    assert "discards" in run.stdout


def test_replay_at_a_step_shows_that_table(match_dir: Path) -> None:
    run = server("replay", str(hands(match_dir)[0]), "--at", "3", "--codes")
    assert run.returncode == 0, run.stderr
    assert "step 3/" in run.stdout
    bad = server("replay", str(hands(match_dir)[0]), "--at", "9999")
    assert bad.returncode == 2 and "--at 9999" in bad.stderr


def test_replay_reads_every_legacy_log() -> None:
    for log in legacy_logs():
        run = server("replay", str(log), "--codes")
        assert run.returncode == 0, run.stderr
        assert "winner" in run.stdout


def test_replay_of_a_missing_or_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    run = server("replay", str(tmp_path / "nope.log"))
    assert run.returncode == 2 and "no such file" in run.stderr
    bad = tmp_path / "bad.log"
    bad.write_text("ver 1.0\nnot a title\n")
    run = server("replay", str(bad))
    assert run.returncode == 2 and "line 2" in run.stderr


def test_replaying_a_hand_to_the_same_deterministic_bot_reproduces_its_answers(
        match_dir: Path) -> None:
    hand = hands(match_dir)[0]
    seats = json.loads((hand / "events.jsonl").read_text().splitlines()[0])["seats"]
    seat = next(i for i, s in enumerate(seats) if s["name"] == "sample_ai/greedy.py")
    run = server("replay", str(hand), "--seat", str(seat), "--bot", "sample_ai/greedy.py")
    assert run.returncode == 0, run.stdout
    assert "answers as recorded" in run.stdout


def test_replaying_a_hand_to_another_bot_shows_where_it_differs(match_dir: Path) -> None:
    hand = next(h for h in hands(match_dir)
                if json.loads((h / "events.jsonl").read_text().splitlines()[-1])
                ["result"] != "draw")
    result = json.loads((hand / "events.jsonl").read_text().splitlines()[-1])
    winner = result["winner_seat"]
    run = server("replay", str(hand), "--seat", str(winner), "--bot",
                 "sample_ai/random_bot.py --seed 9")
    assert run.returncode == 1
    assert "differs" in run.stdout


def test_report_refuses_a_folder_that_is_not_a_match(tmp_path: Path) -> None:
    run = server("report", str(tmp_path), "--html", str(tmp_path / "r.html"))
    assert run.returncode == 2 and "not a match folder" in run.stderr


def test_verify_of_events_cut_at_a_line_boundary_says_what_is_missing(copy_of: Path) -> None:
    events = hands(copy_of)[0] / "events.jsonl"
    lines = events.read_text().splitlines(keepends=True)
    events.write_text("".join(lines[:-1]))  # the result line is gone, the rest is whole
    run = server("verify", str(events.parent))
    assert run.returncode == 1
    assert "events.jsonl has no result line" in run.stdout
    assert "()" not in run.stdout


def test_verify_recomputes_fines_from_the_recorded_answer_times(copy_of: Path) -> None:
    events = hands(copy_of)[4] / "events.jsonl"
    rows = events.read_text().splitlines()
    result = json.loads(rows[-1])
    assert result["timings"], "every answer's time and limit is recorded"
    result["timings"][0][1] = result["timings"][0][2] + 250.0  # 2 points late
    rows[-1] = json.dumps(result)
    events.write_text("\n".join(rows) + "\n")
    run = server("verify", str(copy_of))
    assert run.returncode == 1
    assert "the recorded answer times give" in run.stdout


# --- fault fines ---------------------------------------------------------------------------

FAULTY = ["tests/bots/crash_mid_hand.py", "tests/bots/garbage.py", "tests/bots/drawbot.py",
          "tests/bots/illegal_discard.py"]


@pytest.fixture(scope="module")
def faulty_match_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bot that crashes, one that sends garbage and one that discards a tile it does
    not hold, in every hand, with a 2 s hard limit (read-only). (A bot that never joins
    is verified in tests/server/tournament/test_tournament.py, where its wait is shared
    with other tables.)"""
    logs = tmp_path_factory.mktemp("faulty")
    run = server_process(*FAULTY, "-d", "--seed", "5", "--hands", str(HANDS), "--hard-limit", "2",
                 "--log-dir", str(logs))
    assert run.returncode == 0, run.stderr
    (folder,) = logs.iterdir()
    return folder


@pytest.fixture
def faulty_copy(faulty_match_dir: Path, tmp_path: Path) -> Path:
    target = tmp_path / faulty_match_dir.name
    shutil.copytree(faulty_match_dir, target)
    return target


def result_of(hand: Path) -> tuple[list[str], dict]:
    rows = (hand / "events.jsonl").read_text().splitlines()
    return rows, json.loads(rows[-1])


def rewrite_result(hand: Path, rows: list[str], result: dict) -> None:
    rows[-1] = json.dumps(result)
    (hand / "events.jsonl").write_text("\n".join(rows) + "\n")


def test_every_fault_is_fined_on_record_and_verify_recomputes_it(faulty_match_dir: Path) -> None:
    """At a 2 s hard limit a fault costs floor((2000 - 1000 + 50) / 100) = 10 points."""
    for hand in hands(faulty_match_dir):
        header = json.loads((hand / "events.jsonl").read_text().splitlines()[0])
        assert header["hard_limit_ms"] == 2000
        _, result = result_of(hand)
        seats = [s["player"] for s in header["seats"]]
        assert sorted(result["faults"]) == sorted(str(seats.index(p)) for p in (0, 1, 3))
        assert result["fines"] == [0 if seats[s] == 2 else 10 for s in range(4)]
        for seat in result["faults"]:
            assert [int(seat), 2000.0, 1000] in result["timings"]
    summary = json.loads((faulty_match_dir / "match.json").read_text())
    assert [p["fines"] for p in summary["players"]] == [10 * HANDS, 10 * HANDS, 0, 10 * HANDS]
    assert [p["faults"] for p in summary["players"]] == [HANDS, HANDS, 0, HANDS]
    run = server("verify", str(faulty_match_dir))
    assert run.returncode == 0, run.stdout
    assert "all agree" in run.stdout


def test_verify_catches_a_changed_fault_fine(faulty_copy: Path) -> None:
    hand = hands(faulty_copy)[3]
    rows, result = result_of(hand)
    seat = int(next(iter(result["faults"])))
    result["fines"][seat] = 0
    rewrite_result(hand, rows, result)
    run = server("verify", str(faulty_copy))
    assert run.returncode == 1
    assert "the recorded answer times give" in run.stdout


def test_verify_catches_a_fault_whose_fine_was_taken_off_the_record(faulty_copy: Path) -> None:
    """Fines, timings and scoresheet changed together still disagree with the fault."""
    hand = hands(faulty_copy)[5]
    rows, result = result_of(hand)
    seat = int(next(iter(result["faults"])))
    result["timings"] = [t for t in result["timings"] if t != [seat, 2000.0, 1000]]
    result["fines"][seat] = 0
    rewrite_result(hand, rows, result)
    run = server("verify", str(hand))
    assert run.returncode == 1
    assert f"seat {seat}'s fault" in run.stdout
    assert "not fined as an own-turn answer at the hard limit" in run.stdout.replace("\n", " ")


def test_verify_catches_a_hard_limit_changed_in_a_hand(faulty_copy: Path) -> None:
    hand = hands(faulty_copy)[0]
    rows = (hand / "events.jsonl").read_text().splitlines()
    header = json.loads(rows[0])
    header["hard_limit_ms"] = 1000.0  # where a fault would cost nothing
    rows[0] = json.dumps(header)
    (hand / "events.jsonl").write_text("\n".join(rows) + "\n")
    run = server("verify", str(faulty_copy))
    assert run.returncode == 1
    out = run.stdout.replace("\n", " ")
    assert "not fined as an own-turn answer at the hard limit (1000 ms)" in out
    assert "match.json says 2.0 s" in out


def test_verify_accepts_a_match_ended_by_a_fault_with_its_fine(tmp_path: Path) -> None:
    """--on-fault end: the aborted hand keeps the fault's fine, and verify checks it."""
    run = server_process("tests/bots/crash_mid_hand.py", *FAULTY[2:3] * 3, "-d", "--seed", "5",
                 "--on-fault", "end", "--log-dir", str(tmp_path))
    assert run.returncode == 1, run.stderr
    (folder,) = tmp_path.iterdir()
    (hand,) = hands(folder)
    _, result = result_of(hand)
    assert result["result"] == "aborted" and result["fines"] == [40, 0, 0, 0]
    run = server("verify", str(folder))
    assert run.returncode == 0, run.stdout
