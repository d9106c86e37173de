"""``server compare`` in Botzone's ruleset: one deal is one initdata, eight games.

Deal ``index`` of seed S is Botzone's initdata ``{"srand": R}`` with R derived from S and
the index (``formats.derived_srand``): the judge shuffles the wall and picks the
prevailing wind from it exactly as Botzone's judge does, so a deal replays on Botzone.
The games are played by the shell (``server.turns.deal``): in-process with the sample AIs'
modules (``random``, ``greedy``) and students' ``file.py:NAME`` objects, as real processes
when any bot is a command line (then ``random`` and ``greedy`` run their files, kept
running).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulesets.botzone import formats
from rulesets.botzone.rules import VARIANTS, BotzoneRules
from server.bots.botzone_io import BOTZONE, MODES
from server.seam.contract import DealRequest, DealScores
from server.seam.errors import InputError
from server.turns.deal import check_turn_deal, play_turn_deal

SAMPLES = {"random": "sample_ai.botzone.random_bot", "greedy": "sample_ai.botzone.greedy_bot"}
FOLDER = Path(__file__).resolve().parents[2] / "sample_ai" / "botzone"
SAMPLE_COMMANDS = {
    name: f"json+keep-running:{sys.executable} {FOLDER / (name + '_bot.py')} --keep-running"
    for name in SAMPLES}
OPPONENTS = ("greedy", "random", "greedy")


def variant_of(request: DealRequest) -> str:
    variant = request.variant or "classic"
    if variant not in VARIANTS:
        raise InputError(f"--variant must be {' or '.join(VARIANTS)}, not {variant!r}")
    return variant


def initdata(seed: int, index: int) -> dict[str, int]:
    """The deal's initdata: the judge settles the wall and the wind from its srand."""
    return {"srand": formats.derived_srand(seed, index)}


def check_deal(request: DealRequest) -> None:
    from rulesets.botzone.fans import calculator

    variant_of(request)
    calculator()  # a missing PyMahjongGB: one line now
    check_turn_deal(request, SAMPLES, SAMPLE_COMMANDS, MODES)


def play_deal(request: DealRequest) -> DealScores:
    return play_turn_deal(request, BotzoneRules(variant_of(request)),
                          initdata(request.seed, request.index), ruleset="botzone",
                          samples=SAMPLES, sample_commands=SAMPLE_COMMANDS, modes=MODES,
                          dialect=BOTZONE)
