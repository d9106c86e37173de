"""Random answers drawn from the protocol's vocabulary and from garbage."""

import random

KEYWORDS = ("join", "pass", "hu", "peng", "gang", "out", "chi", "agang", "jgang", "qgang")
TILES = [f"{n}{s}" for s in "MST" for n in range(1, 10)] + list("ESWNZFB")
GARBAGE = (b"", b"\r", b"out", b"out 0M", b"out 1M 2M", b"OUT 1M", b"chi Z", b"pass pass",
           b"\xff\xfe", b"\x00\x07\x1b", b"join join", b"mout 0 1M", b"  out 1M", b"hu\t",
           b"x" * 5000)


def random_line(rng: random.Random) -> bytes:
    """One line, newline included: a protocol word (maybe with a tile), or garbage."""
    roll = rng.random()
    if roll < 0.75:
        word = rng.choice(KEYWORDS)
        if word in ("out", "chi", "agang", "jgang") or rng.random() < 0.05:
            word += " " + rng.choice(TILES)
        return word.encode() + rng.choice((b"\n", b"\r\n"))
    if roll < 0.97:
        return rng.choice(GARBAGE) + b"\n"
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) + b"\n"


def answers(rng: random.Random, legal: str | None) -> list[bytes]:
    """What the fuzzer says on a prompt: usually ``legal`` (when given), else noise."""
    out: list[bytes] = []
    if legal is not None and rng.random() < 0.9995:
        out.append(legal.encode() + b"\n")
    while rng.random() < 0.002:
        out.insert(rng.randrange(len(out) + 1), random_line(rng))
    return out
