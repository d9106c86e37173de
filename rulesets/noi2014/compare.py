"""``server compare`` in NOI 2014's ruleset: one deal is one wall, eight games.

Deal ``index`` of seed S is the wall ``formats.wall_of({"seed": S, "game": index})``, the
wall a match of seed S plays as its game ``index``. The games are played by the shell
(``server.turns.deal``): in-process with the sample AIs' modules (``random``, ``greedy``)
and students' ``file.py:NAME`` objects, as real processes in the contest's dialect when any
bot is a command line (then ``random`` and ``greedy`` run their files, kept running). A
game's score is its place points, 4/3/2/1 (ties averaged).
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulesets.noi2014.rules import NoiRules
from server.bots.botzone_io import MODES, NOI2014
from server.seam.contract import DealRequest, DealScores
from server.seam.errors import InputError
from server.turns.deal import check_turn_deal, play_turn_deal

SAMPLES = {"random": "sample_ai.noi2014.random_bot", "greedy": "sample_ai.noi2014.greedy_bot"}
FOLDER = Path(__file__).resolve().parents[2] / "sample_ai" / "noi2014"
SAMPLE_COMMANDS = {
    name: f"json+keep-running:{sys.executable} {FOLDER / (name + '_bot.py')} --keep-running"
    for name in SAMPLES}
OPPONENTS = ("greedy", "random", "greedy")


def check_deal(request: DealRequest) -> None:
    if request.variant is not None:
        raise InputError("--variant: the noi2014 ruleset has one variant")
    check_turn_deal(request, SAMPLES, SAMPLE_COMMANDS, MODES)


def play_deal(request: DealRequest) -> DealScores:
    return play_turn_deal(request, NoiRules(), {"seed": request.seed, "game": request.index},
                          ruleset="noi2014", samples=SAMPLES, sample_commands=SAMPLE_COMMANDS,
                          modes=MODES, dialect=NOI2014)
