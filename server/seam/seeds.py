"""Reproducible randomness from a text label: the one generator every seeded choice uses.

SHA-256 in counter mode: block ``i`` of a stream is ``sha256(label || ":" || i)``
read as four big-endian 64-bit words. It depends on nothing but ``hashlib``, so
the same label gives the same numbers on every machine and every Python version
(``random``'s algorithms may change). Bounded integers use rejection sampling, so
there is no modulo bias; a shuffle is Fisher-Yates from the last position down.
The default ruleset's deals and the tournament's draws are both streams of it.

Pure; may import nothing of the project.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence
from typing import Final, TypeVar

T = TypeVar("T")


class SeedStream:
    """An endless, reproducible stream of 64-bit words from a text label."""

    def __init__(self, label: str) -> None:
        self._prefix = label.encode("utf-8") + b":"
        self._hashed = hashlib.sha256(self._prefix)  # the prefix, hashed once: copied per block
        self._counter = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        block = self._hashed.copy()
        block.update(str(self._counter).encode())
        digest = block.digest()
        self._counter += 1
        self._words = list(_FOUR_WORDS(digest))[::-1]  # popped from the end: word 0 first

    def next_u64(self) -> int:
        if not self._words:
            self._refill()
        return self._words.pop()

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _LIMITS[n] if n < _KEPT_LIMITS else _SPAN - _SPAN % n
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates from the last position down; ``below`` inlined, as a deal
        draws 135 values and the calls cost more than the hashing."""
        words = self._words
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = _LIMITS[n] if n < _KEPT_LIMITS else _SPAN - _SPAN % n
            while True:
                if not words:
                    self._refill()
                    words = self._words
                x = words.pop()
                if x < limit:
                    break
            j = x % n
            items[i], items[j] = items[j], items[i]


_SPAN: Final = 1 << 64
# Rejection's bound for ``below(n)``: the largest multiple of n that fits in 64 bits. Kept
# for the n of a deal's shuffle (136 tiles, and Botzone's 144), computed beyond.
_KEPT_LIMITS: Final = 160
_LIMITS: Final = tuple(_SPAN - _SPAN % n if n else 0 for n in range(_KEPT_LIMITS))
_FOUR_WORDS: Final = struct.Struct(">4Q").unpack
