"""Following a folder's live feeds and standings by polling (``server.web.feeds``)."""

from __future__ import annotations

import json
from pathlib import Path

from server.web.feeds import Watch, tournament_complete
from tests.server.web.feeds_by_hand import (
    append,
    done,
    end,
    fault,
    standings_json,
    start,
    step,
    table,
)


def records(events: list[tuple[str, object]]) -> list[dict[str, object]]:
    return [data for name, data in events if name == "record"]  # type: ignore[misc]


def test_a_line_being_written_waits_for_its_newline(tmp_path: Path) -> None:
    feed = tmp_path / "matches" / "r01-t01" / "live.jsonl"
    append(feed, table(), partial='{"type": "start", "n"')
    watch = Watch(tmp_path)
    assert [r["type"] for r in records(watch.poll())] == ["table"]
    with feed.open("a") as f:
        f.write(json.dumps(start(1))[len('{"type": "start", "n"'):] + "\n")
    got = records(watch.poll())
    assert [(r["type"], r["table"]) for r in got] == [("start", "matches/r01-t01")]
    assert watch.poll() == []


def test_a_run_of_pictures_read_at_once_sends_the_last(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    append(feed, table(), start(1), step(1, 0, ["W1"]), step(1, 1, ["W2"]), fault(1),
           step(1, 2, ["W3"]))
    watch = Watch(tmp_path)
    got = records(watch.poll())
    assert [r["type"] for r in got] == ["table", "start", "fault", "step"]
    assert got[-1]["picture"]["last"]["tile"] == "W3"
    assert got[2]["row"]["stderr_file"] == "001-00000001/seat1.stderr"
    [playing] = watch.tables_in_play()
    assert playing["n"] == 1 and playing["hand_title"] == "Hand 1 of 2"
    assert playing["picture"]["turn"] == 2


def test_a_match_standings_are_summed_from_its_feed_while_it_runs(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    append(feed, table(), start(1), end(1, [12, -4, -4, -4]),
           start(2, ["bob", "alice", "dave", "carol"]), fault(2), end(2, [8, 0, 0, -8]))
    watch = Watch(tmp_path)
    events = watch.poll()
    [standings] = [data for name, data in events if name == "standings"]
    rows = {r["bot"]: r for r in standings["standings"]}
    assert standings["kind"] == "match" and standings["source"] == "live.jsonl"
    assert rows["alice"]["points"] == 12 and rows["alice"]["hands"] == 2
    assert rows["bob"]["points"] == 4 and rows["bob"]["wins"] == 1
    assert rows["bob"]["faults"] == 1
    assert [r["rank"] for r in standings["standings"]] == [1, 2, 3, 4]
    assert not standings["over"]
    append(feed, done())
    [later] = [data for name, data in watch.poll() if name == "standings"]
    assert later["over"]


def test_standings_json_changing_is_an_event_and_paths_are_not_shown(tmp_path: Path) -> None:
    append(tmp_path / "matches" / "r01-t01" / "live.jsonl", table(), start(1))
    standings_json(tmp_path, {"alice": 3, "bob": -3})
    watch = Watch(tmp_path)
    first = [d for n, d in watch.poll() if n == "standings"]
    assert first[0]["standings"][0]["bot"] == "alice"
    assert "bots" not in first[0]["settings"]
    assert [d for n, d in watch.poll() if n == "standings"] == []
    standings_json(tmp_path, {"alice": 3, "bob": 5}, reports=1)
    [second] = [d for n, d in watch.poll() if n == "standings"]
    assert second["standings"][0]["bot"] == "bob"
    assert second["standings"][0]["stats"]["claims"] == 1
    assert not second["over"]  # a table is still in play


def test_a_feed_rewritten_from_its_start_sends_a_snapshot(tmp_path: Path) -> None:
    feed = tmp_path / "live.jsonl"
    append(feed, table(), start(1), step(1, 0, ["W1"]), step(1, 1, ["W2"]))
    watch = Watch(tmp_path)
    watch.poll()
    feed.write_text(json.dumps(table(title="again")) + "\n")
    [(name, snapshot)] = watch.poll()
    assert name == "snapshot"
    assert snapshot["feeds"][0]["title"] == "again"
    assert snapshot["feeds"][0]["n"] is None


def test_a_tournament_is_complete_when_its_last_round_is_played() -> None:
    reports = [{"round": 1, "report": "a"}, {"round": 1, "report": "b"},
               {"round": 2, "report": "c"}]
    assert not tournament_complete({"rounds": "2"}, reports)
    assert tournament_complete({"rounds": "2"}, [*reports, {"round": 2, "report": "d"}])
    assert not tournament_complete({"rounds": "3"}, reports)


def test_standings_caught_half_written_keep_what_was_shown(tmp_path: Path) -> None:
    standings_json(tmp_path, {"alice": 3, "bob": -3})
    watch = Watch(tmp_path)
    watch.poll()
    whole = (tmp_path / "standings.json").read_text()
    (tmp_path / "standings.json").write_text(whole[: len(whole) // 2])
    assert [n for n, _ in watch.poll()] == []
    assert watch.standings()["standings"][0]["bot"] == "alice"
    standings_json(tmp_path, {"alice": 3, "bob": 5})
    [(name, data)] = watch.poll()
    assert name == "standings" and data["standings"][0]["bot"] == "bob"
