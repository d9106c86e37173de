"""The NOI 2014 contest behind the ruleset seam (SPEC-noi2014).

The pure side is ``engine`` (one game), ``formats`` (one game, the table
round, standings, re-running a record); ``play`` runs matches, check-bot and
tournament tables with the Botzone bot runner (``server.bots.botzone_bots``) in
the contest's dialect (``server.bots.botzone_io.NOI2014``: the statement's input
line, 1000 ms per answer, no doubled first turn, ``data`` up to 64 KiB).

``RULESET`` is the top of the package: its commands call ``play``, ``replay``,
``report`` and ``verify`` (imported on first use), which read records with
``records`` and play games with ``rules``; nothing in the package imports this
module back, and what a command needs of the ruleset (its sample bots, its
tournament defaults) is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ClassVar

from rulesets.botzone_bots import BotzoneBotsRuleset, is_match_or_games_folder
from rulesets.noi2014.engine import PLAYERS
from rulesets.noi2014.records import NAME, find_record
from server.seam.bot_stats import SeatFacts
from server.seam.contract import (
    CommandArgs,
    DealRequest,
    DealScores,
    SeatBoard,
    TableRequest,
    TableRow,
    VerifyReport,
)
from server.seam.errors import InputError

SANDBOX = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
BOTS = frozenset({"time_limit"}) | SANDBOX


class NoiRuleset(BotzoneBotsRuleset):
    name = NAME
    title = "NOI 2014's Mahjong (blood battle, target hands, a Swiss)"
    swiss_tiebreak = "wins"  # SPEC-noi2014 §7: points, then games won, then entry order
    win_worth = "points"  # no fan table: a win is worth its place's points (4, 3, 2)
    samples = Path(__file__).resolve().parents[2] / "sample_ai" / "noi2014"
    tournament_defaults: ClassVar = {"walls": "1", "orders": "4", "time_limit": "1.0"}
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "format", "walls", "orders",
                            "work_dir", "serve", "title", "clock", "seat_bind"}) | BOTS,
        "check-bot": frozenset({"seed", "games"}) | BOTS,
        "replay": frozenset({"at", "codes", "html_out"}),
        "report": frozenset({"html_out"}),
    }

    def owns(self, path: Path) -> bool:
        if is_match_or_games_folder(path, NAME):
            return True
        try:
            return find_record(path) is not None
        except InputError:
            return False

    def match(self, args: CommandArgs) -> int:
        from rulesets.noi2014.play import run_match

        return run_match(args)

    def play_person(self, args: CommandArgs) -> int:
        bot = f"json+keep-running:python3 {self.samples / 'greedy_bot.py'} --keep-running"
        return self.match(CommandArgs({
            "ais": [f"web:{args['name']}", bot, bot, bot], "verbose": False, "debug": True,
            "seed": args["seed"], "log_dir": args["log_dir"], "format": "one",
            "initdata": None, "work_dir": None, "serve": None, "sandbox": "none",
            "mem_limit": None, "cpu_limit": None, "file_limit": None, "time_limit": None,
            "clock": args["clock"], "seat_bind": args["seat_bind"]}, frozenset()))

    def check_bot(self, args: CommandArgs) -> int:
        from rulesets.noi2014.play import check_bot

        return check_bot(args, self.samples)

    def verify(self, path: Path) -> VerifyReport:
        from rulesets.noi2014.verify import verify_path

        return verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rulesets.noi2014.replay import replay

        return replay(args)

    def report(self, args: CommandArgs) -> int:
        from rulesets.noi2014.report import write_report

        return write_report(args["path"], args["html_out"])

    def seat_facts(self, root: Path) -> list[SeatFacts]:
        from rulesets.noi2014.stats import match_facts

        return match_facts(root)

    def match_report(self, root: Path, out: Path, *, title: str = "",
                     back: tuple[str, str] | None = None) -> None:
        from rulesets.noi2014.report import write_report_files

        write_report_files(root, out, title=title, back=back)

    def check_settings(self, settings: dict[str, str]) -> None:
        if not 1 <= int(settings["orders"]) <= PLAYERS:
            raise InputError("--orders: a NOI 2014 table plays a wall 1 to 4 times (seats "
                             "rotated one each time)")

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return int(settings.get("walls", 1)) * int(settings.get("orders", 4))

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.noi2014.play import play_table

        return await play_table(table, self.tournament_defaults)

    def person_board(self, settings: Mapping[str, str]
                     ) -> tuple[Callable[[], SeatBoard], str]:
        from rulesets.noi2014.person_board import PersonBoard
        from rulesets.noi2014.play import AFTER_TIMEOUT

        return PersonBoard, AFTER_TIMEOUT

    compare_opponents = ("greedy", "random", "greedy")

    def check_deal(self, request: DealRequest) -> None:
        from rulesets.noi2014.compare import check_deal

        check_deal(request)

    def play_deal(self, request: DealRequest) -> DealScores:
        from rulesets.noi2014.compare import play_deal

        return play_deal(request)


RULESET = NoiRuleset()
