"""One line per seeded game of each ruleset: the compiled core and plain Python must agree.

    .venv/bin/python bench/exactness.py simulate 1000            # seeds 0..999
    MAHJONG_PURE=1 .venv/bin/python bench/exactness.py simulate 1000

Prints ``NAME SEED DIGEST`` for every game: DIGEST is the first 16 hex digits of a
SHA-256 of everything the game did, through the public APIs only. The names:

* ``simulate``: one hand of ``server simulate``'s code with four random bots (its
  events, every answer applied, the result: winner, fans, points);
* ``default-env``, ``botzone-duplicate``, ``botzone-classic``, ``noi2014``: one game of
  the ruleset's training environment (``env()``, ``reset(seed=SEED)``, PettingZoo's
  loop with a legal action drawn by ``random.Random(SEED)``): at every step the agent,
  its observation and mask, reward, termination and info, and at the end the game's
  record: the ``record()`` that ``write_log`` writes as JSON (Botzone, NOI 2014; taken
  in memory, since the indenting JSON encoder cost four fifths of a Botzone game
  here), or the hand folder ``write_log`` writes (the default ruleset);
* ``course``: one game of the course drop-in (``rulesets.botzone.course_env``'s
  ``MahjongGBEnv`` with ``CourseAgent``, on its compiled ``CourseTable``), even seeds
  duplicate and odd seeds classic, the wall shuffled by ``random.Random(SEED)``, the
  prevailing wind ``SEED % 4``: every seat's observation and mask at every step, the
  rewards after it.

``tests/test_exactness.py`` runs it twice, compiled and with ``MAHJONG_PURE=1``, and
compares the lines; ``EXACTNESS_GAMES=100000`` makes that the long run
(bench/README.md, "The compiled core against plain Python").
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _simulate(seeds: range) -> Iterator[bytes]:
    from rulesets.default.engine.simulate import check_specs, play_hands

    factories = check_specs(["random"] * 4)
    for seed in seeds:
        for played, record in play_hands(factories, seed, range(1)):
            hand, result = played.hand, played.result
            fans = None if result.fans is None else (result.fans.fans, result.fans.total,
                                                     result.fans.counts)
            yield repr((hand.events, hand.inputs, result.winner, result.kind, result.payer,
                        result.win_tile, fans, result.deltas, played.illegal, played.errors,
                        record.points)).encode()


def _part(value: Any) -> bytes:
    """Bytes that stand for an observation (a dict of arrays, or an array) exactly."""
    if isinstance(value, dict):
        return b"{" + b",".join(key.encode() + b":" + _part(value[key])
                                for key in sorted(value)) + b"}"
    if hasattr(value, "tobytes"):
        kind = (value.dtype.str, value.shape)
        named = _NAMED.get(kind)
        if named is None:
            named = _NAMED[kind] = f"{value.dtype}{value.shape}".encode()
        data: bytes = value.tobytes()
        return named + data
    return repr(value).encode()


_NAMED: dict[tuple[str, tuple[int, ...]], bytes] = {}  # an array's dtype and shape, as text


def _env_games(make: Callable[[], Any], seeds: range) -> Iterator[bytes]:
    with tempfile.TemporaryDirectory(prefix="exactness-") as folder:
        log = Path(folder, "game")  # a file, or (the default ruleset) a hand's folder
        game = make()
        for seed in seeds:
            digest = hashlib.sha256()
            rng = random.Random(seed)
            game.reset(seed=seed)
            for agent in game.agent_iter():
                obs, reward, term, trunc, info = game.last()
                digest.update(repr((agent, reward, term, trunc, sorted(info.items()))).encode())
                digest.update(_part(obs))
                if term or trunc:
                    game.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                game.step(int(legal[rng.randrange(len(legal))]))
            table = game.unwrapped
            if hasattr(table, "record"):  # write_log's JSON, without the indenting encoder
                digest.update(json.dumps(table.record(), ensure_ascii=False).encode())
            else:  # the default ruleset's hand folder: events.jsonl and game.log
                table.write_log(log)
                for part in sorted(log.iterdir()):
                    digest.update(part.name.encode() + part.read_bytes())
            yield digest.digest()


def _course(seeds: range) -> Iterator[bytes]:
    from rulesets.botzone.course_env import CourseAgent, MahjongGBEnv
    from rulesets.botzone.tiles import standard_tiles

    for seed in seeds:
        variant = ("duplicate", "classic")[seed % 2]
        game = MahjongGBEnv({"agent_clz": CourseAgent, "duplicate": variant == "duplicate"})
        digest = hashlib.sha256()
        rng = random.Random(seed)
        wall = standard_tiles(variant)
        rng.shuffle(wall)
        obs = game.reset(seed % 4, " ".join(wall))
        done = False
        while not done:
            actions = {}
            for name in sorted(obs):
                digest.update(name.encode() + _part(obs[name]))
                legal = obs[name]["action_mask"].nonzero()[0]
                actions[name] = int(legal[rng.randrange(len(legal))])
            obs, reward, done = game.step(actions)
            digest.update(repr(sorted(reward.items())).encode())
        yield digest.digest()


def _env(module: str, **options: Any) -> Callable[[range], Iterator[bytes]]:
    def games(seeds: range) -> Iterator[bytes]:
        import importlib

        maker = importlib.import_module(module).env
        return _env_games(lambda: maker(**options), seeds)
    return games


GAMES: dict[str, Callable[[range], Iterator[bytes]]] = {
    "simulate": _simulate,
    "default-env": _env("rulesets.default.env"),
    "botzone-duplicate": _env("rulesets.botzone.env", variant="duplicate"),
    "botzone-classic": _env("rulesets.botzone.env", variant="classic"),
    "noi2014": _env("rulesets.noi2014.env"),
    "course": _course,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    names = [name for name in args[:-1] if name in GAMES]
    if len(args) < 2 or len(names) != len(args) - 1 or not args[-1].isdigit():
        print(f"usage: exactness.py NAME... GAMES (names: {', '.join(GAMES)})",
              file=sys.stderr)
        return 2
    from protocol.compiled import note_plain

    note_plain()  # on stderr, when plain Python: what the run compares with
    seeds = range(int(args[-1]))
    for name in names:
        for seed, fingerprint in zip(seeds, GAMES[name](seeds), strict=True):
            print(name, seed, hashlib.sha256(fingerprint).hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main())
