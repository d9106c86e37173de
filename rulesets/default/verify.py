"""``server verify``: prove a recorded match (or hand) is what the engine says.

For each hand folder the recorded deal and inputs are run through the engine
again, and everything written is checked against that re-run: the structured
events, the original-format ``game.log``, the result, fans and settlement, and
the fines (recomputed from each answer's recorded time and limit, less the
host's share where a host stall was recorded). Every fault must carry its fine:
a timing at the hand's recorded hard limit (against the prompt's own limit for
a hard-limit fault, against the own-turn limit for any other fault). A hand
that ``--on-fault end`` aborted is checked as far as it went. For a match
folder the scoresheet rows, its Total row and ``match.json`` are checked too.
The first line that disagrees is reported with its file and line number.

On an original-format ``.log`` (from the original server) there is no deal
or timing to check: the hand is replayed through the engine and the win is
scored again, and each difference from the recorded fans is listed.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from protocol.messages import MalformedLine, parse_from_ai
from protocol.tiles import TileError, parse_tile
from rulesets.default.engine.hand import (
    FAULT_LIMIT_MS,
    TIME_LIMIT_MS,
    EngineError,
    Hand,
    Input,
    is_hard_limit,
    replay,
)
from rulesets.default.engine.legacy_log import (
    format_legacy_log,
    our_fan_name,
    parse_legacy_log,
    winning_hand,
)
from rulesets.default.engine.record import event_json, legacy_log, replay_legacy
from rulesets.default.late import fine_after_host
from rulesets.default.logs import unfinished
from rulesets.default.replay import HandFileError
from scoring.fans import HandError, score
from server.seam.contract import VerifyReport
from server.seam.errors import reason

MATCH_FILES = ("scoresheet.csv", "match.json")


Report = VerifyReport  # what every ruleset's verify gives the shell


def _first_difference(recorded: list[str], expected: list[str]) -> int | None:
    for i, (a, b) in enumerate(zip(recorded, expected, strict=False)):
        if a != b:
            return i
    if len(recorded) != len(expected):
        return min(len(recorded), len(expected))
    return None


def _rows(path: Path) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            rows.append((number, json.loads(line)))
        except json.JSONDecodeError:
            raise ValueError(f"{path}:{number}: not JSON") from None
    return rows


def _inputs(rows: list[tuple[int, dict[str, Any]]], path: Path) -> list[Input]:
    inputs = []
    for number, row in rows:
        if row.get("type") != "input":
            continue
        try:
            message = parse_from_ai(row["line"]) if row.get("line") is not None else None
        except (MalformedLine, KeyError) as exc:
            raise ValueError(f"{path}:{number}: bad input line ({reason(exc)})") from None
        inputs.append(Input(int(row["seat"]), message, str(row.get("fault", ""))))
    return inputs


def verify_hand(folder: Path, report: Report) -> dict[str, Any] | None:
    """Check one hand folder; returns its recorded result row when readable."""
    events_path = folder / "events.jsonl"
    where = folder.name
    try:
        rows = _rows(events_path)
        header = next((r for _, r in rows if r.get("type") == "hand"), None)
        result_row = next((r for _, r in rows if r.get("type") == "result"), None)
        if header is None or result_row is None:
            missing = "hand" if header is None else "result"
            report.problems.append(f"{where}: events.jsonl has no {missing} line (the file "
                                   f"is cut short after {len(rows)} line(s))")
            return None
        wall = [parse_tile(code) for code in header["wall"]]
        first = int(header["first"])
        inputs = _inputs(rows, events_path)
        result_row = {**result_row, "_players": [int(x["player"]) for x in header["seats"]],
                      "_hard_limit_ms": header.get("hard_limit_ms")}
    except (OSError, ValueError, KeyError, TileError, TypeError) as exc:
        what = f"no field {exc}" if isinstance(exc, KeyError) else reason(exc)
        report.problems.append(f"{where}: cannot read events.jsonl ({what})")
        return None
    try:
        hand = replay(wall, first, inputs)
    except EngineError as exc:
        report.problems.append(f"{events_path}: the inputs do not replay: {reason(exc)}")
        return result_row
    # The structured events, line by line.
    recorded = [(n, r) for n, r in rows if r.get("type") == "event"]
    expected = [{"type": "event", **event_json(e)} for e in hand.events]
    i = _first_difference([json.dumps(r, sort_keys=True) for _, r in recorded],
                          [json.dumps(e, sort_keys=True) for e in expected])
    if i is not None:
        line = recorded[i][0] if i < len(recorded) else (recorded[-1][0] + 1 if recorded else 1)
        want = expected[i] if i < len(expected) else "(no more events)"
        report.problems.append(f"{events_path}:{line}: recorded event differs from the "
                               f"re-run: expected {want}")
    aborted = result_row.get("result") == "aborted" and bool(result_row.get("faults"))
    if hand.finished:
        _check_result(hand, result_row, events_path, report)
        _check_game_log(folder, hand, header, report)
    elif not aborted:
        report.problems.append(f"{events_path}: the recorded inputs do not end the hand")
        return result_row
    _check_fines(hand, header, result_row, events_path, report)
    report.checked.append(where)
    return result_row


def _check_result(hand: Hand, row: dict[str, Any], path: Path, report: Report) -> None:
    result = hand.result
    assert result is not None
    fans = [list(f) for f in result.fans.fans] if result.fans else []
    checks = {
        "winner_seat": result.winner,
        "payer_seat": result.payer,
        "fans": fans,
        "fan_total": result.fans.total if result.fans else None,
        "deltas": list(result.deltas),
    }
    for key, value in checks.items():
        if row.get(key) != value:
            report.problems.append(f"{path}: result {key} is {row.get(key)!r}, "
                                   f"the re-run gives {value!r}")


def _check_fines(hand: Hand, header: dict[str, Any], row: dict[str, Any], path: Path,
                 report: Report) -> None:
    timings = row.get("timings")
    if timings is None:
        return
    fines = [0, 0, 0, 0]
    for seat, ms, limit, *host in timings:  # host: the host stall's allowance, if any
        fines[int(seat)] += fine_after_host(float(ms), int(limit), float(host[0]) if host
                                            else 0.0)
    if fines != row.get("fines"):
        report.problems.append(f"{path}: fines are {row.get('fines')}, the recorded "
                               f"answer times give {fines}")
    stalls = [0, 0, 0, 0]
    for seat, *rest in timings:
        stalls[int(seat)] += len(rest) == 3  # (ms, limit, host ms): a host stall
    if "host_stalls" in row and stalls != row["host_stalls"]:
        report.problems.append(f"{path}: host stalls are {row['host_stalls']}, the "
                               f"recorded answer times give {stalls}")
    _check_fault_fines(hand, header, row, timings, path, report)


def _check_fault_fines(hand: Hand, header: dict[str, Any], row: dict[str, Any],
                       timings: list[list[Any]], path: Path, report: Report) -> None:
    """Each fault is fined once at the hard limit the hand was played with (SPEC section 6)."""
    faults = {**{int(seat): str(cause) for seat, cause in (row.get("faults") or {}).items()},
              **hand.faulted}
    if not faults:
        return
    if header.get("hard_limit_ms") is None:  # written before faults were fined
        report.notes.append(f"{path}: no hard limit recorded: fault fines not checked")
        return
    hard_ms = round(float(header["hard_limit_ms"]), 3)
    for seat, cause in sorted(faults.items()):
        limits = set(TIME_LIMIT_MS.values()) if is_hard_limit(cause) else {FAULT_LIMIT_MS}
        charged = [t for t in timings if int(t[0]) == seat and len(t) == 3
                   and round(float(t[1]), 3) == hard_ms and int(t[2]) in limits]
        if not charged:
            what = "for the hard limit" if is_hard_limit(cause) else \
                "as an own-turn answer at the hard limit"
            report.problems.append(f"{path}: seat {seat}'s fault ({cause.split(':')[0]}) is "
                                   f"not fined {what} ({hard_ms:g} ms)")


def _check_game_log(folder: Path, hand: Hand, header: dict[str, Any], report: Report) -> None:
    path = folder / "game.log"
    if not path.exists():
        report.problems.append(f"{path}: missing")
        return
    text = path.read_text(encoding="utf-8")
    try:
        recorded_log = parse_legacy_log(text)
    except ValueError as exc:
        report.problems.append(f"{path}: {reason(exc)}")
        return
    expected = format_legacy_log(legacy_log(hand, recorded_log.ais, recorded_log.round,
                                            recorded_log.game))
    i = _first_difference(text.splitlines(), expected.splitlines())
    if i is not None:
        exp_lines = expected.splitlines()
        want = exp_lines[i] if i < len(exp_lines) else "(end of file)"
        report.problems.append(f"{path}:{i + 1}: differs from the re-run: expected {want!r}")


def verify_match(root: Path, report: Report) -> None:
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        if (why := unfinished(folder)) is not None:
            report.notes.append(f"{folder.name}: not checked: {why}")
    hands = sorted(p for p in root.iterdir() if p.is_dir() and (p / "events.jsonl").exists())
    results = {p.name: verify_hand(p, report) for p in hands}
    sheet = root / "scoresheet.csv"
    if not sheet.exists():
        report.problems.append(f"{sheet}: missing")
        return
    with sheet.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    body = [r for r in rows[1:] if r and r[0] != "Total"]
    totals = [0, 0, 0, 0]
    by_id = {p.name.split("-", 1)[1]: (p.name, results[p.name]) for p in hands}
    for number, row in enumerate(body, start=2):
        try:
            points = [int(x) for x in row[2:6]]
        except (ValueError, IndexError):
            report.problems.append(f"{sheet}:{number}: points are not numbers")
            continue
        totals = [t + p for t, p in zip(totals, points, strict=True)]
        gid = row[6] if len(row) > 6 else ""
        name, result = by_id.get(gid, ("", None))
        if result is None:
            report.problems.append(f"{sheet}:{number}: no readable hand folder for game {gid}")
            continue
        if points != result.get("points_by_player"):
            report.problems.append(f"{sheet}:{number}: points {points} but hand {name} "
                                   f"says {result.get('points_by_player')}")
        if sum(points) + sum(result.get("fines", [])) != 0:
            report.problems.append(f"{sheet}:{number}: points do not sum to zero "
                                   "apart from fines")
        fines = [0, 0, 0, 0]
        for seat, player in enumerate(result.get("_players", [])):
            fines[player] += int(result.get("fines", [0] * 4)[seat])
        if row[11:15] != [str(f) for f in fines]:
            report.problems.append(f"{sheet}:{number}: fines {row[11:15]} but hand {name} "
                                   f"says {fines}")
    if len(body) != len(hands):
        report.problems.append(f"{sheet}: {len(body)} rows for {len(hands)} hand folders")
    total_row = next((i for i, r in enumerate(rows, start=1) if r and r[0] == "Total"), None)
    if total_row is not None:
        recorded = [int(x) for x in rows[total_row - 1][2:6]]
        if recorded != totals:
            report.problems.append(f"{sheet}:{total_row}: Total row {recorded}, the rows "
                                   f"add up to {totals}")
    match_json = root / "match.json"
    if match_json.exists():
        summary = json.loads(match_json.read_text(encoding="utf-8"))
        recorded = [p.get("total") for p in summary.get("players", [])]
        if recorded != totals:
            report.problems.append(f"{match_json}: totals {recorded}, the scoresheet "
                                   f"adds up to {totals}")
        hard_limit = (summary.get("options") or {}).get("hard_limit")
        for name, result in sorted(results.items()):
            hand_ms = None if result is None else result.get("_hard_limit_ms")
            if hard_limit is not None and hand_ms is not None \
                    and round(float(hard_limit) * 1000, 3) != round(float(hand_ms), 3):
                report.problems.append(f"{root / name / 'events.jsonl'}: hard limit {hand_ms} "
                                       f"ms, but {match_json.name} says {hard_limit} s")
    report.checked.append(str(sheet))


def verify_legacy(path: Path, report: Report) -> None:
    try:
        log = parse_legacy_log(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise HandFileError(f"{path}: not a text file, so not an original-format log") from None
    except ValueError as exc:
        raise HandFileError(f"{path}: not an original-format log ({reason(exc)})") from None
    try:
        hand = replay_legacy(log)
    except EngineError as exc:
        report.problems.append(f"{path}: the engine does not accept the recorded play: "
                               f"{reason(exc)}")
        return
    recorded = log.result
    result = hand.result
    assert result is not None
    if (recorded is None) != (result.winner is None) or (
            recorded is not None and recorded.winner != result.winner):
        report.problems.append(f"{path}: recorded winner {recorded and recorded.winner}, "
                               f"the engine gives {result.winner}")
    if recorded is not None:
        try:
            ours = score(winning_hand(log))
        except (ValueError, HandError) as exc:
            report.problems.append(f"{path}: cannot score the recorded win: {reason(exc)}")
            return
        theirs = {our_fan_name(n): v for n, v in recorded.fans}
        mine = dict(ours.fans)
        for name in sorted(set(theirs) | set(mine)):
            if theirs.get(name) != mine.get(name):
                report.notes.append(f"{path.name}: {name}: recorded {theirs.get(name, '-')}, "
                                    f"rescored {mine.get(name, '-')}")
        if recorded.score != ours.total:
            report.notes.append(f"{path.name}: fan total recorded {recorded.score}, "
                                f"rescored {ours.total}")
    report.checked.append(str(path))


def verify_path(path: Path) -> Report:
    """Check a match folder, a hand folder or an original ``.log``.

    A path that is none of them (or a hand that never ended) cannot be checked
    at all: that is a ``HandFileError``, bad input, not a disagreement.
    """
    report = Report()
    if path.is_dir() and (why := unfinished(path)) is not None:
        raise HandFileError(f"{path}: {why}")
    if path.is_dir() and (path / "events.jsonl").exists():
        verify_hand(path, report)
    elif path.is_dir() and any((path / name).exists() for name in MATCH_FILES):
        verify_match(path, report)
    elif path.is_dir():
        raise HandFileError(f"{path}: not a match folder (no {' or '.join(MATCH_FILES)}) "
                            "nor a hand folder (no events.jsonl)")
    elif path.exists():
        verify_legacy(path, report)
    else:
        raise HandFileError(f"{path}: no such file or folder")
    return report
