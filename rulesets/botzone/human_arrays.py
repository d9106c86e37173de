"""Human match records as training arrays, with the project's own encoders.

Every decision of a seat with a real choice (the training environment's
deciders: a draw, a discard it may claim, a kong it may rob, its discard after
its PENG or CHI) becomes one row: the encoder's observation of the seat's view,
the mask of the judge's legal actions, and the action the record says it took
(a claim an ``Ignore`` clause lists included: the seat chose it). A match the
judge disagrees with (``human_judge.judge_match``) gives no rows; it is counted
and said. Chunks of matches are converted independently (``convert_blocks``),
so they spread over processes and the rows come back in the file's order.

The seam for other layouts (the course's own ``preprocess.py`` arrays through
``CourseAgent``): an encoder is a name in ``ENCODERS`` (any object with
``shape`` and ``encode(view)``), and a converter of another kind reads the same
parsed matches (``human.parse_match``) and the same decisions, in order
(``judge_match``'s observer: the seat, its ``SeatView`` and the action taken).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

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
    """The rows of some matches, stacked (one array each travels back from a process),
    and what could not be converted."""

    obs: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    seats: np.ndarray
    matches: np.ndarray  # each row's match, its index in the file
    match_ids: list[str]
    problems: list[str]


def convert_blocks(blocks: Sequence[Block], first: int, encoder_name: str) -> Chunk:
    """The rows of ``blocks``, the matches ``first``, ``first + 1``... of a file."""
    encoder = ENCODERS[encoder_name]()
    obs: list[np.ndarray] = []
    masks: list[bytes] = []
    actions: list[int] = []
    seats: list[int] = []
    matches: list[int] = []
    match_ids: list[str] = []
    problems: list[str] = []
    for k, block in enumerate(blocks):
        try:
            match = parse_match(block)
        except HumanFormatError as error:
            match_ids.append("")
            problems.append(str(error))
            continue
        match_ids.append(match.match_id)
        rows: list[tuple[np.ndarray, bytes, int, int]] = []

        def observe(seat: int, view: SeatView, action: int,
                    rows: list[tuple[np.ndarray, bytes, int, int]] = rows) -> None:
            rows.append((encoder.encode(view), bytes(view.mask()), action, seat))

        judged = judge_match(match, observe)
        if judged.problem is not None:
            problems.append(f"match {match.match_id}, line {judged.problem.line}: "
                            f"{judged.problem.text}")
            continue
        for row in rows:
            obs.append(row[0])
            masks.append(row[1])
            actions.append(row[2])
            seats.append(row[3])
        matches += [first + k] * len(rows)
    shape = tuple(encoder.shape)
    return Chunk(
        np.stack(obs) if obs else np.zeros((0, *shape), np.float32),
        np.frombuffer(b"".join(masks), dtype=np.int8).reshape(len(masks), N_ACTIONS),
        np.array(actions, dtype=np.int16), np.array(seats, dtype=np.int8),
        np.array(matches, dtype=np.int32), match_ids, problems)


def arrays(chunks: Sequence[Chunk]) -> dict[str, np.ndarray]:
    """The chunks' rows as the arrays of one ``.npz``, in the chunks' order."""
    if not chunks:
        raise ValueError("no chunks")
    return {
        "obs": np.concatenate([c.obs for c in chunks]),
        "mask": np.concatenate([c.masks for c in chunks]),
        "action": np.concatenate([c.actions for c in chunks]),
        "seat": np.concatenate([c.seats for c in chunks]),
        "match": np.concatenate([c.matches for c in chunks]),
        "match_id": np.array([i for c in chunks for i in c.match_ids], dtype=str),
    }


def save(path: Path, data: dict[str, np.ndarray]) -> None:
    """``data`` as a compressed ``.npz`` at ``path``."""
    with path.open("wb") as handle:
        np.savez_compressed(handle, **data)  # type: ignore[arg-type]
