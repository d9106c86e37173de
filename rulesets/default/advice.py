"""What a fault means for the bot's author, read from what its stdout held.

A fault's cause says what the table saw; the lines the protocol did not take
(``ProcessPeer.unread_tail``: the line that faulted the bot, then whatever it
wrote after its fault) often say why, and what to do:

* silent in time (``no-join``, the hard limit) yet a protocol line came once its
  input was closed: the bot wrote it in time but its output is buffered, so it
  reached the server only when the bot exited (the table gives a bot faulted on
  time a moment to exit, ``server.bots.processes.EOF_GRACE``). It is told how
  to flush in its language;
* a line that is no message (``malformed: unknown keyword``, or a first line
  that is not ``join``): debug text on stdout. The offending line is shown as
  the problem, what came after it as context, and where debug output belongs.

The cause itself (in the logs, for ``server verify``) is unchanged: this is what
the console and ``server check-bot`` add to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from protocol.messages import Join, MalformedLine, parse_from_ai
from rulesets.default.engine.hand import is_hard_limit
from server.bots.advice import flush_advice, stderr_advice
from server.output.say import last_lines

SHOWN = 80  # characters of a line quoted in the advice


def buffered_line(cause: str, unread: bytes) -> str | None:
    """The protocol line a bot faulted for silence wrote too late to be read in time
    (its output was buffered), or None."""
    if cause != "no-join" and not is_hard_limit(cause):
        return None
    for line in _lines(unread):
        message = _message(line)
        if message is not None and (cause == "no-join") == isinstance(message, Join):
            return line
    return None


def fault_advice(cause: str, argv: Sequence[str], unread: bytes) -> str:
    """What to add to a fault line for the bot's author ("" when nothing): it replaces
    the end of its stdout, which it quotes where that helps."""
    late = buffered_line(cause, unread)
    if late is not None:
        limit = "join limit" if cause == "no-join" else "hard limit"
        return (f"its output is buffered: it wrote {late!r}, but the line reached "
                f"the server only when it exited, after the {limit}; {flush_advice(argv)}")
    lines = _lines(unread)
    if not lines or not cause.startswith(("malformed", "no-join: said")):
        return ""
    first, after = lines[0], lines[1:]
    if _message(first) is not None:  # the offending line is no longer in the tail
        return ""
    advice = f"the line was: {first}"
    if "unknown keyword" in cause or cause.startswith("no-join: said"):
        advice += f"; {stderr_advice(argv)}"
    if after:
        advice += f"; after it, its stdout had: {after[-1]}"
    return advice


def _lines(unread: bytes) -> list[str]:
    return last_lines(unread, 50, SHOWN)


def _message(line: str) -> object | None:
    try:
        return parse_from_ai(line)
    except MalformedLine:
        return None
