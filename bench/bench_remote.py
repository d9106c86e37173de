"""The latency a remote seat adds per message on loopback, against a local one.

Plays hands in this process with ``rulesets.default.match.play_match_hand`` and a
``RemoteSeats`` launcher listening on 127.0.0.1: player 0 is ``tcp:remote``,
played by ``server connect`` (a separate process, as in real use) running
``tests/bots/drawbot.py``; players 1-3 are the same bot as local processes. A
bot's answer time as the server measures it (from the write of the prompt to the
arrival of the answer line, ``HandOutcome.answer_ms``) is the same bot's own
time plus the transport: pipes for a local seat; for a remote one, the socket,
the bridge process and its pipes. The difference of the distributions, taken in
the same hands under the same load, is what a remote seat adds.

    .venv/bin/python bench/bench_remote.py [--hands 32] [--seed 1]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import structlog
import trio

from rulesets.default.engine.rng import match_plan
from rulesets.default.match import HandSummary, MatchConfig, Player, play_match_hand
from server.bots.remote import open_remote_seats
from server.bots.seats import TableOptions

ROOT = Path(__file__).resolve().parents[1]
DRAWBOT = str(ROOT / "tests/bots/drawbot.py")
TOKEN = "bench-secret"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(hands: int, seed: int, stderr: IO[bytes]) -> list[HandSummary]:
    players = (Player("tcp:remote", ()), *(Player(DRAWBOT, (DRAWBOT,)) for _ in range(3)))
    groups = (hands + 15) // 16
    plans = list(match_plan(seed, groups))[:hands]
    summaries: list[HandSummary] = []
    async with open_remote_seats("127.0.0.1", 0, {"remote": TOKEN}) as seats:
        port = seats.addresses[0][1]
        bridge = await trio.lowlevel.open_process(
            [sys.executable, "-c", "from server.cli.app import main; main()", "connect",
             f"127.0.0.1:{port}", "--name", "remote", "--token", TOKEN, "--", DRAWBOT],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr)
        try:
            config = MatchConfig(players, seed, groups, None, TableOptions(), launcher=seats)
            log = structlog.get_logger()
            for plan in plans:
                summaries.append(await play_match_hand(config, plan, None, log))
        except BaseException:
            bridge.kill()
            with trio.CancelScope(shield=True):
                await bridge.wait()
            raise
    with trio.move_on_after(5):  # it hears "match over" as the listener closes, and stops
        await bridge.wait()
    if bridge.returncode is None:
        bridge.kill()
        await bridge.wait()
    return summaries


def report(summaries: Sequence[HandSummary]) -> list[str]:
    remote: list[float] = []
    local: list[float] = []
    faults = 0
    for summary in summaries:
        faults += len(summary.faults)
        for seat, player in enumerate(summary.plan.seats):
            (remote if player == 0 else local).extend(summary.outcome.answer_ms[seat])
    med_r, med_l = statistics.median(remote), statistics.median(local)
    p99_r, p99_l = percentile(remote, 0.99), percentile(local, 0.99)
    return [
        f"{len(summaries)} hands; faults {faults}; answers: remote {len(remote)}, "
        f"local {len(local)}",
        f"answer time, local seats : median {med_l:.3f} ms, p99 {p99_l:.3f} ms",
        f"answer time, remote seat : median {med_r:.3f} ms, p99 {p99_r:.3f} ms",
        f"added by the remote seat : median {med_r - med_l:+.3f} ms, "
        f"p99 {p99_r - p99_l:+.3f} ms",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    os.environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.CRITICAL),
                        cache_logger_on_first_use=True)
    with tempfile.TemporaryFile() as stderr:
        summaries = trio.run(run, args.hands, args.seed, stderr)
        stderr.seek(0)
        said = stderr.read().decode(errors="replace").strip()
    print(f"python {sys.version.split()[0]}, loadavg {os.getloadavg()[0]:.1f}; bridge: {said}")
    for line in report(summaries):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
