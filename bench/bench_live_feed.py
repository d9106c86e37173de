"""What the live feed costs a table: the time spent drawing and writing its pictures.

``python bench/bench_live_feed.py [--hands 16] [--games 4] [--runs 2]``

* ``default``: a 16-hand match of the sample AIs (greedy, random, greedy, random as
  processes, the real table of ``rulesets.default.table``), played ``--runs`` times with
  the feed and as many without, in turns, from the same seed. With the feed, every
  picture (``HandPicture.picture_after``) and every write (``LiveFeed``) is timed; the
  server's latency (an answer read to the next prompt written, ``HandOutcome.
  server_latency``: the time the feed adds to, since it is drawn between the two) is
  compared with and without. The bots' clocks never include it: an answer's clock stops
  at the stamp of its line, before the engine sees it.
* ``botzone``, ``noi2014``: ``--games`` games of their sample bots through the turn
  driver (``server.turns.match``), the follower's picture and the write timed per turn.

Prints one table per part; the numbers in bench/README.md ("The live feed") are from it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulesets.default.engine.picture import HandPicture  # noqa: E402
from rulesets.default.match import MatchConfig, Player, run_match  # noqa: E402
from server.output.live import LiveFeed  # noqa: E402


class Timer:
    def __init__(self) -> None:
        self.times: list[float] = []

    def wrap(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            t = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.times.append(time.perf_counter() - t)
        return timed

    def line(self, what: str) -> str:
        if not self.times:
            return f"{what}: none"
        us = sorted(x * 1e6 for x in self.times)
        return (f"{what}: {len(us)} calls, median {statistics.median(us):.0f} us, "
                f"p99 {us[int(0.99 * (len(us) - 1))]:.0f} us, max {us[-1]:.0f} us, "
                f"total {sum(us) / 1000:.1f} ms")


def timed_feed(writes: Timer) -> type[LiveFeed]:
    class TimedFeed(LiveFeed):
        pass

    for name in ("table", "start", "step", "fault", "end", "done"):
        setattr(TimedFeed, name, writes.wrap(getattr(LiveFeed, name)))
    return TimedFeed


def default_part(hands: int, runs: int) -> None:
    players = tuple(Player(n, ("python3", str(ROOT / "sample_ai" / f)))
                    for n, f in (("greedy1", "greedy.py"), ("random1", "random_bot.py"),
                                 ("greedy2", "greedy.py"), ("random2", "random_bot.py")))
    pictures, writes = Timer(), Timer()
    feed_class = timed_feed(writes)
    original = HandPicture.picture_after
    latency: dict[bool, list[float]] = {False: [], True: []}
    walls: dict[bool, list[float]] = {False: [], True: []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(2 * runs):
            on = run % 2 == 1
            root = Path(tmp) / f"run{run}"
            HandPicture.picture_after = pictures.wrap(original) if on else original  # type: ignore[method-assign]
            config = MatchConfig(players, seed=2026, groups=max(1, -(-hands // 16)),
                                 log_root=root, hands=hands,
                                 live=feed_class(root / "live.jsonl") if on else None)
            start = time.perf_counter()
            result = trio.run(run_match, config)
            walls[on].append(time.perf_counter() - start)
            for h in result.hands:
                latency[on] += h.outcome.server_latency
    HandPicture.picture_after = original  # type: ignore[method-assign]
    print(f"default: {hands} hands x {runs} runs with the feed and {runs} without")
    print("  " + pictures.line("pictures (per engine batch)"))
    print("  " + writes.line("feed writes (one line each)"))
    for on in (False, True):
        ms = sorted(x * 1000 for x in latency[on])
        print(f"  server latency {'with' if on else 'without'} the feed: {len(ms)} prompts, "
              f"median {statistics.median(ms):.3f} ms, p95 {ms[int(0.95 * (len(ms) - 1))]:.3f}"
              f" ms; match wall {statistics.mean(walls[on]):.2f} s")


def turn_part(ruleset: str, games: int) -> None:
    if ruleset == "botzone":
        from rulesets.botzone import formats
        from rulesets.botzone.rules import BotzoneFollower, BotzoneRules, game_header
        follower: Any = BotzoneFollower
        rules: Any = BotzoneRules("classic")
        plans = formats.duplicate(5, 1, games)
        header: Any = game_header
        samples = ROOT / "sample_ai" / "botzone"
        dialect: Any = None
    else:
        from rulesets.noi2014 import formats as noi_formats
        from rulesets.noi2014.rules import NoiFollower, NoiRules
        from server.bots.botzone_io import NOI2014
        follower, rules = NoiFollower, NoiRules()
        plans = noi_formats.rounds(5, 1, games)
        header = noi_formats.game_header
        samples = ROOT / "sample_ai" / "noi2014"
        dialect = NOI2014
    from server.bots.botzone_bots import Bots
    from server.seam.contract import CommandArgs
    from server.turns.match import TurnMatch, TurnPlayer, run_turn_match

    pictures, writes = Timer(), Timer()
    original = follower.picture
    follower.picture = pictures.wrap(original)
    specs = [f"json+keep-running:python3 {samples / b} --keep-running"
             for b in ("greedy_bot.py", "random_bot.py", "greedy_bot.py", "random_bot.py")]
    args = CommandArgs({"time_limit": None, "sandbox": "none"})
    bots = Bots.from_args(specs, args) if dialect is None else \
        Bots.from_args(specs, args, dialect=dialect)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / ruleset
        match = TurnMatch(ruleset, [TurnPlayer(s, s) for s in specs], plans, rules, bots.opener,
                          root, header=header, live=timed_feed(writes)(root / "live.jsonl"))
        start = time.perf_counter()
        trio.run(run_turn_match, match)
        wall = time.perf_counter() - start
    follower.picture = original
    print(f"{ruleset}: {len(plans)} games of the sample bots, {wall:.2f} s")
    print("  " + pictures.line("pictures (per turn)"))
    print("  " + writes.line("feed writes (one line each)"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--part", choices=("default", "botzone", "noi2014"), action="append")
    a = parser.parse_args()
    for part in a.part or ("default", "botzone", "noi2014"):
        if part == "default":
            default_part(a.hands, a.runs)
        else:
            turn_part(part, a.games)


if __name__ == "__main__":
    main()
