"""Botzone's Chinese Standard Mahjong behind the ruleset seam.

The pure side is ``rulesets.botzone.judge`` (the official judge's rules, both
variants), ``formats`` (one game, the IJCAI duplicate) and ``view`` (a game
step by step); the shell's turn driver (``server.turns.driver``,
``server.turns.match``) plays it with Botzone bots (``server.bots.botzone_bots``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rulesets import botzone_bots
from rulesets.botzone import formats
from rulesets.botzone_bots import BotzoneBotsRuleset
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

VARIANTS = ("classic", "duplicate")
SANDBOX = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
BOTS = frozenset({"time_limit"}) | SANDBOX
ERRORS_SAID = {"WA": "a wrong answer", "WH": "a wrong HU (not a win of 8 fans)"}


def find_record(path: Path) -> dict[str, Any] | None:
    """The game record in a ``.json`` file or a game folder's ``game.json``; None if there is
    none or the JSON is of another kind. A file that is no JSON at all is bad input."""
    from rulesets.botzone.view import is_botzone_record

    return botzone_bots.read_record(path, is_botzone_record)


def read_record(path: Path) -> dict[str, Any]:
    """A game record: our ``game.json`` (or its folder) or a game judged on Botzone."""
    record = find_record(path)
    if record is None:
        raise InputError(f"{path}: not a Botzone game record (no judge and players)")
    return record


def is_match_folder(path: Path) -> bool:
    return botzone_bots.is_match_folder(path, "botzone")


def parse_initdata(text: str) -> dict[str, Any]:
    """``--initdata``: Botzone's initdata as JSON text, or a file holding it."""
    source = text
    if not text.lstrip().startswith(("{", "[", '"')):  # not JSON text: a file of it
        try:
            source = Path(text).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
            raise InputError(f"--initdata {text}: neither JSON nor a readable file "
                             f"({why})") from None
    try:
        value = json.loads(source)
    except json.JSONDecodeError as exc:
        raise InputError(f"--initdata: not JSON ({exc.msg} at character {exc.pos})") from None
    if isinstance(value, dict) and "initdata" in value:  # a whole game record: its initdata
        value = value["initdata"]
    if not isinstance(value, dict):
        raise InputError("--initdata: not a JSON object (srand, quan, walltiles)")
    return value


class BotzoneRules:
    """The pure hooks of the shell's turn-based match (``server.seam.contract.TurnRules``)."""

    def __init__(self, variant: str) -> None:
        self.variant = variant

    def new_game(self, plan: GamePlan) -> TurnGame:
        from rulesets.botzone.judge import Judge

        game: TurnGame = Judge(self.variant, plan.setup)
        return game

    def standings(self, plans: Sequence[GamePlan], records: Sequence[Mapping[str, Any]],
                  players: int) -> list[StandingRow]:
        return formats.standings(plans, records, players)

    def game_line(self, record: Mapping[str, Any], names: Sequence[str]) -> str:
        return game_line(record, names)


def game_header(game: Any, plan: GamePlan) -> dict[str, Any]:
    """A game record's ``initdata`` is the one given to the judge, as in a game judged on
    Botzone (re-judging starts from it); the settled one, walltiles and all, is in the
    first judge output."""
    return {"variant": game.variant, "initdata": dict(plan.setup)}


def game_line(record: Mapping[str, Any], names: Sequence[str]) -> str:
    display = formats.finish(record)
    scores = record.get("scores")
    action = display.get("action")
    if not display:
        return "not finished"
    tail = f"; scores {' '.join(str(s) for s in scores)}" if scores else ""
    if action == "HUANG":
        return "draw (HUANG)" + tail
    seat = display.get("player")
    who = f"seat {seat} ({names[seat]})" if isinstance(seat, int) and seat < len(names) \
        else f"seat {seat}"
    if action == "HU":
        return f"HU by {who}, {display.get('fanCnt')} fan" + tail
    cause = fault_causes(record).get(seat, "") if isinstance(seat, int) else ""
    return f"{action} by {who}{cause.removeprefix(str(action))}" + tail


def fault_causes(record: Mapping[str, Any]) -> dict[int, str]:
    """The seat whose error or verdict ended the game, and why: ``WA: a wrong answer``,
    or a verdict and the cause kept beside it (``BAD_OUTPUT: output is not JSON...``)."""
    display = formats.finish(record)
    action, seat = display.get("action"), display.get("player")
    if not isinstance(seat, int) or action in (None, "HU", "HUANG"):
        return {}
    said = ERRORS_SAID.get(str(action), "")
    players = record.get("players") or []
    if not said and 0 <= seat < len(players) and players[seat]:
        said = str((players[seat][-1] or {}).get("cause") or "")
    return {seat: f"{action}: {said}" if said else str(action)}


class BotzoneRuleset(BotzoneBotsRuleset):
    name = "botzone"
    title = "Botzone's Chinese Standard Mahjong"
    variants = VARIANTS
    samples = Path(__file__).resolve().parents[2] / "sample_ai" / "botzone"
    tournament_defaults: ClassVar = {"variant": "classic", "walls": "4", "orders": "4",
                                     "time_limit": "1.0"}
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "variant", "format", "walls",
                            "orders", "initdata", "work_dir"}) | BOTS,
        "check-bot": frozenset({"seed", "variant", "games"}) | BOTS,
        "replay": frozenset({"at", "codes", "html_out"}),
        "report": frozenset({"html_out"}),
    }

    def owns(self, path: Path) -> bool:
        """A Botzone match folder, a game folder or record; a ``.json`` file that is
        no JSON too, so that replay and verify say so."""
        if path.is_dir() and is_match_folder(path):
            return True
        try:
            return find_record(path) is not None
        except InputError:
            return True

    def match(self, args: CommandArgs) -> int:
        from rulesets.botzone.play import run_match

        return run_match(args)

    def check_bot(self, args: CommandArgs) -> int:
        from rulesets.botzone.play import check_bot

        return check_bot(args)

    def verify(self, path: Path) -> VerifyReport:
        from rulesets.botzone.verify import verify_path

        return verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rich.console import Console

        from rulesets.botzone.page import write_game_page
        from rulesets.botzone.replay import show_game, view_of
        from server.output.paths import output_file

        path: Path = args["path"]
        view = view_of(read_record(path), str(path))
        console = Console(emoji=False)
        if args["html_out"] is not None:
            write_game_page(view, output_file(args["html_out"], "--html"),
                            title=f"Botzone game {path.name}")
            console.print(f"wrote {args['html_out']}", markup=False)
            return 0
        show_game(view, args["at"], args["codes"], console, where=str(path))
        return 0

    def report(self, args: CommandArgs) -> int:
        from rulesets.botzone.report import write_report

        return write_report(args["path"], args["html_out"])

    def match_report(self, root: Path, out: Path) -> None:
        from rulesets.botzone.report import write_report_files

        write_report_files(root, out)

    def check_settings(self, settings: dict[str, str]) -> None:
        if settings["variant"] not in VARIANTS:
            raise InputError(f"--variant must be {' or '.join(VARIANTS)}")

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return int(settings.get("walls", 4)) * int(settings.get("orders", 4))

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.botzone.play import play_table

        return await play_table(table)


RULESET = BotzoneRuleset()
