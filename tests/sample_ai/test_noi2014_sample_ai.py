"""The NOI 2014 sample AIs (``sample_ai/noi2014``) as a contestant's program runs: real
processes fed crafted histories, every answer checked with the engine's own readers
(``read_draw_reply``, ``read_claim``, ``check_target``); the C++ sample is built once
per session (skipped without g++). Whole games are played in-process with the engine,
the Python bots' decision functions answering, and with the C++ bot as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from rulesets.noi2014.engine import PLAYERS, Game, Meld, read_claim, read_draw_reply
from rulesets.noi2014.hands import check_target, distance
from rulesets.noi2014.tiles import shuffled_wall
from sample_ai.noi2014 import greedy_bot, random_bot
from server.seam.contract import Reply
from tests.server.bots.test_hostile import no_leftovers  # noqa: F401  (autouse: nothing left running)
from tests.system_tools import need

SAMPLES = Path(__file__).resolve().parents[2] / "sample_ai" / "noi2014"
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
PY = ("random", "greedy")

READY = "B1 B2 B3 B4 B5 B6 T7 T8 T9 W1 W1 W5 W6"  # waits on W4 or W7
LOOSE = "B1 B4 B7 T2 T5 T8 W1 W3 W6 W9 B9 T9 W5"  # nothing near a win
OPEN = ["0 0", "1 " + READY]


@pytest.fixture(scope="session")
def plain_bot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C++ sample, built as the README says (with -Wall: no warnings allowed)."""
    need("g++")
    out = tmp_path_factory.mktemp("plain") / "plain_bot"
    built = subprocess.run(["g++", "-O2", "-std=c++17", "-Wall", "-o", str(out),
                            str(SAMPLES / "plain_bot.cpp")],
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    assert built.stderr == "", f"warnings: {built.stderr}"
    return out


@pytest.fixture(params=["random", "greedy", "cpp"])
def bot(request: pytest.FixtureRequest) -> list[str]:
    """Each sample's command line."""
    if request.param == "cpp":
        return [str(request.getfixturevalue("plain_bot"))]
    return [sys.executable, str(SAMPLES / f"{request.param}_bot.py")]


@pytest.fixture(params=PY)
def py_bot(request: pytest.FixtureRequest) -> list[str]:
    return [sys.executable, str(SAMPLES / f"{request.param}_bot.py")]


def line(requests: Sequence[str], responses: Sequence[str], data: str = "") -> str:
    return json.dumps({"requests": list(requests), "responses": list(responses), "data": data,
                       "time_limit": "1000", "memory_limit": "256"}) + "\n"


def ask(cmd: Sequence[str], requests: Sequence[str], responses: Sequence[str] | None = None,
        data: str = "") -> dict[str, Any]:
    """One turn of a restarted bot: its output object."""
    if responses is None:
        responses = ["PASS"] * (len(requests) - 1)
    run = subprocess.run(list(cmd), input=line(requests, responses, data), capture_output=True,
                         text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    out = run.stdout.splitlines()
    assert len(out) == 1, run.stdout
    answer = json.loads(out[0])
    assert isinstance(answer["response"], str)
    return dict(answer)


def said(cmd: Sequence[str], requests: Sequence[str], responses: Sequence[str] | None = None
         ) -> str:
    return str(ask(cmd, requests, responses)["response"])


# --- PASS where only PASS is allowed ------------------------------------------------------


@pytest.mark.parametrize("request_", ["0 2", "1 " + READY, "3 1 PENG W1", "3 1 GANG B9",
                                      "3 3 HU SELF", "3 2 HU W4"])
def test_each_bot_answers_pass_where_only_pass_is_allowed(bot, request_):
    requests = ["0 2", "1 " + READY, request_][:{"0": 1, "1": 2}.get(request_[0], 3)]
    assert requests[-1] == request_
    assert said(bot, requests) == "PASS"


# --- a draw ----------------------------------------------------------------------------------


def test_each_bot_plays_a_held_tile_on_a_draw(bot):
    for seed in range(3):
        wall = shuffled_wall(seed)
        hand, drawn = wall[:13], wall[13]
        answer = said(bot, ["0 1", "1 " + " ".join(hand), "2 " + drawn])
        held = Counter(hand) + Counter([drawn])
        action = read_draw_reply(answer, held, [])
        assert not isinstance(action, str), (answer, action)


def test_each_bot_follows_its_own_discards_through_later_draws(bot):
    """After earlier draws and discards it still plays only what it holds."""
    requests = ["0 0", "1 " + LOOSE, "2 W7", "3 1 PLAY B2", "2 T3"]
    first = said(bot, requests[:3])
    assert first.startswith("PLAY ")
    answer = said(bot, requests, ["PASS", "PASS", first, "PASS"])
    held = Counter(LOOSE.split()) + Counter(["W7", "T3"]) - Counter([first.split()[1]])
    assert read_draw_reply(answer, held, []) == ("PLAY", answer.split()[1])


def test_each_bot_declares_a_win_when_the_draw_completes_its_hand(bot):
    assert said(bot, [*OPEN, "2 W7"]) == "HU"
    assert said(bot, [*OPEN, "2 W4"]) == "HU"


def test_a_bot_that_drew_a_useless_tile_does_not_declare_a_win(bot):
    answer = said(bot, [*OPEN, "2 T1"])
    assert answer != "HU"
    assert read_draw_reply(answer, Counter(READY.split()) + Counter(["T1"]), []) \
        == ("PLAY", answer.split()[1])


def test_the_greedy_bot_discards_the_tile_that_keeps_it_ready():
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")], [*OPEN, "2 T1"])
    assert answer == "PLAY T1"


# --- a discard -----------------------------------------------------------------------------


def test_each_bot_wins_on_a_discard_that_completes_its_hand(bot):
    assert said(bot, [*OPEN, "3 3 PLAY W4"]) == "HU"
    assert said(bot, [*OPEN, "3 1 PLAY W7"]) == "HU"


@pytest.mark.parametrize("tile", ["W9", "W1", "W5", "B2", "T8"])
def test_each_bot_claims_a_discard_only_when_the_claim_is_legal(bot, tile):
    hand = Counter(READY.split())
    for other in ("1", "3"):
        answer = said(bot, [*OPEN, f"3 {other} PLAY {tile}"])
        assert not isinstance(read_claim(answer, tile, hand, 0), str), answer


def test_claims_with_three_of_a_kind_are_legal_pungs_or_kongs(bot):
    deal = "B5 B5 B5 B1 B2 B3 T7 T8 T9 W1 W2 W3 T1"
    hand = Counter(deal.split())
    for k in range(6):  # several histories: the random bot's coin differs
        requests = ["0 0", "1 " + deal, *(["3 2 PLAY W9"] * k), "3 2 PLAY B5"]
        answer = said(bot, requests)
        claim = read_claim(answer, "B5", hand, 0)
        assert not isinstance(claim, str), answer
        if claim is not None and claim[0] == "PENG":
            assert claim[1] != "B5"


def test_the_greedy_bot_pungs_when_the_pung_brings_it_closer_to_a_win():
    deal = "B5 B5 B1 B2 B3 T7 T8 T9 W1 W2 W3 W9 T1"  # 2 tiles from a win; a pung makes 1
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")],
                  ["0 0", "1 " + deal, "3 3 PLAY B5"])
    assert answer in ("PENG T1", "PENG W9")


def test_the_greedy_bot_passes_a_pung_that_would_break_its_hand():
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")], [*OPEN, "3 3 PLAY W1"])
    assert answer == "PASS"  # W1 W1 is its pair; a pung leaves it no pair and no nearer


# --- the target hand -----------------------------------------------------------------------


def checked(answer: str, melds: Sequence[Meld], current: Counter[str]) -> int:
    """The distance of a target that must be valid."""
    melded: Counter[str] = Counter()
    for meld in melds:
        melded[meld.tile] += meld.size
    check = check_target(answer, melded, len(melds))
    assert check.valid, (answer, check.reason)
    return distance(check.tiles, current + melded)


def test_each_bot_declares_a_valid_target_at_the_end(bot):
    for deal in (READY, LOOSE, "B1 B1 B1 B1 B2 B2 B2 B2 B3 B3 B3 B3 B4"):
        answer = said(bot, ["0 1", "1 " + deal, "4"])
        dist = checked(answer, [], Counter(deal.split()))
        if deal == READY:
            assert dist == 1


def test_each_bot_keeps_its_discards_out_of_its_target(bot):
    requests = ["0 0", "1 " + LOOSE, "2 B2", "3 1 PLAY W1", "2 B3", "4"]
    responses = ["PASS", "PASS", "PLAY W9", "PASS", "PLAY W1"]
    answer = said(bot, requests, responses)
    current = Counter(LOOSE.split()) + Counter(["B2", "B3"]) - Counter(["W9", "W1"])
    checked(answer, [], current)


def test_the_greedy_target_is_at_the_smallest_distance():
    """LOOSE holds four two-tile pieces (B7 B9, T8 T9, W1 W3, W5 W6) and no pair: a
    target keeps them and one more tile, so it needs 5 tiles and drops 4."""
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")], ["0 1", "1 " + LOOSE, "4"])
    assert checked(answer, [], Counter(LOOSE.split())) == 9


def test_the_greedy_and_the_cpp_targets_are_equally_near(plain_bot):
    """The C++ bot searches every target; the greedy bot's program must match it."""
    greedy_cmd = [sys.executable, str(SAMPLES / "greedy_bot.py")]
    for seed in range(4):
        hand = Counter(shuffled_wall(seed, 1)[:13])
        requests = ["0 1", "1 " + " ".join(sorted(hand.elements())), "4"]
        near = [checked(said(cmd, requests), [], hand) for cmd in (greedy_cmd, [str(plain_bot)])]
        assert near[0] == near[1]


def test_the_greedy_target_prefers_the_needed_tile_still_in_play():
    """Ready on W4 or W7: all four W7 were discarded, so W7 would give a small chance
    value while a W4 in some hand at the end gives the largest."""
    plays = ["3 1 PLAY W7", "3 2 PLAY W7", "3 3 PLAY W7", "3 1 PLAY W7"]
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")], [*OPEN, *plays, "4"])
    assert answer == "B1 B2 B3 B4 B5 B6 T7 T8 T9 W1 W1 W4 W5 W6"
    plays = [p.replace("W7", "W4") for p in plays] + plays  # both gone: the later one
    answer = said([sys.executable, str(SAMPLES / "greedy_bot.py")], [*OPEN, *plays, "4"])
    assert answer == "B1 B2 B3 B4 B5 B6 T7 T8 T9 W1 W1 W5 W6 W7"


PUNG_DEAL = "B5 B5 B1 B2 B3 T7 T8 T9 W1 W2 W3 W9 T1"


def test_a_python_bot_writes_its_pung_in_lower_case(py_bot):
    requests = ["0 0", "1 " + PUNG_DEAL, "3 3 PLAY B5", "3 1 PLAY W8", "4"]
    responses = ["PASS", "PASS", "PENG T1", "PASS"]
    answer = said(py_bot, requests, responses)
    current = Counter(PUNG_DEAL.split()) - Counter(["B5", "B5", "T1"])
    assert answer.startswith("b5 b5 b5 ")
    assert checked(answer, [Meld("PENG", "B5", "exposed")], current) == 1


def test_a_python_bot_knows_its_pung_failed_when_another_player_won_on_that_tile(py_bot):
    requests = ["0 0", "1 " + PUNG_DEAL, "3 3 PLAY B5", "3 1 HU B5", "2 W8", "4"]
    responses = ["PASS", "PASS", "PENG T1", "PASS", "PLAY T1"]
    answer = said(py_bot, requests, responses)
    current = Counter(PUNG_DEAL.split()) + Counter(["W8"]) - Counter(["T1"])
    assert answer == answer.upper()
    checked(answer, [], current)


@pytest.mark.parametrize("how", ["exposed", "concealed", "added"])
def test_a_python_bot_writes_each_kind_of_kong_in_lower_case(py_bot, how):
    deal = "B5 B5 B5 B1 B2 B3 T7 T8 T9 W1 W2 W3 T1"
    if how == "exposed":
        requests = ["0 0", "1 " + deal, "3 3 PLAY B5", "2 W9", "4"]
        responses = ["PASS", "PASS", "GANG", "PLAY T1"]
        current = Counter(deal.split()) + Counter(["W9"]) - Counter(["B5"] * 3 + ["T1"])
    elif how == "concealed":
        requests = ["0 0", "1 " + deal, "2 B5", "2 W9", "4"]
        responses = ["PASS", "PASS", "GANG B5", "PLAY T1"]
        current = Counter(deal.split()) + Counter(["W9"]) - Counter(["B5"] * 3 + ["T1"])
    else:
        deal = "B5 B5 B9 B1 B2 B3 T7 T8 T9 W1 W2 W3 T1"
        requests = ["0 0", "1 " + deal, "3 3 PLAY B5", "3 1 PLAY W8", "2 B5", "2 W9", "4"]
        responses = ["PASS", "PASS", "PENG T1", "PASS", "GANG B5", "PLAY B9"]
        current = Counter(deal.split()) + Counter(["W9"]) - Counter(
            ["B5", "B5", "T1", "B9"])
    answer = said(py_bot, requests, responses)
    assert answer.startswith("b5 b5 b5 b5 ")
    checked(answer, [Meld("GANG", "B5", how)], current)


# --- data, simple, keep-running, robustness ---------------------------------------------------


def test_the_greedy_bot_carries_its_state_in_data_and_answers_the_same_without_it():
    cmd = [sys.executable, str(SAMPLES / "greedy_bot.py")]
    requests, responses, data = ["0 0"], [], ""
    script = ["1 " + PUNG_DEAL, "3 3 PLAY B5", "3 1 PLAY W8", "2 W7", "3 2 PLAY B9", "4"]
    for request in [*script, None]:
        out = ask(cmd, requests, responses, data)
        assert out["response"] == said(cmd, requests, responses)  # from the history alone
        assert json.loads(out["data"])["n"] == len(requests)
        if request is None:
            break
        responses.append(out["response"])
        data = out["data"]
        requests.append(request)
    assert out["response"].startswith("b5 b5 b5 ")  # it punged, and the data knew
    # The last turn resumes from data: a saved state with another hand shows in the answer.
    saved = json.loads(data)
    saved["view"]["melds"] = []
    saved["view"]["hand"] = dict(Counter(READY.split()))
    answer = ask(cmd, requests, responses, json.dumps(saved))["response"]
    assert answer.startswith("B1 B2 B3 B4 B5 B6 T7 T8 T9 W1 W1 ")
    broken = json.loads(data)
    broken["view"]["melds"] = 5  # fits the history but is no state: rebuilt from it
    for junk in ("not json", "{}", json.dumps({**json.loads(data), "n": 3}), json.dumps(broken)):
        assert ask(cmd, requests, responses, junk)["response"] == out["response"]


def test_the_random_bot_replays_a_game_the_same():
    cmd = [sys.executable, str(SAMPLES / "random_bot.py")]
    requests = ["0 3", "1 " + LOOSE, "2 B2"]
    assert len({said(cmd, requests) for _ in range(3)}) == 1


@pytest.mark.parametrize("name", PY)
def test_simple_interaction(name):
    cmd = [sys.executable, str(SAMPLES / f"{name}_bot.py"), "--simple"]
    text = "\n".join(["3", "0 0", "PASS", "1 " + READY, "PASS", "2 W7", "", ""]) + "\n"
    run = subprocess.run(cmd, input=text, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "HU"


@pytest.mark.parametrize("simple", [False, True])
@pytest.mark.parametrize("name", PY)
def test_keep_running(name, simple):
    cmd = [sys.executable, str(SAMPLES / f"{name}_bot.py"), "--keep-running"]
    if simple:
        cmd.append("--simple")
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdin is not None and proc.stdout is not None

        def answer() -> str:
            assert proc.stdout is not None
            lines = []
            for got in proc.stdout:
                if got.rstrip("\n") == KEEP:
                    break
                lines.append(got.rstrip("\n"))
            else:
                pytest.fail("ended without the keep-running marker")
            return str(lines[0] if simple else json.loads(lines[0])["response"])

        proc.stdin.write("1\n0 0\n\n\n" if simple else line(["0 0"], []))  # data, globaldata
        proc.stdin.flush()
        assert answer() == "PASS"
        for request, expected in [("1 " + READY, "PASS"), ("3 2 PLAY T3", "PASS"),
                                  ("2 W7", "HU")]:
            proc.stdin.write((request if simple else json.dumps(request)) + "\n")
            proc.stdin.flush()
            assert answer() == expected
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("given", ["", "garbage\n", '{"requests": []}\n', "[1, 2]\n",
                                   line(["0 0", "9 Z9"], ["PASS"]),
                                   line(["0 0", "1 " + READY, "2 ZZ"], ["PASS", "PASS"]),
                                   line(["2 W7"], []), line(["4"], [])])
def test_each_bot_survives_unexpected_input(bot, given):
    run = subprocess.run(bot, input=given, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0, run.stderr
    assert isinstance(json.loads(run.stdout.splitlines()[0])["response"], str)


# --- whole games -------------------------------------------------------------------------------

Decide = Callable[[list[str], list[str], str], tuple[str, str]]


def greedy(requests: list[str], responses: list[str], data: str) -> tuple[str, str]:
    return greedy_bot.decide(requests, responses, data)


def rand(requests: list[str], responses: list[str], data: str) -> tuple[str, str]:
    return random_bot.respond(requests, responses), ""


def process(cmd: Sequence[str]) -> Decide:
    def decide(requests: list[str], responses: list[str], data: str) -> tuple[str, str]:
        out = ask(cmd, requests, responses, data)
        return str(out["response"]), str(out.get("data", ""))
    return decide


def play(seed: int, players: Sequence[Decide]) -> Game:
    """One game of the engine, each seat answered from its own history."""
    game = Game(shuffled_wall(seed))
    histories: list[tuple[list[str], list[str]]] = [([], []) for _ in range(PLAYERS)]
    data = [""] * PLAYERS
    while not game.finished:
        replies = []
        for seat, request in enumerate(game.requests()):
            if request is None:
                replies.append(Reply("OK", None))
                continue
            requests, responses = histories[seat]
            requests.append(request)
            answer, data[seat] = players[seat](requests, responses, data[seat])
            responses.append(answer)
            replies.append(Reply("OK", answer))
        game.step(replies)
    return game


def duel(seeds: range) -> dict[str, float]:
    """Average points per game of 2 greedy and 2 random bots, seats rotated."""
    points = {"greedy": 0.0, "random": 0.0}
    for seed in seeds:
        names = ["greedy", "random", "greedy", "random"]
        names = names[seed % 4:] + names[:seed % 4]
        game = play(seed, [greedy if n == "greedy" else rand for n in names])
        result = game.result
        assert result is not None and not result.faulted, game.faults
        assert all(row.valid for row in result.remaining.values())
        for seat, name in enumerate(names):
            points[name] += result.points[seat]
    return {name: total / (2 * len(seeds)) for name, total in points.items()}


def test_greedy_beats_random_without_a_fault():
    average = duel(range(6))
    assert average["greedy"] > 3.0 > 2.0 > average["random"]


@pytest.mark.slow
def test_greedy_beats_random_by_a_wide_margin_over_many_games():
    average = duel(range(100, 140))
    assert average["greedy"] > 3.2 and average["random"] < 1.8


def test_the_cpp_bot_plays_whole_games_without_a_fault(plain_bot):
    for seed in range(2):
        players: list[Decide] = [greedy, rand, rand, rand]
        players[seed] = process([str(plain_bot)])
        game = play(seed, players)
        assert game.result is not None and not game.result.faulted, game.faults
        assert all(row.valid for row in game.result.remaining.values())
