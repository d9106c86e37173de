#!/usr/bin/env python3
"""The simplest sensible NOI 2014 Mahjong bot: random but always legal.

Read it first: the whole protocol fits in one screen. It

* answers PASS to everything where only PASS is allowed (its seat, its hand,
  the notices of other players' pungs, kongs and wins);
* on a draw (``2 C``) declares HU when its tiles really win, sometimes a kong
  when it holds one, and otherwise discards a random tile (``PLAY X``);
* on another player's discard (``3 P PLAY X``) declares HU when that tile
  completes its hand, and sometimes claims a kong or a pung;
* at the end (``4``) answers a valid target hand: its melds in lower case,
  completed by a simple greedy pick of sets and a pair in upper case.

Its random choices are seeded from the game so far, so the same game replays
the same. It is restarted every turn and rebuilds its tiles from the history:
the deal, its draws, and its own answers (the server does not echo a player's
own moves back to it). The only thing it must infer is whether a claim of
its own was applied: it was, unless the very next request says another player
won on that same discard (a win beats a pung or a kong).

How it talks (the contest's JSON interaction, the default): one line in,
``{"requests": [...], "responses": [...], "data": "", ...}``, one line out,
``{"response": "..."}``. Standard library only: upload this file as it is.

    python3 random_bot.py                 # JSON, restarted every turn
    python3 random_bot.py --simple        # Botzone's simple interaction
    python3 random_bot.py --keep-running  # stay alive between turns (JSON or simple)

``respond(requests, responses)`` is the whole decision, without any I/O.
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections import Counter
from collections.abc import Sequence

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
KINDS = tuple(suit + str(n) for suit in "BTW" for n in range(1, 10))
SETS = 4
# Every set a target may use: the 27 pungs and the 21 runs (no honours in this game).
ALL_SETS = tuple([(kind,) * 3 for kind in KINDS] + [
    tuple(suit + str(n + k) for k in range(3)) for suit in "BTW" for n in range(1, 8)])


# --- winning hands ---------------------------------------------------------------------


def _sets_only(counts: list[int]) -> bool:
    """Whether these counts (27 kinds) split wholly into pungs and runs."""
    i = next((k for k, c in enumerate(counts) if c), -1)
    if i < 0:
        return True
    if counts[i] >= 3:
        counts[i] -= 3
        ok = _sets_only(counts)
        counts[i] += 3
        if ok:
            return True
    if i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in range(3):
            counts[i + k] -= 1
        ok = _sets_only(counts)
        for k in range(3):
            counts[i + k] += 1
        return ok
    return False


def is_winning(hand: Counter[str], melds: int) -> bool:
    """Whether the concealed ``hand`` plus ``melds`` pungs/kongs make 4 sets and a pair."""
    counts = [hand[kind] for kind in KINDS]
    if sum(counts) != 3 * (SETS - melds) + 2 or any(c < 0 for c in counts):
        return False
    for i, c in enumerate(counts):
        if c >= 2:
            counts[i] -= 2
            ok = _sets_only(counts)
            counts[i] += 2
            if ok:
                return True
    return False


# --- this player's view of the game ----------------------------------------------------


class Player:
    """This seat's tiles, rebuilt by replaying the requests and its own answers."""

    def __init__(self) -> None:
        self.seat = -1
        self.hand: Counter[str] = Counter()
        self.melds: list[tuple[str, str]] = []  # ("PENG" | "GANG", tile), in order
        # A claim it made on a discard, until the next request tells whether it was applied.
        self.pending: tuple[str, str, str] | None = None  # (verb, claimed tile, discard)

    def see(self, request: str) -> None:
        """A request arrives."""
        words = request.split()
        if self.pending is not None:
            self._settle(words)
        if not words:
            return
        if words[0] == "0" and len(words) > 1:
            self.seat = int(words[1])
        elif words[0] == "1":
            self.hand = Counter(words[1:])
        elif words[0] == "2" and len(words) > 1:
            self.hand[words[1]] += 1

    def did(self, request: str, response: str) -> None:
        """Its own answer to ``request`` (already seen), as it changes its tiles."""
        words, said = request.split(), response.split()
        if not words or not said:
            return
        if words[0] == "2" and len(said) == 2:
            verb, tile = said
            if verb == "PLAY":
                self.hand[tile] -= 1
            elif verb == "GANG" and self.hand[tile] >= 4:  # a concealed kong
                self.hand[tile] -= 4
                self.melds.append(("GANG", tile))
            elif verb == "GANG":  # the fourth tile added to its own pung
                self.hand[tile] -= 1
                self.melds = [("GANG", t) if (kind, t) == ("PENG", tile) else (kind, t)
                              for kind, t in self.melds]
        elif words[0] == "3" and len(words) == 4 and words[2] == "PLAY" \
                and said[0] in ("PENG", "GANG", "HU"):
            self.pending = (said[0], words[3], said[1] if len(said) > 1 else "")

    def _settle(self, words: list[str]) -> None:
        """Was its claim applied? Only a win by another player on that tile beats it."""
        assert self.pending is not None
        verb, tile, discard = self.pending
        self.pending = None
        if len(words) == 4 and words[0] == "3" and words[2] == "HU" and words[3] == tile:
            return  # someone else won on it
        if verb == "PENG":
            self.hand[tile] -= 2
            self.melds.append(("PENG", tile))
            self.hand[discard] -= 1
        elif verb == "GANG":
            self.hand[tile] -= 3
            self.melds.append(("GANG", tile))

    def tiles(self) -> list[str]:
        return sorted(self.hand.elements(), key=KINDS.index)

    def melded(self) -> Counter[str]:
        """The tiles of its melds, kind by kind."""
        counts: Counter[str] = Counter()
        for kind, tile in self.melds:
            counts[tile] += 4 if kind == "GANG" else 3
        return counts


def replay(requests: Sequence[str], responses: Sequence[str]) -> Player:
    player = Player()
    for i, request in enumerate(requests):
        player.see(request)
        if i < len(responses) and i < len(requests) - 1:
            player.did(request, responses[i])
    return player


# --- the decisions -----------------------------------------------------------------------


def respond(requests: Sequence[str], responses: Sequence[str]) -> str:
    """The answer to ``requests[-1]``, given the whole history of this game."""
    try:
        return _respond(requests, responses)
    except Exception:  # never crash: a safe legal answer instead
        return fallback(requests[-1] if requests else "")


def fallback(request: str) -> str:
    """An answer that is legal whatever the bot believes: the drawn tile back, or PASS."""
    words = request.split()
    if len(words) == 2 and words[0] == "2":
        return "PLAY " + words[1]
    return "PASS"


def _respond(requests: Sequence[str], responses: Sequence[str]) -> str:
    player = replay(requests, responses)
    words = requests[-1].split()
    # Seeded from the history, so replaying a game replays the bot too.
    rng = random.Random(zlib.crc32("\n".join(requests).encode()))
    hand, melds = player.hand, len(player.melds)
    if words[:1] == ["2"] and len(words) == 2:
        if is_winning(hand, melds):
            return "HU"
        kongs = [t for t in KINDS if hand[t] == 4 or (
            hand[t] >= 1 and ("PENG", t) in player.melds)]
        if kongs and rng.random() < 0.3:
            return "GANG " + rng.choice(kongs)
        return "PLAY " + rng.choice(player.tiles())
    if words[:1] == ["3"] and len(words) == 4 and words[2] == "PLAY" \
            and words[1] != str(player.seat):
        tile = words[3]
        with_it = Counter(hand)
        with_it[tile] += 1
        if is_winning(with_it, melds):
            return "HU"
        if hand[tile] >= 3 and rng.random() < 0.3:
            return "GANG"
        if hand[tile] >= 2 and rng.random() < 0.3:
            # Never discard the punged kind: the next request then tells unambiguously
            # whether the pung was applied.
            rest = [t for t in player.tiles() if t != tile]
            if rest:
                return "PENG " + rng.choice(rest)
        return "PASS"
    if words == ["4"]:
        return simple_target(player)
    return "PASS"


def simple_target(player: Player) -> str:
    """A valid target: its melds in lower case, then its concealed tiles and the one
    tile that would win if there is one; if not, sets and a pair chosen greedily to
    keep as many of its concealed tiles as one pick at a time can. Never more than 4
    of a kind in all."""
    used = player.melded()
    lower = [tile.lower() for kind, tile in player.melds
             for _ in range(4 if kind == "GANG" else 3)]
    for kind in KINDS:
        with_it = Counter(player.hand)
        with_it[kind] += 1
        if used[kind] + with_it[kind] <= 4 and is_winning(with_it, len(player.melds)):
            return " ".join(lower + sorted(with_it.elements(), key=KINDS.index))
    rest = Counter(player.hand)
    wanted: list[str] = []
    for _ in range(SETS - len(player.melds)):
        group = max((g for g in ALL_SETS if _room(used, g)), key=lambda g: _kept(g, rest))
        _take(group, used, rest, wanted)
    pair = max(((k, k) for k in KINDS if _room(used, (k, k))), key=lambda g: _kept(g, rest))
    _take(pair, used, rest, wanted)
    return " ".join(lower + sorted(wanted, key=KINDS.index))


def _kept(group: Sequence[str], rest: Counter[str]) -> int:
    """How many of the held tiles ``rest`` the group would keep."""
    return sum(min(n, rest[tile]) for tile, n in Counter(group).items())


def _room(used: Counter[str], group: Sequence[str]) -> bool:
    return all(used[t] + c <= 4 for t, c in Counter(group).items())


def _take(group: Sequence[str], used: Counter[str], rest: Counter[str],
          wanted: list[str]) -> None:
    for tile in group:
        used[tile] += 1
        if rest[tile] > 0:
            rest[tile] -= 1
        wanted.append(tile)


# --- input and output ------------------------------------------------------------------


def read_history(simple: bool) -> tuple[list[str], list[str]]:
    """The first turn's input: every request so far and the bot's earlier answers."""
    if simple:
        # Line 1: the turn number n; then requests and responses alternating, ending
        # with the current request; then a data line and a globaldata line (unused
        # here, but read: a kept bot must not take them for its next request).
        n = int(sys.stdin.readline().strip() or "0")
        lines = [sys.stdin.readline().rstrip("\r\n") for _ in range(2 * n - 1)]
        sys.stdin.readline()
        sys.stdin.readline()
        return lines[0::2], lines[1::2]
    given = json.loads(sys.stdin.readline())
    return [str(r) for r in given["requests"]], [str(r) for r in given["responses"]]


def next_request(line: str, simple: bool) -> str:
    """A keep-running turn's input: the new request alone (JSON: a JSON string, or
    a whole input object)."""
    if simple:
        return line.rstrip("\r\n")
    value = json.loads(line)
    if isinstance(value, dict):
        return str(value["requests"][-1])
    return str(value)


def main(argv: Sequence[str]) -> int:
    simple = "--simple" in argv
    keep_running = "--keep-running" in argv
    try:
        requests, responses = read_history(simple)
    except (ValueError, KeyError, TypeError):
        requests, responses = ["?"], []  # unreadable input: answer PASS
    if not requests:
        requests = ["?"]
    while True:
        answer = respond(requests, responses)
        responses.append(answer)
        print(answer if simple else json.dumps({"response": answer}))
        if not keep_running:
            return 0
        print(KEEP_RUNNING, flush=True)
        # Stopped here; resumed with the next request alone.
        line = sys.stdin.readline()
        if not line:
            return 0
        try:
            requests.append(next_request(line, simple))
        except (ValueError, KeyError, TypeError, IndexError):
            requests.append("?")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
