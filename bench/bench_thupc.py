"""How long ``server thupc`` takes on each official THUPC 2021 case (limit: 1 s each).

For each case N.in it runs the real command line as a fresh process,
``python -c "from server.cli.app import main; main()" thupc N.in``, several times
and reports the best and the median wall time and the least CPU time (user +
system: a loaded machine inflates it far less than wall time), checking the
output against N.ans. The same for ``python -m rulesets.thupc2021 N.in``, which
skips the server CLI's start-up (typer, rich, pydantic). The baseline is
``server thupc`` on empty input (start-up and imports, then exit status 2), and
"simulate" is the CPU time of the pure ``run`` in-process on cold caches.

    .venv/bin/python bench/bench_thupc.py [--runs 5] [--data DIR]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.thupc2021 import run
from scoring import analysis, distance
from tests.datadir import THUPC

REPO = Path(__file__).resolve().parents[1]
DATA = THUPC
CLI = [sys.executable, "-c", "from server.cli.app import main; main()", "thupc"]
MODULE = [sys.executable, "-m", "rulesets.thupc2021"]


def timed_process(argv: Sequence[str]) -> tuple[float, float, bytes]:
    """Wall seconds, CPU seconds (user + system) and stdout of one process."""
    before = os.times()
    began = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, cwd=REPO, check=False, input=b"")
    wall = time.perf_counter() - began
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system)
    return wall, cpu, done.stdout


def clear_caches(*modules: ModuleType) -> None:
    """Empty every memo of the analysis modules, as a fresh process finds them."""
    for module in modules:
        for obj in vars(module).values():
            clear = getattr(obj, "cache_clear", None)
            if callable(clear):
                clear()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per case")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of N.in / N.ans")
    args = parser.parse_args(argv)
    found = (p for p in args.data.glob("*.in") if p.stem.isdigit())
    cases = sorted(found, key=lambda p: int(p.stem))
    if not cases:
        print(f"no cases in {args.data}", file=sys.stderr)
        return 2

    def best(argv: Sequence[str]) -> tuple[float, float, float, list[bytes]]:
        """Best and median wall time, least CPU time, and the outputs of --runs runs."""
        results = [timed_process(argv) for _ in range(args.runs)]
        walls = [w for w, _, _ in results]
        return (min(walls), statistics.median(walls), min(c for _, c, _ in results),
                [out for _, _, out in results])

    base_wall, _, base_cpu, _ = best(CLI)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f} at the start; best of {args.runs} runs")
    print(f"baseline, server thupc on empty input: {base_wall * 1e3:.0f} ms wall, "
          f"{base_cpu * 1e3:.0f} ms CPU")
    print("case | server thupc: best  median  CPU | python -m: best  CPU | simulate CPU | output")
    worst = 0.0
    ok = True
    for path in cases:
        expected = path.with_suffix(".ans").read_bytes()
        wall, median, cpu, outs = best([*CLI, str(path)])
        m_wall, _, m_cpu, m_outs = best([*MODULE, str(path)])
        same = all(out == expected for out in outs + m_outs)
        ok &= same
        clear_caches(analysis, distance)
        began = time.process_time()
        run(path.read_text())
        pure = time.process_time() - began
        worst = max(worst, wall)
        print(f"{path.stem:>4} | {wall * 1e3:17.0f} {median * 1e3:7.0f} {cpu * 1e3:4.0f} "
              f"| {m_wall * 1e3:15.0f} {m_cpu * 1e3:4.0f} | {pure * 1e3:12.0f} "
              f"| {'exact' if same else 'DIFFERS'}")
    print(f"worst best-of-{args.runs} wall time of server thupc: {worst * 1e3:.0f} ms "
          f"(limit 1000 ms); load average {os.getloadavg()[0]:.2f} at the end")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
