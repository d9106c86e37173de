"""The default ruleset (docs/SPEC.md): what each command of the shell does for it.

Its pure core is ``protocol`` (tiles, messages), ``scoring`` (hand analysis,
the simplified GB fan table, settlement) and ``rulesets.default.engine`` (the hand
state machine, deals, records); its table is the persistent line-protocol
table of ``rulesets.default.table``, its match the 96-hand duplicate of ``rulesets.default.match``.
Each command below is the one the shell had before rulesets were a seam,
unchanged: same options, same output, same logs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from server.seam.bot_stats import SeatFacts
from server.seam.contract import (
    CommandArgs,
    DealRequest,
    DealScores,
    Ruleset,
    SeatBoard,
    TableRequest,
    TableRow,
    VerifyReport,
)
from server.seam.errors import InputError

if TYPE_CHECKING:
    from server.bots.seats import Sandbox

LIMITS = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
TABLE = frozenset({"hard_limit", "join_limit"})


class DefaultRuleset(Ruleset):
    name = "default"
    title = "docs/SPEC.md's contest"
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "groups", "on_fault",
                            "announce", "listen", "token", "work_dir", "serve", "title", "clock",
                            "seat_bind", "hands"}) | LIMITS | TABLE,
        "check-bot": frozenset({"hands", "seed"}) | LIMITS | TABLE,
        "replay": frozenset({"at", "codes", "html_out", "seat", "bot", "hard_limit",
                             "mem_limit", "cpu_limit", "file_limit"}),
        "report": frozenset({"html_out"}),
    }

    def match(self, args: CommandArgs) -> int:
        import secrets

        from server.bots.person import DEFAULT_CLOCK, PersonSetupError, person_options
        from server.bots.processes import BotCommandError, parse_command
        from server.bots.remote import RemoteSetupError, remote_options
        from server.bots.sandbox import SandboxError
        from server.output.paths import output_folder

        ais: list[str] = list(args["ais"])
        if len(ais) != 4:
            raise InputError(f"need exactly 4 AIs, got {len(ais)}")
        on_fault = args["on_fault"]
        if on_fault not in ("autoplay", "end"):
            raise InputError(f"--on-fault must be autoplay or end, not {on_fault!r}")
        try:
            argvs = [[] if spec.startswith(("tcp:", "web:")) else parse_command(spec)
                     for spec in ais]
            remote = remote_options(ais, args["listen"], args["token"] or [])
            persons = person_options(ais, args.get("clock") or DEFAULT_CLOCK,
                                     args.get("seat_bind") or "127.0.0.1:0")
        except (BotCommandError, RemoteSetupError, PersonSetupError) as exc:
            raise InputError(str(exc)) from None
        bot_sandbox = sandbox_from(args, work_dir=args["work_dir"])
        try:
            bot_sandbox.check()
        except SandboxError as exc:
            raise InputError(str(exc)) from None
        log_dir: Path = args["log_dir"]
        serve: str | None = args.get("serve")
        logs = bool(args["debug"]) or serve is not None  # --serve shows the log folder
        if logs:
            output_folder(log_dir, "--log-dir")
            # Masked where a bot's own folder holds it (server.bots.sandbox.bwrap_argv).
            bot_sandbox = replace(bot_sandbox, hide=(log_dir.absolute(),))
        seed = args["seed"]
        if seed is None:
            seed = secrets.randbelow(2**31)
        from rulesets.default.match_cli import run_from_cli
        from server.bots.leftovers import stop_earlier_bots_and_say

        stop_earlier_bots_and_say()
        status: int = run_from_cli(
            ais, argvs, seed=seed, groups=args["groups"], verbose=args["verbose"],
            log_dir=log_dir if logs else None, hard_limit=args["hard_limit"],
            join_limit=args["join_limit"], on_fault=on_fault, announce=args["announce"],
            remote=remote, sandbox=bot_sandbox, serve=serve, persons=persons,
            hands=args.get("hands"), title=args.get("title") or "")
        return status

    def play_person(self, args: CommandArgs) -> int:
        bot = str(Path(__file__).resolve().parents[2] / "sample_ai" / "greedy.py")
        return self.match(CommandArgs({
            "ais": [f"web:{args['name']}", bot, bot, bot], "verbose": False, "debug": True,
            "seed": args["seed"], "log_dir": args["log_dir"], "groups": 6, "hard_limit": 5.0,
            "join_limit": 5.0, "on_fault": "autoplay", "announce": True, "listen": None,
            "token": None, "mem_limit": None, "cpu_limit": None, "file_limit": None,
            "sandbox": "none", "work_dir": None, "serve": None, "clock": args["clock"],
            "seat_bind": args["seat_bind"], "hands": args.get("hands") or 4}, frozenset()))

    def check_bot(self, args: CommandArgs) -> int:
        import trio
        from rich.console import Console

        from rulesets.default.check_bot import check_bot as run_check
        from rulesets.default.check_bot import format_report
        from server.bots.leftovers import stop_earlier_bots_and_say
        from server.bots.processes import BotCommandError, parse_command
        from server.bots.sandbox import SandboxError
        from server.bots.seats import TableOptions
        from server.output.console import configure_logging

        cmd: str = args["cmd"]
        try:
            argv = parse_command(cmd)
            bot_sandbox = sandbox_from(args)
            bot_sandbox.check()
        except (BotCommandError, SandboxError) as exc:
            raise InputError(str(exc)) from None
        configure_logging(False)  # the report says it all
        stop_earlier_bots_and_say()
        report = trio.run(partial(run_check, argv, hands=args["hands"], seed=args["seed"],
                                  options=TableOptions(args["hard_limit"], args["join_limit"]),
                                  sandbox=bot_sandbox))
        out = Console(soft_wrap=True, highlight=False, emoji=False)
        for line in format_report(report, cmd):
            out.print(line, markup=False)
        return 0 if report.ok else 1

    def owns(self, path: Path) -> bool:
        from rulesets.default.verify import MATCH_FILES

        if path.is_dir():
            return (path / "events.jsonl").exists() or any(
                (path / name).exists() for name in MATCH_FILES)
        return path.suffix == ".log"

    def verify(self, path: Path) -> VerifyReport:
        from rulesets.default.verify import verify_path

        return verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rich.console import Console

        from rulesets.default.replay import load_hand, print_replay
        from server.output.paths import output_file

        hand: Path = args["path"]
        console = Console(emoji=False)
        if args["bot"] is not None or args["seat"] is not None:
            from rulesets.default.replay import replay_bot_command

            return replay_bot_command(hand, args["seat"], args["bot"], console,
                                      sandbox_from(args).limits, args["hard_limit"])
        if args["html_out"] is not None:
            from rulesets.default.pages import write_hand_page

            write_hand_page(hand, output_file(args["html_out"], "--html"))
            console.print(f"wrote {args['html_out']}", markup=False)
            return 0
        codes = args["codes"]
        glyphs = (console.is_terminal and (console.encoding or "").lower().startswith("utf")) \
            if codes is None else not codes
        print_replay(load_hand(hand), console, args["at"], glyphs)
        return 0

    def report(self, args: CommandArgs) -> int:
        from rich.console import Console

        from rulesets.default.logs import unfinished
        from rulesets.default.pages import write_match_report
        from server.output.paths import output_file

        match_dir: Path = args["path"]
        if not (match_dir / "match.json").exists() or \
                not (match_dir / "scoresheet.csv").exists():
            raise InputError(f"{match_dir} is not a match folder (no match.json or "
                             "scoresheet.csv)")
        try:
            written = write_match_report(match_dir, output_file(args["html_out"], "--html"))
        except (ValueError, KeyError) as exc:
            if isinstance(exc, InputError):
                raise
            raise InputError(str(exc)) from None
        console = Console(emoji=False, soft_wrap=True)
        for folder in sorted(p for p in match_dir.iterdir() if p.is_dir()):
            if (why := unfinished(folder)) is not None:
                console.print(f"note: {folder.name}: no page: {why}", markup=False)
        console.print(f"wrote {written[0]} and {len(written) - 1} hand page(s)", markup=False)
        return 0


    def seat_facts(self, root: Path) -> list[SeatFacts]:
        from rulesets.default.stats import match_facts

        return match_facts(root)

    def match_report(self, root: Path, out: Path, *, title: str = "",
                     back: tuple[str, str] | None = None) -> None:
        from rulesets.default.pages import write_match_report

        write_match_report(root, out, title=title, back=back)

    def fans(self, args: CommandArgs) -> int:
        from rulesets.default.fans_cmd import fans_command

        return fans_command(args)

    def simulate(self, args: CommandArgs) -> int:
        from rulesets.default.simulate_cmd import simulate_command

        return simulate_command(args)

    async def play_table(self, table: TableRequest) -> list[TableRow]:
        from rulesets.default.tournament import play_table

        return await play_table(table)

    def person_board(self, settings: Mapping[str, str]
                     ) -> tuple[Callable[[], SeatBoard], str]:
        from rulesets.default.person_board import PersonBoard
        from server.bots.person import AFTER_TIMEOUT

        return PersonBoard, AFTER_TIMEOUT

    compare_opponents = ("greedy", "random", "greedy")

    def check_deal(self, request: DealRequest) -> None:
        from rulesets.default.compare import check_deal

        check_deal(request)

    def play_deal(self, request: DealRequest) -> DealScores:
        from rulesets.default.compare import play_deal

        return play_deal(request)


def sandbox_from(args: CommandArgs, work_dir: Path | None = None) -> Sandbox:
    """The bot sandbox the limit options describe (not given: this ruleset's defaults;
    0: no limit)."""
    from server.bots.sandbox import LIMIT_OPTIONS, BotLimits
    from server.bots.seats import Sandbox
    from server.seam.registry import limit_defaults

    limits = BotLimits.from_options({key: args.get(key) for key in LIMIT_OPTIONS},
                                    limit_defaults(RULESET.name))
    return Sandbox(limits, args.get("sandbox", "none"), work_dir)


RULESET = DefaultRuleset()
