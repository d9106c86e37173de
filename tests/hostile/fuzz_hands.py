"""Hands of four fuzzing peers, in-process and in virtual time: no exception may escape.

    python -m tests.hostile.fuzz_hands START COUNT    prints a JSON summary

Each seat is a ``FuzzPeer``: it answers almost every prompt with a legal move
(mostly the drawbot's, sometimes any legal one, so claims, kongs and wins
happen), and now and then with lines from the protocol's vocabulary or
garbage, silence, an end of output, or a line split across reads. Every hand
must end with its tiles conserved and its settlement balanced.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import trio
import trio.testing

from protocol.messages import Out, Pass, format_line
from rulesets.default.engine.hand import SEATS, Hand
from rulesets.default.engine.rng import deal
from rulesets.default.table import play_hand
from server.bots.seats import TableOptions
from tests.hostile._fuzz import answers, random_line

OPTIONS = TableOptions(hard_limit=1.5, join_limit=2.0)


class NullLog:
    """A logger that drops everything (the table logs every line)."""

    def bind(self, **_: Any) -> NullLog:
        return self

    def debug(self, *_: Any, **__: Any) -> None:
        pass

    info = warning = error = debug


@dataclass
class FuzzPeer:
    """A fuzzing bot as a ``Peer``: mostly a legal move, sometimes noise or silence."""

    label: str
    seat: int
    engine: Hand
    rng: random.Random
    buffer: bytearray = field(default_factory=bytearray)
    closed: bool = False
    eof: bool = False
    ready: trio.Event = field(default_factory=trio.Event)

    def __post_init__(self) -> None:
        self._say([b"join\n" if self.rng.random() < 0.98 else random_line(self.rng)])

    def _say(self, lines: list[bytes]) -> None:
        self.buffer += b"".join(lines)
        if self.rng.random() < 0.0002:
            self.eof = True
        self.ready.set()

    def _legal(self, data: bytes) -> str | None:
        """A legal answer: a claim, kong or win when there is one, else mostly the drawbot's."""
        words = data.split(b"\r\n")[-2].decode().split()
        if words[0] in ("mout", "mjgang") and self.rng.random() < 0.6:
            return "pass"  # (saves working out every claim: the server's time is what counts)
        legal = self.engine.legal_answers(self.seat)
        if not legal:
            return None
        bold = [m for m in legal if not isinstance(m, (Out, Pass))]
        if bold and self.rng.random() < 0.7:  # claim, kong or win whenever it may
            return format_line(self.rng.choice(bold))
        if words[0] == "pick" and self.rng.random() < 0.8:
            return f"out {words[1]}"
        return format_line(self.rng.choice(legal))

    def send_nowait(self, data: bytes) -> int:
        if self.closed:
            raise trio.ClosedResourceError("closed")
        if self.seat in self.engine.waiting:
            self._say(answers(self.rng, self._legal(data)))
        elif self.rng.random() < 0.01:
            self._say([random_line(self.rng)])
        return len(data)

    async def send(self, data: bytes) -> None:
        self.send_nowait(data)
        await trio.lowlevel.checkpoint()

    async def receive_some(self) -> bytes:
        while not self.buffer and not self.eof:
            if self.closed:
                raise trio.ClosedResourceError("closed")
            self.ready = trio.Event()
            await self.ready.wait()
        cut = len(self.buffer)
        if cut > 1 and self.rng.random() < 0.05:  # a line split across reads
            cut = self.rng.randrange(1, cut)
        data = bytes(self.buffer[:cut])
        del self.buffer[:cut]
        return data

    async def close(self) -> None:
        self.closed = True
        self.ready.set()


async def fuzz(start: int, count: int) -> dict[str, Any]:
    rng = random.Random(start)
    causes: Counter[str] = Counter()
    wins = 0
    for n in range(start, start + count):
        d = deal(20261122, n)
        engine = Hand(d.wall, d.first)
        peers = [FuzzPeer(f"seat{s}", s, engine, rng) for s in range(SEATS)]
        outcome = await play_hand(engine, peers, OPTIONS, NullLog())
        for peer in peers:
            await peer.close()
        result = engine.result
        assert engine.finished and result is not None, f"hand {n} did not end"
        assert sum(result.deltas) == 0, f"hand {n}: settlement {result.deltas}"
        census = engine.census()
        assert census == [4] * len(census), f"hand {n}: tiles {census}"
        causes.update(cause.split(":")[0] for cause in outcome.faults.values())
        wins += result.winner is not None
    return {"hands": count, "faults": sum(causes.values()), "wins": wins, "causes": causes}


def main() -> None:
    start, count = int(sys.argv[1]), int(sys.argv[2])
    clock = trio.testing.MockClock(autojump_threshold=0)
    print(json.dumps(trio.run(fuzz, start, count, clock=clock)))


if __name__ == "__main__":
    main()
