"""The ``server`` command line.

``server AI1 AI2 AI3 AI4 [-v] [-d]`` runs a match, exactly as the original; the
tools (``server fans``, ``server simulate``, ...) are subcommands beside it.
``main`` inserts the hidden word ``match`` when the first argument is not a
subcommand, so both forms work and ``server --help`` lists everything.
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from server.errors import EXIT_BAD_INPUT, InputError
from server.paths import output_file, output_folder
from server.say import err_console, error_line, out_console

if TYPE_CHECKING:
    from server.engine.simulate import Summary

# Help for the options a match and a tournament share: the rules bots play by.
HELP = {
    "hard_limit": "Seconds before an unanswered prompt is a fault",
    "join_limit": "Seconds for each AI to join",
    "mem_limit": "MB of address space per bot process (0: no limit)",
    "cpu_limit": "CPU seconds per bot process, so per hand (0: no limit)",
    "file_limit": "MB a bot may write to one file; under bwrap, to its /tmp (0: no limit)",
    "sandbox": "none, or bwrap: each bot under bubblewrap (read-only system, private /tmp, "
               "no network)",
    "work_dir": "Where each bot's working folder per hand is made (a temporary folder by "
                "default)",
}
RULE_NOTE = " [default: {}; stored, and kept on --resume]"
# Which files of a folder are bots (the rule of server.tournament.entries).
FOLDER_HELP = ("each executable file and each *.py file, except names starting with _ and "
               "*.py modules the others import that have no #! line or __main__ block")


def refuse(message: object) -> NoReturn:
    """Bad input, in every command: one line on stderr naming the problem (an
    exception told by ``server.errors.reason``), and exit status 2."""
    err_console().print(error_line(message))
    raise SystemExit(EXIT_BAD_INPUT)


def stop_earlier_bots() -> None:
    """Before a command starts bots: stop what a server killed outright left
    running, and say so (``server.leftovers``)."""
    from server.leftovers import stop_earlier_bots_and_say

    stop_earlier_bots_and_say(err_console())


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help=(
        "Match server for Mahjong AI contests.\n\n"
        "Run a match with: server AI1 AI2 AI3 AI4 [-v] [-d] (same as 'server match ...')."
    ),
)


@app.callback()
def _root() -> None:
    """Match server for Mahjong AI contests."""


@app.command()
def fans(
    hand: Annotated[str | None, typer.Option(
        help='Concealed tiles before the win, e.g. "1M 2M 3M ..."')] = None,
    melds: Annotated[str, typer.Option(
        help='Declared sets, e.g. "chi 3M, peng E, gang 5T, agang Z"')] = "",
    win: Annotated[str | None, typer.Option(help="The winning tile, e.g. 6M")] = None,
    self_drawn: Annotated[bool, typer.Option(
        "--self-drawn", help="The win was self-drawn")] = False,
    batch: Annotated[bool, typer.Option(
        "--batch", help="Read JSON lines on stdin, write JSON lines")] = False,
) -> None:
    """Score a winning hand under the default ruleset's fan table.

    One hand: --hand, --win, and --melds and --self-drawn if needed.

    --batch reads a JSON object a line on stdin and writes a JSON line for each, in order:

    \b
    in:  {"hand": ["7T", "8T", "9T", "W"], "melds": [["chi", "1M"], ["peng", "9S"], ["chi", "4T"]], "win": "W"}
    out: {"total": 1, "fans": [["单钓将", 1]]}

    "hand": the concealed tiles before the win (tile codes); "win": the winning
    tile; "melds" (optional): [kind, tile] pairs, kind chi (tile: the lowest of
    the run), peng, gang (exposed) or agang (concealed); "self_drawn" (optional):
    true or false. The answer's "fans" are [name, value] pairs, by the fan
    table's Chinese names (--hand shows the English ones too). A line that
    cannot be scored gets {"error": "why"}.
    """  # noqa: E501
    from protocol.tiles import TileError, parse_tile, parse_tiles
    from scoring.fans import HandError, WinningHand, score
    from server.fans_cmd import describe, parse_melds_text, score_batch

    if batch:
        if hand or win or melds or self_drawn:
            raise typer.BadParameter("--batch reads hands from stdin; give no other option")
        for out in score_batch(sys.stdin):
            sys.stdout.write(out + "\n")
            sys.stdout.flush()
        return
    if hand is None or win is None:
        raise typer.BadParameter("give --hand and --win (or --batch)")
    console = Console(emoji=False)
    try:
        wh = WinningHand(tuple(parse_tiles(hand)), tuple(parse_melds_text(melds)),
                         parse_tile(win), self_drawn)
        result = score(wh)
    except (TileError, HandError) as exc:
        refuse(exc)
    table = Table(title=f"{hand} + {win}{' (self-drawn)' if self_drawn else ''}")
    table.add_column("fan")
    table.add_column("English")
    table.add_column("count", justify="right")
    table.add_column("value (fan)", justify="right")
    for row in describe(result):
        table.add_row(*row)
    table.add_section()
    table.add_row("total", "", "", str(result.total))
    console.print(table)


@app.command()
def simulate(
    bots: Annotated[str, typer.Option(
        help="Four bots, comma-separated: random, greedy, module:Class (the current "
        "folder first) or path/to/bot.py:Class")
    ] = "random,random,greedy,greedy",
    hands: Annotated[int, typer.Option(min=1, help="How many hands to play")] = 100,
    seed: Annotated[int, typer.Option(help="Seed for the deals")] = 0,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON line instead of a table")] = False,
) -> None:
    """Play hands in-process with Python bot objects (no subprocesses) and summarise.

    Ctrl-C stops early and still prints the summary of the hands played (exit 130).
    """
    import json

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    from server.engine.simulate import BotSpecError, Played
    from server.engine.simulate import simulate as run

    specs = [s.strip() for s in bots.split(",")]
    console = err_console()
    progress = Progress("simulate", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        console=console, transient=True, disable=not console.is_terminal)
    task = progress.add_task("hands", total=hands)

    def on_hand(_: int, __: Played) -> None:
        progress.advance(task)

    try:
        with progress:
            summary = run(specs, hands, seed, on_hand=on_hand)
    except BotSpecError as exc:
        refuse(exc)
    for i, p in enumerate(summary.players):
        if p.crashes:
            console.print(f"P{i} ({p.bot}) raised an exception in {p.crashes} hand(s) and "
                          "was played by the server from there; the first time:\n"
                          + p.first_error.rstrip(), markup=False, highlight=False)
    if json_out:
        print(json.dumps(summary.as_json()))
    else:
        print_simulation(summary, seed)
    if summary.interrupted:
        console.print(f"interrupted after {summary.hands} of {hands} hands", markup=False)
        raise typer.Exit(130)


def print_simulation(summary: Summary, seed: int) -> None:
    """The summary of ``server simulate`` as a table and a line of results."""
    played = summary.hands
    rate = played / summary.seconds if summary.seconds else 0.0
    table = Table(title=f"{played} hands, seed {seed}: {rate:.0f} hands/s")
    crashes = any(p.crashes for p in summary.players)
    columns = ["player", "bot", "points", "points/hand", "wins", "illegal"]
    for col in [*columns, "crashed"] if crashes else columns:
        table.add_column(col, justify="left" if col in ("player", "bot") else "right")
    for i, p in enumerate(summary.players):
        row: list[str | Text] = [f"P{i}", Text(p.bot), str(p.points),
               f"{p.points / played:+.2f}" if played else "-", str(p.wins), str(p.illegal)]
        table.add_row(*row, *([str(p.crashes)] if crashes else []))
    out = out_console()
    out.print(table)
    wins = summary.wins
    out.print(f"draws {summary.draws}; wins: {wins['self_drawn']} self-drawn, "
              f"{wins['discard']} on a discard, {wins['robbed_kong']} robbing a kong")


@app.command()
def match(
    ais: Annotated[list[str], typer.Argument(
        help="Four AIs: paths to executables or quoted command lines (\"python3 bot.py\")",
        show_default=False)],
    verbose: Annotated[bool, typer.Option("-v", "--verbose",
                                          help="Print every message and decision")] = False,
    debug: Annotated[bool, typer.Option("-d", "--logs",
                                        help="Write per-hand log folders under --log-dir")] = False,
    seed: Annotated[int | None, typer.Option(help="Match seed (random by default)")] = None,
    log_dir: Annotated[Path, typer.Option(help="Where -d writes the match folder")] = Path("logs"),
    groups: Annotated[int, typer.Option(min=1, max=6, help="Groups to play (16 hands each)")] = 6,
    hard_limit: Annotated[float, typer.Option(min=1.0, help=HELP["hard_limit"])] = 5.0,
    join_limit: Annotated[float, typer.Option(min=0.1, help=HELP["join_limit"])] = 5.0,
    on_fault: Annotated[str, typer.Option(help="autoplay: the server plays a faulted seat to "
                                          "the end of the hand; end: end the match")] = "autoplay",
    announce: Annotated[bool, typer.Option(help="Send 'mhu <winner> <discarder> <fans>' "
                                           "before closing a won hand")] = False,
    listen: Annotated[str | None, typer.Option(help="HOST:PORT (or PORT: loopback) where "
                                               "tcp:NAME AIs connect")] = None,
    token: Annotated[list[str] | None, typer.Option(help="NAME=SECRET for tcp:NAME "
                                                    "(generated and printed if absent)")] = None,
    mem_limit: Annotated[int, typer.Option(min=0, help=HELP["mem_limit"])] = 4096,
    cpu_limit: Annotated[int, typer.Option(min=0, help=HELP["cpu_limit"])] = 300,
    file_limit: Annotated[int, typer.Option(min=0, help=HELP["file_limit"])] = 64,
    sandbox: Annotated[str, typer.Option(help=HELP["sandbox"])] = "none",
    work_dir: Annotated[Path | None, typer.Option(help=HELP["work_dir"])] = None,
) -> None:
    """Run a duplicate match: server AI1 AI2 AI3 AI4 [-v] [-d]."""
    import secrets

    from server.bots import BotCommandError, parse_command

    if len(ais) != 4:
        refuse(f"need exactly 4 AIs, got {len(ais)}")
    if on_fault not in ("autoplay", "end"):
        refuse(f"--on-fault must be autoplay or end, not {on_fault!r}")
    from server.remote import RemoteSetupError, remote_options

    try:
        argvs = [[] if spec.startswith("tcp:") else parse_command(spec) for spec in ais]
        remote = remote_options(ais, listen, token or [])
    except (BotCommandError, RemoteSetupError) as exc:
        refuse(exc)
    from server.sandbox import BotLimits, SandboxError
    from server.seats import Sandbox

    bot_sandbox = Sandbox(BotLimits(mem_limit or None, cpu_limit or None, file_limit or None),
                          sandbox, work_dir)
    try:
        bot_sandbox.check()
    except SandboxError as exc:
        refuse(exc)
    if debug:
        output_folder(log_dir, "--log-dir")
    if seed is None:
        seed = secrets.randbelow(2**31)
    from server.match_cli import run_from_cli

    stop_earlier_bots()

    status = run_from_cli(ais, argvs, seed=seed, groups=groups, verbose=verbose,
                          log_dir=log_dir if debug else None, hard_limit=hard_limit,
                          join_limit=join_limit, on_fault=on_fault, announce=announce,
                          remote=remote, sandbox=bot_sandbox)
    raise typer.Exit(status)


@app.command("check-bot")
def check_bot(
    cmd: Annotated[str, typer.Argument(help="The bot: a path to an executable or a quoted "
                                       "command line", show_default=False)],
    hands: Annotated[int, typer.Option(min=1, max=16, help="Hands to play")] = 4,
    seed: Annotated[int, typer.Option(help="Deals and the sample AIs' seed")] = 1,
    hard_limit: Annotated[float, typer.Option(min=1.0, help="Seconds before an unanswered "
                                              "prompt is a fault")] = 5.0,
    join_limit: Annotated[float, typer.Option(min=0.1, help="Seconds to join")] = 5.0,
    mem_limit: Annotated[int, typer.Option(min=0, help="MB of address space (0: none)")] = 4096,
    cpu_limit: Annotated[int, typer.Option(min=0, help="CPU seconds per hand (0: none)")] = 300,
    file_limit: Annotated[int, typer.Option(min=0, help="MB per file written (0: none)")] = 64,
    sandbox: Annotated[str, typer.Option(help="none or bwrap")] = "none",
) -> None:
    """Play a few hands of a bot against the sample AIs and report protocol problems."""
    import trio

    from server.bots import BotCommandError, parse_command
    from server.check_bot import check_bot as run_check
    from server.check_bot import format_report
    from server.console import configure_logging
    from server.sandbox import BotLimits, SandboxError
    from server.seats import Sandbox
    from server.table import TableOptions

    try:
        argv = parse_command(cmd)
        bot_sandbox = Sandbox(BotLimits(mem_limit or None, cpu_limit or None,
                                        file_limit or None), sandbox)
        bot_sandbox.check()
    except (BotCommandError, SandboxError) as exc:
        refuse(exc)
    configure_logging(False)  # the report says it all
    stop_earlier_bots()
    report = trio.run(partial(run_check, argv, hands=hands, seed=seed,
                              options=TableOptions(hard_limit, join_limit),
                              sandbox=bot_sandbox))
    out = Console(soft_wrap=True, highlight=False, emoji=False)
    for line in format_report(report, cmd):
        out.print(line, markup=False)
    raise typer.Exit(0 if report.ok else 1)


@app.command()
def replay(
    hand: Annotated[Path, typer.Argument(help="A hand folder written with -d, an "
                                         "original-format .log file, or a Botzone game "
                                         "record (game.json or its folder)")],
    at: Annotated[int | None, typer.Option(help="Show the table at step N only")] = None,
    codes: Annotated[bool | None, typer.Option("--codes/--glyphs",
                                               help="Tile codes or Unicode tile glyphs "
                                               "(default: glyphs on a UTF-8 terminal)")] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Write a self-contained "
                                                  "page to step through the hand")] = None,
    seat: Annotated[int | None, typer.Option(min=0, max=3, help="With --bot: the seat "
                                             "whose recorded lines the bot gets")] = None,
    bot: Annotated[str | None, typer.Option(help="Feed this bot (path or quoted command) "
                                            "the lines --seat received, compare answers")] = None,
) -> None:
    """Show a recorded hand step by step: hands, melds, discards, claims, result."""
    from server.botzone_replay import read_record
    from server.replay_cmd import HandFileError, load_hand, print_replay

    console = Console(emoji=False)
    if (record := read_record(hand)) is not None:
        _replay_botzone(hand, record, at, codes, html_out, bot is not None or seat is not None,
                        console)
        return
    if bot is not None or seat is not None:
        raise typer.Exit(_replay_bot(hand, seat, bot, console))
    if html_out is not None:
        from server.html_pages import write_hand_page

        try:
            write_hand_page(hand, output_file(html_out, "--html"))
        except HandFileError as exc:
            refuse(exc)
        console.print(f"wrote {html_out}", markup=False)
        return
    glyphs = (console.is_terminal and (console.encoding or "").lower().startswith("utf")) \
        if codes is None else not codes
    try:
        print_replay(load_hand(hand), console, at, glyphs)
    except HandFileError as exc:
        refuse(exc)


@app.command()
def verify(
    path: Annotated[Path, typer.Argument(help="A match folder, a hand folder, or an "
                                         "original-format .log file")],
) -> None:
    """Re-run recorded hands through the engine and check every recorded result."""
    from server.verify import verify_path

    report = verify_path(path)
    console = Console(soft_wrap=True, emoji=False)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)
    for problem in report.problems:
        console.print(Text.assemble(("DISAGREES", "red"), " ", problem))
    state = "all agree" if report.ok else f"{len(report.problems)} disagreement(s)"
    console.print(f"checked {len(report.checked)} item(s): {state}")
    raise typer.Exit(0 if report.ok else 1)


def _replay_botzone(path: Path, record: dict[str, Any], at: int | None, codes: bool | None,
                    html_out: Path | None, to_bot: bool, console: Console) -> None:
    """``server replay`` of a Botzone game record (a game.json or a data file)."""
    from server.botzone_page import write_game_page
    from server.botzone_replay import show_game, view_of

    if to_bot:
        refuse("--seat and --bot replay a hand of the default ruleset, not a Botzone game")
    view = view_of(record, str(path))
    if html_out is not None:
        write_game_page(view, output_file(html_out, "--html"), title=f"Botzone game {path.name}")
        console.print(f"wrote {html_out}", markup=False)
        return
    show_game(view, at, codes, console, where=str(path))


def _replay_bot(hand: Path, seat: int | None, bot: str | None, console: Console) -> int:
    import trio

    from server.bots import BotCommandError, parse_command
    from server.replay_bot import read_transcript, replay_to_bot

    if seat is None or bot is None:
        refuse("--seat and --bot go together")
    path = hand / f"seat{seat}.transcript"
    try:
        argv = parse_command(bot)
        transcript = read_transcript(path)
    except (BotCommandError, OSError, ValueError) as exc:
        refuse(exc)
    result = trio.run(replay_to_bot, transcript, argv)
    table = Table(title=Text(f"{bot} as seat {seat} of {hand}"))
    for col in ("#", "after", "recorded", "bot", ""):
        table.add_column(col)
    for i, d in enumerate(result.decisions, start=1):
        table.add_row(str(i), Text(d.prompt), Text(d.recorded), Text(d.got),
                      "" if d.same else Text("differs", style="red"))
    console.print(table)
    for prompt, line in result.extra:
        console.print(Text.assemble(("extra", "yellow"), f" after {prompt!r}: {line!r}"))
    if result.ended_early:
        console.print(Text(result.ended_early, style="yellow"))
    same = sum(1 for d in result.decisions if d.same)
    console.print(f"{same} of {len(result.decisions)} answers as recorded")
    return 0 if result.differences == 0 else 1


@app.command()
def report(
    match_dir: Annotated[Path, typer.Argument(help="A match folder written with -d")],
    html_out: Annotated[Path, typer.Option("--html", help="Where to write the report")],
) -> None:
    """Write a match's HTML report: standings, running totals, scoresheet, hand pages."""
    from server.html_pages import write_match_report
    from server.logs import unfinished
    from server.replay_cmd import HandFileError

    if not (match_dir / "match.json").exists() or not (match_dir / "scoresheet.csv").exists():
        refuse(f"{match_dir} is not a match folder (no match.json or scoresheet.csv)")
    try:
        written = write_match_report(match_dir, output_file(html_out, "--html"))
    except (HandFileError, ValueError, KeyError) as exc:
        refuse(exc)
    console = Console(emoji=False, soft_wrap=True)
    for folder in sorted(p for p in match_dir.iterdir() if p.is_dir()):
        if (why := unfinished(folder)) is not None:
            console.print(f"note: {folder.name}: no page: {why}", markup=False)
    console.print(f"wrote {written[0]} and {len(written) - 1} hand page(s)", markup=False)


@app.command()
def thupc(
    wall_file: Annotated[Path | None, typer.Argument(
        help="The 148 tiles, one a line (standard input when absent or -)",
        metavar="WALL_FILE", show_default=False)] = None,
) -> None:
    """THUPC 2021 Mahjong simulator: print the exact game log for a wall."""
    from rulesets.thupc2021.command import thupc_command

    raise typer.Exit(thupc_command(wall_file))


@app.command()
def tournament(
    bots: Annotated[Path | None, typer.Argument(
        help="BOTS.toml ([[bot]] name, command; command \"tcp:NAME\": a remote bot) or a "
        "folder of bots (" + FOLDER_HELP + "); not needed with --resume",
        show_default=False)] = None,
    format: Annotated[str, typer.Option(
        "--format", help="swiss, round-robin or gauntlet")] = "swiss",
    rounds: Annotated[int | None, typer.Option(
        min=1, help="Rounds (default: by format and field size)")] = None,
    groups: Annotated[int, typer.Option(min=1, max=6, help="Groups (16 hands) per table")] = 1,
    hands: Annotated[int | None, typer.Option(
        min=1, help="Play only the first N hands of each table's match")] = None,
    jobs: Annotated[int | None, typer.Option(
        min=1, help="Tables in parallel (default: measured, see README)")] = None,
    seed: Annotated[int, typer.Option(help="Tournament seed (schedule and deals)")] = 0,
    hero: Annotated[str | None, typer.Option(help="Gauntlet: the bot facing the field")] = None,
    out: Annotated[Path, typer.Option(help="The tournament's folder (its SQLite file, "
                                      "reports and match logs)")] = Path("tournament"),
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with the tournament stored in --out")] = False,
    listen: Annotated[str | None, typer.Option(help="HOST:PORT (or PORT: loopback) where "
                                               "remote bots (tcp:NAME) connect; not stored: "
                                               "give it again with --resume")] = None,
    token: Annotated[list[str] | None, typer.Option(help="NAME=SECRET for tcp:NAME "
                                                    "(generated and printed if absent)")] = None,
    hard_limit: Annotated[float | None, typer.Option(
        min=1.0, help=HELP["hard_limit"] + RULE_NOTE.format(5.0))] = None,
    join_limit: Annotated[float | None, typer.Option(
        min=0.1, help=HELP["join_limit"] + RULE_NOTE.format(5.0))] = None,
    mem_limit: Annotated[int | None, typer.Option(
        min=0, help=HELP["mem_limit"] + RULE_NOTE.format(4096))] = None,
    cpu_limit: Annotated[int | None, typer.Option(
        min=0, help=HELP["cpu_limit"] + RULE_NOTE.format(300))] = None,
    file_limit: Annotated[int | None, typer.Option(
        min=0, help=HELP["file_limit"] + RULE_NOTE.format(64))] = None,
    sandbox: Annotated[str | None, typer.Option(
        help=HELP["sandbox"] + RULE_NOTE.format("none"))] = None,
    work_dir: Annotated[Path | None, typer.Option(help=HELP["work_dir"])] = None,
) -> None:
    """Play a tournament of many bots: tables of four in parallel, stored, resumable."""
    from server.tournament import FORMATS, EntriesError, default_jobs
    from server.tournament.command import config_from_args, say_folder
    from server.tournament.command import run as run_tournament

    if format not in FORMATS:
        refuse(f"--format must be one of {', '.join(FORMATS)}")
    try:
        config = config_from_args(bots, out, resume, listen, token or [], format=format,
                                  rounds=rounds, groups=groups, hands=hands,
                                  jobs=jobs or default_jobs(), seed=seed, hero=hero,
                                  hard_limit=hard_limit, join_limit=join_limit,
                                  mem_limit=mem_limit, cpu_limit=cpu_limit,
                                  file_limit=file_limit, sandbox=sandbox, work_dir=work_dir)
    except EntriesError as exc:
        refuse(exc)
    if bots is not None and bots.is_dir():
        say_folder(bots, err_console())
    stop_earlier_bots()  # a resume after a kill -9 included
    raise typer.Exit(run_tournament(config, resume))


@app.command()
def connect(
    address: Annotated[str, typer.Argument(help="The match server's HOST:PORT",
                                           show_default=False)],
    cmd: Annotated[list[str], typer.Argument(help="The bot: after --, a program and its "
                                             "arguments (or one quoted command line)",
                                             show_default=False)],
    name: Annotated[str, typer.Option(help="The seat's NAME (the server's tcp:NAME)")],
    token: Annotated[str, typer.Option(help="The seat's SECRET (the server's --token)")],
    wait: Annotated[float, typer.Option(min=0.0, help="Seconds to keep trying to reach the "
                                        "server at the start")] = 30.0,
) -> None:
    """Play a local stdio bot at a remote match, one connection per hand.

    server connect HOST:PORT --name NAME --token SECRET -- CMD...
    """
    import shlex

    import trio

    from server.bots import BotCommandError, parse_command
    from server.connect import bridge
    from server.remote import RemoteSetupError, check_name, parse_listen

    err = err_console()
    try:
        host, port = parse_listen(address, "the server's address")
        check_name("--name", name)
        check_name("--token", token)
        argv = parse_command(cmd[0] if len(cmd) == 1 else shlex.join(cmd))
    except (BotCommandError, RemoteSetupError) as exc:
        refuse(exc)
    stop_earlier_bots()
    result = trio.run(bridge, host, port, name, token, argv, wait)
    err.print(f"connect: stopped after {result.hands} hand(s): {result.reason}", markup=False)
    raise typer.Exit(result.status)


def main() -> None:
    """Entry point: route ``server AI1 ...`` to the match command."""
    args = sys.argv[1:]
    names = {c.name or (c.callback.__name__ if c.callback else "")
             for c in app.registered_commands}
    if args and args[0] not in names and args[0] not in ("--help", "-h", "--version"):
        sys.argv.insert(1, "match")
    try:
        app(prog_name="server")
    # InputError: raised anywhere in a command (server.errors); OSError: a path no
    # check foresaw. Either is still one line, not a traceback.
    except (InputError, OSError) as exc:
        refuse(exc)


if __name__ == "__main__":
    main()
