"""How fast the match server runs a match of instant bots, and what it adds per message.

Runs ``rulesets.default.match.run_match`` in this process with four real bot processes
per hand (``tests/bots/drawbot.py`` by default: it discards what it draws and
passes every claim, so every hand runs to the end of the wall: 84 draws, 336
prompts). Reports:

* the wall time of the match, split into process start-up (spawn, then the
  wait for four ``join`` lines), play (deal to the end of the hand), stopping
  the bots, and the rest (writing logs, the seating, ...);
* the server's own time: the CPU time of this process over the match, and the
  share of the play that is the server's (reading an answer to writing the
  next prompt) rather than the bots';
* the server's added latency per message (``HandOutcome.server_latency``:
  seconds from reading an answer line to writing the next prompt), median,
  99th percentile and worst, over all hands. Targets: median < 0.2 ms,
  p99 < 1 ms.

    .venv/bin/python bench/bench_match.py [--groups 1] [--logs] [--profile]

The venv's ``bin`` is put first on PATH, so that the bots' ``#!/usr/bin/env
python3`` starts the venv's interpreter directly rather than through a shim.
"""

from __future__ import annotations

import argparse
import cProfile
import logging
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import structlog
import trio

from rulesets.default.match import HandSummary, MatchConfig, MatchResult, Player, run_match
from server.bots.processes import parse_command
from server.bots.seats import TableOptions

ROOT = Path(__file__).resolve().parents[1]


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(bot: str, groups: int, seed: int, log_root: Path | None) -> tuple[MatchResult, float,
                                                                          float]:
    argv = parse_command(bot)
    players = tuple(Player(bot, tuple(argv)) for _ in range(4))
    config = MatchConfig(players, seed, groups, log_root, TableOptions())
    wall, cpu = time.perf_counter(), time.process_time()
    result = trio.run(run_match, config)
    return result, time.perf_counter() - wall, time.process_time() - cpu


def report(result: MatchResult, wall: float, cpu: float) -> list[str]:
    hands: list[HandSummary] = result.hands
    n = len(hands)
    spawn = sum(h.spawn_seconds for h in hands)
    join = sum(h.outcome.joined_at - h.outcome.started_at for h in hands)
    play = sum(h.outcome.ended_at - h.outcome.joined_at for h in hands)
    close = sum(h.close_seconds for h in hands)
    rest = wall - spawn - join - play - close
    latency = [x for h in hands for x in h.outcome.server_latency]
    answers = sum(len(ms) for h in hands for ms in h.outcome.answer_ms)
    bot_ms = [x for h in hands for ms in h.outcome.answer_ms for x in ms]
    faults = sum(len(h.faults) for h in hands)
    fines = sum(sum(h.fines) for h in hands)
    lines = [
        f"{n} hands, {answers} answers, {len(latency)} answer-to-prompt hops; "
        f"faults {faults}, fines {fines}",
        f"wall {wall:.2f} s ({wall / n * 1e3:.0f} ms a hand); server CPU {cpu:.2f} s "
        f"({cpu / n * 1e3:.0f} ms a hand)",
        f"  start-up  {spawn + join:6.2f} s  (spawn {spawn:.2f} s, wait for join {join:.2f} s;"
        f" {(spawn + join) / n * 1e3:.0f} ms a hand)",
        f"  play      {play:6.2f} s  ({play / n * 1e3:.0f} ms a hand; the server's hops "
        f"{sum(latency):.2f} s, the bots' answers {sum(bot_ms) / 1e3:.2f} s)",
        f"  stop bots {close:6.2f} s  ({close / n * 1e3:.1f} ms a hand)",
        f"  rest      {rest:6.2f} s  (logs, seating, bookkeeping)",
        f"server latency per message: median {statistics.median(latency) * 1e3:.3f} ms, "
        f"p99 {percentile(latency, 0.99) * 1e3:.3f} ms, max {max(latency) * 1e3:.3f} ms",
        f"bot answer time (pipe round trip + bot): median {statistics.median(bot_ms):.3f} ms, "
        f"p99 {percentile(bot_ms, 0.99):.3f} ms",
    ]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=1, help="16 hands each (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bot", default=str(ROOT / "tests/bots/drawbot.py"),
                        help="the AI for all four players (default: tests/bots/drawbot.py)")
    parser.add_argument("--logs", action="store_true", help="write the -d log folders too")
    parser.add_argument("--profile", action="store_true", help="print the top of a profile")
    args = parser.parse_args(argv)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL),
                        cache_logger_on_first_use=True)
    with tempfile.TemporaryDirectory() as tmp:
        log_root = Path(tmp) / "match" if args.logs else None
        profiler = cProfile.Profile() if args.profile else None
        if profiler:
            profiler.enable()
        result, wall, cpu = run(args.bot, args.groups, args.seed, log_root)
        if profiler:
            profiler.disable()
    print(f"bot: {args.bot}; logs {'on' if args.logs else 'off'}; python {sys.version.split()[0]}")
    for line in report(result, wall, cpu):
        print(line)
    if profiler:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0 if result.completed else 1


if __name__ == "__main__":
    sys.exit(main())
