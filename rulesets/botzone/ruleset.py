"""Botzone's Chinese Standard Mahjong behind the ruleset seam.

The pure side is ``rulesets.botzone.judge`` (the official judge's rules, both
variants), ``formats`` (one game, the IJCAI duplicate) and ``view`` (a game
step by step); the shell's turn driver (``server.turns.driver``,
``server.turns.match``) plays it with Botzone bots (``server.bots.botzone_bots``).

``RULESET`` is the top of the package: its commands call ``play``, ``replay``
and ``page``, ``report`` and ``verify`` (imported on first use), which read
records with ``records`` and play games with ``rules``; nothing in the package
imports this module back, and what a command needs of the ruleset (its sample
bots, its tournament defaults) is passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path
from typing import ClassVar

from rulesets.botzone.records import NAME, find_record, read_record
from rulesets.botzone.rules import VARIANTS
from rulesets.botzone_bots import BotzoneBotsRuleset, is_match_or_games_folder
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


class BotzoneRuleset(BotzoneBotsRuleset):
    name = NAME
    title = "Botzone's Chinese Standard Mahjong"
    variants = VARIANTS
    samples = Path(__file__).resolve().parents[2] / "sample_ai" / "botzone"
    ranking = "rank_points"  # SPEC-botzone section 8: 4/3/2/1 per wall, then the scores
    tournament_defaults: ClassVar = {"variant": "classic", "walls": "4", "orders": "4",
                                     "time_limit": "1.0"}
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "variant", "format", "walls",
                            "orders", "initdata", "work_dir", "serve", "title", "clock",
                            "seat_bind"}) | BOTS,
        "check-bot": frozenset({"seed", "variant", "games"}) | BOTS,
        "replay": frozenset({"at", "codes", "html_out", "match_id"}),
        "report": frozenset({"html_out"}),
    }

    def owns(self, path: Path) -> bool:
        """A Botzone match folder (or its ``games``), a game folder or record, a file of human
        match records; a ``.json`` file that is no JSON too, so that replay and verify say
        so."""
        from rulesets.botzone.human_cmd import is_human_file

        if is_match_or_games_folder(path, NAME) or is_human_file(path):
            return True
        try:
            return find_record(path) is not None
        except InputError:
            return True

    def match(self, args: CommandArgs) -> int:
        from rulesets.botzone.play import run_match

        return run_match(args)

    def play_person(self, args: CommandArgs) -> int:
        bot = f"json+keep-running:python3 {self.samples / 'greedy_bot.py'} --keep-running"
        return self.match(CommandArgs({
            "ais": [f"web:{args['name']}", bot, bot, bot], "verbose": False, "debug": True,
            "seed": args["seed"], "log_dir": args["log_dir"], "format": "one",
            "variant": args.get("variant") or "classic",
            "initdata": None, "work_dir": None, "serve": None, "sandbox": "none",
            "mem_limit": None, "cpu_limit": None, "file_limit": None, "time_limit": None,
            "clock": args["clock"], "seat_bind": args["seat_bind"]}, frozenset()))

    def check_bot(self, args: CommandArgs) -> int:
        from rulesets.botzone.play import check_bot

        return check_bot(args, self.samples)

    def verify(self, path: Path) -> VerifyReport:
        from rulesets.botzone.human_cmd import is_human_file, verify_file
        from rulesets.botzone.verify import verify_path

        return verify_file(path) if is_human_file(path) else verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rich.console import Console

        from rulesets.botzone import human_cmd
        from rulesets.botzone.page import write_game_page
        from rulesets.botzone.replay import show_game, view_of
        from server.output.paths import output_file

        path: Path = args["path"]
        if human_cmd.is_human_file(path):
            return human_cmd.replay(args)
        if args.get("match_id") is not None:
            raise InputError("--match: an option of a file of human match records only")
        view = view_of(read_record(path), str(path))
        console = Console(emoji=False)
        if args["html_out"] is not None:
            write_game_page(view, output_file(args["html_out"], "--html"),
                            title=f"Botzone game {path.name}")
            console.print(f"wrote {args['html_out']}", markup=False)
            return 0
        show_game(view, args["at"], args["codes"], console, where=str(path))
        return 0

    def human(self, args: CommandArgs) -> int:
        from rulesets.botzone.human_cmd import run

        return run(args)

    def report(self, args: CommandArgs) -> int:
        from rulesets.botzone.report import write_report

        return write_report(args["path"], args["html_out"])

    def seat_facts(self, root: Path) -> list[SeatFacts]:
        from rulesets.botzone.stats import match_facts

        return match_facts(root)

    def match_report(self, root: Path, out: Path, *, title: str = "",
                     back: tuple[str, str] | None = None) -> None:
        from rulesets.botzone.report import write_report_files

        write_report_files(root, out, title=title, back=back)

    def check_settings(self, settings: dict[str, str]) -> None:
        if settings["variant"] not in VARIANTS:
            raise InputError(f"--variant must be {' or '.join(VARIANTS)}")

    def games_per_table(self, settings: Mapping[str, str]) -> int:
        return int(settings.get("walls", 4)) * int(settings.get("orders", 4))

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.botzone.play import play_table

        return await play_table(table, self.tournament_defaults)

    def person_board(self, settings: Mapping[str, str]
                     ) -> tuple[Callable[[], SeatBoard], str]:
        from rulesets.botzone.person_board import PersonBoard
        from rulesets.botzone.play import AFTER_TIMEOUT

        variant = {**self.tournament_defaults, **settings}["variant"]
        return partial(PersonBoard, variant), AFTER_TIMEOUT

    compare_opponents = ("greedy", "random", "greedy")

    def check_deal(self, request: DealRequest) -> None:
        from rulesets.botzone.compare import check_deal

        check_deal(request)

    def play_deal(self, request: DealRequest) -> DealScores:
        from rulesets.botzone.compare import play_deal

        return play_deal(request)


RULESET = BotzoneRuleset()
