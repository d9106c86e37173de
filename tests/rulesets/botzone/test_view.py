"""The Botzone game view, its terminal replay and its HTML page, over the
official judge's games in tests/data/botzone."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import MahjongGB
import pytest
from rich.console import Console

from rulesets.botzone.fan_names import ENGLISH, FAN_NAMES
from rulesets.botzone.page import write_game_page
from rulesets.botzone.records import find_record as read_record
from rulesets.botzone.replay import answer_text, show_game
from rulesets.botzone.view import GameView, TableState, game_view, remaining_walls
from tests.datadir import BOTZONE as DATA
from tests.datadir import botzone_games

FILES = botzone_games()
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]


@cache
def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return data


def _file(prefix: str) -> str:
    (path,) = [f for f in FILES if f.name.startswith(prefix + "_")]
    return path.name


@cache
def _view(name: str) -> GameView:
    return game_view(_record(name))


def _tiles_on_table(view: GameView, state: TableState) -> Counter[str]:
    seen: Counter[str] = Counter()
    for seat in range(4):
        seen.update(state.hands[seat])
        seen.update(t for t in [state.drawn[seat]] if t is not None)
        for meld in state.melds[seat]:
            seen.update(meld.tiles)
        seen.update(state.flowers[seat])
        seen.update(d.tile for d in state.discards[seat] if d.taken_by is None)
    for wall in remaining_walls(view, state):
        seen.update(wall)
    return seen


names = [f.name for f in FILES]
wins = [f.name for f in FILES if _record(f.name)["judge"][-1]["display"]["action"] == "HU"]


@pytest.mark.parametrize("name", names)
def test_every_seat_holds_thirteen_tiles_and_fourteen_with_a_drawn_tile(name: str) -> None:
    view = _view(name)
    assert [s.action for s in view.states[:2]] == ["INIT", "DEAL"]
    for state in view.states[1:]:
        assert sum(t is not None for t in state.drawn) <= 1, state.step
        for seat in range(4):
            held = 13 + (state.drawn[seat] is not None)
            assert state.tiles_held(seat) == held, (state.step, state.action, seat)
            assert list(state.hands[seat]) == sorted(state.hands[seat], key=_sort_key)


def _sort_key(tile: str) -> tuple[int, str]:
    return ("WBTFJH".index(tile[0]), tile[1:])


@pytest.mark.parametrize("name", names)
def test_tiles_on_the_table_and_left_in_the_walls_are_the_whole_wall(name: str) -> None:
    view = _view(name)
    tokens = view.walltiles
    if view.variant == "duplicate":
        tokens = tokens[: 4 * (len(tokens) // 4)]
    whole = Counter(tokens)
    for state in view.states[1:]:
        assert _tiles_on_table(view, state) == whole, (state.step, state.action)


@pytest.mark.parametrize("name", names)
def test_the_last_state_is_the_finish_the_judge_displayed(name: str) -> None:
    record, view = _record(name), _view(name)
    finish = record["judge"][-1]["display"]
    result = view.result
    assert result is not None and view.states[-1].action == finish["action"]
    assert list(result.scores or []) == record["scores"]
    assert result.player == finish.get("player")
    assert result.fan_total == finish.get("fanCnt")
    assert [(f.chinese, f.count, f.value) for f in result.fans] == \
        [(f["name"], f["cnt"], f["value"]) for f in finish.get("fan", [])]
    assert all(f.english for f in result.fans)
    assert len(view.states) == len(record["judge"])
    for k, state in enumerate(view.states[:-1]):
        assert [a.request for a in state.answers] == \
            [record["players"][s][k]["request"] for s in range(4)]
    assert view.states[-1].answers == ()


@pytest.mark.parametrize("name", wins)
def test_the_winners_shown_hand_scores_the_judges_fans_with_the_calculator(name: str) -> None:
    """The final table is right to the tile: PyMahjongGB, fed the winner's hand and
    melds as shown, names the same fans the judge displayed (flags from that list)."""
    calculator = MahjongGB.MahjongFanCalculator
    view = _view(name)
    result, last = view.result, view.states[-1]
    assert result is not None and result.player is not None
    p = result.player
    win = last.drawn[p]
    assert win is not None
    packs = []
    for m in last.melds[p]:
        if m.kind == "CHI":
            assert m.claimed is not None
            packs.append(("CHI", m.tiles[1], int(m.claimed[1:]) - int(m.tiles[1][1:]) + 2))
        else:
            offer = 0 if m.source is None else (m.source - p) % 4
            packs.append(("PENG" if m.kind == "PENG" else "GANG", m.tiles[0], offer))
    fans = {f.chinese for f in result.fans}
    self_drawn = view.states[-2].action == "DRAW"
    got = calculator(tuple(packs), last.hands[p], win, len(last.flowers[p]), self_drawn,
                     "和绝张" in fans, bool(fans & {"杠上开花", "抢杠和"}),
                     bool(fans & {"妙手回春", "海底捞月"}), p, view.quan, verbose=True)
    assert sorted((cn, cnt, value) for value, cnt, cn, _ in got) == \
        sorted((f.chinese, f.count, f.value) for f in result.fans)
    assert all(ENGLISH[cn] == en for _, _, cn, en in got)


def test_fan_names_are_the_calculators_81_fans_and_its_extra_kong_fan() -> None:
    assert len(FAN_NAMES) == 82
    assert len(ENGLISH) == 82 and len({f.english for f in FAN_NAMES}) == 82
    assert FAN_NAMES[0] == ("大四喜", "Big Four Winds", 88)
    assert ENGLISH["花牌"] == "Flower Tiles" and ENGLISH["抢杠和"] == "Robbing The Kong"


def test_c05_shows_the_added_kong_and_its_robbing() -> None:
    view = _view(_file("c05"))
    bugang = next(s for s in view.states if s.action == "BUGANG")
    (meld,) = bugang.melds[0]
    assert (meld.kind, meld.tiles, meld.source) == ("BUGANG", ("W1",) * 4, 1)
    last = view.states[-1]
    assert last.drawn[2] == "W1"  # the robbed tile goes to the winner
    assert [m.kind for m in last.melds[0]] == ["PENG"]
    result = view.result
    assert result is not None and "robbing seat 0's added kong of W1" in result.summary
    assert ("抢杠和", "Robbing The Kong") in [(f.chinese, f.english) for f in result.fans]


def test_c09_shows_a_flower_as_the_kong_replacement() -> None:
    view = _view(_file("c09"))
    actions = [s.action for s in view.states]
    k = actions.index("GANG")
    assert actions[k:k + 3] == ["GANG", "BUHUA", "DRAW"]
    assert [m.kind for m in view.states[k].melds[0]] == ["ANGANG"]
    assert view.states[k + 1].flowers[0] == ("H3",)
    assert "flower H3" in view.states[k + 1].note
    result = view.result
    assert result is not None and "杠上开花" not in {f.chinese for f in result.fans}


def test_c16_shows_the_nearest_of_two_hu_claims_winning() -> None:
    view = _view(_file("c16"))
    claim_turn = view.states[-2]
    assert [a.response for a in claim_turn.answers].count("HU") == 2
    result = view.result
    assert result is not None and result.player == 3
    assert "seat 1 also declared HU" in result.summary
    assert view.states[-1].discards[2][-1].taken_by == 3


def test_d13_shows_the_wa_and_why() -> None:
    view = _view(_file("d13"))
    result = view.result
    assert result is not None and (result.action, result.player) == ("WA", 2)
    assert "PENG W1" in result.cause and "wall of seat 0" in result.cause
    assert result.scores == (10, 10, -30, 10)


def test_our_logs_cause_time_and_debug_are_shown() -> None:
    """A record of ours carries ms, debug and cause per answer: the view keeps them."""
    record = json.loads(json.dumps(_record(_file("d13"))))
    record.update(ruleset="botzone", names=["a", "b", "c", "d"])
    for seat in range(4):
        for turn in record["players"][seat]:
            turn.update(ms=7, debug=None, cause="")
    offender = record["players"][2][-1]
    offender.update(cause="PENG W1 when the next seat's wall is empty", debug="hmm")
    view = game_view(record)
    assert view.names == ("a", "b", "c", "d")
    result = view.result
    assert result is not None and result.cause == "PENG W1 when the next seat's wall is empty"
    text = answer_text(view.states[-2].answers[2])
    assert "7 ms" in text and "debug: hmm" in text and "next seat's wall" in text


def test_d14_ends_as_a_draw_with_the_walls_shown_unbalanced() -> None:
    view = _view(_file("d14"))
    assert view.states[-1].wall == (0, 1, 0, 0)
    result = view.result
    assert result is not None and result.action == "HUANG" and result.scores == (0, 0, 0, 0)


@pytest.mark.parametrize("name", names)
def test_every_step_renders_in_codes_and_the_whole_game_in_glyphs(name: str) -> None:
    view = _view(name)
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None)
    for step in range(len(view.states)):
        show_game(view, step, True, console)
    show_game(view, None, False, console, where=name)
    text = out.getvalue()
    assert "step 1/" in text and "result" in text
    assert "\U0001f007" in text or "\U0001f019" in text  # a glyph


def test_replay_command_shows_a_botzone_record_and_refuses_a_broken_one(
        tmp_path: Path) -> None:
    path = DATA / _file("c10")
    run = subprocess.run([*SERVER, "replay", str(path), "--at", "6", "--codes"],
                         capture_output=True, text=True, env=_wide_env())
    assert run.returncode == 0, run.stderr
    assert "seat 2 draws the flower H4" in run.stdout and "H2 H6" in run.stdout
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.json").write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    run = subprocess.run([*SERVER, "replay", str(folder), "--codes"], capture_output=True,
                         text=True, env=_wide_env())
    assert run.returncode == 0, run.stderr
    assert "花牌" in run.stdout and "Flower Tiles" in run.stdout
    broken = tmp_path / "broken.json"
    broken.write_text('{"judge": [], "players": []}', encoding="utf-8")
    run = subprocess.run([*SERVER, "replay", str(broken)], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "no judge outputs" in run.stderr
    run = subprocess.run([*SERVER, "replay", str(path), "--at", "99"], capture_output=True,
                         text=True)
    assert run.returncode == 2 and "steps 0..15" in run.stderr


def _wide_env() -> dict[str, str]:
    import os
    return {**os.environ, "COLUMNS": "200"}


def test_read_record_tells_a_botzone_record_from_other_json(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"seed": 3}', encoding="utf-8")
    assert read_record(other) is None
    assert read_record(tmp_path) is None  # a folder without game.json
    ours = tmp_path / "game.json"
    ours.write_text('{"ruleset": "botzone", "judge": [], "players": []}', encoding="utf-8")
    assert read_record(tmp_path) is not None


def test_game_page_steps_with_the_keys_and_shows_fans_in_chinese_and_english(
        tmp_path: Path) -> None:
    from tests.browser import open_page

    out = tmp_path / "c05.html"
    run = subprocess.run([*SERVER, "replay", str(DATA / _file("c05")), "--html", str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with open_page(out.as_uri()) as (page, errors):
        assert page.text_content("#stepno") == "0 / 15"
        page.keyboard.press("ArrowRight")
        assert page.text_content("#stepno") == "1 / 15"
        assert page.locator("#seat0 .hand .tile").count() == 13
        page.click("#next")
        assert page.locator("#seat0 .hand .tile.drawn").count() == 1
        assert "seat 0 draws T6" in (page.text_content("#note") or "")
        page.keyboard.press("End")
        assert page.url.endswith("#step=15")
        assert not page.is_hidden("#result")
        result = page.inner_text("#result")
        assert "Robbing The Kong" in result and "+36" in result
        assert page.locator("#result svg.zh[aria-label='抢杠和']").count() == 1
        assert page.locator("#seat1 .river .tile.taken").count() == 1  # W1, pung by seat 0
        page.keyboard.press("ArrowLeft")
        assert page.text_content("#stepno") == "14 / 15"
        assert page.is_hidden("#result")
        assert "BUGANG W1" in page.inner_text("#seat2 .answer")
        page.keyboard.press("Home")
        assert page.text_content("#stepno") == "0 / 15"
        assert errors == []


def test_game_page_opens_at_its_address_step_and_shows_flowers(tmp_path: Path) -> None:
    from tests.browser import open_page

    out = tmp_path / "c10.html"
    write_game_page(_record(_file("c10")), out)
    with open_page(out.as_uri() + "#step=1") as (page, errors):
        assert page.text_content("#stepno") == "1 / 15"
        assert page.locator("#seat3 .flowers .tile").count() == 2
        assert page.locator("#seat0 .flowers .tile").count() == 1
        page.goto(out.as_uri() + "#step=7")
        assert page.locator("#seat2 .flowers .tile").count() == 1
        assert page.inner_text("#wall") == "85"
        assert errors == []


def test_names_and_answers_from_a_record_are_shown_as_they_are_never_as_markup() -> None:
    record = json.loads(json.dumps(_record(_file("c13"))))
    record["names"] = ["[/x]", "[bold]b", ":ghost:", "d"]
    record["players"][3][-1]["response"] = "PLAY [/J3]"
    out = io.StringIO()
    show_game(record, None, True, Console(file=out, width=200, color_system=None,
                                         emoji=False))
    text = out.getvalue()
    assert "[/x]" in text and "[bold]b" in text and "PLAY [/J3]" in text


def test_replay_of_a_match_folder_names_one_of_its_games(tmp_path: Path) -> None:
    match = tmp_path / "match"
    (match / "games").mkdir(parents=True)
    (match / "match.json").write_text('{"ruleset": "botzone"}', encoding="utf-8")
    for name in ("001", "002"):
        (match / "games" / name).mkdir()
        (match / "games" / name / "game.json").write_text(
            (DATA / _file("c10")).read_text(encoding="utf-8"), encoding="utf-8")
    for path in (match, match / "games"):
        run = subprocess.run([*SERVER, "replay", str(path)], capture_output=True, text=True)
        assert run.returncode == 2
        assert run.stderr.strip().count("\n") == 0
        assert f"a folder of 2 games, not one game record: name one of them, e.g. " \
               f"{match / 'games' / '001'}" in run.stderr
