"""A fingerprint of what the Botzone training environment does, to check that a speed-up
changes nothing.

    .venv/bin/python bench/same_results_botzone.py             # 300 games per variant
    .venv/bin/python bench/same_results_botzone.py --games 50

Plays games through ``rulesets.botzone.env.env`` (PettingZoo's loop, seeds
0..GAMES-1, HU whenever it is legal, else a random legal action from a fixed
``random.Random``) and prints, per variant, the decisions, the ends, and a SHA-256 of
everything an agent sees and of the game's record: at every step the agent, its
observation (the default encoding and the course's 6x4x9), its action mask, reward,
termination and info, and at the end the game's record as ``write_log`` writes it
(every request, response and judge output). Run it before and
after a change to the environment, the seat view or the judge: the outputs must be
identical. It runs the same on the plain and the compiled build
(``tools/build_mypyc.py``), which is how the compiled one is checked.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.botzone.encoders import CourseFeatures
from rulesets.botzone.env import env
from rulesets.botzone.seat_view import HU


def play_games(make: Callable[[], Any], games: int, hu: int,
               seen: Callable[[Any, str], bytes] | None = None,
               end_of: Callable[[Any, dict[str, Any]], tuple[bytes, str]] = (
                   lambda game, record: (b"", "")),
               ) -> tuple[int, dict[str, int], str]:
    """(steps, ends, SHA-256) of ``games`` games of ``make()``, seeds 0..games-1.

    Every step adds the agent, reward, termination, info, observation and mask (and
    ``seen(game, agent)``, if given) to the digest; HU (action ``hu``) whenever it is
    legal, else a random legal action. Each game's record ends it; ``end_of`` names how
    the game ended. Shared with ``same_results_noi2014.py``."""
    digest = hashlib.sha256()
    rng = random.Random(7)
    steps = 0
    ends: dict[str, int] = {}
    for seed in range(games):
        game = make()
        game.reset(seed=seed)
        for agent in game.agent_iter():
            obs, reward, term, trunc, info = game.last()
            mask = obs["action_mask"]
            digest.update(repr((agent, reward, term, trunc, sorted(info.items()))).encode())
            digest.update(obs["observation"].tobytes())
            digest.update(mask.tobytes())
            if seen is not None:
                digest.update(seen(game, agent))
            if term or trunc:
                game.step(None)
                continue
            legal = [a for a in range(len(mask)) if mask[a]]
            game.step(hu if hu in legal else legal[rng.randrange(len(legal))])
            steps += 1
        record = game.unwrapped.record()
        digest.update(json.dumps(record, sort_keys=True).encode())
        more, end = end_of(game, record)
        digest.update(more)
        ends[end] = ends.get(end, 0) + 1
    return steps, ends, digest.hexdigest()


def play(variant: str, games: int) -> tuple[int, dict[str, int], str]:
    """(steps, ends, SHA-256) of ``games`` games of ``variant``."""
    course = CourseFeatures()
    return play_games(
        lambda: env(variant=variant), games, HU,
        seen=lambda game, agent: course.encode(game.unwrapped.view(agent)).tobytes(),
        end_of=lambda game, record: (b"", str(record["judge"][-1]["display"].get("action"))))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per variant")
    args = parser.parse_args(argv)
    if args.games < 1:
        print("same_results_botzone: --games must be at least 1", file=sys.stderr)
        return 2
    for variant in ("duplicate", "classic"):
        steps, ends, digest = play(variant, args.games)
        print(f"{variant}: {args.games} games, {steps} decisions, ends "
              f"{dict(sorted(ends.items()))}, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
