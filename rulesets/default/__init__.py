"""The default ruleset (docs/SPEC.md): what each command of the shell does for it.

Its pure core is ``protocol`` (tiles, messages), ``scoring`` (hand analysis,
the simplified GB fan table, settlement) and ``server.engine`` (the hand
state machine, deals, records); its table is the persistent line-protocol
table of ``server.table``, its match the 96-hand duplicate of ``server.match``.
Each command below is the one the shell had before rulesets were a seam,
unchanged: same options, same output, same logs.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rulesets.seam import CommandArgs, Ruleset, VerifyReport
from server.errors import InputError

if TYPE_CHECKING:
    from server.seats import Sandbox

LIMITS = frozenset({"mem_limit", "cpu_limit", "file_limit", "sandbox"})
TABLE = frozenset({"hard_limit", "join_limit"})


class DefaultRuleset(Ruleset):
    name = "default"
    title = "docs/SPEC.md's contest"
    options: ClassVar = {
        "match": frozenset({"verbose", "debug", "seed", "log_dir", "groups", "on_fault",
                            "announce", "listen", "token", "work_dir"}) | LIMITS | TABLE,
        "check-bot": frozenset({"hands", "seed"}) | LIMITS | TABLE,
        "replay": frozenset({"at", "codes", "html_out", "seat", "bot", "hard_limit",
                             "mem_limit", "cpu_limit", "file_limit"}),
        "report": frozenset({"html_out"}),
    }

    def match(self, args: CommandArgs) -> int:
        import secrets

        from server.bots import BotCommandError, parse_command
        from server.paths import output_folder
        from server.remote import RemoteSetupError, remote_options
        from server.sandbox import SandboxError

        ais: list[str] = list(args["ais"])
        if len(ais) != 4:
            raise InputError(f"need exactly 4 AIs, got {len(ais)}")
        on_fault = args["on_fault"]
        if on_fault not in ("autoplay", "end"):
            raise InputError(f"--on-fault must be autoplay or end, not {on_fault!r}")
        try:
            argvs = [[] if spec.startswith("tcp:") else parse_command(spec) for spec in ais]
            remote = remote_options(ais, args["listen"], args["token"] or [])
        except (BotCommandError, RemoteSetupError) as exc:
            raise InputError(str(exc)) from None
        bot_sandbox = sandbox_from(args, work_dir=args["work_dir"])
        try:
            bot_sandbox.check()
        except SandboxError as exc:
            raise InputError(str(exc)) from None
        log_dir: Path = args["log_dir"]
        if args["debug"]:
            output_folder(log_dir, "--log-dir")
        seed = args["seed"]
        if seed is None:
            seed = secrets.randbelow(2**31)
        from server.cli import stop_earlier_bots
        from server.match_cli import run_from_cli

        stop_earlier_bots()
        status: int = run_from_cli(
            ais, argvs, seed=seed, groups=args["groups"], verbose=args["verbose"],
            log_dir=log_dir if args["debug"] else None, hard_limit=args["hard_limit"],
            join_limit=args["join_limit"], on_fault=on_fault, announce=args["announce"],
            remote=remote, sandbox=bot_sandbox)
        return status

    def check_bot(self, args: CommandArgs) -> int:
        import trio
        from rich.console import Console

        from server.bots import BotCommandError, parse_command
        from server.check_bot import check_bot as run_check
        from server.check_bot import format_report
        from server.cli import stop_earlier_bots
        from server.console import configure_logging
        from server.sandbox import SandboxError
        from server.table import TableOptions

        cmd: str = args["cmd"]
        try:
            argv = parse_command(cmd)
            bot_sandbox = sandbox_from(args)
            bot_sandbox.check()
        except (BotCommandError, SandboxError) as exc:
            raise InputError(str(exc)) from None
        configure_logging(False)  # the report says it all
        stop_earlier_bots()
        report = trio.run(partial(run_check, argv, hands=args["hands"], seed=args["seed"],
                                  options=TableOptions(args["hard_limit"], args["join_limit"]),
                                  sandbox=bot_sandbox))
        out = Console(soft_wrap=True, highlight=False, emoji=False)
        for line in format_report(report, cmd):
            out.print(line, markup=False)
        return 0 if report.ok else 1

    def owns(self, path: Path) -> bool:
        from server.verify import MATCH_FILES

        if path.is_dir():
            return (path / "events.jsonl").exists() or any(
                (path / name).exists() for name in MATCH_FILES)
        return path.suffix == ".log"

    def verify(self, path: Path) -> VerifyReport:
        from server.verify import verify_path

        return verify_path(path)

    def replay(self, args: CommandArgs) -> int:
        from rich.console import Console

        from server.paths import output_file
        from server.replay_cmd import load_hand, print_replay

        hand: Path = args["path"]
        console = Console(emoji=False)
        if args["bot"] is not None or args["seat"] is not None:
            from server.replay_cmd import replay_bot_command

            return replay_bot_command(hand, args["seat"], args["bot"], console,
                                      sandbox_from(args).limits, args["hard_limit"])
        if args["html_out"] is not None:
            from server.html_pages import write_hand_page

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

        from server.html_pages import write_match_report
        from server.logs import unfinished
        from server.paths import output_file

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


    def match_report(self, root: Path, out: Path) -> None:
        from server.html_pages import write_match_report

        write_match_report(root, out)


def sandbox_from(args: CommandArgs, work_dir: Path | None = None) -> Sandbox:
    """The bot sandbox the limit options describe (not given: this ruleset's defaults;
    0: no limit)."""
    from rulesets.registry import limit_defaults
    from server.sandbox import LIMIT_OPTIONS, BotLimits
    from server.seats import Sandbox

    limits = BotLimits.from_options({key: args.get(key) for key in LIMIT_OPTIONS},
                                    limit_defaults(RULESET.name))
    return Sandbox(limits, args.get("sandbox", "none"), work_dir)


RULESET = DefaultRuleset()
