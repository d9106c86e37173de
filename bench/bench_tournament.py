"""Tables in parallel: what load does to instant bots' fines and to the server's latency.

Runs 1, 2, 4 and 8 tables at once in one trio run (as ``server tournament
--jobs N`` does: each table a ``run_match`` through the tournament's
``TableLauncher``), every seat ``tests/bots/drawbot.py`` (it answers at once,
so any fine is the host's doing, never the bot's). For each level it reports:

* hands played and wall time;
* fines charged to the instant bots, and the host stalls (late answers whose
  fine was lowered or waived because the event loop or the kernel's run queue
  held them up, ``TableOptions.host_stalls``), with the fines that would have
  been charged without the allowance;
* the server's added latency per message (``HandOutcome.server_latency``:
  from reading an answer to writing the next prompt): median, 99th and 99.9th
  percentile, and worst;
* answer times as the bots' clocks were charged: 99.9th percentile and worst.

    .venv/bin/python bench/bench_tournament.py [--levels 1,2,4,8] [--hands 16] [--bot greedy]

``--bot greedy`` seats the greedy sample AI instead (it thinks, with CPU, so
the load is a real tournament's; its fines are then not all the host's).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import structlog
import trio

from rulesets.default.match import HandSummary, MatchConfig, MatchResult, Player, run_match
from rulesets.default.table import fine_for
from server.bots.remote import TableLauncher
from server.bots.seats import TableOptions
from server.output.console import configure_logging

ROOT = Path(__file__).resolve().parents[1]
DRAWBOT = (sys.executable, str(ROOT / "tests/bots/drawbot.py"))


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


BOTS = {"draw": DRAWBOT, "greedy": (sys.executable, str(ROOT / "sample_ai/greedy.py"))}


async def level(tables: int, hands: int, bot: tuple[str, ...]) -> dict[str, float]:
    summaries: list[HandSummary] = []

    async def table(k: int) -> None:
        players = tuple(Player(f"bot{i}", (*bot, "--seed", str(i))) for i in range(4))
        config = MatchConfig(players, 1000 + k, 1, None, TableOptions(host_stalls=True),
                             "autoplay", TableLauncher(), hands=hands)

        def on_hand(s: HandSummary, _: MatchResult) -> None:
            summaries.append(s)

        await run_match(config, on_hand, structlog.get_logger())

    start = time.perf_counter()
    cpu = time.process_time()
    async with trio.open_nursery() as nursery:
        for k in range(tables):
            nursery.start_soon(table, k)
    wall = time.perf_counter() - start
    latency = [x * 1000 for s in summaries for x in s.outcome.server_latency]
    answers = [x for s in summaries for seat in s.outcome.answer_ms for x in seat]
    timings = [t for s in summaries for t in s.outcome.timings]
    unwaived = sum(fine_for(t[1], int(t[2])) for t in timings)
    return {
        "tables": tables, "hands": len(summaries), "wall_s": wall,
        "server_cpu_s": time.process_time() - cpu,
        "fines": sum(sum(s.fines) for s in summaries),
        "fines_without_allowance": unwaived,
        "host_stalls": sum(sum(s.outcome.host_stalls) for s in summaries),
        "messages": len(latency),
        "lat_median_ms": statistics.median(latency),
        "lat_p99_ms": percentile(latency, 0.99),
        "lat_p999_ms": percentile(latency, 0.999),
        "lat_max_ms": max(latency),
        "answer_p999_ms": percentile(answers, 0.999),
        "answer_max_ms": max(answers),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--levels", default="1,2,4,8")
    parser.add_argument("--hands", type=int, default=16, help="hands per table")
    parser.add_argument("--bot", choices=sorted(BOTS), default="draw")
    args = parser.parse_args()
    configure_logging(False)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"{cores} cores, load average {os.getloadavg()[0]:.2f}, {args.hands} hands a table, "
          f"bot {args.bot}")
    print("| tables | hands | wall s | fines | fines w/o allowance | host stalls | messages "
          "| median ms | p99 ms | p99.9 ms | worst ms | answer p99.9 ms | answer worst ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for n in (int(x) for x in args.levels.split(",")):
        r = trio.run(level, n, args.hands, BOTS[args.bot])
        print(f"| {n} | {r['hands']:.0f} | {r['wall_s']:.1f} | {r['fines']:.0f} | "
              f"{r['fines_without_allowance']:.0f} | {r['host_stalls']:.0f} | "
              f"{r['messages']:.0f} | {r['lat_median_ms']:.3f} | {r['lat_p99_ms']:.3f} | "
              f"{r['lat_p999_ms']:.2f} | {r['lat_max_ms']:.1f} | {r['answer_p999_ms']:.2f} | "
              f"{r['answer_max_ms']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
