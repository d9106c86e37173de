"""A fingerprint of what the NOI 2014 training environment does, to check that a speed-up
changes nothing.

    .venv/bin/python bench/same_results_noi2014.py             # 300 games
    .venv/bin/python bench/same_results_noi2014.py --games 50

Plays games through ``rulesets.noi2014.env.env`` (PettingZoo's loop, seeds
0..GAMES-1, HU whenever it is legal, else a random legal action from a fixed
``random.Random``) and prints the decisions, the ends, and a SHA-256 of everything an
agent sees and of the game's record: at every step the agent, its observation (the
default encoding), its action mask, reward, termination and info, and at the end the
game's record as ``write_log`` writes it (every request, response and judge output)
and each seat's protocol history. Run it before and after a change to the
environment, the seat view or the engine: the outputs must be identical. It runs the
same on the plain and the compiled build (``tools/build_mypyc.py``), which is how the
compiled one is checked.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rulesets.noi2014.env import env
from rulesets.noi2014.seat_view import HU


def play(games: int) -> tuple[int, dict[str, int], str]:
    """(steps, ends, SHA-256) of ``games`` games."""
    digest = hashlib.sha256()
    rng = random.Random(7)
    steps = 0
    ends: dict[str, int] = {}
    for seed in range(games):
        game = env()
        game.reset(seed=seed)
        for agent in game.agent_iter():
            obs, reward, term, trunc, info = game.last()
            mask = obs["action_mask"]
            digest.update(repr((agent, reward, term, trunc, sorted(info.items()))).encode())
            digest.update(obs["observation"].tobytes())
            digest.update(mask.tobytes())
            if term or trunc:
                game.step(None)
                continue
            legal = [a for a in range(len(mask)) if mask[a]]
            game.step(HU if HU in legal else legal[rng.randrange(len(legal))])
            steps += 1
        raw = game.unwrapped
        record = raw.record()
        digest.update(json.dumps(record, sort_keys=True).encode())
        digest.update(json.dumps([raw.history(a) for a in raw.possible_agents]).encode())
        end = str(record["judge"][-1]["result"]["end"])
        ends[end] = ends.get(end, 0) + 1
    return steps, ends, digest.hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games")
    args = parser.parse_args(argv)
    if args.games < 1:
        print("same_results_noi2014: --games must be at least 1", file=sys.stderr)
        return 2
    steps, ends, digest = play(args.games)
    print(f"noi2014: {args.games} games, {steps} decisions, ends "
          f"{dict(sorted(ends.items()))}, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
