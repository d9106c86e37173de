"""Side by side with RLCard's Mahjong: hands and environment steps per second, one core.

    .venv/bin/pip install rlcard                     # once: RLCard is not a project dependency
    .venv/bin/python bench/bench_rlcard.py           # 3 rounds, about two minutes
    .venv/bin/python bench/bench_rlcard.py --rounds 5 --seconds 3
    .venv/bin/python bench/bench_rlcard.py --only simulate --only "env default"

Every measurement runs in a fresh process of its own, and the rounds alternate the
measurements (RLCard, ours, RLCard, ours...), so that whatever else loads the machine
hits both alike; each figure is CPU time (``time.process_time``), and the best and
median of the rounds are printed, with the load average. Measured:

* RLCard 1.2's Mahjong (``rlcard.make("mahjong")``): hands per second of
  ``env.run(is_training=False)`` with four ``RandomAgent``s, and steps per second of
  an ``env.step`` loop with a random legal action;
* ours: ``server simulate``'s code (``rulesets.default.engine.simulate.simulate``) with
  four random bots, plain Python, and compiled when the install built the compiled
  core (the plain figure is then taken with ``MAHJONG_PURE=1``, which ignores the
  compiled files: ``protocol.compiled``; so both come from the same checkout in the
  same run);
* our training environments where they exist (``rulesets/<ruleset>/env.py``: Botzone
  classic and duplicate, the default ruleset, NOI 2014), steps per second of
  PettingZoo's loop on ``raw_env`` (``env botzone ...``) and, for Botzone, on
  ``env()`` too (``env() botzone ...``: inside PettingZoo's order-enforcing wrapper),
  with a random legal action from the observation's mask (``mask.nonzero()``, one
  ``random.Random`` draw, as RLCard's loop draws); a missing one is skipped with a note.

The issue's targets: ``simulate`` at 25 times RLCard's hands per second, the Botzone
environment at 10 times RLCard's steps per second.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
INSTALL = "pip install rlcard   (into this venv: .venv/bin/pip install rlcard)"
ENVS: dict[str, tuple[str, dict[str, Any], str]] = {  # label: (module, options, maker)
    "env botzone classic": ("rulesets.botzone.env", {"variant": "classic"}, "raw_env"),
    "env botzone duplicate": ("rulesets.botzone.env", {"variant": "duplicate"}, "raw_env"),
    "env() botzone classic": ("rulesets.botzone.env", {"variant": "classic"}, "env"),
    "env() botzone duplicate": ("rulesets.botzone.env", {"variant": "duplicate"}, "env"),
    "env default": ("rulesets.default.env", {}, "raw_env"),
    "env noi2014": ("rulesets.noi2014.env", {}, "raw_env"),
}


# --- the measurements, each run in a child process ---------------------------------------


def _timed(seconds: float, step: Callable[[int], int]) -> dict[str, float]:
    """Call ``step(i)`` (which returns the units it did) until ``seconds`` of CPU."""
    units, i = 0, 0
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    while time.process_time() - start_cpu < seconds:
        units += step(i)
        i += 1
    return {"units": units, "cpu": time.process_time() - start_cpu,
            "wall": time.perf_counter() - start_wall}


def rlcard_hands(seconds: float) -> dict[str, float]:
    import numpy as np
    import rlcard
    from rlcard.agents import RandomAgent

    np.random.seed(0)
    env = rlcard.make("mahjong", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(4)])

    def hand(i: int) -> int:
        env.run(is_training=False)
        return 1
    return _timed(seconds, hand)


def rlcard_steps(seconds: float) -> dict[str, float]:
    import random

    import rlcard

    env = rlcard.make("mahjong", config={"seed": 0})
    rng = random.Random(0)

    def game(i: int) -> int:
        state, _ = env.reset()
        steps = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        return steps
    return _timed(seconds, game)


def ours_hands(seconds: float) -> dict[str, float]:
    from rulesets.default.engine.simulate import simulate

    def ten(i: int) -> int:
        simulate(["random"] * 4, 10, 1000 + i)
        return 10
    return _timed(seconds, ten)


def env_steps(label: str, seconds: float) -> dict[str, float]:
    import random

    module, options, maker = ENVS[label]
    env = getattr(importlib.import_module(module), maker)(**options)
    rng = random.Random(0)  # as RLCard's loop above: Python's random, one draw a step

    def game(i: int) -> int:
        env.reset(seed=i)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
            env.step(action)
            steps += 1
        return steps
    return _timed(seconds, game)


def child(item: str, seconds: float) -> None:
    sys.path.insert(0, str(ROOT))
    if item == "rlcard hands":
        result = rlcard_hands(seconds)
    elif item == "rlcard steps":
        result = rlcard_steps(seconds)
    elif item == "simulate hands":
        result = ours_hands(seconds)
        from rulesets.default.engine import hand
        result["compiled"] = float(str(hand.__file__).endswith(".so"))
    else:
        result = env_steps(item, seconds)
    print(json.dumps(result))


# --- the parent: plan, alternate, report ---------------------------------------------------


def compiled_build() -> bool:
    sys.path.insert(0, str(ROOT))
    from protocol.compiled import compiled

    return compiled()


def plan(rounds_have_compiled: bool) -> tuple[list[tuple[str, str, bool]], list[str]]:
    """(label, item, plain) of every measurement of a round, and notes of what is skipped."""
    items: list[tuple[str, str, bool]] = [("RLCard hands/s", "rlcard hands", False),
                                         ("RLCard steps/s", "rlcard steps", False)]
    notes: list[str] = []
    modes = [("plain", True), ("compiled", False)] if rounds_have_compiled else [("plain", True)]
    if not rounds_have_compiled:
        notes.append("no compiled core (or MAHJONG_PURE=1): plain Python only")
    for mode, plain in modes:
        items.append((f"simulate hands/s ({mode})", "simulate hands", plain))
    for label, (module, _, _) in ENVS.items():
        if importlib.util.find_spec(module) is None:
            notes.append(f"{label}: skipped, no {module.replace('.', '/')}.py yet")
            continue
        for mode, plain in modes:
            items.append((f"{label} steps/s ({mode})", label, plain))
    return items, notes


def measure(item: str, plain: bool, seconds: float) -> dict[str, float]:
    from protocol.compiled import FORCE

    args = [sys.executable, str(Path(__file__).resolve()), "--child", item,
            "--seconds", str(seconds)]
    env = {**os.environ, FORCE: "1" if plain else ""}  # plain: the compiled core ignored
    done = subprocess.run(args, capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{item}: the measuring process failed:\n{done.stderr[-3000:]}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every measurement")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="CPU seconds per measurement and round")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="measure only this (a label's start: 'simulate', 'env default', "
                             "...; repeatable), beside RLCard's two measurements")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        print("bench_rlcard: --rounds must be at least 1 and --seconds positive",
              file=sys.stderr)
        return 2
    if args.child:
        child(args.child, args.seconds)
        return 0
    if importlib.util.find_spec("rlcard") is None:
        print(f"bench_rlcard: RLCard is not installed; it is not a dependency of the "
              f"project: {INSTALL}", file=sys.stderr)
        return 2
    items, notes = plan(compiled_build())
    if args.only:
        items = [item for item in items if item[0].startswith("RLCard")
                 or any(item[0].startswith(name) for name in args.only)]
    rates: dict[str, list[float]] = {label: [] for label, _, _ in items}
    loads = [os.getloadavg()[0]]
    for r in range(args.rounds):
        for label, item, plain in items:
            result = measure(item, plain, args.seconds)
            rates[label].append(result["units"] / result["cpu"])
        loads.append(os.getloadavg()[0])
        print(f"round {r + 1}/{args.rounds} done, load average {loads[-1]:.2f}",
              file=sys.stderr)
    import platform
    print(f"Python {platform.python_version()}, {args.rounds} rounds of {args.seconds:g} s "
          f"CPU each, alternating; load average (1 min) {min(loads):.2f} - {max(loads):.2f}")
    print(f"{'measurement':44} {'best':>10} {'median':>10}   per CPU second")
    for label, values in rates.items():
        print(f"{label:44} {max(values):10.1f} {statistics.median(values):10.1f}")
    rl_hands = statistics.median(rates["RLCard hands/s"])
    rl_steps = statistics.median(rates["RLCard steps/s"])
    print("ratios of the medians (target: simulate 25 x RLCard hands/s, Botzone env 10 x "
          "RLCard steps/s):")
    for label, values in rates.items():
        if label.startswith("simulate"):
            print(f"  {label:42} {statistics.median(values) / rl_hands:6.1f} x RLCard hands/s")
        elif label.startswith("env"):
            print(f"  {label:42} {statistics.median(values) / rl_steps:6.1f} x RLCard steps/s")
    for note in notes:
        print(f"note: {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
