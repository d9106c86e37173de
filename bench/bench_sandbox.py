"""What ``--sandbox bwrap`` costs a bot: its start-up and its answer time, per language.

Each trial starts one bot through ``server.bots.seats.ProcessLauncher`` (the path a
match takes: limits, memory cgroup, tag, and under bwrap the whole deny-by-default
policy of ``server.bots.sandbox.bwrap_argv``), writes its first line at once, and
times, from the call that starts it to its first answer (start-up), then ``--answers``
more lines one at a time, each from the write of the line to the arrival of the answer
(answer time). The bots (``bench/bots/ping.*``) answer a line with that line: what is
timed is the process, its runtime and the pipes, not a bot's thinking. Trials
alternate, in every round, between no sandbox and bwrap for each language, so both
see the same load.

    .venv/bin/python bench/bench_sandbox.py [--rounds 20] [--answers 50]
                                            [--languages python,cpp,java,node]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trio

from server.bots.processes import ProcessPeer
from server.bots.sandbox import BotLimits
from server.bots.seats import ProcessLauncher, Sandbox, SeatRequest

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "bench" / "bots"
LANGUAGES = ("python", "cpp", "java", "node")
KINDS = ("none", "bwrap")


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def commands(languages: Sequence[str], build: Path) -> dict[str, tuple[str, ...]]:
    """Each language's bot command; compiled ones built in ``build`` (readable by the
    sandbox's user)."""
    build.chmod(0o755)
    found: dict[str, tuple[str, ...]] = {}
    for language in languages:
        if language == "python":
            found[language] = ("python3", str(BOTS / "ping.py"))
        elif language == "cpp":
            subprocess.run([_need("g++"), "-O2", "-o", str(build / "ping"),
                            str(BOTS / "ping.cpp")], check=True, timeout=120)
            found[language] = (str(build / "ping"),)
        elif language == "java":
            subprocess.run([_need("javac"), "-d", str(build), str(BOTS / "Ping.java")],
                           check=True, timeout=120)
            found[language] = ("java", "-cp", str(build), "Ping")
        elif language == "node":
            found[language] = (_need("node"), str(BOTS / "ping.js"))
        else:
            raise SystemExit(f"unknown language {language!r}: one of {', '.join(LANGUAGES)}")
    return found


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        raise SystemExit(f"{tool} is not installed")
    return path


async def read_line(peer: ProcessPeer, pending: bytearray) -> bytes:
    while b"\n" not in pending:
        chunk = await peer.receive_some()
        if not chunk:
            raise RuntimeError(f"{peer.label} closed its output")
        pending += chunk
    line, _, rest = bytes(pending).partition(b"\n")
    pending[:] = rest
    return line


async def trial(argv: tuple[str, ...], kind: str, answers: int
                ) -> tuple[float, list[float]]:
    """One bot: its start-up and its answer times, in ms."""
    launcher = ProcessLauncher(Sandbox(BotLimits(), kind))
    request = SeatRequest(0, "ping", argv, 0, 0, None)
    times: list[float] = []
    async with trio.open_nursery() as nursery:
        start = time.perf_counter()
        peer = await launcher.open(request, nursery)
        assert isinstance(peer, ProcessPeer)
        pending = bytearray()
        try:
            with trio.fail_after(60):
                await peer.send(b"0\n")
                assert await read_line(peer, pending) == b"ok 0"
                startup = (time.perf_counter() - start) * 1000
                for n in range(1, answers + 1):
                    sent = time.perf_counter()
                    await peer.send(b"%d\n" % n)
                    assert await read_line(peer, pending) == b"ok %d" % n
                    times.append((time.perf_counter() - sent) * 1000)
        finally:
            await peer.close()
    return startup, times


async def bench(languages: Sequence[str], rounds: int, answers: int, build: Path
                ) -> dict[tuple[str, str], tuple[list[float], list[float]]]:
    argvs = commands(languages, build)
    results: dict[tuple[str, str], tuple[list[float], list[float]]] = {
        (language, kind): ([], []) for language in languages for kind in KINDS}
    for round_number in range(rounds):
        order = KINDS if round_number % 2 == 0 else KINDS[::-1]
        for language in languages:
            for kind in order:
                startup, times = await trial(argvs[language], kind, answers)
                results[language, kind][0].append(startup)
                results[language, kind][1].extend(times)
        print(f"round {round_number + 1}/{rounds}", file=sys.stderr)
    return results


def report(results: dict[tuple[str, str], tuple[list[float], list[float]]],
           rounds: int, answers: int) -> None:
    print(f"{rounds} start-ups and {rounds * answers} answers per language and sandbox; "
          "milliseconds")
    print()
    print("| language | sandbox | start-up median | start-up p95 | answer median | answer p95 |")
    print("|---|---|---:|---:|---:|---:|")
    for (language, kind), (startups, times) in results.items():
        print(f"| {language} | {kind} | {statistics.median(startups):.1f} | "
              f"{percentile(startups, 0.95):.1f} | {statistics.median(times):.3f} | "
              f"{percentile(times, 0.95):.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--answers", type=int, default=50)
    parser.add_argument("--languages", default=",".join(LANGUAGES))
    args = parser.parse_args()
    if shutil.which("bwrap") is None:
        raise SystemExit("bwrap is not installed (apt-get install bubblewrap)")
    languages = [word for word in args.languages.split(",") if word]
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="bench-sandbox-") as folder:
        results = trio.run(bench, languages, args.rounds, args.answers, Path(folder))
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}",
          file=sys.stderr)
    report(results, args.rounds, args.answers)


if __name__ == "__main__":
    main()
