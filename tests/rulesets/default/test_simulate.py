"""``server simulate``: in-process hands with Python bots, summarised as one JSON line.

The command runs in a subprocess, exactly as a user types it; a few tests call
``rulesets.default.engine.simulate`` directly, where that is quicker to check.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from rulesets.default.engine.hand import Event
from rulesets.default.engine.simulate import (
    BotSpecError,
    Played,
    check_specs,
    play_hands,
    resolve_bot,
    simulate,
)
from tests.signals import ctrl_c_works

ROOT = Path(__file__).resolve().parents[3]
BOTS = "random,random,greedy,greedy"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from server.cli.app import main; main()", "simulate", *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )


def simulate_json(*args: str) -> dict[str, Any]:
    done = run_cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    summary: dict[str, Any] = json.loads(lines[0])
    return summary


def without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("seconds", "hands_per_second")}


def test_json_output_has_exactly_the_keys_the_issue_specifies() -> None:
    summary = simulate_json("--bots", BOTS, "--hands", "8", "--seed", "3")
    assert list(summary) == ["hands", "seconds", "hands_per_second", "draws", "wins",
                             "players"]
    assert summary["hands"] == 8
    assert isinstance(summary["seconds"], float) and summary["seconds"] > 0
    assert isinstance(summary["hands_per_second"], float) and summary["hands_per_second"] > 0
    assert list(summary["wins"]) == ["self_drawn", "discard", "robbed_kong"]
    assert summary["draws"] + sum(summary["wins"].values()) == 8
    assert [p["bot"] for p in summary["players"]] == ["random", "random", "greedy", "greedy"]
    assert [p["player"] for p in summary["players"]] == ["P0", "P1", "P2", "P3"]  # as a match
    for player in summary["players"]:
        assert list(player) == ["player", "bot", "points", "wins", "illegal"]
        assert all(isinstance(player[k], int) for k in ("points", "wins", "illegal"))
    assert sum(p["wins"] for p in summary["players"]) == sum(summary["wins"].values())
    assert sum(p["points"] for p in summary["players"]) == 0
    assert all(p["illegal"] == 0 for p in summary["players"])


def test_the_same_seed_gives_the_same_result_and_another_seed_another() -> None:
    args = ("--bots", BOTS, "--hands", "8")
    first = simulate_json(*args, "--seed", "11")
    again = simulate_json(*args, "--seed", "11")
    other = simulate_json(*args, "--seed", "12")
    assert without_timing(first) == without_timing(again)
    assert without_timing(first) != without_timing(other)


def test_bots_named_as_module_and_class_resolve() -> None:
    spec = "sample_ai.random_bot:RandomBot"
    named = simulate_json("--bots", ",".join([spec] * 4), "--hands", "4", "--seed", "5")
    short = simulate_json("--bots", "random,random,random,random", "--hands", "4",
                          "--seed", "5")
    assert [p["bot"] for p in named["players"]] == [spec] * 4
    strip = [{k: v for k, v in p.items() if k != "bot"} for p in named["players"]]
    assert strip == [{k: v for k, v in p.items() if k != "bot"} for p in short["players"]]


@pytest.mark.parametrize(("bots", "message"), [
    ("random,random,nosuchbot,greedy", "unknown bot 'nosuchbot'"),
    ("random,random,greedy,no_such_module:Bot", "cannot import 'no_such_module'"),
    ("random,random,greedy,sample_ai.random_bot:NoSuchBot", "has no class 'NoSuchBot'"),
    ("random,random,greedy", "need 4 bots, got 3"),
])
def test_an_unknown_bot_exits_with_status_2_and_says_which(bots: str, message: str) -> None:
    done = run_cli("--bots", bots, "--hands", "2", "--json")
    assert done.returncode == 2
    assert message in " ".join(done.stderr.split())  # the console may wrap the line
    assert done.stdout == ""
    assert "Traceback" not in done.stderr


def test_resolve_bot_names_the_known_bots_when_it_fails() -> None:
    with pytest.raises(BotSpecError, match="random, greedy, or module:Class"):
        resolve_bot("nosuchbot")
    with pytest.raises(BotSpecError, match="no receive"):
        resolve_bot("json:JSONDecoder")


def test_players_rotate_one_seat_every_hand() -> None:
    """In hand h, seat s is played by player (s + h) mod 4: points follow the players."""
    deltas: list[tuple[int, ...]] = []
    summary = simulate(["random", "greedy", "random", "greedy"], 6, seed=9,
                       on_hand=lambda h, played: deltas.append(played.result.deltas))
    assert len(deltas) == 6
    for player in range(4):
        expected = sum(d[(player - h) % 4] for h, d in enumerate(deltas))
        assert summary.players[player].points == expected
    assert summary.draws + sum(summary.wins.values()) == 6


def test_a_kong_owners_pass_read_once_its_replacement_draw_is_due_is_never_illegal() -> None:
    """The simulator hears seats in order, so the owner of an added kong at seat 3 is
    heard after the three that may rob it: its stray ``pass`` (as real bots send) then
    comes when its replacement draw is due. It is chatter there, as in a match."""
    races = 0

    def count(h: int, played: Played) -> None:
        nonlocal races
        events = played.hand.events
        races += sum(1 for e, after in itertools.pairwise(events)
                     if e.kind == "jgang" and e.seat == 3 and after == Event("pick", 3,
                                                                             after.tile))

    summary = simulate(["tests.bots.kong_racer:KongRacer"] * 4, 40, seed=11, on_hand=count)
    assert [p.illegal for p in summary.players] == [0, 0, 0, 0]
    assert races >= 5, races


def test_a_bot_that_raises_is_faulted_and_the_simulation_goes_on() -> None:
    """A student's in-process bot with a bug costs it the hand, not the whole run."""
    summary = simulate(["tests.sim_bots:Crasher", "random", "random", "random"], 6, seed=2)
    assert summary.hands == 6 and not summary.interrupted
    crasher = summary.players[0]
    assert crasher.crashes == 6  # it raises once in every hand, and is played from there
    assert "ZeroDivisionError: the bug of a student's bot" in crasher.first_error
    assert "Traceback" in crasher.first_error
    assert all(p.crashes == 0 for p in summary.players[1:])
    assert sum(p.points for p in summary.players) == 0


def test_the_command_names_the_bot_that_raised_and_shows_its_traceback() -> None:
    done = run_cli("--bots", "tests.sim_bots:Crasher,random,random,random", "--hands", "3",
                   "--seed", "2")
    assert done.returncode == 0, done.stderr
    assert "P0 (tests.sim_bots:Crasher) raised an exception in 3 hand(s)" in \
        " ".join(done.stderr.split())
    assert "ZeroDivisionError: the bug of a student's bot" in done.stderr
    assert "crashed" in done.stdout  # a column of the table, shown only when needed


def test_a_bot_whose_constructor_raises_is_faulted_every_hand() -> None:
    summary = simulate(["random", "tests.sim_bots:Unbuildable", "random", "random"], 4, seed=2)
    assert summary.hands == 4
    assert summary.players[1].crashes == 4
    assert "RuntimeError: cannot find my model file" in summary.players[1].first_error


def test_a_bot_that_raises_never_gets_the_other_seats_faulted() -> None:
    """The crashed seat's autoplay prompts the others: they are asked before anyone is
    called silent (they were faulted for "no answer" to a prompt never delivered)."""
    summary = simulate(["tests.sim_bots:Unbuildable", "random", "random", "random"], 40, seed=1)
    assert summary.players[0].crashes == 40
    assert [p.illegal for p in summary.players] == [0, 0, 0, 0]
    assert [p.crashes for p in summary.players[1:]] == [0, 0, 0]


@pytest.mark.parametrize("json_out", [False, True])
def test_ctrl_c_prints_what_was_played_and_exits_130(tmp_path: Path, json_out: bool) -> None:
    marker = tmp_path / "started"
    argv = [sys.executable, "-c", "from server.cli.app import main; main()", "simulate",
            "--bots", ",".join(["tests.sim_bots:Announcer"] * 4), "--hands", "1000000",
            *(["--json"] if json_out else [])]
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**os.environ, "SIM_STARTED": str(marker)},
                            preexec_fn=ctrl_c_works)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # until a hand has been played
            if marker.exists() and marker.stat().st_size >= 8:
                break
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 130, err
    assert "interrupted after" in err and "Traceback" not in err
    if json_out:
        summary = json.loads(out)
        assert 0 < summary["hands"] < 1000000
        assert summary["draws"] + sum(summary["wins"].values()) == summary["hands"]
    else:
        assert "hands, seed 0" in out and "draws" in out


# --- a student's bot in their own folder ------------------------------------------------------

MY_BOT = """\
from sample_ai.greedy import GreedyBot


class MyBot(GreedyBot):
    name = "mybot"
"""


def server_command() -> list[str]:
    """``server`` as a person runs it: the venv's script, which (unlike ``python -c``)
    does not put the current folder on the module path."""
    script = Path(sys.executable).parent / "server"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-P", "-c", "from server.cli.app import main; main()"]


def run_in(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*server_command(), "simulate", *args], cwd=folder,
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "COLUMNS": "200"})


@pytest.mark.parametrize("spec", ["mybot:MyBot", "bots/mybot.py:MyBot", "{abs}:MyBot"],
                         ids=["module", "relative-file", "absolute-file"])
def test_a_students_bot_is_found_in_the_current_folder_or_by_path(
        tmp_path: Path, spec: str) -> None:
    """``mybot:MyBot`` as ``python -m`` would find it; ``path/to/bot.py:MyBot`` too."""
    folder = tmp_path / "bots" if spec.startswith("mybot") else tmp_path
    bot = tmp_path / "bots" / "mybot.py"
    bot.parent.mkdir()
    bot.write_text(MY_BOT)
    spec = spec.format(abs=bot)
    done = run_in(folder, "--bots", f"{spec},random,random,greedy", "--hands", "4", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["players"][0]["bot"] == spec and summary["hands"] == 4
    assert summary["players"][0]["illegal"] == 0


@pytest.mark.parametrize(("text", "spec", "message"), [
    (MY_BOT, "nosuch.py:MyBot", "bot 'nosuch.py:MyBot': no file nosuch.py"),
    (MY_BOT, "mybot.py:Other", "bot 'mybot.py:Other': 'mybot.py' has no class 'Other'"),
    (MY_BOT, "mybot.py", "unknown bot 'mybot.py': use one of random, greedy, or module:Class"),
    (MY_BOT, "nosuch:MyBot", "bot 'nosuch:MyBot': cannot import 'nosuch' (No module named "
                             "'nosuch'; looked in {folder} and on the Python path)"),
    ("def broken(:\n", "mybot.py:MyBot", "bot 'mybot.py:MyBot': loading mybot.py failed: "
                                         "SyntaxError: "),
    ("import no_such_thing\n", "mybot:MyBot", "bot 'mybot:MyBot': cannot import 'mybot' (No "
                                              "module named 'no_such_thing'"),
    ("import sys\nsys.exit(1)\n", "mybot.py:MyBot", "it called sys.exit while being imported"),
    ("raise ValueError('oops')\n", "mybot:MyBot", "importing 'mybot' failed: ValueError: oops"),
], ids=["no-file", "no-class", "no-class-named", "no-module", "syntax-error", "import-error",
        "sys-exit", "raises"])
def test_a_bad_bot_spec_exits_2_with_one_clear_line(
        tmp_path: Path, text: str, spec: str, message: str) -> None:
    (tmp_path / "mybot.py").write_text(text)
    done = run_in(tmp_path, "--bots", f"{spec},random,random,greedy", "--hands", "2")
    assert done.returncode == 2
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("error: ") and message.format(folder=tmp_path) in line


def test_players_are_named_p0_to_p3_as_in_a_match() -> None:
    """The table, like a match's, names the players by argument order from P0."""
    done = run_cli("--bots", BOTS, "--hands", "4", "--seed", "3")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()]
    names = [row[1] for row in rows if len(row) > 2 and row[1].startswith("P")]
    assert names == ["P0", "P1", "P2", "P3"], done.stdout


def _hands_digest(specs: list[str], hands: range, seed: int) -> tuple[list[tuple[int, ...]], str]:
    """Each hand's points by player, and a SHA-256 of every hand's events, inputs and
    points: all that a speed-up of the engine, the sample bots or ``scoring`` must keep."""
    digest = hashlib.sha256()
    points = []
    for played, record in play_hands(check_specs(specs), seed, hands):
        hand = played.hand
        digest.update(repr((hand.events, hand.inputs, played.result.deltas)).encode())
        points.append(record.points)
    return points, digest.hexdigest()


def test_simulated_hands_are_pinned_random_bots() -> None:
    """Hands 216-231 of four random bots, seed 2024 (223 is the only win of the first
    2,000), play exactly as they did before the speed-ups (bench/same_results.py
    checks the 2,000 hands and 300 mixed ones)."""
    points, digest = _hands_digest(["random"] * 4, range(216, 232), 2024)
    assert [p for p in points if any(p)] == [(-4, -4, 42, -34)]
    assert digest == "e44f437478b8cbf41c9e0e59dea7dc1f6839288829dff9c7112ce37bf6ad1e5f"


def test_simulated_hands_are_pinned_greedy_and_random() -> None:
    points, digest = _hands_digest(["greedy", "random", "greedy", "random"], range(6), 2024)
    assert points == [(24, -8, -8, -8), (-4, -8, 16, -4), (15, -5, -5, -5),
                      (-7, -4, 15, -4), (-4, -4, 15, -7), (14, -6, -4, -4)]
    assert digest == "05cc795ed392a3496c0d45b4787d312c7ed06cca9a0752dc1b405a4f14c0d258"


def test_the_compiled_copy_of_the_sample_bots_is_looked_for_beside_sample_ai() -> None:
    # Compiled, simulate's own __file__ names the build's shared library (in protocol/),
    # so a path derived from it missed the copy and the sample bots ran plain.
    import sample_ai
    from rulesets.default.engine import simulate

    assert Path(str(sample_ai.__file__)).resolve().parents[1] == simulate._CHECKOUT
    assert (simulate._CHECKOUT / "sample_ai" / "random_bot.py").is_file()
