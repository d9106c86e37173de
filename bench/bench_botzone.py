"""How fast Botzone games run here, and against Botzone's judge restarted every turn.

Three measurements, each printed as a table (``--part`` picks some):

* ``server``: the server's own time per turn and per request. Whole games are
  played through the shell's turn driver (``server.turns.driver.play_turns``) under
  trio by four in-process seats that answer at once (a drawn-tile discarder:
  ``PLAY X`` to ``2 X``, ``PASS`` otherwise, so a game runs the whole wall);
  every turn is timed from one turn's end to the next (asking the four seats
  at the same time, recording the answers, the judge's step), the judge's own
  share (``requests`` and ``step``) apart. The 34 games judged by the official
  judge (``tests/data/botzone``) are played the same way by seats that give
  the recorded answers, and checked to give the recorded outputs. A turn
  sends 4 requests; per request is a turn's time over 4.
* ``bots``: a game's wall time with real bot processes through
  ``server.turns.match`` and the real runner (``server.bots.botzone_bots``):
  ``bench/bots/drawn_discard.cpp`` x4 (simple interaction, keep-running;
  compiled with ``g++ -O2`` into a temporary folder), the Python discarder
  ``tests/bots/botzone/discarder.py`` restarted every turn and kept running,
  and the sample bots if ``sample_ai/botzone`` has them; ``--bot SPEC`` adds a
  line-up of four SPECs. The server's CPU time (this process, bots excluded)
  is printed beside the wall time. ``--cli`` also times one game through the
  real command line (``server match --ruleset botzone``) with the C++ bot.
* ``official``: the same games judged the way Botzone judges them: a fresh
  judge process per turn, fed ``{"log": [...], "initdata": ...}`` (the whole
  game so far; ``tests/data/botzone/README.md``, "Replaying a game"), which
  re-reads the whole game. The judge is any executable given with
  ``--judge classic=PATH --judge duplicate=PATH`` (Botzone's own, built from
  its public source, is not part of this project); every output it prints is
  compared with the recorded one.

    .venv/bin/python bench/bench_botzone.py                       # server + bots
    .venv/bin/python bench/bench_botzone.py --part official \\
        --judge classic=/path/judge-77978ab --judge duplicate=/path/judge-e326914

The venv's ``bin`` is put first on PATH, so a bot's ``python3`` is the venv's.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import itertools
import json
import os
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trio

from rulesets.botzone import formats
from rulesets.botzone.judge import Judge
from server.bots.botzone_io import Answer
from server.seam.contract import GamePlan, Reply
from server.turns.driver import GameLog, play_turns
from tests.datadir import BOTZONE

ROOT = Path(__file__).resolve().parents[1]
DATA = [BOTZONE]  # --data replaces it
VARIANTS = ("classic", "duplicate")
DISCARDER = ROOT / "tests" / "bots" / "botzone" / "discarder.py"
CPP_BOT = ROOT / "bench" / "bots" / "drawn_discard.cpp"
SAMPLES = ROOT / "sample_ai" / "botzone"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f}"


def drawn_discard(request: str) -> str:
    return "PLAY " + request[2:] if request.startswith("2 ") else "PASS"


class InstantSeat:
    """An in-process seat that discards what it draws, at once."""

    async def ask(self, request: str) -> Answer:
        return Answer("OK", drawn_discard(request), None, 0, "")


class RecordedSeat:
    """An in-process seat that gives one seat's recorded answers, turn by turn."""

    def __init__(self, turns: Sequence[Mapping[str, Any]]) -> None:
        self.turns = turns
        self.k = 0
        self.mismatches = 0

    async def ask(self, request: str) -> Answer:
        item = self.turns[self.k]
        self.k += 1
        self.mismatches += item["request"] != request
        return Answer(item["verdict"], item["response"], None, 0, "")


class TimedJudge:
    """A Judge whose ``requests`` and ``step`` are timed (the judge's share of a turn)."""

    def __init__(self, judge: Judge, spent: list[float]) -> None:
        self.judge = judge
        self.spent = spent  # per turn: seconds in requests() + step()
        self.pending = 0.0

    @property
    def finished(self) -> bool:
        return self.judge.finished

    @property
    def scores(self) -> list[int] | None:
        return self.judge.scores

    def output(self) -> dict[str, Any]:
        return self.judge.output()

    def requests(self) -> list[str]:
        start = time.perf_counter()
        result = self.judge.requests()
        self.pending = time.perf_counter() - start
        return result

    def step(self, replies: Sequence[Reply]) -> dict[str, Any]:
        start = time.perf_counter()
        result = self.judge.step(replies)
        self.spent.append(self.pending + time.perf_counter() - start)
        return result


@dataclass
class Timings:
    games: int = 0
    new_game: list[float] = field(default_factory=list)  # Judge(...): shuffle, deal, INIT
    turn: list[float] = field(default_factory=list)  # one whole turn of the driver
    judge: list[float] = field(default_factory=list)  # the judge's share of it
    game: list[float] = field(default_factory=list)  # a whole game, Judge(...) included
    mismatches: int = 0


async def timed_game(variant: str, initdata: Mapping[str, Any], seats: Sequence[Any],
                     into: Timings) -> tuple[Judge, GameLog]:
    start = time.perf_counter()
    judge = Judge(variant, initdata)
    into.new_game.append(time.perf_counter() - start)
    marks = [time.perf_counter()]

    def on_turn(turn: int, entries: Any, output: Any) -> None:
        marks.append(time.perf_counter())

    log = await play_turns(TimedJudge(judge, into.judge), seats, on_turn)
    into.turn.extend(b - a for a, b in itertools.pairwise(marks))
    into.game.append(marks[-1] - start)
    into.games += 1
    return judge, log


def seeded_setups(seed: int, games: int) -> list[dict[str, Any]]:
    return [{"srand": formats.derived_srand(seed, g), "quan": g % 4} for g in range(games)]


def reference_games(variant: str | None = None) -> list[dict[str, Any]]:
    games = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(DATA[0].glob("*.json"))]
    return [g for g in games if variant is None or g["variant"] == variant]


def server_part(seed: int, games: int) -> dict[str, list[dict[str, Any]]]:
    """Part 1; returns the seeded games it played (records), for the official judge."""
    played: dict[str, list[dict[str, Any]]] = {v: [] for v in VARIANTS}
    rows: list[tuple[str, Timings]] = []

    async def run() -> None:
        for variant in VARIANTS:
            timings = Timings()
            for setup in seeded_setups(seed, games):
                judge, log = await timed_game(variant, setup, [InstantSeat() for _ in range(4)],
                                              timings)
                played[variant].append({"variant": variant, "initdata": setup,
                                        "scores": judge.scores, "players": log.players,
                                        "judge": log.judge})
            rows.append((f"{variant}, {games} seeded games, instant discarders", timings))
        for variant in VARIANTS:
            timings = Timings()
            for game in reference_games(variant):
                seats = [RecordedSeat(game["players"][i]) for i in range(4)]
                judge, log = await timed_game(variant, game["initdata"], seats, timings)
                timings.mismatches += sum(s.mismatches for s in seats)
                timings.mismatches += log.judge != game["judge"] or judge.scores != game["scores"]
            rows.append((f"{variant}, the {timings.games} reference games, recorded answers",
                         timings))

    trio.run(run)
    print("\n## The server's own time (in-process seats answering at once), ms")
    print("| games | turns | turn median | turn p99 | per request median | per request p99 |"
          " judge median | judge p99 | new game median | game median | differences |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, t in rows:
        print(f"| {label} | {len(t.turn)} | {ms(statistics.median(t.turn))} | "
              f"{ms(percentile(t.turn, 0.99))} | {ms(statistics.median(t.turn) / 4)} | "
              f"{ms(percentile(t.turn, 0.99) / 4)} | {ms(statistics.median(t.judge))} | "
              f"{ms(percentile(t.judge, 0.99))} | {ms(statistics.median(t.new_game))} | "
              f"{statistics.median(t.game) * 1e3:.1f} | {t.mismatches} |")
    return played


# --- real bots ----------------------------------------------------------------------------


@dataclass
class BotRun:
    label: str
    games: int = 0
    turns: int = 0
    wall: list[float] = field(default_factory=list)  # per game
    cpu: list[float] = field(default_factory=list)  # per game, this process
    turn_wall: list[float] = field(default_factory=list)
    verdicts: dict[str, int] = field(default_factory=dict)


def play_bots(label: str, specs: Sequence[str], variant: str, plans: Sequence[GamePlan]
              ) -> BotRun:
    from rulesets.botzone.play import Bots
    from rulesets.botzone.rules import BotzoneRules, game_header
    from server.bots.botzone_io import BotzoneLimits
    from server.turns.match import TurnMatch, TurnPlayer, run_turn_match

    bots = Bots(specs, BotzoneLimits())
    match = TurnMatch("botzone", [TurnPlayer(s, s) for s in specs], plans,
                      BotzoneRules(variant), bots.opener, None, header=game_header)
    result = BotRun(label)
    marks = [time.perf_counter(), time.process_time()]
    turn_mark = [time.perf_counter()]

    def on_turn(turn: int, entries: list[dict[str, Any] | None], output: Any) -> None:
        now = time.perf_counter()
        result.turn_wall.append(now - turn_mark[0])
        turn_mark[0] = now
        result.turns += 1
        for item in entries:
            if item is not None:
                result.verdicts[item["verdict"]] = result.verdicts.get(item["verdict"], 0) + 1

    def on_game(plan: GamePlan, record: dict[str, Any]) -> None:
        wall, cpu = time.perf_counter(), time.process_time()
        result.wall.append(wall - marks[0])
        result.cpu.append(cpu - marks[1])
        marks[:] = [wall, cpu]
        turn_mark[0] = time.perf_counter()  # the next game's first turn starts its bots
        result.games += 1

    trio.run(run_turn_match, match, on_game, on_turn)
    return result


def compile_cpp(folder: Path) -> Path | None:
    if shutil.which("g++") is None:
        return None
    binary = folder / "drawn_discard"
    subprocess.run(["g++", "-O2", "-o", str(binary), str(CPP_BOT)], check=True)
    return binary


def bots_part(seed: int, games: int, restart_games: int, extra: Sequence[str],
              cli: bool, profile: bool = False) -> None:
    runs: list[tuple[str, BotRun]] = []
    py = f"{sys.executable}"
    with tempfile.TemporaryDirectory() as tmp:
        cpp = compile_cpp(Path(tmp))
        lineups: list[tuple[str, list[str], int]] = []
        if cpp is not None:
            lineups.append(("C++ drawn_discard x4 (simple, kept)",
                            [f"simple+keep-running:{cpp}"] * 4, games))
        lineups.append(("discarder.py x4 (json, kept)",
                        [f"json+keep-running:{py} {DISCARDER} json 1000"] * 4, games))
        lineups.append(("discarder.py x4 (json, restarted every turn)",
                        [f"json:{py} {DISCARDER} json"] * 4, restart_games))
        samples = sorted(SAMPLES.glob("*.py")) if SAMPLES.is_dir() else []
        samples = [p for p in samples if not p.name.startswith("_")]
        if samples:
            specs = [f"json:{py} {samples[k % len(samples)]}" for k in range(4)]
            names = ", ".join(p.name for p in samples)
            lineups.append((f"sample bots ({names}; restarted every turn)", specs,
                            restart_games))
        for spec in extra:
            lineups.append((f"{spec} x4", [spec] * 4, games))
        for variant in VARIANTS:
            for label, specs, n in lineups:
                if n <= 0:
                    continue
                plans = [GamePlan(k + 1, k + 1, (0, 1, 2, 3), setup, f"game {k + 1}")
                         for k, setup in enumerate(seeded_setups(seed, n))]
                profiler = cProfile.Profile() if profile and not runs else None
                if profiler:
                    profiler.enable()
                runs.append((variant, play_bots(label, specs, variant, plans)))
                if profiler:
                    profiler.disable()
                    print(f"profile of {variant}: {label}, by own time:")
                    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
                print(f"  ... {variant}: {label}: {runs[-1][1].games} games", flush=True)
        cli_line = cli_game(cpp, seed) if cli and cpp is not None else None
    print("\n## A game's wall time with real bots (server.turns.match + the runner)")
    print("| variant | bots | games | turns a game | wall per game s | wall per turn ms | "
          "turn median ms | turn p99 ms | server CPU per turn ms | verdicts |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for variant, r in runs:
        turns = r.turns / r.games
        wall = sum(r.wall)
        verdicts = ", ".join(f"{k} {v}" for k, v in sorted(r.verdicts.items()))
        print(f"| {variant} | {r.label} | {r.games} | {turns:.0f} | {wall / r.games:.2f} | "
              f"{wall / r.turns * 1e3:.2f} | {ms(statistics.median(r.turn_wall))} | "
              f"{ms(percentile(r.turn_wall, 0.99))} | {sum(r.cpu) / r.turns * 1e3:.2f} | "
              f"{verdicts} |")
    if cli_line:
        print(cli_line)


def cli_game(cpp: Path, seed: int) -> str:
    """One game through the real command line, process start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([str(Path(sys.executable).parent / "server"), "match", "--ruleset",
                           "botzone", "--seed", str(seed), *[f"simple+keep-running:{cpp}"] * 4],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (f"\n`server match --ruleset botzone --seed {seed}` with the C++ bot x4: exit "
            f"{proc.returncode}, wall {wall:.2f} s, CPU of the server and its bots {cpu:.2f} s")


# --- the official judge, a process per turn ----------------------------------------------


def judge_inputs(game: Mapping[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each turn's judge input as Botzone gives it, and the output it should print."""
    log: list[Any] = []
    for k, output in enumerate(game["judge"]):
        yield json.dumps({"log": log, "initdata": game["initdata"]}), output
        log.append({"verdict": "OK", "output": output})
        if k < len(game["judge"]) - 1:
            log.append({str(i): {"verdict": game["players"][i][k]["verdict"],
                                 "response": game["players"][i][k]["response"]}
                        for i in range(4)})


@dataclass
class OfficialRun:
    label: str
    games: int = 0
    turn: list[float] = field(default_factory=list)
    cpu: float = 0.0
    game: list[float] = field(default_factory=list)
    last_input: list[int] = field(default_factory=list)
    differences: int = 0
    ours: list[float] = field(default_factory=list)  # our judge in memory, per turn


def official(judge: str, games: Sequence[Mapping[str, Any]], label: str) -> OfficialRun:
    run = OfficialRun(label)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for game in games:
        total = 0.0
        size = 0
        for text, expected in judge_inputs(game):
            start = time.perf_counter()
            proc = subprocess.run([judge], input=text.encode(), capture_output=True)
            spent = time.perf_counter() - start
            run.turn.append(spent)
            total += spent
            size = len(text)
            try:
                run.differences += json.loads(proc.stdout) != expected
            except ValueError:
                run.differences += 1
        run.game.append(total)
        run.last_input.append(size)
        run.games += 1
        run.ours.extend(ours_in_memory(game))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run.cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return run


def ours_in_memory(game: Mapping[str, Any]) -> list[float]:
    """Our judge on the same game, per turn (INIT, then each step): no driver, no seats."""
    spent = []
    start = time.perf_counter()
    judge = Judge(game["variant"], game["initdata"])
    judge.output()
    spent.append(time.perf_counter() - start)
    for k in range(len(game["judge"]) - 1):
        replies = [Reply(game["players"][i][k]["verdict"], game["players"][i][k]["response"])
                   for i in range(4)]
        start = time.perf_counter()
        judge.requests()
        judge.step(replies)
        spent.append(time.perf_counter() - start)
    return spent


def official_part(judges: Mapping[str, str], played: Mapping[str, list[dict[str, Any]]],
                  games: int) -> None:
    runs: list[tuple[str, OfficialRun]] = []
    for variant in VARIANTS:
        path = judges.get(variant)
        if path is None:
            print(f"  (no --judge {variant}=PATH: {variant} skipped)")
            continue
        refs = reference_games(variant)
        runs.append((variant, official(path, refs, f"the {len(refs)} reference games")))
        if played.get(variant):
            some = played[variant][:games]
            runs.append((variant, official(path, some, f"{len(some)} seeded games "
                                                        "(instant discarders)")))
        print(f"  ... {variant} done", flush=True)
    true = shutil.which("true") or "/bin/true"
    spawn = []
    for _ in range(200):
        start = time.perf_counter()
        subprocess.run([true], input=b"{}", capture_output=True)
        spawn.append(time.perf_counter() - start)
    print("\n## A judge process per turn (as Botzone) against our judge in memory, ms")
    print(f"(starting a process that does nothing, `{true}`, the same way: median "
          f"{ms(statistics.median(spawn))}, p99 {ms(percentile(spawn, 0.99))})")
    print("| variant | games | turns | official per turn median | p99 | official CPU per turn |"
          " official per game | last input KB | ours per turn median | ours p99 | "
          "ours per game | differences |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for variant, r in runs:
        print(f"| {variant} | {r.label} | {len(r.turn)} | {ms(statistics.median(r.turn))} | "
              f"{ms(percentile(r.turn, 0.99))} | {ms(r.cpu / len(r.turn))} | "
              f"{statistics.median(r.game) * 1e3:.0f} | "
              f"{statistics.median(r.last_input) / 1024:.1f} | "
              f"{ms(statistics.median(r.ours))} | {ms(percentile(r.ours, 0.99))} | "
              f"{sum(r.ours) / r.games * 1e3:.1f} | {r.differences} |")


def parse_judges(values: Sequence[str]) -> dict[str, str]:
    judges: dict[str, str] = {}
    for value in values:
        variant, sep, path = value.partition("=")
        if not sep or variant not in VARIANTS or not os.access(path, os.X_OK):
            raise SystemExit(f"--judge {value!r}: give classic=PATH or duplicate=PATH, "
                             "PATH an executable")
        judges[variant] = path
    return judges


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--part", action="append", choices=("server", "bots", "official"),
                        help="what to measure (repeatable; default: server and bots, and "
                             "official when --judge is given)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=200,
                        help="seeded games per variant for the server's time (default 200)")
    parser.add_argument("--bot-games", type=int, default=4,
                        help="games per variant with fast or kept bots (default 4)")
    parser.add_argument("--restart-games", type=int, default=1,
                        help="games per variant with bots restarted every turn (default 1)")
    parser.add_argument("--bot", action="append", default=[],
                        help="one more line-up: four bots of this Botzone spec")
    parser.add_argument("--cli", action="store_true",
                        help="also time one game through `server match --ruleset botzone`")
    parser.add_argument("--profile", action="store_true",
                        help="print a profile of the first line-up's games (the C++ bots)")
    parser.add_argument("--judge", action="append", default=[],
                        help="VARIANT=PATH: a Botzone judge executable for the official part")
    parser.add_argument("--data", type=Path, default=DATA[0],
                        help=f"the games judged on Botzone (default {DATA[0]})")
    parser.add_argument("--judge-games", type=int, default=20,
                        help="seeded games per variant given to the judge (default 20)")
    args = parser.parse_args(argv)
    judges = parse_judges(args.judge)
    DATA[0] = args.data
    parts = set(args.part or ["server", "bots", *(["official"] if judges else [])])
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    print(f"python {sys.version.split()[0]}; load average "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
          f"sum(range(10000)) {yardstick() * 1e6:.0f} µs")
    gc.collect()
    played: dict[str, list[dict[str, Any]]] = {}
    if "server" in parts or "official" in parts:
        played = server_part(args.seed, args.games if "server" in parts else args.judge_games)
    if "bots" in parts:
        bots_part(args.seed, args.bot_games, args.restart_games, args.bot, args.cli,
                  args.profile)
    if "official" in parts:
        official_part(judges, played, args.judge_games)
    print(f"\nload average at the end {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def yardstick() -> float:
    best = float("inf")
    for _ in range(50):
        start = time.perf_counter()
        sum(range(10000))
        best = min(best, time.perf_counter() - start)
    return best


if __name__ == "__main__":
    sys.exit(main())
