"""In-process players for NOI 2014 engine tests: they read the engine's own state
(never a bot's view) to answer legally, or now and then not.

``RandomPlayer(rng, junk)``: legal moves chosen at random, a claim or a win taken
when possible with some probability, and with probability ``junk`` an answer
that is a fault; at ``4`` a valid target (one tile from winning when it can find
one, else a winning hand built at random from the kinds left), or now and then
an invalid one.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from rulesets.noi2014.engine import PASS, PLAYERS, Game
from rulesets.noi2014.hands import is_winning
from rulesets.noi2014.tiles import KINDS, sorted_tiles
from server.seam.contract import Reply

JUNK = ("", "PLAY", "PASS PASS", "HU", "GANG", "PENG B1", "play b1", "{}", "PLAY  B1")


def winning_target(game: Game, seat: int, rng: random.Random) -> str:
    """A valid target for ``seat``: its melds in lower case and a winning rest."""
    hand = game.hands[seat]
    melds = game.melds[seat]
    lower = [m.tile.lower() for m in melds for _ in range(m.size)]
    for kind in KINDS:  # one tile away, if it is
        trial = Counter(hand)
        trial[kind] += 1
        if is_winning(trial, len(melds)) and trial[kind] + game.melded(seat)[kind] <= 4:
            return " ".join(lower + sorted_tiles(trial.elements()))
    while True:
        used = Counter(game.melded(seat))
        tiles: list[str] = []
        ok = True
        for _ in range(4 - len(melds)):
            if rng.random() < 0.5:
                kind = rng.choice(KINDS)
                group = [kind] * 3
            else:
                suit, n = rng.choice("BTW"), rng.randint(1, 7)
                group = [f"{suit}{n + k}" for k in range(3)]
            tiles += group
        tiles += [rng.choice(KINDS)] * 2
        used.update(tiles)
        ok = all(c <= 4 for c in used.values())
        if ok:
            return " ".join(lower + sorted_tiles(tiles))


def _use(hand: Counter[str], tile: str) -> int:
    """How much a tile is worth keeping: copies of it, and neighbours in its suit."""
    suit, n = tile[0], int(tile[1])
    near = sum(hand[f"{suit}{m}"] for m in (n - 2, n - 1, n + 1, n + 2) if 1 <= m <= 9)
    return 3 * (hand[tile] - 1) + near


class RandomPlayer:
    """``eager``: discards its least useful tile instead of a random one, so it wins
    more often (games with several winners)."""

    def __init__(self, rng: random.Random, junk: float = 0.0, eager: bool = False) -> None:
        self.rng = rng
        self.junk = junk
        self.eager = eager

    def answer(self, game: Game, seat: int, request: str) -> Reply:
        rng = self.rng
        if rng.random() < self.junk:
            if rng.random() < 0.3:
                return Reply(rng.choice(("TLE", "RE", "BAD_OUTPUT")), None)
            return Reply("OK", rng.choice(JUNK))
        words = request.split()
        hand = game.hands[seat]
        melds = game.melds[seat]
        if words[0] in ("0", "1") or (words[0] == "3" and words[2] != "PLAY"):
            return Reply("OK", PASS)
        if words[0] == "2":
            if is_winning(hand, len(melds)) and rng.random() < 0.9:
                return Reply("OK", "HU")
            kongs = [k for k in hand if hand[k] == 4 or (hand[k] and any(
                m.kind == "PENG" and m.tile == k for m in melds))]
            if kongs and rng.random() < 0.6:
                return Reply("OK", f"GANG {rng.choice(sorted(kongs))}")
            held = sorted(hand.elements())
            if self.eager:
                return Reply("OK", f"PLAY {min(held, key=lambda t: (_use(hand, t), t))}")
            return Reply("OK", f"PLAY {rng.choice(held)}")
        if words[0] == "3":
            tile = words[3]
            trial = Counter(hand)
            trial[tile] += 1
            if is_winning(trial, len(melds)) and rng.random() < 0.9:
                return Reply("OK", "HU")
            if hand[tile] >= 3 and rng.random() < 0.5:
                return Reply("OK", "GANG")
            if hand[tile] >= 2 and rng.random() < 0.6:
                rest = Counter(hand)
                rest[tile] -= 2
                return Reply("OK", f"PENG {rng.choice(sorted(rest.elements()))}")
            return Reply("OK", PASS)
        if words[0] == "4":
            if rng.random() < 0.1:
                return Reply("OK", rng.choice(("B1 B1", "W9 " * 14, "")).strip())
            return Reply("OK", winning_target(game, seat, rng))
        raise AssertionError(f"unknown request {request!r}")


def play(game: Game, players: list[RandomPlayer], limit: int = 2000) -> int:
    """Play ``game`` to its end; the number of turns."""
    turns = 0
    while not game.finished:
        requests = game.requests()
        replies = [players[s].answer(game, s, r) if r is not None else Reply("OK", None)
                   for s, r in enumerate(requests)]
        game.step(replies)
        turns += 1
        assert turns < limit, "the game does not end"
    return turns


def random_game(seed: int, junk: float = 0.0) -> Game:
    from rulesets.noi2014.tiles import shuffled_wall

    rng = random.Random(seed)
    game = Game(shuffled_wall(seed))
    play(game, [RandomPlayer(rng, junk) for _ in range(PLAYERS)])
    return game


def build_wall(hands: Sequence[Sequence[str] | None], front: Sequence[str] = (),
               back: Sequence[str] = ()) -> list[str]:
    """A wall that deals ``hands`` (seat 0..3, 13 each; None: any 13), then draws ``front``
    in order from the front and ``back`` in order from the back. Tiles not given are
    filled in one copy of each kind at a time, the kinds spread so that runs are rare."""
    pool = Counter({kind: 4 for kind in KINDS})
    wall: list[str | None] = [None] * 108
    seats: list[list[int]] = []
    for seat, hand in enumerate(hands):
        slots = [16 * r + 4 * seat + k for r in range(3) for k in range(4)] + [48 + seat]
        seats.append(slots)
        if hand is None:
            continue
        assert len(hand) == 13, f"seat {seat}: {len(hand)} tiles"
        for slot, tile in zip(slots, hand, strict=True):
            wall[slot] = tile
    for k, tile in enumerate(front):
        wall[52 + k] = tile
    for k, tile in enumerate(back):
        wall[107 - k] = tile
    for tile in wall:
        if tile is not None:
            pool[tile] -= 1
            assert pool[tile] >= 0, f"more than 4 of {tile}"
    spread = [KINDS[i * 10 % len(KINDS)] for i in range(len(KINDS))]  # no runs, no pairs
    rest = [kind for copy in range(4) for kind in spread if pool[kind] > copy]
    order = [slot for slots in seats for slot in slots] + list(range(52, 108))
    for slot in order:
        if wall[slot] is None:
            wall[slot] = rest.pop(0)
    assert not rest
    return [str(tile) for tile in wall]
