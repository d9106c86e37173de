"""The sample bots: scripted transcripts, a real process, and many in-process hands.

Transcripts are written as the server's per-seat transcript files are: ``>``
a line the server sends to the bot, ``<`` the answer expected from it (``< out
*`` accepts any discard). A server line with no ``<`` after it must get no
answer.
"""

from __future__ import annotations

import io
import os
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from protocol.messages import FromAI, Join, MOut, Out, Peng, format_line, parse_to_ai
from protocol.tiles import N_KINDS, Tile, full_set, parse_tiles, tile_counts
from rulesets.default.engine.hand import Expect, Hand, Verdict
from rulesets.default.engine.rng import deal
from sample_ai import BUILTIN_BOTS, Bot, load_bot, run_stdio
from sample_ai.greedy import GreedyBot
from sample_ai.random_bot import RandomBot
from scoring.analysis import shanten, shanten_variants
from scoring.melds import Meld, MeldKind

ROOT = Path(__file__).resolve().parents[2]
BOTH = pytest.mark.parametrize("bot_class", [RandomBot, GreedyBot])


def run_script(bot: Bot, script: str) -> None:
    """Feed the ``>`` lines to ``bot`` and check each answer against the ``<`` line."""
    lines = [line.strip() for line in script.strip().splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if line.startswith("<"):
            continue
        assert line.startswith(">"), f"bad script line {line!r}"
        answer = bot.receive(parse_to_ai(line[1:].strip()))
        expected = lines[i + 1][1:].strip() if i + 1 < len(lines) and \
            lines[i + 1].startswith("<") else None
        got = None if answer is None else format_line(answer)
        if expected == "out *":
            assert isinstance(answer, Out), f"after {line!r}: expected a discard, got {got!r}"
        else:
            assert got == expected, f"after {line!r}: expected {expected!r}, got {got!r}"
    assert bot.fallbacks == 0


def tiles(text: str) -> list[Tile]:
    return sorted(parse_tiles(text))


# --- scripted transcripts ---------------------------------------------------------


@BOTH
def test_self_drawn_win(bot_class: type[Bot]) -> None:
    bot = bot_class(1)
    run_script(bot, """
        > id 2
        > first 2
        > init 1M 2M 3M 4T 5T 6T 7S 8S 9S E E E 5M
        > pick 5M
        < hu
    """)


@BOTH
def test_win_on_a_discard_and_pass_otherwise(bot_class: type[Bot]) -> None:
    bot = bot_class(1)
    run_script(bot, """
        > id 2
        > first 0
        > init 1M 2M 3M 4T 5T 6T 7S 8S 9S E E E 5M
        > mpick 0
        > mout 0 9T
        < pass
        > mpick 1
        > mout 1 5M
        < hu
    """)
    assert bot.table.rivers[0] == [Tile.T9]
    assert bot.table.wall_left == 84 - 2


@pytest.mark.parametrize(("bot_class", "seed"), [(RandomBot, 20), (GreedyBot, 1)])
def test_robbing_a_kong(bot_class: type[Bot], seed: int) -> None:
    """Seat 2 pungs 6M; seat 0 then waits on 3M/6M and robs seat 2's added kong.

    The random bot must throw W after drawing N: seed 20 makes it do so.
    """
    bot = bot_class(seed)
    run_script(bot, """
        > id 0
        > first 1
        > init 4M 5M 2T 3T 4T 7S 8S 9S S S S N W
        > mpick 1
        > mout 1 6M
        < pass
        > mpeng 2 6M
        > mout 2 1T
        < pass
        > mpick 3
        > mout 3 1S
        < pass
        > pick N
        < out W
        > mpick 1
        > mout 1 E
        < pass
        > mpick 2
        > mjgang 2 6M
        < qgang
    """)
    assert bot.table.melds[2] == [Meld(MeldKind.KONG, Tile.M6)]
    assert bot.table.unseen(Tile.M6) == 0


@BOTH
def test_no_rob_without_a_win(bot_class: type[Bot]) -> None:
    bot = bot_class(1)
    run_script(bot, """
        > id 0
        > first 1
        > init 4M 5M 2T 3T 4T 7S 8S 9S S S S N N
        > mpick 1
        > mout 1 E
        < pass
        > mpeng 3 E
        > mout 3 Z
        < pass
        > pick 1S
        < out *
        > mpick 1
        > mout 1 F
        < pass
        > mpick 2
        > mout 2 B
        < pass
        > mpick 3
        > mjgang 3 E
        < pass
        > pick 9T
        < out *
    """)
    assert bot.table.melds[3] == [Meld(MeldKind.KONG, Tile.EAST)]
    assert bot.table.rivers[1] == [Tile.GREEN]  # its E went into the pung
    assert bot.table.rivers[3] == [Tile.RED]


def test_greedy_concealed_kong() -> None:
    bot = GreedyBot(1)
    run_script(bot, """
        > id 0
        > first 0
        > init 1M 1M 1M 2M 3M 4M 5T 6T 7T 9S 9S E E
        > pick 1M
        < agang 1M
        > magang 0
        > pick 5M
        < out *
        > mpick 1
    """)
    assert bot.table.my_melds == [Meld(MeldKind.CONCEALED_KONG, Tile.M1)]
    assert len(bot.table.hand) == 10  # 13 + 1 - 4 + 1 - 1
    assert bot.table.seen[Tile.M1] == 4
    assert bot.table.wall_left == 84 - 3


def test_another_seats_concealed_kong_shows_nothing() -> None:
    bot = RandomBot(1)
    run_script(bot, """
        > id 0
        > first 2
        > init 1M 1M 1M 2M 3M 4M 5T 6T 7T 9S 9S E E
        > mpick 2
        > magang 2
        > mpick 2
        > mout 2 N
        < pass
    """)
    assert bot.table.hidden_kongs == [0, 0, 1, 0]
    assert bot.table.melds[2] == []
    assert sum(bot.table.seen) == 1


def test_greedy_exposed_kong() -> None:
    bot = GreedyBot(1)
    run_script(bot, """
        > id 0
        > first 3
        > init 2M 3M 4M 6T 7T 8T 9S 9S E E E S W
        > mpick 3
        > mout 3 E
        < gang
        > mgang 0 E
        > pick S
        < out W
    """)
    assert bot.table.my_melds == [Meld(MeldKind.KONG, Tile.EAST)]
    assert sorted(bot.table.hand) == tiles("2M 3M 4M 6T 7T 8T 9S 9S S S")
    assert bot.table.rivers[3] == []  # the discard went into the kong
    assert bot.table.seen[Tile.EAST] == 4


def test_greedy_pung_then_added_kong() -> None:
    bot = GreedyBot(1)
    run_script(bot, """
        > id 0
        > first 3
        > init 2M 3M 4M 6T 7T 8T 9S 9S E E N S W
        > mpick 3
        > mout 3 E
        < peng
        > mpeng 0 E
        < out *
        > mpick 1
        > mout 1 1M
        < pass
        > pick E
        < jgang E
        > mjgang 0 E
        > pick 9S
        < out *
    """)
    assert bot.table.my_melds == [Meld(MeldKind.KONG, Tile.EAST)]
    assert Tile.EAST not in bot.table.hand
    assert len(bot.table.hand) == 10
    assert bot.table.seen[Tile.EAST] == 4


def test_lost_chow_changes_nothing() -> None:
    """Seat 1 answers chi, seat 2's pung wins: mpeng, then mfail to seat 1."""
    bot = GreedyBot(1)
    run_script(bot, """
        > id 1
        > first 0
        > init 4M 5M 7T 8T 9T 2S 3S 4S 9S E S W N
        > mpick 0
        > mout 0 3M
        < chi 3M
        > mpeng 2 3M
        > mfail
        > mout 2 E
        < pass
    """)
    assert sorted(bot.table.hand) == tiles("4M 5M 7T 8T 9T 2S 3S 4S 9S E S W N")
    assert bot.table.my_melds == []
    assert bot.table.melds[2] == [Meld(MeldKind.PUNG, Tile.M3)]
    assert bot.table.rivers[0] == []
    assert bot.table.seen[Tile.M3] == 3


def test_chow_confirmed_then_discard() -> None:
    bot = GreedyBot(1)
    run_script(bot, """
        > id 1
        > first 0
        > init 4M 5M 7T 8T 9T 2S 3S 4S 9S E S W N
        > mpick 0
        > mout 0 3M
        < chi 3M
        > mchi 1 3M
        < out *
    """)
    assert bot.table.my_melds == [Meld(MeldKind.CHOW, Tile.M3)]
    assert len(bot.table.hand) == 10
    assert bot.table.seen[Tile.M3] == 1 and bot.table.seen[Tile.M4] == 1


@BOTH
def test_stray_lines_are_ignored(bot_class: type[Bot]) -> None:
    """Our own discard echoed back, an mfail with no chow, a second pass: no answer."""
    bot = bot_class(1)
    run_script(bot, """
        > id 0
        > first 0
        > init 1M 2M 3M 4T 5T 6T 7S 8S 9S E E W N
        > pick S
        < out *
        > mfail
        > mhu 1 0 8
    """)
    hand = list(bot.table.hand)
    last = bot.table.rivers[0][-1]
    assert bot.receive(MOut(0, last)) is None
    assert bot.table.hand == hand and bot.table.rivers[0] == [last]


@BOTH
def test_run_stdio_skips_unknown_lines(bot_class: type[Bot],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    stdin = io.StringIO("id 1\r\nfirst 1\r\nhello world\r\n"
                        "init 1M 2M 3M 4T 5T 6T 7S 8S 9S E E E 5M\r\n"
                        "pick 9M\r\nout 5M\r\n\r\npick 5M\r\n")
    stdout = io.StringIO()
    assert run_stdio(bot_class, [], stdin, stdout) == 0
    lines = stdout.getvalue().splitlines()
    assert lines[0] == "join"
    assert lines[1].startswith("out ")
    assert lines[2] == "hu" or lines[2].startswith("out ")
    assert len(lines) == 3
    err = capsys.readouterr().err
    assert "hello" in err and "out 5M" in err


class _Clumsy(Bot):
    """Raises on its turn, claims what it cannot, answers claims as text."""

    def on_turn(self, drawn: Tile) -> FromAI:
        raise RuntimeError("oops")

    def on_claim(self, seat: int, tile: Tile) -> FromAI:
        return Peng() if tile is Tile.NORTH else "peng"  # type: ignore[return-value]

    def on_discard_after_claim(self) -> Tile:
        return 0  # type: ignore[return-value]


def test_a_failing_decision_is_replaced_by_a_safe_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    bot = _Clumsy(1)
    answers = [bot.receive(parse_to_ai(line)) for line in (
        "id 0", "first 0", "init 1M 1M 1M 2M 3M 4M 5T 6T 7T 9S 9S E E", "pick N",
        "mpick 1", "mout 1 N", "mpick 2", "mout 2 E", "mpeng 0 E")]
    assert [None if a is None else format_line(a) for a in answers] == [
        None, None, None, "out N", None, "pass", None, "peng", "out 1M"]
    assert bot.fallbacks == 2
    err = capsys.readouterr().err
    assert "oops" in err and "'peng' is not legal" in err


def test_load_bot_names() -> None:
    assert load_bot("random") is RandomBot
    assert load_bot("greedy") is GreedyBot
    assert load_bot("sample_ai.greedy:GreedyBot") is GreedyBot
    assert set(BUILTIN_BOTS) == {"random", "greedy"}
    with pytest.raises(ValueError):
        load_bot("sample_ai.greedy")


def test_join_is_the_first_line() -> None:
    assert format_line(GreedyBot().join()) == "join"
    assert GreedyBot().join() == Join()


# --- a real process ---------------------------------------------------------------

TRANSCRIPT = (
    "id 0\r\nfirst 0\r\ninit 1M 1M 1M 2M 3M 4M 5T 6T 7T 9S 9S E E\r\n"
    "pick 1M\r\nmagang 0\r\nbogus line\r\npick 5M\r\n"
    "mpick 1\r\nmout 1 E\r\n"
)


def _run_program(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(args, input=TRANSCRIPT, capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=30, check=False)


def _check_transcript(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "join"
    assert lines[1] == "agang 1M"
    assert lines[2].startswith("out ")
    assert lines[3] == "hu"  # 3M-5M 5T-7T 9S9S EE: the E completes it
    assert len(lines) == 4
    assert "bogus" in done.stderr


def test_greedy_runs_as_a_program_by_path(tmp_path: Path) -> None:
    script = ROOT / "sample_ai" / "greedy.py"
    assert os.access(script, os.X_OK)
    _check_transcript(_run_program([str(script)], tmp_path))


def test_greedy_runs_as_a_module() -> None:
    _check_transcript(_run_program([sys.executable, "-m", "sample_ai.greedy"], ROOT))


def test_random_bot_runs_as_a_program_by_path(tmp_path: Path) -> None:
    script = ROOT / "sample_ai" / "random_bot.py"
    assert os.access(script, os.X_OK)
    done = subprocess.run([str(script), "--seed", "3"], input="id 1\nfirst 0\n"
                          "init 1M 2M 3M 4T 5T 6T 7S 8S 9S E E E 5M\nmpick 0\nmout 0 5M\n",
                          capture_output=True, text=True, cwd=tmp_path, timeout=30,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["join", "hu"]


# --- many hands in-process ----------------------------------------------------------


def _visible(engine: Hand, seat: int) -> list[int]:
    """What ``seat`` can see outside its own concealed hand, from the engine's record."""
    seen = [0] * N_KINDS
    for s in range(4):
        for t in engine.rivers[s]:
            seen[t] += 1
        for meld in engine.melds[s]:
            if s == seat or meld.kind is not MeldKind.CONCEALED_KONG:
                for t in meld.tiles:
                    seen[t] += 1
    return seen


def _check_tables(engine: Hand, bots: Sequence[Bot], answers: dict[int, FromAI]) -> None:
    """Every bot's table agrees with the engine (its own pending discard applied)."""
    for seat, bot in enumerate(bots):
        table = bot.table
        hand = Counter(engine.hands[seat])
        rivers = [list(r) for r in engine.rivers]
        seen = _visible(engine, seat)
        answer = answers.get(seat)
        if isinstance(answer, Out):
            hand[answer.tile] -= 1
            rivers[seat].append(answer.tile)
            seen[answer.tile] += 1
        assert Counter(table.hand) == +hand, f"seat {seat}"
        assert table.rivers == rivers, f"seat {seat}"
        assert table.seen == seen, f"seat {seat}"
        assert table.wall_left == engine.wall_left
        for s in range(4):
            shown = [m for m in engine.melds[s] if s == seat or m.kind is not
                     MeldKind.CONCEALED_KONG]
            assert table.melds[s] == shown, f"seat {seat} sees seat {s}"
            hidden = len(engine.melds[s]) - len(shown)
            assert table.hidden_kongs[s] == hidden


def play(bots: Sequence[Bot], seed: int, index: int, check: bool = True) -> tuple[Hand, int]:
    """One hand in-process; the engine and the number of rejected answers.

    With ``check``, every bot's table is compared with the engine at each step.
    """
    d = deal(seed, index)
    engine = Hand(d.wall, d.first)
    engine.start()
    rejected = 0
    while not engine.finished:
        answers: dict[int, FromAI] = {}
        for seat, message in engine.drain():
            reply = bots[seat].receive(message)
            if reply is not None:
                assert seat not in answers
                answers[seat] = reply
        assert answers, f"stuck: engine waits on {engine.waiting}"
        if check and Expect.ROB not in engine.waiting.values():  # no kong in the balance
            _check_tables(engine, bots, answers)
        for seat, reply in answers.items():
            if engine.finished:
                break
            verdict = engine.answer(seat, reply)
            if verdict.verdict is Verdict.REJECTED:
                rejected += 1
                engine.fault(seat, verdict.reason)
    return engine, rejected


def test_two_hundred_hands_random_and_greedy_never_rejected() -> None:
    lineup: list[type[Bot]] = [GreedyBot, RandomBot, GreedyBot, RandomBot]
    points = Counter[str]()
    kinds = Counter[str]()
    for i in range(200):
        classes = [lineup[(s + i) % 4] for s in range(4)]
        bots = [cls(i * 4 + s) for s, cls in enumerate(classes)]
        engine, rejected = play(bots, 2024, i, check=i % 4 == 0)
        assert rejected == 0, f"hand {i}: {engine.events[-1]}"
        assert all(b.fallbacks == 0 for b in bots)
        assert engine.result is not None
        assert sum(engine.census()) == 136
        if engine.result.winner is not None:
            kinds[classes[engine.result.winner].name] += 1
        for s, cls in enumerate(classes):
            points[cls.name] += engine.result.deltas[s]
    assert points["greedy"] > 0 > points["random"]
    assert kinds["greedy"] > kinds["random"]


def test_greedy_is_deterministic_given_its_seed() -> None:
    def record(seed: int) -> list[str]:
        bots = [GreedyBot(seed + s) for s in range(4)]
        engine, _ = play(bots, 7, 0)
        return [f"{i.seat} {format_line(i.message)}" for i in engine.inputs if i.message]

    assert record(5) == record(5)


def test_shanten_variants_match_shanten() -> None:
    """The greedy bot's fast path gives ``shanten`` of every one-tile change."""
    rng = random.Random(5)
    for _ in range(300):
        n_melds = rng.randint(0, 4)
        wall = full_set()
        rng.shuffle(wall)
        if rng.random() < 0.3:  # flushes and orphan-heavy hands too
            wall = [t for t in wall if t < 9 or t >= 27]
        counts = tile_counts(wall[: 13 - 3 * n_melds + rng.randint(0, 1)])
        held = [t for t in range(N_KINDS) if counts[t]]
        for t, got in zip(held, shanten_variants(counts, n_melds, held, -1), strict=True):
            counts[t] -= 1
            assert got == shanten(counts, n_melds)
            counts[t] += 1
        room = [t for t in range(N_KINDS) if counts[t] < 4]
        for t, got in zip(room, shanten_variants(counts, n_melds, room, 1), strict=True):
            counts[t] += 1
            assert got == shanten(counts, n_melds)
            counts[t] -= 1


GUIDE = Path(__file__).resolve().parents[2] / "sample_ai" / "README.md"


def test_the_guide_says_int_tile_indexes_counts_and_it_does() -> None:
    assert "`self.table.counts()[int(tile)]`" in GUIDE.read_text(encoding="utf-8")
    bot = GreedyBot(1)
    for line in ["id 0", "first 1", "init 1M 1M 9M 1S 9T 9T 9T E E B B B Z"]:
        bot.receive(parse_to_ai(line))
    counts = bot.table.counts()
    assert all(counts[int(tile)] == bot.table.hand.count(tile) for tile in Tile)
    assert [counts[int(t)] for t in (Tile.M1, Tile.T9, Tile.EAST, Tile.WHITE)] == [2, 3, 2, 3]


def test_the_guide_suggests_verbose_on_a_short_match_only() -> None:
    commands = [line for line in GUIDE.read_text(encoding="utf-8").splitlines()
                if line.startswith("server ") and " -v" in line]
    assert commands
    assert all("--groups 1" in line for line in commands), commands


def test_a_sample_bot_starts_without_what_only_mistakes_or_other_tools_need() -> None:
    """Every hand starts four bot processes: their start is most of a match's CPU. The
    fan table, settlement, line framing and the error paths' modules stay unloaded."""
    bot = ROOT / "sample_ai" / "random_bot.py"
    started = subprocess.run([sys.executable, "-X", "importtime", str(bot)],
                             stdin=subprocess.DEVNULL, capture_output=True, text=True,
                             timeout=30, check=True)
    assert started.stdout == "join\n"
    loaded = {line.rsplit("|", 1)[-1].strip() for line in started.stderr.splitlines()}
    assert "sample_ai.framework" in loaded
    assert not loaded & {"scoring.fans", "scoring.settlement", "protocol.framing",
                         "protocol.bot_errors", "traceback", "typer", "trio"}
