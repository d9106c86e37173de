"""Botzone's deals for ``server compare`` (rulesets/botzone/compare.py, through the seam)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.botzone.compare import initdata
from server.seam.contract import DealRequest
from server.seam.errors import InputError
from server.seam.registry import load

RANDOMS = ("random", "random", "random")


def request(candidate: str, baseline: str, index: int = 0, opponents: tuple[str, ...] = RANDOMS,
            variant: str | None = None) -> DealRequest:
    return DealRequest(index, 5, candidate, baseline, opponents, variant)


def test_a_deal_is_botzones_initdata_from_the_seed_and_index() -> None:
    assert initdata(5, 0) == initdata(5, 0) != initdata(5, 1)
    assert set(initdata(5, 0)) == {"srand"}


@pytest.mark.parametrize("variant", ["classic", "duplicate"])
def test_the_same_bot_in_both_halves_scores_the_same_in_every_seat(variant: str) -> None:
    """The sample AIs decide from the history alone: on the same deal, against the same
    opponents in the same places, the two halves are the same games."""
    ruleset = load("botzone")
    for index in range(2):
        got = ruleset.play_deal(request("random", "random", index, variant=variant))
        assert len(got.candidate) == 4 and got.candidate == got.baseline
        assert got.faults == (0, 0)


def test_a_python_file_object_plays_in_process_and_its_crash_is_its_fault(tmp_path: Path
                                                                          ) -> None:
    bot = tmp_path / "mine.py"
    bot.write_text(
        "from sample_ai.botzone.random_bot import respond as _random\n"
        "class Mine:\n"
        "    def __init__(self, seed=0):\n        self.seed = seed\n"
        "    def respond(self, requests, responses):\n        return _random(requests, responses)\n"
        "class Broken:\n"
        "    def respond(self, requests, responses):\n        raise RuntimeError('oops')\n",
        encoding="utf-8")
    ruleset = load("botzone")
    ruleset.check_deal(request(f"{bot}:Mine", f"{bot}:Broken"))
    got = ruleset.play_deal(request(f"{bot}:Mine", f"{bot}:Broken"))
    same = ruleset.play_deal(request("random", "random"))
    assert got.candidate == same.candidate
    assert got.faults == (0, 4) and "oops" in got.notes[0]
    assert all(score < 0 for score in got.baseline)  # a runtime error is a penalty


def test_bad_bots_and_variants_are_refused_before_a_game() -> None:
    ruleset = load("botzone")
    with pytest.raises(InputError, match="variant"):
        ruleset.check_deal(request("random", "random", variant="riichi"))
    with pytest.raises(InputError, match="no file"):
        ruleset.check_deal(request("nowhere.py:Bot", "random"))
    with pytest.raises(InputError, match="3 bots"):
        ruleset.check_deal(request("random", "random", opponents=("random",)))
    with pytest.raises(InputError, match="in-process only"):
        ruleset.check_deal(request("tests/x.py:Bot", "python3 bot.py"))
