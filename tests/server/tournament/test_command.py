"""``server tournament``'s reports follow a running tournament: standings.json,
standings.csv and tournament.html are rewritten after every table that ends (in a worker
thread), with the finished table's match report, not only at the end."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from server.cli.app import main
from server.tournament import command
from server.tournament.standings import Standings
from server.tournament.store import Store

ROOT = Path(__file__).resolve().parents[3]


def test_the_reports_are_rewritten_after_every_table(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    bots = tmp_path / "bots.toml"
    bots.write_text("".join(f'[[bot]]\nname = "{name}"\ncommand = "python3 '
                            f'{ROOT}/sample_ai/greedy.py"\n' for name in "abcd"))
    out = tmp_path / "out"
    seen: list[tuple[int, int, bool]] = []  # tables done, hands in standings.json, page
    job = command.reports_job

    def watched(config: command.TournamentConfig, store: Store) -> Callable[[], Standings]:
        done = len(store.plans("done"))
        write = job(config, store)

        def run() -> Standings:
            st = write()
            rows = json.loads((out / "standings.json").read_text())["standings"]
            page = len(list((out / "matches").glob("r*-t*.html"))) == done
            seen.append((done, sum(r["hands"] for r in rows), page))
            return st

        return run

    monkeypatch.setattr(command, "reports_job", watched)
    monkeypatch.setattr(sys, "argv", ["server", "tournament", "--seed", "0",
                                      str(bots), "--out", str(out),
                                      "--format", "round-robin", "--rounds", "2",
                                      "--hands", "1", "--jobs", "1"])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 0
    # after table 1 (its match report written then), after table 2, and at the end
    assert seen == [(1, 4, True), (2, 8, True), (2, 8, True)]
    assert (out / "standings.csv").exists() and (out / "tournament.html").exists()
