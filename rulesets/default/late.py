"""Late answers: which answers of a hand were fined for their time, and at which step.

A hand keeps one timing per answer the engine took (``HandOutcome.timings``: seat,
ms, limit, and the host's share of a host stall) and one input per answer, with
the number of events before it (``Input.after``: the step its answer was due
after). A seat's timings and its answered inputs come in the same order (a
fault's own timing, if any, comes last and answers nothing), so pairing them
gives each fined answer its step: the console says the first of a bot's late
answers when it happens, and the hand page marks every one at its step.

Pure: it reads a finished hand's data, live or from its ``events.jsonl``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulesets.default.engine.hand import REJECTED_INPUT
from scoring.settlement import fine_for


@dataclass(frozen=True, slots=True)
class LateAnswer:
    seat: int
    step: int  # events before it: the step the page shows it at
    ms: float  # from the prompt to the answer
    limit: int  # ms
    fine: int  # points, after the host's share was taken off
    host_ms: float = 0.0  # the time the machine held it up (a host stall), taken off

    def said(self) -> str:
        """How late it was, and its fine, in words."""
        held = f", {self.host_ms:.0f} ms of it the machine's" if self.host_ms else ""
        return (f"answered in {self.ms:.0f} ms (limit {self.limit} ms{held}): fined "
                f"{self.fine}")


def fine_after_host(elapsed_ms: float, limit_ms: int, host_ms: float) -> int:
    """The fine of an answer of which the host held up ``host_ms``."""
    return fine_for(round(elapsed_ms, 3) - round(host_ms, 3), limit_ms)


def late_answers(inputs: Iterable[tuple[int, str, int]],
                 timings: Sequence[Sequence[float]]) -> list[LateAnswer]:
    """The fined answers of a hand, in order, from its inputs (seat, fault, after) and
    its timings (seat, ms, limit[, host ms])."""
    steps: dict[int, list[int]] = {}
    for seat, fault, after in inputs:
        if fault in ("", REJECTED_INPUT):  # an answer the bot gave (not a fault, no autoplay)
            steps.setdefault(seat, []).append(after)
    taken: dict[int, int] = {}
    late: list[LateAnswer] = []
    for timing in timings:
        seat, ms, limit = int(timing[0]), float(timing[1]), int(timing[2])
        host = float(timing[3]) if len(timing) > 3 else 0.0
        n = taken.get(seat, 0)
        own = steps.get(seat, [])
        if n >= len(own):
            continue  # a fault's timing: said as a fault
        taken[seat] = n + 1
        fine = fine_after_host(ms, limit, host) if host else fine_for(ms, limit)
        if fine:
            late.append(LateAnswer(seat, own[n], ms, limit, fine, host))
    return late
