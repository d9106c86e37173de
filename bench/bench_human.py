"""How fast a file of human match records is checked and turned into training arrays.

    python bench/bench_human.py [--matches 300] [--rounds 2] [--no-ray]

Writes ``--matches`` seeded games (``tests/rulesets/botzone/human_games.py``: a
136-tile wall, greedy seats, eager claims) in the course's text format, then times,
in alternating rounds, the real commands a user runs on that file: ``server verify``,
``server human convert --jobs 1``, ``--jobs 2`` and ``--cluster local`` (Ray started
on this machine, its start-up included). Each figure is matches per second of wall
time, the command's start-up included, as the median over the rounds.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulesets.botzone.human import format_file  # noqa: E402
from rulesets.botzone.human_judge import to_match  # noqa: E402
from tests.rulesets.botzone.human_games import play  # noqa: E402


def write_games(path: Path, count: int) -> None:
    matches = []
    for seed in range(count):
        match = to_match(play(seed), f"bench-{seed}")
        if match is not None:
            matches.append(match)
    path.write_text(format_file(matches), encoding="utf-8")


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "server.cli", *argv], cwd=ROOT,
                          capture_output=True, text=True)
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr[-2000:]}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-ray", action="store_true", help="leave out --cluster local")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        records = Path(scratch) / "games.txt"
        write_games(records, args.matches)
        out = str(Path(scratch) / "arrays.npz")
        runs = {"verify": ["verify", str(records)],
                "convert --jobs 1": ["human", "convert", str(records), "--out", out],
                "convert --jobs 2": ["human", "convert", str(records), "--out", out,
                                     "--jobs", "2"]}
        if not args.no_ray:
            runs["convert --cluster local"] = ["human", "convert", str(records), "--out", out,
                                               "--cluster", "local"]
        seconds: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(args.rounds):
            for name, argv in runs.items():
                seconds[name].append(timed(argv))
    load = os.getloadavg()[0]
    print(f"{args.matches} matches, {args.rounds} rounds, load average {load:.1f}")
    for name, times in seconds.items():
        median = statistics.median(times)
        print(f"  {name:<26} {args.matches / median:7.1f} matches/s  ({median:.2f} s)")


if __name__ == "__main__":
    main()
