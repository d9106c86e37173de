"""A smoke test of ``bench/bench_botzone.py``: each part runs on a little data and its
checks hold (the games played in memory give the recorded outputs; a judge process per
turn is fed Botzone's input and agrees; real bots play a game with every verdict OK)."""

from __future__ import annotations

import importlib.util
import json
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

from tests.datadir import BOTZONE as DATA

ROOT = Path(__file__).resolve().parents[1]

# A judge process as Botzone runs one: it reads {"log", "initdata"} and re-judges the
# whole game so far (our judge stands in for the official one here).
STAND_IN = textwrap.dedent("""\
    import json, sys
    sys.path.insert(0, {root!r})
    from rulesets.botzone.judge import Judge, Reply
    given = json.loads(sys.stdin.read())
    judge = Judge({variant!r}, given["initdata"])
    for replies in given["log"][1::2]:
        judge.step([Reply(replies[str(i)]["verdict"], replies[str(i)]["response"])
                    for i in range(4)])
    print(json.dumps(judge.output(), ensure_ascii=False))
""")


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_botzone",
                                                  ROOT / "bench" / "bench_botzone.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_botzone"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_server_part_plays_seeded_and_recorded_games_without_a_difference(
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    played = bench.server_part(seed=3, games=1)
    rows = [line for line in capsys.readouterr().out.splitlines()
            if line.startswith("| classic") or line.startswith("| duplicate")]
    assert len(rows) == 4
    assert all(row.rstrip(" |").endswith("| 0") for row in rows), rows
    assert [len(played[v]) for v in ("classic", "duplicate")] == [1, 1]


def test_a_judge_process_per_turn_gets_botzones_input_and_agrees(tmp_path: Path) -> None:
    bench = load_bench()
    game = json.loads((DATA / "c18_real_random_bot_re.json").read_text(encoding="utf-8"))
    judge = tmp_path / "judge"
    judge.write_text(f"#!{sys.executable}\n"
                     + STAND_IN.format(root=str(ROOT), variant=game["variant"]))
    judge.chmod(0o755)
    run = bench.official(str(judge), [game], "c18")
    assert run.differences == 0
    assert len(run.turn) == len(run.ours) == len(game["judge"])


def test_real_kept_bots_play_a_whole_game_all_ok() -> None:
    bench = load_bench()
    plans = [bench.GamePlan(1, 1, (0, 1, 2, 3), {"srand": 5}, "game 1")]
    spec = f"json+keep-running:{sys.executable} {bench.DISCARDER} json 1000"
    run = bench.play_bots("kept", [spec] * 4, "duplicate", plans)
    assert run.games == 1 and run.turns > 100
    assert set(run.verdicts) == {"OK"}
