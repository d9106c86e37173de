"""The tournament's exports: CSV with a byte-order mark (Chinese names intact in Excel),
the per-hand CSV, typed JSON settings, and no path of the machine in any of them."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from server.seam.registry import load
from server.tournament.command import write_all
from server.tournament.entries import fill_in
from server.tournament.exports import (
    CSV_ENCODING,
    HAND_COLUMNS,
    Portable,
    typed,
    typed_settings,
)
from server.tournament.report import COLUMNS
from server.tournament.runner import TournamentConfig
from server.tournament.schedule import TablePlan
from server.tournament.standings import HandRow
from server.tournament.store import Entry, PlayerResult, ProgramRow, Store

BOM = b"\xef\xbb\xbf"


def test_settings_are_typed_numbers_booleans_and_null() -> None:
    assert [typed(v) for v in ("0", "12", "-3", "1.5", "5.0", "true", "False", "", "swiss",
                               "none", "1e3")] == \
        [0, 12, -3, 1.5, 5.0, True, False, None, "swiss", "none", "1e3"]
    settings = typed_settings({"seed": "0", "rounds": "2", "hands": "", "format": "swiss"},
                              Portable())
    assert settings == {"seed": 0, "rounds": 2, "hands": None, "format": "swiss"}
    assert type(settings["seed"]) is int


def test_paths_of_the_machine_become_relative_or_names(tmp_path: Path) -> None:
    out, bots = tmp_path / "out", tmp_path / "class" / "bots.toml"
    portable = Portable.of(out, {"bots": str(bots)})
    assert portable.bots_setting() == "bots.toml"
    assert Portable.of(out, {"bots": str(out / "bots.toml")}).bots_setting() == "bots.toml"
    assert Portable.of(out, {"bots": str(out / "in" / "b.toml")}).bots_setting() == "in/b.toml"
    default = load("default")
    command = ("/usr/bin/python3", str(tmp_path / "class" / "alice" / "bot.py"), "--level",
               "2", str(out / "programs" / "x.py"), "/elsewhere/lib.py")
    assert portable.command(command, default) == [
        "python3", "alice/bot.py", "--level", "2", "programs/x.py", "lib.py"]
    botzone = load("botzone")
    one_word = (f"json+keep-running:python3 {tmp_path}/class/bob.py --keep-running",)
    assert portable.command(one_word, botzone) == [
        "json+keep-running:python3 bob.py --keep-running"]


def _tournament(tmp_path: Path) -> Path:
    """A stored default-ruleset tournament of one table (three bots, one with a Chinese
    name, and a fill-in), two hands, and its reports written as the command writes them."""
    bots_dir = tmp_path / "class"
    bots_dir.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    entries = (Entry("张伟", (sys.executable, str(bots_dir / "zhang.py"))),
               Entry("bob", (sys.executable, str(bots_dir / "bob.py"))),
               Entry("cid", (sys.executable, str(bots_dir / "cid.py"))))
    config = TournamentConfig(entries, "swiss", 7, 1, out, bots=bots_dir / "bots.toml")
    store = Store(out / "tournament.sqlite")
    everyone = [*entries, fill_in(0)]
    store.initialise(config.meta(), everyone)
    plan = TablePlan(1, 1, (0, 1, 2, 3), 99)
    store.schedule([plan])
    points = [(24, -8, -8, -8), (-6, -6, 12, 0)]  # by player, hands 1 and 2
    hands = [HandRow(1, 1, h, 0, h, (p + h) % 4, p, pts[p], 0, False, 0, pts[p] > 0, False)
             for h, pts in enumerate(points) for p in range(4)]
    kinds = ["tsumo" if h == 0 else "ron" for h, _ in enumerate(points) for _ in range(4)]
    totals = [sum(pts[p] for pts in points) for p in range(4)]
    store.finish(plan, [PlayerResult(p, totals[p], 0, 0, 1 if p in (0, 2) else 0, 0, 0, 2)
                        for p in range(4)], hands, kinds,
                 [ProgramRow(1, 1, p, p, everyone[p].command, f"sha256:{p}") for p in range(4)])
    try:
        write_all(config, store)
    finally:
        store.close()
    return out


def test_the_csvs_carry_a_bom_and_read_back_chinese_names_and_their_columns(
        tmp_path: Path) -> None:
    out = _tournament(tmp_path)
    for name in ("standings.csv", "hands.csv"):
        assert (out / name).read_bytes().startswith(BOM), name
    with (out / "standings.csv").open(encoding=CSV_ENCODING, newline="") as f:
        standings = list(csv.reader(f))
    assert tuple(standings[0]) == COLUMNS  # the default ruleset: no rank points
    assert [(r[0], r[1], r[4]) for r in standings[1:]] == [
        ("1", "张伟", "18"), ("2", "cid", "4"), ("3", "bob", "-14")]
    with (out / "hands.csv").open(encoding=CSV_ENCODING, newline="") as f:
        hands = list(csv.DictReader(f))
    assert tuple(hands[0]) == HAND_COLUMNS
    assert len(hands) == 2 * 4
    first = hands[0]
    assert (first["round"], first["table"], first["hand"], first["group"], first["deal"]) == \
        ("1", "1", "1", "1", "1")
    assert [(h["hand"], h["bot"], h["points"], h["won"], h["result"]) for h in hands
            if h["bot"] == "张伟"] == [("1", "张伟", "24", "1", "tsumo"),
                                      ("2", "张伟", "-6", "0", "ron")]
    assert {h["fill_in"] for h in hands if h["bot"] == fill_in(0).name} == {"1"}


def test_standings_json_is_typed_and_names_no_path_of_the_machine(tmp_path: Path) -> None:
    out = _tournament(tmp_path)
    text = (out / "standings.json").read_text(encoding="utf-8")
    data = json.loads(text)
    settings = data["settings"]
    assert settings["seed"] == 7 and settings["rounds"] == 1 and settings["groups"] == 1
    assert settings["hands"] is None and settings["hero"] is None
    assert isinstance(settings["hard_limit"], float) and settings["format"] == "swiss"
    assert settings["bots"] == "bots.toml"
    assert all(not isinstance(v, str) or not v.isdigit() for v in settings.values())
    assert data["standings"][0]["rank_points"] is None
    assert data["programs"][0]["command"] == [Path(sys.executable).name, "zhang.py"]
    for name in ("standings.json", "standings.csv", "hands.csv"):
        assert str(tmp_path) not in (out / name).read_text(encoding="utf-8"), name
