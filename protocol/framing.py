"""Line framing, in one place: buffer bytes, split lines, strip CR, decode, cap.

Pure: the async shell feeds it whatever bytes a pipe or socket gave and gets
back complete lines, or an error value for a line that broke a rule. A line
longer than the cap is an error as soon as the cap is passed, without waiting
for its end, so a bot that writes forever without a newline costs bounded
memory.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_LINE = 4096


@dataclass(frozen=True, slots=True)
class FramingError:
    """A line that cannot be a message: too long, or not printable ASCII."""

    reason: str
    raw: bytes


class LineBuffer:
    """Accumulates bytes; ``feed`` returns the lines completed by them."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self._buf = bytearray()
        self._max = max_line
        self._overflowed = False

    @property
    def pending(self) -> int:
        """Bytes held that do not yet form a line."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[str | FramingError]:
        out: list[str | FramingError] = []
        self._buf += data
        while True:
            end = self._buf.find(b"\n")
            if end < 0:
                # A CR at the end may be the first half of a CRLF terminator.
                limit = self._max + (1 if self._buf.endswith(b"\r") else 0)
                if len(self._buf) > limit and not self._overflowed:
                    out.append(FramingError(f"line longer than {self._max} bytes",
                                            bytes(self._buf[:64])))
                    self._overflowed = True
                if self._overflowed:
                    self._buf.clear()  # discard the rest of the oversized line
                return out
            raw = bytes(self._buf[:end])
            del self._buf[: end + 1]
            if self._overflowed:  # the tail of a line already reported
                self._overflowed = False
                continue
            out.append(decode_line(raw, self._max))

    def close(self) -> list[str | FramingError]:
        """Whatever is left when the stream ends: a final unterminated line."""
        if not self._buf or self._overflowed:
            self._buf.clear()
            return []
        raw = bytes(self._buf)
        self._buf.clear()
        return [decode_line(raw, self._max)]


def decode_line(raw: bytes, max_line: int = MAX_LINE) -> str | FramingError:
    """One line's bytes (without the newline) as text, or why not."""
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if len(raw) > max_line:
        return FramingError(f"line longer than {max_line} bytes", raw[:64])
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        return FramingError("line is not ASCII", raw[:64])
    # Blanks are trimmed or left for the parser to reject; any other control byte,
    # anywhere in the line, is a framing error.
    bad = next((c for c in text if not c.isprintable() and c not in "\t\r"), None)
    if bad is not None:
        return FramingError(f"line holds control byte {bad!r}", raw[:64])
    return text.strip()


def encode_line(text: str) -> bytes:
    """The bytes the server writes for one line (CRLF, as the original)."""
    return text.encode("ascii") + b"\r\n"
