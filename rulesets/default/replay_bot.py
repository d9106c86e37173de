"""Feed a bot the lines one seat received in a recorded hand; compare its answers.

The seat's transcript (``seatS.transcript``) holds every line the server wrote
to it (``>``) and every line it wrote back (``<``), in order. The bot is
started fresh and given the ``>`` lines in that order; wherever the recorded
bot answered, the new bot's next line is read and compared. Lines the new bot
writes where none was recorded are reported as extra. The recorded hand goes
on as recorded whatever the bot answers, so a student reproduces a bad move or
a crash without playing a whole match.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import trio

from protocol.framing import FramingError, LineBuffer, encode_line
from server.bots.processes import ProcessPeer, start_bot
from server.bots.sandbox import BotLimits, absolute_argv

ANSWER_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class Decision:
    prompt: str  # the last line sent before the answer
    recorded: str
    got: str  # the bot's line, or a description of its failure

    @property
    def same(self) -> bool:
        return self.recorded == self.got


@dataclass(slots=True)
class BotReplay:
    decisions: list[Decision] = field(default_factory=list)
    extra: list[tuple[str, str]] = field(default_factory=list)  # (after prompt, bot's line)
    ended_early: str = ""

    @property
    def differences(self) -> int:
        return sum(1 for d in self.decisions if not d.same) + len(self.extra) + (
            1 if self.ended_early else 0)


def read_transcript(path: Path) -> list[tuple[str, str]]:
    """(direction, line) pairs from a seat transcript."""
    out = []
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        parts = raw.strip().split(" ", 2)
        if len(parts) < 2 or parts[1] not in (">", "<"):
            raise ValueError(f"{path}:{number}: not a transcript line: {raw!r}")
        out.append((parts[1], parts[2] if len(parts) > 2 else ""))
    return out


class _Lines:
    def __init__(self, peer: ProcessPeer) -> None:
        self.peer = peer
        self.buffer = LineBuffer()
        self.ready: list[str] = []
        self.closed = False

    async def next(self, seconds: float) -> str | None:
        with trio.move_on_after(seconds):
            while not self.ready and not self.closed:
                data = await self.peer.receive_some()
                items = self.buffer.feed(data) if data else self.buffer.close()
                if not data:
                    self.closed = True
                for item in items:
                    self.ready.append(item if isinstance(item, str) else
                                      f"<{item.reason}>" if isinstance(item, FramingError)
                                      else str(item))
        return self.ready.pop(0) if self.ready else None


async def replay_to_bot(transcript: list[tuple[str, str]], argv: list[str],
                        answer_seconds: float = ANSWER_TIMEOUT,
                        limits: BotLimits | None = None) -> BotReplay:
    """The bot's answers to the transcript's lines; it runs with ``limits`` (a match's
    defaults when None), in a working folder of its own."""
    result = BotReplay()
    work = Path(tempfile.mkdtemp(prefix="mahjong-replay-"))
    peer = await start_bot(absolute_argv(argv), "replay", None, work,
                           limits=limits or BotLimits(), work_dir=work)
    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(peer.drain_stderr)
            lines = _Lines(peer)
            last_prompt = "(start)"
            previous = ">"
            for direction, text in transcript:
                if direction == ">":
                    # Anything the bot wrote unasked comes before this line.
                    while (stray := await lines.next(0.05)) is not None:
                        result.extra.append((last_prompt, stray))
                    try:
                        await peer.send(encode_line(text))
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        result.ended_early = f"the bot stopped reading before {text!r}"
                        break
                    last_prompt = text
                elif previous == "<" and text != "join":
                    pass  # a second line in a row: the recorded bot's own stray line
                else:
                    got = await lines.next(answer_seconds)
                    if got is None:
                        got = "(exited)" if lines.closed else f"(no answer in {answer_seconds:g} s)"
                    result.decisions.append(Decision(last_prompt, text, got))
                    if lines.closed and not lines.ready:
                        detail = peer.exit_detail
                        result.ended_early = "the bot exited" + (f": {detail}" if detail else "")
                        break
                previous = direction
            await peer.close()
    finally:
        await peer.close()
    return result
