"""The readable account of a match that ``-v`` prints: one short line per event.

Pure: it turns the structured events the table and the match log (``send``,
``recv``, ``accept``, ``claim``, ``fine``, ``host_stall``, ``fault``,
``unsolicited``, ``hand_start``, ``hand_over``) into aligned plain-text lines,
and every other event into nothing. The events themselves stay structured: the
log folder keeps them as JSON (``server.output.console``).

A line is ``TIME HAND PLAYER SEAT MARK TEXT``::

    09:22:12.800 h1   P1 s1 >            pick 3M
    09:22:12.851 h1   P1 s1 <    50.2 ms out 3M
    09:22:12.851 h1   P1 s1 = discards 3M

Marks: ``>`` a line sent to the bot, ``<`` a line it wrote (with the time
since its prompt when it answers one), ``=`` the answer taken, ``*`` a claim
won, ``?`` a line ignored, ``!`` a fine or a fault, ``#`` a hand's start and
end. Bot lines are untrusted: they are escaped and cut, never interpreted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from server.output.say import one_line

TEXT_WIDTH = 44  # the widest line the server sends (init and 13 tiles) fits
CAUSE_WIDTH = 60

Event = Mapping[str, Any]


def plain(text: object, width: int) -> str:
    """``text`` as printable ASCII (anything else escaped), cut to ``width``."""
    return one_line(str(text), width, ascii_only=True, more="...")


def _who(ev: Event, seat: Any) -> str:
    """``P2 s0``: the player (argument order) and the seat at this table."""
    if not isinstance(seat, int) or not 0 <= seat < 4:
        return "     "
    players = ev.get("players")
    if isinstance(players, Sequence) and len(players) == 4:
        return f"P{players[seat]} s{seat}"
    return f"   s{seat}"


def _message(ev: Event, mark: str) -> str:
    ms = ev.get("ms")
    time = f"{ms:7.1f} ms" if isinstance(ms, int | float) else ""
    return f"{mark} {time:>10} {plain(ev.get('line', ''), TEXT_WIDTH)}"


_ANSWERS = {
    "out": "discards {}", "hu": "declares a win", "agang": "concealed kong of {}",
    "jgang": "adds {} to its pung", "peng": "claims a pung", "gang": "claims a kong",
    "chi": "claims a chow from {}", "pass": "passes", "qgang": "robs the kong",
}


def _accept(ev: Event) -> str:
    words = str(ev.get("line", "")).split()
    verb = _ANSWERS.get(words[0]) if words else None
    if verb is None:
        return f"= accepted {plain(ev.get('line', ''), TEXT_WIDTH)}"
    return "= " + verb.format(plain(" ".join(words[1:]), 8))


_CLAIMS = {"peng": "pungs {}", "gang": "kongs {}", "chi": "chows {}",
           "qgang": "robs the kong of {}"}


def _run(low: str) -> str:
    """``3M`` -> ``3M 4M 5M``: the chow that starts at ``low``."""
    if len(low) == 2 and low[0] in "1234567":
        return " ".join(f"{int(low[0]) + i}{low[1]}" for i in range(3))
    return low


def _claim(ev: Event) -> str:
    kind = str(ev.get("kind"))
    tile = plain(ev.get("tile", ""), 4)
    what = _CLAIMS.get(kind, kind + " {}").format(_run(tile) if kind == "chi" else tile)
    return f"* {what} from {_who(ev, ev.get('source'))}"


def _fine(ev: Event) -> str:
    return (f"! fined {ev.get('points')}: answered in {ev.get('ms')} ms, "
            f"limit {ev.get('limit')} ms")


def _host_stall(ev: Event) -> str:
    return (f"~ host stall: {ev.get('host_ms')} of {ev.get('ms')} ms were the host's, "
            f"fined {ev.get('points')}")


def _fault(ev: Event) -> str:
    return f"! FAULT {plain(ev.get('cause', ''), CAUSE_WIDTH)}"


def _unsolicited(ev: Event) -> str:
    return f"? ignored, not an answer: {plain(ev.get('line', ''), TEXT_WIDTH)}"


def _hand_start(ev: Event) -> str:
    players = ev.get("players")
    seats = (" ".join(f"P{p}" for p in players)
             if isinstance(players, Sequence) else "")
    return (f"# group {ev.get('group')} round {ev.get('round')} deal {ev.get('deal')} "
            f"({plain(ev.get('game_id', ''), 12)}), seats {seats}")


def _hand_over(ev: Event) -> str:
    winner = ev.get("winner")
    if winner is None:
        text = "# draw: the wall is empty, nobody pays"
    else:
        payer = _who(ev, ev.get("payer"))
        how = {"tsumo": "self-drawn", "ron": f"ron from {payer}",
               "qgang": f"robs the kong of {payer}"}
        text = (f"# {_who(ev, winner)} wins: {how.get(str(ev.get('how')), ev.get('how'))}, "
                f"{ev.get('fans')} fan")
    deltas = ev.get("deltas") or []
    fines = ev.get("fines") or [0] * 4
    points = [d - f for d, f in zip(deltas, fines, strict=False)]
    if any(points):
        text += "; by seat " + " ".join(f"{p:+d}" for p in points)
    return text


_EVENTS: dict[str, Callable[[Event], str]] = {
    "send": lambda ev: _message(ev, ">"),
    "recv": lambda ev: _message(ev, "<"),
    "accept": _accept,
    "claim": _claim,
    "fine": _fine,
    "host_stall": _host_stall,
    "fault": _fault,
    "unsolicited": _unsolicited,
    "hand_start": _hand_start,
    "hand_over": _hand_over,
}


def _clock(stamp: str) -> str:
    """An ISO timestamp's time of day to the millisecond. (``isoformat`` leaves out the
    fraction when the microseconds are 0, about once in a million events: sliced by
    position, that line's clock was the date.)"""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return f"{stamp:12.12}"
    return f"{when:%H:%M:%S}.{when.microsecond // 1000:03d}"


def account_line(ev: Event) -> str | None:
    """The account's line for one event, or None for an event it leaves out."""
    render = _EVENTS.get(str(ev.get("event")))
    if render is None:
        return None
    clock = _clock(str(ev.get("timestamp", "")))
    hand = ev.get("hand")
    where = f"h{hand:<3}" if isinstance(hand, int) else "    "
    seat = ev.get("seat") if ev.get("event") not in ("hand_start", "hand_over") else None
    return f"{clock} {where} {_who(ev, seat)} {render(ev)}".rstrip()
