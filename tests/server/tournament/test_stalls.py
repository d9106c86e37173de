"""Host stalls: an answer the host made late is not fined; a slow bot still is.

The host's load is made certain rather than hoped for: the server's own event
loop is hogged (a busy loop on its thread, 1.3 s) the moment a bot's answer has
arrived and before it is read, while busy-loop processes load every core.
Real processes and real time, so the checks allow generous slack.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import structlog
import trio

from rulesets.default.engine.rng import match_plan
from rulesets.default.late import fine_after_host
from rulesets.default.logs import MatchFiles
from rulesets.default.match import MatchConfig, Player, play_match_hand
from rulesets.default.table import fine_for
from rulesets.default.verify import verify_path
from server.bots.processes import Peer
from server.bots.seats import ProcessLauncher, SeatRequest, TableOptions

DRAWBOT = "tests/bots/drawbot.py"
SLOW = "tests/bots/slow.py"
HOG_SECONDS = 1.3
HOG = "import time\nend = time.time() + 20\nwhile time.time() < end: pass\n"


class _HoggedPeer:
    """A peer whose Nth read hogs the server's thread before the line is stamped."""

    def __init__(self, inner: Peer, at_read: int) -> None:
        self.inner = inner
        self.label = inner.label
        self.process = getattr(inner, "process", None)
        self.reads = 0
        self.at_read = at_read

    def send_nowait(self, data: bytes) -> int:
        return self.inner.send_nowait(data)

    async def send(self, data: bytes) -> None:
        await self.inner.send(data)

    async def receive_some(self) -> bytes:
        data = await self.inner.receive_some()
        self.reads += 1
        if self.reads == self.at_read:
            end = time.perf_counter() + HOG_SECONDS
            while time.perf_counter() < end:  # the host's CPU hog, on the loop's own thread
                pass
        return data

    async def close(self) -> None:
        await self.inner.close()


class _HogLauncher:
    def __init__(self) -> None:
        self.inner = ProcessLauncher()

    async def open(self, request: SeatRequest, nursery: trio.Nursery) -> Peer:
        peer = await self.inner.open(request, nursery)
        return _HoggedPeer(peer, 6) if request.player == 0 else peer


async def test_host_stall_is_recorded_and_not_fined_while_a_slow_bot_is(tmp_path: Path) -> None:
    players = (Player("hogged", (sys.executable, DRAWBOT)),
               Player("draw", (sys.executable, DRAWBOT)),
               Player("slow", (sys.executable, SLOW, "--delay", "1.45", "--turns", "1")),
               Player("draw2", (sys.executable, DRAWBOT)))
    options = TableOptions(host_stalls=True)
    config = MatchConfig(players, seed=5, groups=1, log_root=tmp_path / "m", options=options,
                         launcher=_HogLauncher())
    plan = next(match_plan(5, 1))
    hogs = [subprocess.Popen([sys.executable, "-c", HOG])  # noqa: ASYNC220 (killed below)
            for _ in range(os.cpu_count() or 2)]
    try:
        files = MatchFiles(tmp_path / "m")
        summary = await play_match_hand(config, plan, files, structlog.get_logger())
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    out = summary.outcome
    seat_of = {player: seat for seat, player in enumerate(plan.seats)}
    hogged, slow = seat_of[0], seat_of[2]
    stalls = [t for t in out.timings if len(t) == 4]
    assert out.host_stalls[hogged] >= 1, out.timings
    assert any(t[0] == hogged and t[1] >= 1000 * HOG_SECONDS for t in stalls)
    for _seat, ms, limit, host_ms in stalls:  # each allowance covers the lateness
        assert fine_for(ms, int(limit)) > 0
        assert fine_after_host(ms, int(limit), host_ms) < fine_for(ms, int(limit))
    assert out.fines[hogged] == 0, out.timings
    # 1.45 s for a 1 s discard: 4 points; at least 2 whatever the load, unless the host's
    # allowance took more than 300 ms off an answer it did not hold up.
    assert out.fines[slow] >= 2, out.timings
    assert out.host_stalls[slow] == 0 or out.fines[slow] >= 2
    result = json.loads((summary_dir(tmp_path / "m") / "events.jsonl").read_text()
                        .splitlines()[-1])
    assert result["host_stalls"] == out.host_stalls
    hand = summary_dir(tmp_path / "m")
    report = verify_path(hand)
    assert report.ok, report.problems
    # Without the recorded allowance, verify charges the stalled answer and says so.
    events = hand / "events.jsonl"
    lines = events.read_text().splitlines()
    row = json.loads(lines[-1])
    row["timings"] = [t[:3] for t in row["timings"]]
    events.write_text("\n".join([*lines[:-1], json.dumps(row)]) + "\n")
    problems = " ".join(verify_path(hand).problems)
    assert "fines are" in problems and "host stalls are" in problems


def summary_dir(root: Path) -> Path:
    return next(p for p in root.iterdir() if p.is_dir())


async def test_without_the_option_a_stalled_answer_is_fined_as_before(tmp_path: Path) -> None:
    players = tuple(Player(f"d{i}", (sys.executable, DRAWBOT)) for i in range(4))
    config = MatchConfig(players, seed=5, groups=1, options=TableOptions(),
                         launcher=_HogLauncher())
    summary = await play_match_hand(config, next(match_plan(5, 1)), None,
                                    structlog.get_logger())
    assert summary.outcome.host_stalls == [0, 0, 0, 0]
    assert sum(summary.outcome.fines) >= 2
