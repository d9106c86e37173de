"""The NOI 2014 contest behind the ruleset seam (SPEC-noi2014).

The pure side is ``engine`` (one game), ``formats`` (one game, the table
round, standings, re-running a record); ``play`` runs matches, check-bot and
tournament tables with the Botzone bot runner (``server.bots.botzone_bots``) in
the contest's dialect (``server.bots.botzone_io.NOI2014``: the statement's input
line, 1000 ms per answer, no doubled first turn, ``data`` up to 64 KiB).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rulesets import botzone_bots
from rulesets.botzone_bots import BotzoneBotsRuleset
from rulesets.noi2014 import formats
from rulesets.noi2014.engine import PLAYERS
from server.seam.contract import (
    CommandArgs,
    GamePlan,
    StandingRow,
    TableRequest,
    TableRow,
    TurnGame,
    VerifyReport,
)
from server.seam.errors import InputError

NAME = "noi2014"
SANDBOX = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
BOTS = frozenset({"time_limit"}) | SANDBOX
END_SAID = {"wall": "wall empty", "players": "one player left"}


def is_record(data: object) -> bool:
    return isinstance(data, dict) and data.get("ruleset") == NAME and "wall" in data


def find_record(path: Path) -> dict[str, Any] | None:
    """The NOI 2014 game record in a ``.json`` file or a game folder; None if there is
    none or the JSON is of another kind. A ``.json`` file that is no JSON is bad input."""
    return botzone_bots.read_record(path, is_record)


def read_record(path: Path) -> dict[str, Any]:
    record = find_record(path)
    if record is None:
        raise InputError(f"{path}: not a NOI 2014 game record")
    return record


def is_match_folder(path: Path) -> bool:
    return botzone_bots.is_match_folder(path, NAME)


class NoiRules:
    """The pure hooks of the shell's turn-based match (``server.seam.contract.TurnRules``)."""

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
    """Each faulted seat's cause, as the engine said it, and for a verdict that was
    not OK what the bot did (``exited without printing anything``, what it printed
    instead of JSON), which is kept beside the verdict in the seat's answers."""
    causes: dict[int, str] = {}
    players = record.get("players") or []
    for output in record.get("judge") or []:
        for event in output.get("events", []) if isinstance(output, Mapping) else []:
            if isinstance(event, Mapping) and event.get("act") == "FAULT":
                seat = int(event["seat"])
                why = _verdict_cause(players[seat] if 0 <= seat < len(players) else None)
                causes.setdefault(seat, f"({event.get('cause')}{': ' + why if why else ''})")
    return causes


def _verdict_cause(answers: object) -> str:
    """The cause beside a seat's last answer whose verdict was not OK ("" if none)."""
    if not isinstance(answers, list):
        return ""
    for item in reversed(answers):
        if isinstance(item, Mapping) and item.get("verdict") not in (None, "OK"):
            return str(item.get("cause") or "")
    return ""


class NoiRuleset(BotzoneBotsRuleset):
    name = NAME
    title = "NOI 2014's Mahjong (blood battle, target hands, a Swiss)"
    swiss_tiebreak = "wins"  # SPEC-noi2014 §7: points, then games won, then entry order
    samples = Path(__file__).resolve().parents[2] / "sample_ai" / "noi2014"
    tournament_defaults: ClassVar = {"walls": "1", "orders": "4", "time_limit": "1.0"}
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

    def check_settings(self, settings: dict[str, str]) -> None:
        if not 1 <= int(settings["orders"]) <= PLAYERS:
            raise InputError("--orders: a NOI 2014 table plays a wall 1 to 4 times (seats "
                             "rotated one each time)")

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return int(settings.get("walls", 1)) * int(settings.get("orders", 4))

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.noi2014.play import play_table

        return await play_table(table)


RULESET = NoiRuleset()
