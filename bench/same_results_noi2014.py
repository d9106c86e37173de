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
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.same_results_botzone import play_games
from rulesets.noi2014.env import env
from rulesets.noi2014.seat_view import HU


def _end(game: Any, record: dict[str, Any]) -> tuple[bytes, str]:
    """Each seat's protocol history (after the record, in the digest); how it ended."""
    raw = game.unwrapped
    histories = json.dumps([raw.history(a) for a in raw.possible_agents]).encode()
    return histories, str(record["judge"][-1]["result"]["end"])


def play(games: int) -> tuple[int, dict[str, int], str]:
    """(steps, ends, SHA-256) of ``games`` games."""
    return play_games(env, games, HU, end_of=_end)


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
