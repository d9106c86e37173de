"""The NOI 2014 contest behind the ruleset seam (SPEC-noi2014).

The pure side is ``engine`` (one game), ``formats`` (one game, the table
round, standings, re-running a record); ``play`` runs matches, check-bot and
tournament tables with the Botzone bot runner (``server.botzone_bots``) in
the contest's dialect (``server.botzone_io.NOI2014``: the statement's input
line, 1000 ms per answer, no doubled first turn, ``data`` up to 64 KiB).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rulesets.noi2014 import formats
from rulesets.noi2014.engine import PLAYERS
from rulesets.seam import (
    CommandArgs,
    GamePlan,
    Ruleset,
    StandingRow,
    TableRequest,
    TableRow,
    TurnGame,
    VerifyReport,
)
from server.errors import InputError

NAME = "noi2014"
SANDBOX = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
BOTS = frozenset({"time_limit"}) | SANDBOX
END_SAID = {"wall": "wall empty", "players": "one player left"}


def is_record(data: object) -> bool:
    return isinstance(data, dict) and data.get("ruleset") == NAME and "wall" in data


def find_record(path: Path) -> dict[str, Any] | None:
    """The NOI 2014 game record in a ``.json`` file or a game folder; None if there is
    none or the JSON is of another kind. A ``.json`` file that is no JSON is bad input."""
    file = path / "game.json" if path.is_dir() else path
    if not file.is_file() or file.suffix != ".json":
        return None
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise InputError(f"{file}: not a UTF-8 text file") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{file}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except OSError as exc:
        raise InputError(f"{file}: {exc.strerror}") from None
    return data if is_record(data) else None


def read_record(path: Path) -> dict[str, Any]:
    record = find_record(path)
    if record is None:
        raise InputError(f"{path}: not a NOI 2014 game record")
    return record


def is_match_folder(path: Path) -> bool:
    from server.turn_match import MATCH_FILE

    try:
        meta = json.loads((path / MATCH_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("ruleset") == NAME


class NoiRules:
    """The pure hooks of the shell's turn-based match (``rulesets.seam.TurnRules``)."""

    def new_game(self, plan: GamePlan) -> TurnGame:
        from rulesets.noi2014.engine import Game

        game: TurnGame = Game(formats.wall_of(plan.setup))
        return game

    def standings(self, plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
                  players: int) -> list[StandingRow]:
        return formats.standings(plans, records, players)

    def game_line(self, record: Mapping[str, Any], names: Sequence[str]) -> str:
        return game_line(record, names)


def _who(seat: object, names: Sequence[str]) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"seat {seat} ({names[seat]})"
    return f"seat {seat}"


def game_line(record: Mapping[str, Any], names: Sequence[str]) -> str:
    result = formats.result_of(record)
    if not result:
        return "not finished"
    parts = []
    winners = result.get("winners") or []
    parts.append("HU by " + ", ".join(_who(s, names) for s in winners) if winners
                 else "nobody won")
    parts.append(END_SAID.get(str(result.get("end")), str(result.get("end"))))
    faulted = result.get("faulted") or []
    if faulted:
        causes = fault_causes(record)
        parts.append("faults: " + ", ".join(
            _who(s, names) + (f" {causes[s]}" if s in causes else "") for s in faulted))
    points = " ".join(f"{p:g}" for p in record.get("scores") or [])
    return "; ".join(parts) + f"; points {points}"


def fault_causes(record: Mapping[str, Any]) -> dict[int, str]:
    """Each faulted seat's cause, as the engine said it."""
    causes: dict[int, str] = {}
    for output in record.get("judge") or []:
        for event in output.get("events", []) if isinstance(output, Mapping) else []:
            if isinstance(event, Mapping) and event.get("act") == "FAULT":
                causes.setdefault(int(event["seat"]), f"({event.get('cause')})")
    return causes


class NoiRuleset(Ruleset):
    name = NAME
    title = "NOI 2014's Mahjong (blood battle, target hands, a Swiss)"
    swiss_tiebreak = "wins"  # SPEC-noi2014 §7: points, then games won, then entry order
    command_modes = ("json", "simple")
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "format", "walls", "orders",
                            "work_dir"}) | BOTS,
        "check-bot": frozenset({"seed", "games"}) | BOTS,
        "replay": frozenset({"at", "codes", "html_out"}),
        "report": frozenset({"html_out"}),
    }

    def owns(self, path: Path) -> bool:
        if path.is_dir() and is_match_folder(path):
            return True
        try:
            return find_record(path) is not None
        except InputError:
            return False

    def match(self, args: CommandArgs) -> int:
        from rulesets.noi2014.play import run_match

        return run_match(args)

    def check_bot(self, args: CommandArgs) -> int:
        from rulesets.noi2014.play import check_bot

        return check_bot(args)

    def verify(self, path: Path) -> VerifyReport:
        from rulesets.noi2014.verify import verify_path

        return verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rulesets.noi2014.replay import replay

        return replay(args)

    def report(self, args: CommandArgs) -> int:
        from rulesets.noi2014.report import write_report

        return write_report(args["path"], args["html_out"])

    def match_report(self, root: Path, out: Path) -> None:
        from rulesets.noi2014.report import write_report_files

        write_report_files(root, out)

    def tournament_settings(self, given: Mapping[str, Any],
                            stored: Mapping[str, str] | None) -> dict[str, str]:
        from rulesets.noi2014.play import TOURNAMENT_DEFAULTS

        settings = dict(TOURNAMENT_DEFAULTS)
        settings.update({k: v for k, v in (stored or {}).items() if k in settings})
        if given.get("variant") is not None:
            raise InputError("--variant is an option of the botzone ruleset, not of noi2014")
        for key in settings:
            value = given.get(key)
            if value is None:
                continue
            if stored is not None and str(value) != stored.get(key, settings[key]):
                raise InputError(f"--{key.replace('_', '-')} {value}: this tournament is "
                                 f"played with {stored.get(key)}; a resume keeps it")
            settings[key] = str(value)
        if not 1 <= int(settings["orders"]) <= PLAYERS:
            raise InputError("--orders: a NOI 2014 table plays a wall 1 to 4 times (seats "
                             "rotated one each time)")
        return settings

    def entry_command(self, argv: Sequence[str], io: str | None, where: str) -> tuple[str, ...]:
        import shlex

        mode = io or "json"
        if mode not in ("json", "simple"):
            raise InputError(f"{where}: io = {io!r}: a NOI 2014 bot talks json or simple")
        return (f"{mode}:{shlex.join(argv)}",)

    def fill_in_command(self, k: int) -> tuple[str, ...]:
        import shlex
        import sys

        from rulesets.noi2014.play import SAMPLES

        argv = [sys.executable, str(SAMPLES / "random_bot.py"), "--keep-running"]
        return (f"json:{shlex.join(argv)}",)

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return int(settings.get("walls", 1)) * int(settings.get("orders", 4))

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.noi2014.play import play_table

        return await play_table(table)


RULESET = NoiRuleset()
