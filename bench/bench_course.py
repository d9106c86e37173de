"""Side by side with the PKU course's own environment: games per second, one core.

    .venv/bin/python bench/bench_course.py --course PATH              # 3 rounds of 300 walls
    .venv/bin/python bench/bench_course.py --course PATH --games 900 --rounds 5

``PATH`` is a folder holding the course's sample code as a student has it (``env.py``
with ``MahjongGBEnv``, ``feature.py`` with ``FeatureAgent``, ``agent.py``); it is
neither part of this project nor fetched by this script, and it needs the
``MahjongGB`` package (the ``botzone`` extra installs it). A course ``FeatureAgent``
without ``observation_space`` (the supervised handout's) gets gymnasium's spaces.

Both sides play the same walls (duplicate, 136 tiles, the prevailing wind cycling
0-3) with the same seeded random policy over the mask (``numpy.flatnonzero``, one
``random.Random`` draw), through the course's loop: ``reset(prevalentWind,
tileWall)``, then ``step`` until done. Every measurement runs in a fresh process, the
rounds alternate them (course, drop-in, course, drop-in...), each figure is CPU time
(``time.process_time``), and the best and median of the rounds are printed with the
load average. The issue's target: the drop-in at least twice the course's games/s.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TILES = [f"{suit}{n}" for suit in "WBT" for n in range(1, 10)] + \
    [f"F{n}" for n in range(1, 5)] + [f"J{n}" for n in range(1, 4)]


def walls(count: int, seed: int) -> list[tuple[int, str]]:
    """``count`` duplicate walls: (prevailing wind, the 136 tiles as the course takes them)."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        tiles = TILES * 4
        rng.shuffle(tiles)
        out.append((i % 4, " ".join(tiles)))
    return out


def _course_classes(path: str) -> tuple[Any, Any]:
    sys.path.insert(0, path)
    from env import MahjongGBEnv  # the course's code, from --course
    from feature import FeatureAgent

    if not hasattr(FeatureAgent, "observation_space"):  # the supervised handout's agent
        from gymnasium import spaces

        FeatureAgent.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (FeatureAgent.OBS_SIZE, 4, 9)),
            "action_mask": spaces.Box(0, 1, (FeatureAgent.ACT_SIZE,))})
        FeatureAgent.action_space = spaces.Discrete(FeatureAgent.ACT_SIZE)
    return MahjongGBEnv, FeatureAgent


def _ours() -> tuple[Any, Any]:
    sys.path.insert(0, str(ROOT))
    from rulesets.botzone.course_env import CourseAgent, MahjongGBEnv

    return MahjongGBEnv, CourseAgent


def child(side: str, course: str, games: int, seed: int) -> dict[str, Any]:
    """One measurement: the games of ``walls(games, seed)`` played by ``side``."""
    import numpy as np

    env_class, agent_class = _course_classes(course) if side == "course" else _ours()
    env = env_class({"agent_clz": agent_class, "duplicate": True})
    rng = random.Random(seed)
    played = walls(games, seed)
    steps = 0
    scores: list[float] = []
    start = time.process_time()
    for quan, wall in played:
        obs = env.reset(quan, wall)
        done = False
        reward: dict[str, float] = {}
        while not done:
            actions = {name: int(rng.choice(np.flatnonzero(o["action_mask"])))
                       for name, o in obs.items()}
            obs, reward, done = env.step(actions)
            steps += 1
        scores.append(sum(abs(v) for v in reward.values()))
    cpu = time.process_time() - start
    return {"games": games, "steps": steps, "cpu": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--course", required=True,
                        help="the folder of the course's env.py, feature.py, agent.py")
    parser.add_argument("--games", type=int, default=300, help="walls per measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", choices=["course", "ours"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.course, args.games, args.seed)))
        return
    course = Path(args.course).resolve()
    missing = [name for name in ("env.py", "feature.py", "agent.py")
               if not (course / name).is_file()]
    if missing:
        parser.error(f"{course} holds no {', '.join(missing)}: point --course at the folder "
                     "of the course's sample code")
    results: dict[str, list[dict[str, Any]]] = {"course": [], "ours": []}
    for round_ in range(args.rounds):
        for side in ("course", "ours"):
            command = [sys.executable, __file__, "--child", side, "--course", str(course),
                       "--games", str(args.games), "--seed", str(args.seed)]
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode:
                sys.exit(f"the {side} side failed:\n{done.stderr[-2000:]}")
            result = json.loads(done.stdout.splitlines()[-1])
            results[side].append(result)
            print(f"round {round_ + 1} {side:6}: {result['games'] / result['cpu']:7.1f} games/s "
                  f"{result['steps'] / result['cpu']:9.0f} steps/s", flush=True)
    print(f"\n{args.games} walls, {args.rounds} rounds, load average "
          f"{os.getloadavg()[0]:.2f}; CPU time")
    best: dict[str, float] = {}
    for side, label in (("course", "course env + FeatureAgent"),
                        ("ours", "drop-in MahjongGBEnv + CourseAgent")):
        rates = [r["games"] / r["cpu"] for r in results[side]]
        steps = [r["steps"] / r["cpu"] for r in results[side]]
        best[side] = max(rates)
        print(f"{label:36} best {max(rates):7.1f} median {statistics.median(rates):7.1f} "
              f"games/s; median {statistics.median(steps):8.0f} steps/s")
    print(f"drop-in / course: {best['ours'] / best['course']:.2f} x (best against best)")


if __name__ == "__main__":
    main()
