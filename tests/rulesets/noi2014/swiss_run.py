"""``python tests/rulesets/noi2014/swiss_run.py PROGRAM NEW -- server tournament ARGS...``: the real
``server tournament`` command, with one player's program handed in anew at a fixed
point: ``NEW``'s bytes are copied over ``PROGRAM`` the moment round 3 is seated
(after round 2 has ended, before any table of round 3 starts), as a player who
hands in between rounds would. Used by the Swiss acceptance test, so that two runs,
one of them killed and resumed, hand in at the same point."""

from __future__ import annotations

import shutil
import sys
from typing import Any

import server.tournament.runner as runner
from server.cli.app import main

program, new = sys.argv[1], sys.argv[2]
seat = runner.swiss_round


def swiss_round(n: int, seed: int, round_: int, *args: Any, **kwargs: Any) -> Any:
    if round_ == 3:
        shutil.copyfile(new, program)
    return seat(n, seed, round_, *args, **kwargs)


runner.swiss_round = swiss_round  # type: ignore[assignment]
sys.argv = ["server", *sys.argv[sys.argv.index("--") + 2:]]
main()
