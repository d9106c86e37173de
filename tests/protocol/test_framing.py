"""Line framing: bytes in, lines or FramingError values out, bounded memory."""

from __future__ import annotations

import pytest

from protocol.framing import MAX_LINE, FramingError, LineBuffer, decode_line, encode_line


def feed_all(data: bytes) -> list[str | FramingError]:
    buf = LineBuffer()
    return buf.feed(data) + buf.close()


def feed_bytewise(data: bytes) -> list[str | FramingError]:
    buf = LineBuffer()
    out: list[str | FramingError] = []
    for i in range(len(data)):
        out += buf.feed(data[i : i + 1])
    return out + buf.close()


def kinds(items: list[str | FramingError]) -> list[str]:
    """Lines as themselves, errors as 'ERROR', to compare runs."""
    return [x if isinstance(x, str) else "ERROR" for x in items]


# (bytes on the wire, what framing yields): one table, fed whole and byte by byte.
STREAMS = [
    (b"join\n", ["join"]),
    (b"join\nout 1M\n", ["join", "out 1M"]),
    (b"join\r\nout 1M\r\n", ["join", "out 1M"]),
    (b"  out 1M \t\r\n", ["out 1M"]),
    (b"\n", [""]),
    (b"\r\n\r\n", ["", ""]),
    (b"pass", ["pass"]),  # a final line with no newline, returned by close()
    (b"pass\nhu", ["pass", "hu"]),
    (b"out 1M\xc3\xa9\nhu\n", ["ERROR", "hu"]),
    (b"\x00\nhu\n", ["ERROR", "hu"]),
    (b"out\x071M\nhu\n", ["ERROR", "hu"]),
    (b"x" * MAX_LINE + b"\n", ["x" * MAX_LINE]),
    (b"x" * MAX_LINE + b"\r\n", ["x" * MAX_LINE]),
    (b"x" * (MAX_LINE + 1) + b"\nhu\n", ["ERROR", "hu"]),
    (b"x" * (MAX_LINE + 1) + b"\r\nhu\n", ["ERROR", "hu"]),
    (b"x" * (3 * MAX_LINE) + b"\nhu\n", ["ERROR", "hu"]),
    (b"x" * (MAX_LINE + 1), ["ERROR"]),
]


@pytest.mark.parametrize(("data", "expected"), STREAMS)
def test_stream_fed_at_once(data, expected):
    assert kinds(feed_all(data)) == expected


@pytest.mark.parametrize(("data", "expected"), STREAMS)
def test_stream_fed_byte_by_byte(data, expected):
    assert kinds(feed_bytewise(data)) == expected


def test_a_line_split_across_feeds_comes_out_when_complete():
    buf = LineBuffer()
    assert buf.feed(b"mou") == []
    assert buf.pending == 3
    assert buf.feed(b"t 2 9") == []
    assert buf.feed(b"M\r") == []
    assert buf.feed(b"\nmpick") == ["mout 2 9M"]
    assert buf.feed(b" 3\nhu\n") == ["mpick 3", "hu"]
    assert buf.pending == 0


def test_crlf_is_stripped():
    assert LineBuffer().feed(b"out 1M\r\n") == ["out 1M"]


def test_non_ascii_line_is_a_framing_error():
    (error,) = LineBuffer().feed("out 中\n".encode())
    assert isinstance(error, FramingError)
    assert "ASCII" in error.reason
    assert error.raw == "out 中".encode()


@pytest.mark.parametrize(
    "raw",
    [b"\x00", b"out 1M\x00", b"\x07hu", b"\x1b[31mhu", b"hu\x7f", b"out\x0b1M", b"\x0c",
     b"hu\t\x01", b"\tout 1M\x07"],
    ids=repr,
)
def test_control_bytes_give_a_framing_error(raw):
    (error,) = LineBuffer().feed(raw + b"\n")
    assert isinstance(error, FramingError)
    assert "control" in error.reason


def test_framing_error_keeps_at_most_64_bytes_of_the_line():
    (error,) = LineBuffer().feed(b"\x01" * 1000 + b"\n")
    assert isinstance(error, FramingError)
    assert len(error.raw) == 64


def test_line_over_the_cap_is_reported_once_as_soon_as_the_cap_is_passed():
    buf = LineBuffer()
    for _ in range(MAX_LINE):
        assert buf.feed(b"x") == []
    (error,) = buf.feed(b"x")  # byte MAX_LINE + 1
    assert isinstance(error, FramingError)
    assert str(MAX_LINE) in error.reason
    for _ in range(10_000):  # the rest of the oversized line: no second error
        assert buf.feed(b"y") == []
    assert buf.feed(b"zz\nhu\n") == ["hu"]  # framing resumes at the next newline
    assert buf.feed(b"pass\n") == ["pass"]


def test_a_cr_after_a_full_length_line_waits_for_the_newline():
    buf = LineBuffer()
    assert buf.feed(b"x" * MAX_LINE + b"\r") == []
    (error,) = buf.feed(b"x")  # the CR was not a terminator after all
    assert isinstance(error, FramingError)


def test_memory_stays_bounded_for_10_mb_without_a_newline():
    buf = LineBuffer()
    chunk = b"a" * 65536
    errors = []
    for _ in range(10 * 1024 * 1024 // len(chunk)):
        errors += buf.feed(chunk)
        assert buf.pending <= MAX_LINE
    assert len(errors) == 1 and isinstance(errors[0], FramingError)
    assert buf.feed(b"\nhu\n") == ["hu"]


def test_close_returns_a_final_unterminated_line():
    buf = LineBuffer()
    assert buf.feed(b"join\nout 9") == ["join"]
    assert buf.close() == ["out 9"]
    assert buf.close() == []


def test_close_with_nothing_pending_returns_nothing():
    buf = LineBuffer()
    buf.feed(b"hu\n")
    assert buf.close() == []


def test_close_after_an_oversized_line_returns_nothing_more():
    buf = LineBuffer()
    (error,) = buf.feed(b"x" * (MAX_LINE + 10))
    assert isinstance(error, FramingError)
    assert buf.close() == []


def test_close_reports_a_bad_final_line():
    buf = LineBuffer()
    buf.feed(b"hu\xff")
    (error,) = buf.close()
    assert isinstance(error, FramingError)


def test_a_smaller_cap_can_be_set():
    buf = LineBuffer(max_line=8)
    assert buf.feed(b"12345678\n") == ["12345678"]
    (error,) = buf.feed(b"123456789")
    assert isinstance(error, FramingError)


def test_decode_line_strips_one_cr_and_surrounding_blanks():
    assert decode_line(b" pass \r") == "pass"
    assert decode_line(b"x" * MAX_LINE + b"\r") == "x" * MAX_LINE
    assert isinstance(decode_line(b"x" * (MAX_LINE + 1)), FramingError)


def test_encode_line_writes_crlf():
    assert encode_line("mout 2 9M") == b"mout 2 9M\r\n"
