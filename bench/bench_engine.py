"""Engine throughput: in-process hands per second on one core.

    .venv/bin/python bench/bench_engine.py [--hands 400] [--greedy-hands 100] [--repeat 3]
    .venv/bin/python bench/bench_engine.py --profile     # cProfile, grouped by area

Runs ``rulesets.default.engine.simulate.simulate`` (the code behind ``server simulate``)
with four random bots and with four greedy bots, and prints hands per second by
the wall clock and by CPU time (best of ``--repeat`` runs: the CPU figure is the
one to trust on a busy machine). Two more lines say where a random-bot hand's
time goes:

* the engine alone: the same driver (``play_hand``) with trivial bots that
  discard what they draw and pass on everything, so no bot thinks at all;
* a breakdown of random-bot hands, timing every call into the bots
  (``receive``) and, inside it, every call the bots make into ``scoring``.

The issue's target is 1,000 hands per second with random bots on one core.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol.messages import FromAI, MOut, Out, Pass, Pick, ToAI
from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.rng import deal
from rulesets.default.engine.simulate import InProcessBot, play_hand, resolve_bot, simulate

SEED = 2024


@dataclass
class Rate:
    hands: int
    wall: float
    cpu: float

    def __str__(self) -> str:
        return (f"{self.hands / self.wall:8.1f} hands/s wall  {self.hands / self.cpu:8.1f} "
                f"hands/s CPU  ({self.hands} hands, {1000 * self.cpu / self.hands:.2f} ms CPU "
                "per hand)")


def best_of(repeat: int, hands: int, run: Callable[[], object]) -> Rate:
    best: Rate | None = None
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        rate = Rate(hands, time.perf_counter() - wall, time.process_time() - cpu)
        if best is None or rate.cpu < best.cpu:
            best = rate
    assert best is not None
    return best


class Trivial:
    """Discards the tile it draws and passes on everything: the engine's floor."""

    def __init__(self, seed: int = 0) -> None:
        self.pass_ = Pass()

    def receive(self, message: ToAI) -> FromAI | None:
        if type(message) is Pick:
            return Out(message.tile)
        if type(message) is MOut:
            return self.pass_
        return None


def engine_alone(hands: int) -> None:
    for h in range(hands):
        d = deal(SEED, h)
        play_hand(Hand(d.wall, d.first), [Trivial() for _ in range(SEATS)])


# --- where the time goes ---------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.seconds: dict[str, float] = {"bots": 0.0, "scoring": 0.0}
        self.calls: Counter[str] = Counter()

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[label] += time.perf_counter() - start
                self.calls[label] += 1
        return timed


class TimedBot:
    def __init__(self, bot: InProcessBot, clock: Clock) -> None:
        self._receive = clock.wrap("bots", bot.receive)

    def receive(self, message: ToAI) -> FromAI | None:
        reply: FromAI | None = self._receive(message)
        return reply


def breakdown(spec: str, hands: int) -> None:
    """Time random-bot hands, split into bots (with scoring inside) and the rest."""
    import sample_ai.framework
    import sample_ai.greedy
    import sample_ai.random_bot

    clock = Clock()
    patched: list[tuple[Any, str, object]] = []
    for module in (sample_ai.framework, sample_ai.greedy, sample_ai.random_bot):
        for name, value in list(vars(module).items()):
            if callable(value) and str(getattr(value, "__module__", "")).startswith("scoring"):
                patched.append((module, name, value))
                setattr(module, name, clock.wrap("scoring", value))
    factory = resolve_bot(spec)
    try:
        start = time.perf_counter()
        for h in range(hands):
            d = deal(SEED, h)
            bots = [TimedBot(factory(h * SEATS + s), clock) for s in range(SEATS)]
            play_hand(Hand(d.wall, d.first), bots)
        total = time.perf_counter() - start
    finally:
        for module, name, value in patched:
            setattr(module, name, value)
    in_bots, scoring = clock.seconds["bots"], clock.seconds["scoring"]
    rest = total - in_bots
    per = 1000 / hands
    print(f"  breakdown of {hands} {spec}-bot hands (timers add a little to each part):")
    print(f"    total            {total * per:6.2f} ms per hand")
    print(f"    engine + driver  {rest * per:6.2f} ms  ({100 * rest / total:4.1f}%)")
    print(f"    bots' own code   {(in_bots - scoring) * per:6.2f} ms  "
          f"({100 * (in_bots - scoring) / total:4.1f}%; {clock.calls['bots'] / hands:.0f} "
          "messages per hand)")
    print(f"    scoring (bots)   {scoring * per:6.2f} ms  ({100 * scoring / total:4.1f}%; "
          f"{clock.calls['scoring'] / hands:.0f} calls per hand, "
          f"{1e6 * scoring / max(1, clock.calls['scoring']):.1f} us each)")


def profile(spec: str, hands: int) -> None:
    """cProfile of ``simulate``, own time grouped by area (profiling inflates small calls)."""
    prof = cProfile.Profile()
    prof.enable()
    simulate([spec] * SEATS, hands, SEED)
    prof.disable()
    stats = pstats.Stats(prof)
    areas: Counter[str] = Counter()
    for (path, _, name), row in stats.stats.items():  # type: ignore[attr-defined]
        own = row[2]
        if "/rulesets/default/engine/" in path:
            areas["engine (rulesets/default/engine)"] += own
        elif "/sample_ai/" in path:
            areas["bots (sample_ai)"] += own
        elif "/scoring/" in path:
            areas["scoring"] += own
        elif "/protocol/" in path:
            areas["protocol"] += own
        elif path == "~":
            areas[f"builtins ({name})"] += own
        else:
            areas[f"other ({Path(path).name})"] += own
    total = sum(areas.values())
    print(f"cProfile of {hands} {spec} hands, own time by area:")
    for area, own in areas.most_common(12):
        print(f"  {area:60} {own:7.2f} s {100 * own / total:5.1f}%")
    stats.sort_stats("tottime").print_stats(15)


def machine_speed_us() -> float:
    """A yardstick for comparing machines: sum(range(10000)), best of 20, in µs
    (``python3 -m timeit "sum(range(10000))"`` gives the same on any machine)."""
    best = float("inf")
    for _ in range(20):
        start = time.perf_counter()
        for _ in range(100):
            sum(range(10000))
        best = min(best, (time.perf_counter() - start) / 100)
    return best * 1e6


class _Bare:
    """A bot for ``bare_loop``: keeps a hand, discards the tile it draws, passes."""

    __slots__ = ("hand", "wall_left")

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.wall_left = 84

    def receive(self, line: tuple[int, ...]) -> tuple[str, int] | None:
        if line[0] == 1:  # another seat drew
            self.wall_left -= 1
            return None
        if line[0] == 2:  # we drew
            self.hand.append(line[1])
            return ("out", self.hand.pop())
        return ("pass", 0)  # another seat's discard


class _BareTable:
    __slots__ = ("inputs", "waiting")

    def __init__(self) -> None:
        self.inputs: list[tuple[int, object]] = []
        self.waiting: dict[int, int] = {}

    def answer(self, seat: int, reply: object) -> None:
        if self.waiting.pop(seat, None) is not None:
            self.inputs.append((seat, reply))


def bare_loop(hands: int) -> float:
    """ms per hand of a loop with no rules that makes only the calls a hand needs:
    per turn a draw record, 4 lines delivered, the discard answered, 3 discard
    lines delivered and 3 passes answered. The interpreter's floor, not an engine."""
    start = time.process_time()
    for _ in range(hands):
        bots = [_Bare() for _ in range(SEATS)]
        events: list[tuple[str, int, int]] = []
        table = _BareTable()
        answer = table.answer
        for turn in range(84):
            seat = turn % SEATS
            events.append(("pick", seat, turn))
            table.waiting[seat] = 1
            replies = []
            for other in range(SEATS):
                reply = bots[other].receive((2, turn) if other == seat else (1, seat))
                if reply is not None:
                    replies.append((other, reply))
            for other, reply in replies:
                answer(other, reply)
            for other in range(SEATS):
                if other != seat:
                    table.waiting[other] = 1
                    answer(other, bots[other].receive((3, seat, turn)))
    return 1000 * (time.process_time() - start) / hands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=400, help="hands with random bots")
    parser.add_argument("--greedy-hands", type=int, default=100, help="hands with greedy bots")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each; the best counts")
    parser.add_argument("--profile", action="store_true", help="cProfile the random run")
    args = parser.parse_args(argv)
    if args.profile:
        profile("random", args.hands)
        return 0
    print(f"Python {sys.version.split()[0]}, seed {SEED}, best of {args.repeat}; "
          f"this machine runs sum(range(10000)) in {machine_speed_us():.0f} us")
    for spec, hands in (("random", args.hands), ("greedy", args.greedy_hands)):
        def run(spec: str = spec, hands: int = hands) -> None:
            simulate([spec] * SEATS, hands, SEED)
        print(f"4 x {spec:7} {best_of(args.repeat, hands, run)}")
    rate = best_of(args.repeat, args.hands, lambda: engine_alone(args.hands))
    print(f"4 x trivial {rate}  (the engine and driver alone)")
    bare = min(bare_loop(args.hands) for _ in range(args.repeat))
    print(f"a bare loop with the calls of a hand and no rules: {bare:.2f} ms CPU per hand")
    breakdown("random", args.hands)
    return 0


if __name__ == "__main__":
    sys.exit(main())
