"""Human match records as training arrays, with the project's own encoders.

Every decision of a seat with a real choice (the training environment's
deciders: a draw, a discard it may claim, a kong it may rob, its discard after
its PENG or CHI) becomes one row: the encoder's observation of the seat's view,
the mask of the judge's legal actions, and the action the record says it took
(a claim an ``Ignore`` clause lists included: the seat chose it). A match the
judge disagrees with (``human_judge.judge_match``) gives no rows; it is counted
and said. Chunks of matches are converted independently (``convert_blocks``),
so they spread over processes and the rows come back in the file's order.

The course's own arrays (its ``preprocess.py`` through ``CourseAgent``) are
another encoder of the same decisions: a name in ``ENCODERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from rulesets.botzone.encoders import CourseFeatures, DefaultEncoder, Encoder
from rulesets.botzone.human import HumanFormatError, parse_match
from rulesets.botzone.human_judge import judge_match
from rulesets.botzone.seat_view import N_ACTIONS, SeatView

ENCODERS: dict[str, Callable[[], Encoder]] = {"default": DefaultEncoder,
                                               "course": CourseFeatures}
Block = Sequence[tuple[int, str]]  # a match's numbered lines


@dataclass
class Chunk:
    """The rows of some matches, and what could not be converted."""

    shape: tuple[int, ...]
    obs: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    matches: list[int] = field(default_factory=list)  # the row's match, its index in the file
    match_ids: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def convert_blocks(blocks: Sequence[Block], first: int, encoder_name: str) -> Chunk:
    """The rows of ``blocks``, the matches ``first``, ``first + 1``... of a file."""
    encoder = ENCODERS[encoder_name]()
    chunk = Chunk(tuple(encoder.shape))
    for k, block in enumerate(blocks):
        index = first + k
        try:
            match = parse_match(block)
        except HumanFormatError as error:
            chunk.match_ids.append("")
            chunk.problems.append(str(error))
            continue
        chunk.match_ids.append(match.match_id)
        rows: list[tuple[np.ndarray, np.ndarray, int, int]] = []

        def observe(seat: int, view: SeatView, action: int,
                    rows: list[tuple[np.ndarray, np.ndarray, int, int]] = rows) -> None:
            rows.append((encoder.encode(view),
                         np.frombuffer(bytes(view.mask()), dtype=np.int8), action, seat))

        judged = judge_match(match, observe)
        if judged.problem is not None:
            chunk.problems.append(f"match {match.match_id}, line {judged.problem.line}: "
                                  f"{judged.problem.text}")
            continue
        for obs, mask, action, seat in rows:
            chunk.obs.append(obs)
            chunk.masks.append(mask)
            chunk.actions.append(action)
            chunk.seats.append(seat)
            chunk.matches.append(index)
    return chunk


def arrays(chunks: Sequence[Chunk]) -> dict[str, np.ndarray]:
    """The chunks' rows as the arrays of one ``.npz``, in the chunks' order."""
    shape = chunks[0].shape if chunks else (0,)
    obs = [o for c in chunks for o in c.obs]
    masks = [m for c in chunks for m in c.masks]
    return {
        "obs": np.stack(obs) if obs else np.zeros((0, *shape), np.float32),
        "mask": np.stack(masks) if masks else np.zeros((0, N_ACTIONS), np.int8),
        "action": np.array([a for c in chunks for a in c.actions], dtype=np.int16),
        "seat": np.array([s for c in chunks for s in c.seats], dtype=np.int8),
        "match": np.array([m for c in chunks for m in c.matches], dtype=np.int32),
        "match_id": np.array([i for c in chunks for i in c.match_ids], dtype=str),
    }
