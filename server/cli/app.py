"""The ``server`` command line.

``server AI1 AI2 AI3 AI4 [-v] [-d]`` runs a match, exactly as the original; the
tools (``server fans``, ``server simulate``, ...) are subcommands beside it.
``main`` inserts the hidden word ``match`` when the first argument is not a
subcommand, so both forms work and ``server --help`` lists everything.
"""

from __future__ import annotations

import copy
import os
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console

from protocol.compiled import note_plain
from server.output.say import err_console, error_line, out_console
from server.seam.contract import CommandArgs, Ruleset
from server.seam.errors import EXIT_BAD_INPUT, InputError
from server.seam.registry import DEFAULT, LISTINGS, limit_default_help, listing, load

# Help for the options a match and a tournament share: the rules bots play by.
HELP = {
    "hard_limit": "Seconds before an unanswered prompt is a fault",
    "clock": "Seconds a person (a web:NAME seat) has for each answer",
    "seat_bind": "HOST:PORT (or PORT: loopback) where the web:NAME seats' pages are served "
    "(0: a free port)",
    "join_limit": "Seconds for each AI to join",
    "mem_limit": "MB of memory a bot uses, its processes together (a memory cgroup per "
                 "bot; see docs/guides/sandbox.md); 0: no limit",
    "cpu_limit": "CPU seconds per bot process (a hand; botzone, noi2014: a turn, or a kept "
                 "bot's game); 0: no limit",
    "file_limit": "MB a bot may write to one file; under bwrap, to its /tmp; 0: no limit",
    "sandbox": "none, or bwrap: each bot under bubblewrap (it sees only its own program, "
               "the system's runtimes and a private /tmp, as an unprivileged user, no "
               "network; Linux)",
    "work_dir": "Where each bot's working folder per hand is made (a temporary folder by "
                "default)",
}
RULE_NOTE = " [default: {}; stored, and kept on --resume]"
# Why a match and a check-bot run bots as the user by default, a tournament not.
MATCH_SANDBOX = (HELP["sandbox"] + " [default: none for a match of local programs (your "
                 "own code and the sample AIs, run as you; bwrap is Linux-only); bwrap with "
                 "--serve, which shows the match to the network]")
TOURNAMENT_SANDBOX = (HELP["sandbox"] + "; none runs every student's program as you "
                      "[default: bwrap; stored, and kept on --resume]")
# The limit options' help in every command: the same words, each ruleset's own default.
LIMIT_HELP = {key: f"{HELP[key]} [default: {limit_default_help(key)}]"
              for key in ("mem_limit", "cpu_limit", "file_limit")}

# The limit options of every command that starts bots, declared once: no default of
# their own (None: the ruleset's default; 0: no limit).
MemLimit = Annotated[int | None, typer.Option(min=0, help=LIMIT_HELP["mem_limit"],
                                              show_default=False)]
CpuLimit = Annotated[int | None, typer.Option(min=0, help=LIMIT_HELP["cpu_limit"],
                                              show_default=False)]
FileLimit = Annotated[int | None, typer.Option(min=0, help=LIMIT_HELP["file_limit"],
                                               show_default=False)]
RULESET_HELP = "The ruleset: " + ", ".join(
    entry.name for entry in LISTINGS if entry.kind == "match") + " (see 'server rulesets')"
LOG_NOTE = " (default: the one that wrote the log)"
# Options only the turn-based rulesets read (SPEC-botzone, SPEC-noi2014; rulesets/).
BOTZONE = {
    "variant": "botzone: classic (144 tiles with flowers) or duplicate (复式: 136 tiles, "
               "four walls) [default: classic]",
    "format": "botzone: one (one game) or duplicate (each wall in all 24 seat orders); "
              "noi2014: one or round (one wall played 4 times, seats rotated) [default: one]",
    "walls": "--format duplicate/round: walls to play (botzone: winds E, S, W, N) "
             "[default: botzone 4, noi2014 1]",
    "orders": "--format duplicate/round: seat orders per wall (noi2014: 1-4 rotations) "
              "[default: botzone 24, noi2014 4]",
    "initdata": "botzone: start the game from Botzone's initdata (JSON text or a file of "
                "it), as a game seen on Botzone",
    "time_limit": "botzone, noi2014: seconds per turn before the language factor (Python 6x, "
                  "Java 3x, JavaScript 2x); botzone doubles a bot's first turn "
                  "[default: 1.0]",
}
SERVE_HELP = ("HOST:PORT (or PORT: loopback; 0: a free port): serve the live web view "
              "of this run's folder there while it runs (a child 'server serve')")
# Which files of a folder are bots (the rule of server.tournament.entries).
FOLDER_HELP = ("each executable file and each *.py file, except names starting with _ and "
               "*.py modules the others import that have no #! line or __main__ block")


def refuse(message: object) -> NoReturn:
    """Bad input, in every command: one line on stderr naming the problem (an
    exception told by ``server.seam.errors.reason``), and exit status 2."""
    err_console().print(error_line(message))
    raise SystemExit(EXIT_BAD_INPUT)


def checked_bind(bind: str | None) -> None:
    """``--serve``'s HOST:PORT, refused before anything starts when it is malformed."""
    if bind is not None:
        from server.web.serving import parse_bind

        parse_bind(bind)


def command_args(ctx: typer.Context, **extra: object) -> CommandArgs:
    """A command's options for its ruleset, and which ones the user gave."""
    def given_here(name: str) -> bool:  # typed on the command line, not a default
        source = ctx.get_parameter_source(name)
        return source is not None and source.name == "COMMANDLINE"

    given = frozenset(
        name for name in ctx.params
        if given_here(name)
        and name != "ruleset" and not any(
            p.name == name and p.param_type_name == "argument" for p in ctx.command.params))
    return CommandArgs({**ctx.params, **extra}, given)


def dispatch(ctx: typer.Context, command: str, name: str) -> Ruleset:
    """The ruleset a command runs under, after refusing options it does not read."""
    if listing(name).kind != "match":
        raise InputError(f"--ruleset {name}: {listing(name).title}; it plays no bots")
    ruleset = load(name)
    ruleset.check_options(command, command_args(ctx))
    return ruleset


def for_log(ctx: typer.Context, command: str, name: str | None, path: Path) -> Ruleset:
    """The ruleset of a log: the one given, else the one that wrote it."""
    if name is None:  # the default ruleset's logs are the least marked: asked last
        playing = sorted((entry.name for entry in LISTINGS if entry.kind == "match"),
                         key=lambda n: n == DEFAULT)
        name = next((n for n in playing if load(n).owns(path)), DEFAULT)
    return dispatch(ctx, command, name)


def private_files() -> None:
    """What a command that writes makes from here on is its user's alone (files 0600,
    folders 0700): tokens, uploads, logs, output folders. What a sandboxed bot must read
    (a pinned program, an unpacked upload) is given its modes by name."""
    os.umask(0o077)


def stop_earlier_bots() -> None:
    """Before a command starts bots: stop what a server killed outright left
    running, and say so (``server.bots.leftovers``)."""
    from server.bots.leftovers import stop_earlier_bots_and_say

    stop_earlier_bots_and_say()


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
    if batch:
        if hand or win or melds or self_drawn:
            raise typer.BadParameter("--batch reads hands from stdin; give no other option")
    elif hand is None or win is None:
        raise typer.BadParameter("give --hand and --win (or --batch)")
    load(DEFAULT).fans(CommandArgs({"hand": hand, "melds": melds, "win": win,
                                    "self_drawn": self_drawn, "batch": batch}))


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
    jobs: Annotated[int, typer.Option(
        min=1, help="Processes on this machine to spread the hands over (the summary is "
        "the same)")] = 1,
    cluster: Annotated[str | None, typer.Option(
        help="Play the hands as Ray tasks: the cluster's address (HOST:PORT), or local to "
        "start Ray here. Bot files and a module's folder travel with the tasks. Needs the "
        "cluster extra")] = None,
) -> None:
    """Play hands in-process with Python bot objects (no subprocesses) and summarise.

    Ctrl-C stops early and still prints the summary of the hands played (exit 130).
    """
    note_plain()  # once, on stderr, when the compiled core is not in use
    status = load(DEFAULT).simulate(CommandArgs({"bots": bots, "hands": hands, "seed": seed,
                                                 "json_out": json_out, "jobs": jobs,
                                                 "cluster": cluster}))
    if status:
        raise typer.Exit(status)


@app.command()
def compare(
    candidate: Annotated[str, typer.Argument(
        help="The bot on trial: in-process (random, greedy, module:Class or "
        "path/to/bot.py:Class; botzone, noi2014: random, greedy or path/to/bot.py:NAME with "
        "respond(requests, responses)) or a command line (a real process)",
        show_default=False)],
    baseline: Annotated[str, typer.Argument(help="The bot it is compared with (the same "
                                            "forms)", show_default=False)],
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = DEFAULT,
    variant: Annotated[str | None, typer.Option(help=BOTZONE["variant"])] = None,
    opponents: Annotated[str | None, typer.Option(
        help="The three bots in the other seats, comma-separated [default: greedy,random,"
        "greedy, the ruleset's sample AIs]")] = None,
    games: Annotated[int, typer.Option(
        min=1, help="The most games each bot plays (4 a deal, one per seat); reached "
        "without a decision: none")] = 4000,
    elo0: Annotated[float | None, typer.Option(
        help="SPRT H0: the candidate's logistic Elo over the baseline, per game [default: "
        "0]")] = None,
    elo1: Annotated[float | None, typer.Option(help="SPRT H1 [default: 10]")] = None,
    points: Annotated[str | None, typer.Option(
        help="P0,P1: SPRT on the mean difference in points per game instead, H0: P0, H1: "
        "P1")] = None,
    alpha: Annotated[float, typer.Option(help="The chance of 'candidate' when H0 holds "
                                         "(0 to 0.5)")] = 0.05,
    beta: Annotated[float, typer.Option(help="The chance of 'baseline' when H1 holds "
                                        "(0 to 0.5)")] = 0.05,
    seed: Annotated[int, typer.Option(help="Seed of the deals (deal i is the same for any "
                                      "--jobs)")] = 0,
    jobs: Annotated[int, typer.Option(
        min=1, help="Processes on this machine to spread the deals over (the result is "
        "the same)")] = 1,
    cluster: Annotated[str | None, typer.Option(
        help="Play the deals as Ray tasks: the cluster's address (HOST:PORT), or local. "
        "Bot files must be at the same path on every node. Needs the cluster extra")] = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="Print one JSON object instead of the plain verdict")] = False,
    out: Annotated[Path | None, typer.Option(
        "-o", "--out", help="Also write every deal (deals.csv) and the summary "
        "(summary.json) in this folder")] = None,
) -> None:
    """Which bot is better? Two bots on the same deals, paired, with a sequential test.

    Each deal is played from every seat by the candidate and by the baseline, against
    the same opponents; the paired difference of their scores per game, its 95%
    confidence interval and an SPRT (as fastchess's) decide: candidate, baseline, or
    none at the --games cap. Ctrl-C stops early and reports the deals counted (exit 130).
    """
    from server.compare.command import Options
    from server.compare.command import run as run_compare

    note_plain()
    status, text = run_compare(Options(candidate, baseline, ruleset, variant, opponents, games,
                                       elo0, elo1, points, alpha, beta, seed, jobs, cluster,
                                       json_out, out))
    out_console().print(text, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(status)


@app.command()
def match(
    ctx: typer.Context,
    ais: Annotated[list[str], typer.Argument(
        help="Four AIs: paths to executables or quoted command lines (\"python3 bot.py\"); "
        "botzone, noi2014: json:CMD, simple:CMD or CMD (JSON); json+keep-running:CMD "
        "(or simple+) for a bot with keep-running on", show_default=False)],
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = DEFAULT,
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
    mem_limit: MemLimit = None,
    cpu_limit: CpuLimit = None,
    file_limit: FileLimit = None,
    sandbox: Annotated[str | None, typer.Option(help=MATCH_SANDBOX,
                                                show_default=False)] = None,
    work_dir: Annotated[Path | None, typer.Option(help=HELP["work_dir"])] = None,
    variant: Annotated[str | None, typer.Option(help=BOTZONE["variant"])] = None,
    format: Annotated[str | None, typer.Option("--format", help=BOTZONE["format"])] = None,
    walls: Annotated[int | None, typer.Option(min=1, max=4, help=BOTZONE["walls"])] = None,
    orders: Annotated[int | None, typer.Option(min=1, max=24, help=BOTZONE["orders"])] = None,
    initdata: Annotated[str | None, typer.Option(help=BOTZONE["initdata"])] = None,
    time_limit: Annotated[float | None, typer.Option(min=0.05, help=BOTZONE["time_limit"])] = None,
    serve: Annotated[str | None, typer.Option(help=SERVE_HELP + " (writes the log folder, "
                                              "as -d)", show_default=False)] = None,
    title: Annotated[str | None, typer.Option(
        help="The title of the match's pages (the live page, the report) [default: the "
             "log folder's name]", show_default=False)] = None,
    clock: Annotated[float, typer.Option(min=0.05, help=HELP["clock"])] = 30.0,
    seat_bind: Annotated[str, typer.Option(help=HELP["seat_bind"])] = "127.0.0.1:0",
    hands: Annotated[int | None, typer.Option(min=1, help="Play only the first N hands",
                                              show_default=False)] = None,
) -> None:
    """Run a match: server AI1 AI2 AI3 AI4 [-v] [-d] (--ruleset botzone: Botzone bots).

    An AI web:NAME is a person's seat, played from a page whose link is printed."""
    checked_bind(serve)
    private_files()
    chosen = sandbox or ("bwrap" if serve is not None else "none")
    raise typer.Exit(dispatch(ctx, "match", ruleset).match(command_args(ctx, sandbox=chosen)))


@app.command()
def play(
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = DEFAULT,
    name: Annotated[str, typer.Option(help="Your name at the table")] = "you",
    hands: Annotated[int, typer.Option(min=1, max=96, help="Hands to play (the default "
                                       "ruleset; botzone and noi2014 play one game)")] = 4,
    variant: Annotated[str | None, typer.Option(help=BOTZONE["variant"])] = None,
    seed: Annotated[int | None, typer.Option(help="Match seed (random by default)")] = None,
    clock: Annotated[float, typer.Option(min=0.05, help=HELP["clock"])] = 30.0,
    seat_bind: Annotated[str, typer.Option(help=HELP["seat_bind"])] = "127.0.0.1:0",
    log_dir: Annotated[Path, typer.Option(help="Where the match folder is written")] = Path(
        "logs"),
) -> None:
    """Play against three sample AIs in your browser: open the link it prints.

    The games are logged (as match -d), so verify, replay and report read them."""
    from server.bots.person import PersonSetupError, check_name

    try:
        check_name(name)
    except PersonSetupError as exc:
        raise InputError(str(exc)) from None
    if variant is not None and ruleset != "botzone":
        raise InputError("--variant is for --ruleset botzone")
    if listing(ruleset).kind != "match":
        raise InputError(f"--ruleset {ruleset}: {listing(ruleset).title}; it plays no bots")
    private_files()
    raise typer.Exit(load(ruleset).play_person(CommandArgs({
        "name": name, "hands": hands, "variant": variant, "seed": seed, "clock": clock,
        "seat_bind": seat_bind, "log_dir": log_dir}, frozenset())))


@app.command("check-bot")
def check_bot(
    ctx: typer.Context,
    cmd: Annotated[str, typer.Argument(help="The bot: a path to an executable or a quoted "
                                       "command line; botzone, noi2014: json:CMD, simple:CMD, "
                                       "json+keep-running:CMD ...", show_default=False)],
    hands: Annotated[int, typer.Option(min=1, max=16, help="Hands to play")] = 4,
    seed: Annotated[int, typer.Option(help="Deals and the sample AIs' seed")] = 1,
    hard_limit: Annotated[float, typer.Option(min=1.0, help="Seconds before an unanswered "
                                              "prompt is a fault")] = 5.0,
    join_limit: Annotated[float, typer.Option(min=0.1, help="Seconds to join")] = 5.0,
    mem_limit: MemLimit = None,
    cpu_limit: CpuLimit = None,
    file_limit: FileLimit = None,
    sandbox: Annotated[str, typer.Option(help="none (the bot runs as you), or bwrap: "
                                         "under bubblewrap, as a tournament runs it")] = "none",
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = DEFAULT,
    variant: Annotated[str | None, typer.Option(help=BOTZONE["variant"])] = None,
    games: Annotated[int | None, typer.Option(min=1, help="botzone, noi2014: games to "
                                              "play")] = None,
    time_limit: Annotated[float | None, typer.Option(min=0.05, help=BOTZONE["time_limit"])] = None,
) -> None:
    """Play a few hands of a bot against the sample AIs and report protocol problems."""
    private_files()
    raise typer.Exit(dispatch(ctx, "check-bot", ruleset).check_bot(command_args(ctx)))


@app.command()
def replay(
    ctx: typer.Context,
    hand: Annotated[Path, typer.Argument(help="A hand folder written with -d, or an "
                                         "original-format .log file; botzone: a game.json "
                                         "or a game judged on Botzone")],
    ruleset: Annotated[str | None, typer.Option(help=RULESET_HELP + LOG_NOTE)] = None,
    at: Annotated[int | None, typer.Option(help="Show the table at step N only")] = None,
    codes: Annotated[bool | None, typer.Option("--codes/--glyphs",
                                               help="Tile codes or Unicode tile glyphs "
                                               "(default: glyphs on a UTF-8 terminal)")] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Write a self-contained "
                                                  "page to step through the hand")] = None,
    match_id: Annotated[str | None, typer.Option(
        "--match", help="botzone, a file of human match records: the match to show (its "
        "Match ID; needed when the file holds several)")] = None,
    seat: Annotated[int | None, typer.Option(min=0, max=3, help="With --bot: the seat "
                                             "whose recorded lines the bot gets")] = None,
    bot: Annotated[str | None, typer.Option(help="Feed this bot (path or quoted command) "
                                            "the lines --seat received, compare answers")] = None,
    hard_limit: Annotated[float, typer.Option(
        min=1.0, help="With --bot: " + HELP["hard_limit"])] = 5.0,
    mem_limit: Annotated[int | None, typer.Option(
        min=0, help="With --bot: " + LIMIT_HELP["mem_limit"], show_default=False)] = None,
    cpu_limit: Annotated[int | None, typer.Option(
        min=0, help="With --bot: " + LIMIT_HELP["cpu_limit"], show_default=False)] = None,
    file_limit: Annotated[int | None, typer.Option(
        min=0, help="With --bot: " + LIMIT_HELP["file_limit"], show_default=False)] = None,
) -> None:
    """Show a recorded hand or game step by step: hands, melds, discards, claims, result."""
    raise typer.Exit(for_log(ctx, "replay", ruleset, hand).replay(command_args(ctx, path=hand)))


@app.command()
def verify(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A match folder, a hand folder, or an "
                                         "original-format .log file; botzone: a match "
                                         "folder or a game.json")],
    ruleset: Annotated[str | None, typer.Option(help=RULESET_HELP + LOG_NOTE)] = None,
) -> None:
    """Re-run recorded hands (or games) through the engine and check every recorded result."""
    from rich.text import Text

    report = for_log(ctx, "verify", ruleset, path).verify(path)
    console = Console(soft_wrap=True, emoji=False)
    for note in report.notes:
        console.print(f"note: {note}", markup=False)
    for problem in report.problems:
        console.print(Text.assemble(("DISAGREES", "red"), " ", problem))
    state = "all agree" if report.ok else f"{len(report.problems)} disagreement(s)"
    console.print(f"checked {len(report.checked)} item(s): {state}")
    raise typer.Exit(0 if report.ok else 1)


@app.command()
def report(
    ctx: typer.Context,
    match_dir: Annotated[Path, typer.Argument(help="A match folder written with -d")],
    html_out: Annotated[Path, typer.Option("--html", help="Where to write the report")],
    ruleset: Annotated[str | None, typer.Option(help=RULESET_HELP + LOG_NOTE)] = None,
) -> None:
    """Write a match's HTML report: standings, running totals, scoresheet, hand pages."""
    raise typer.Exit(for_log(ctx, "report", ruleset, match_dir).report(
        command_args(ctx, path=match_dir)))


human_app = typer.Typer(
    help="Botzone's human match records (the PKU course's text format): convert them to "
    "training arrays, or write games in the format. 'server verify FILE' checks such a "
    "file on the exact judge; 'server replay FILE --match ID' shows one match.",
    no_args_is_help=True)
app.add_typer(human_app, name="human")


@human_app.command("convert")
def human_convert(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A file of human match records")],
    out: Annotated[Path, typer.Option(help="The .npz to write: obs, mask, action, seat, "
                                      "match (each decision's match), match_id")],
    encoder: Annotated[str, typer.Option(help="The observation: default ((11, 34), "
                                         "rulesets/botzone/encoders.py) or course "
                                         "((6, 4, 9), the course's FeatureAgent planes)")
                       ] = "default",
    jobs: Annotated[int, typer.Option(min=1, help="Processes to spread the matches over "
                                      "(the arrays are the same)")] = 1,
    cluster: Annotated[str | None, typer.Option(
        help="Convert as Ray tasks: the cluster's address (HOST:PORT), or local to start "
        "Ray here; the project must be installed on every node. Needs the cluster extra")
    ] = None,
) -> None:
    """Every decision of every match as training arrays: observation, legal-action mask and
    the action taken. A match the judge disagrees with is skipped, said, and exit is 1."""
    raise typer.Exit(load("botzone").human(command_args(ctx, action="convert")))


@human_app.command("write")
def human_write(
    paths: Annotated[list[Path], typer.Argument(
        help="Botzone match or tournament folders, game folders or game.json files (an "
        "environment's write_log too)")],
    out: Annotated[Path, typer.Option(help="The file of human match records to write")],
) -> None:
    """Write every finished Botzone game found in the course's human-record format (a match
    id per game from where it was found); reading it back gives the same games."""
    raise typer.Exit(load("botzone").human(CommandArgs({
        "action": "write", "paths": paths, "out": out})))


@app.command("rulesets")
def list_rulesets() -> None:
    """List the rulesets this server hosts (--ruleset NAME)."""
    from rich.table import Table

    table = Table(box=None, show_header=True)
    for col in ("name", "kind", "variants", "what"):
        table.add_column(col)
    for entry in LISTINGS:
        table.add_row(entry.name + (" (default)" if entry.name == DEFAULT else ""), entry.kind,
                      ", ".join(entry.variants) or "-", entry.title)
    out_console().print(table)


@app.command()
def thupc(
    wall_file: Annotated[Path | None, typer.Argument(
        help="The 148 tiles, one a line (standard input when absent or -)",
        metavar="WALL_FILE", show_default=False)] = None,
) -> None:
    """THUPC 2021 Mahjong simulator: print the exact game log for a wall."""
    raise typer.Exit(load("thupc2021").simulate(CommandArgs({"wall_file": wall_file})))


@app.command()
def tournament(
    bots: Annotated[Path | None, typer.Argument(
        help="BOTS.toml ([[bot]] name, command; command \"tcp:NAME\": a remote bot, "
        "\"web:NAME\": a person, who plays from a page whose link is printed) or a "
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
        min=1, help="Tables in parallel (default: one per CPU core this process may use)")] = None,
    cluster: Annotated[str | None, typer.Option(
        help="Play the tables on a Ray cluster: its address (HOST:PORT, as `ray start "
        "--head` printed it; run the tournament on a machine of the cluster), or local "
        "to start Ray on this machine. Needs the cluster extra; not stored")] = None,
    seed: Annotated[int | None, typer.Option(
        help="Tournament seed (schedule and deals); random by default, so that no one can "
             "work out the deals before they are played (shown on this console, kept "
             "private until the tournament is over)")] = None,
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
        min=0, help=HELP["mem_limit"] + RULE_NOTE.format(limit_default_help("mem_limit")))
    ] = None,
    cpu_limit: Annotated[int | None, typer.Option(
        min=0, help=HELP["cpu_limit"] + RULE_NOTE.format(limit_default_help("cpu_limit")))
    ] = None,
    file_limit: Annotated[int | None, typer.Option(
        min=0, help=HELP["file_limit"] + RULE_NOTE.format(limit_default_help("file_limit")))
    ] = None,
    sandbox: Annotated[str | None, typer.Option(help=TOURNAMENT_SANDBOX,
                                                show_default=False)] = None,
    work_dir: Annotated[Path | None, typer.Option(help=HELP["work_dir"])] = None,
    ruleset: Annotated[str | None, typer.Option(
        help=RULESET_HELP + RULE_NOTE.format(DEFAULT))] = None,
    variant: Annotated[str | None, typer.Option(help=BOTZONE["variant"] + " (stored)")] = None,
    walls: Annotated[int | None, typer.Option(
        min=1, max=4, help="botzone, noi2014: walls per table [default: botzone 4, "
                               "noi2014 1] (stored)")] = None,
    orders: Annotated[int | None, typer.Option(
        min=1, max=24, help="botzone, noi2014: seat orders per wall [default: 4] "
                               "(stored)")] = None,
    time_limit: Annotated[float | None, typer.Option(
        min=0.05, help=BOTZONE["time_limit"] + " (stored)")] = None,
    serve: Annotated[str | None, typer.Option(help=SERVE_HELP + "; not stored",
                                              show_default=False)] = None,
    handins: Annotated[bool, typer.Option(
        "--handins", help="With --serve: take bots handed in through its page too (one "
        "server, one port; tokens: 'server tokens'); not stored")] = False,
    title: Annotated[str | None, typer.Option(
        help="The title of the tournament's pages (the live page, the report), e.g. "
             "\"CS 101 contest\"; stored, and --resume may change it [default: --out's "
             "name]", show_default=False)] = None,
    clock: Annotated[float | None, typer.Option(
        min=0.05, help=HELP["clock"] + "; not stored [default: 30.0]",
        show_default=False)] = None,
    seat_bind: Annotated[str | None, typer.Option(
        help=HELP["seat_bind"] + "; not stored [default: 127.0.0.1:0]",
        show_default=False)] = None,
) -> None:
    """Play a tournament of many bots: tables of four in parallel, stored, resumable."""
    from server.tournament import FORMATS, EntriesError, default_jobs
    from server.tournament.command import config_from_args, say_folder
    from server.tournament.command import run as run_tournament

    if format not in FORMATS:
        refuse(f"--format must be one of {', '.join(FORMATS)}")
    checked_bind(serve)
    if seat_bind is not None:
        from server.web.serving import parse_bind

        parse_bind(seat_bind, option="--seat-bind")
    if handins and serve is None:
        refuse("--handins takes hand-ins through the page that --serve HOST:PORT serves: "
               "give --serve too")
    private_files()
    if cluster is not None and jobs is not None:
        refuse("--jobs is for tables on this machine; on a cluster (--cluster) Ray plays as "
               "many at once as its nodes have CPUs for")
    if cluster is not None:
        from server.cluster.ray_cluster import import_ray

        try:
            import_ray()
        except InputError as exc:
            refuse(exc)
    try:
        config = config_from_args(bots, out, resume, listen, token or [], format=format,
                                  rounds=rounds, groups=groups, hands=hands,
                                  jobs=jobs or default_jobs(), seed=seed, hero=hero,
                                  hard_limit=hard_limit, join_limit=join_limit,
                                  mem_limit=mem_limit, cpu_limit=cpu_limit,
                                  file_limit=file_limit, sandbox=sandbox, work_dir=work_dir,
                                  ruleset=ruleset, variant=variant, walls=walls,
                                  orders=orders, time_limit=time_limit, title=title,
                                  clock=clock, seat_bind=seat_bind)
    except EntriesError as exc:
        refuse(exc)
    if bots is not None and bots.is_dir():
        say_folder(bots, err_console())
    stop_earlier_bots()  # a resume after a kill -9 included
    from server.web.seat_page import serve_person_seats

    note_plain()
    raise typer.Exit(run_tournament(config, resume, cluster=cluster, serve=serve,
                                    handins=handins, seat_pages=serve_person_seats))


@app.command("serve")
def serve_folder(
    folder: Annotated[Path, typer.Argument(
        help="An output folder: a tournament's (--out), a match's (written with -d), or a "
        "folder of them (logs/)", show_default=False)],
    bind: Annotated[str, typer.Option(help="HOST:PORT (or PORT: loopback; 0: a free port) "
                                      "to serve on; another host than 127.0.0.1 shows the "
                                      "folder to the network")] = "127.0.0.1:8000",
    handins: Annotated[bool, typer.Option(
        "--handins", help="Also take bots handed in through the page (tokens: 'server "
        "tokens'); without it nothing is written")] = False,
) -> None:
    """Serve the live web view of a tournament or a match, while it runs and after.

    Prints 'serving http://HOST:PORT/'; the page shows the standings, the tables in play
    move by move, the faults and every finished table and hand; /api/standings,
    /api/tables and /api/events (server-sent events) give the same as JSON. Ctrl-C stops.
    """
    from server.web.command import run_serve

    if handins:  # uploads and their reports
        private_files()
    raise typer.Exit(run_serve(folder, bind, handins))


@app.command()
def tokens(
    out: Annotated[Path, typer.Argument(help="The tournament's folder (--out): tokens go to "
                                        "OUT/handins/tokens.json, hashed", show_default=False)],
    names: Annotated[list[str] | None, typer.Argument(
        help="The students to make a token for (the tournament's entries); a name that "
        "has one gets a new one", show_default=False)] = None,
    list_: Annotated[bool, typer.Option("--list", help="List who has a token (the "
                                        "tokens themselves are not kept)")] = False,
    revoke: Annotated[str | None, typer.Option(help="Remove NAME's token")] = None,
) -> None:
    """Make hand-in tokens for students (server serve --handins): each printed once."""
    import datetime

    from server.web.tokens import TokenError, load_tokens, make_tokens, tokens_path
    from server.web.tokens import revoke as revoke_token

    chosen = [what for what, on in (("NAME...", bool(names)), ("--list", list_),
                                    ("--revoke", revoke is not None)) if on]
    if len(chosen) != 1:
        refuse("give NAME... to make tokens, or --list, or --revoke NAME (one of them)"
               if not chosen else f"{' and '.join(chosen)}: give one of them at a time")
    if out.exists() and not out.is_dir():
        refuse(f"{out}: a file, not a tournament's folder")
    private_files()
    console = out_console()
    try:
        if list_:
            records = load_tokens(out)
            if not records:
                console.print(f"no tokens in {tokens_path(out)}", markup=False)
            for r in sorted(records.values(), key=lambda r: r.name):
                when = datetime.datetime.fromtimestamp(r.made).isoformat(" ", "seconds")
                console.print(f"{r.name}  (token {r.id}.…, made {when})", markup=False)
        elif revoke is not None:
            revoke_token(out, revoke)
            console.print(f"revoked {revoke}'s token", markup=False)
        else:
            made = make_tokens(out, names or [])
            for name, token, replaced in made:
                console.print(f"{name}  {token}" + ("  (replaces the old one)" if replaced
                                                    else ""), markup=False, soft_wrap=True)
            err_console().print(f"{len(made)} token(s) written hashed to {tokens_path(out)}; "
                                "give each student theirs now: they are not shown again",
                                markup=False)
    except (TokenError, OSError) as exc:
        refuse(exc)


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

    from server.bots.connect import bridge
    from server.bots.processes import BotCommandError, parse_command
    from server.bots.remote import RemoteSetupError, check_name, parse_listen

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


def mistyped_command(word: str, names: Collection[str]) -> str | None:
    """The command ``word`` was surely meant to be, or None.

    ``server AI1 AI2 AI3 AI4`` takes its first word for a bot, so a misspelt
    command would otherwise be read as a match of too few bots. A word is
    taken for a command only when it cannot be a bot: no path, no file here,
    no program on PATH, and close to a command's name.
    """
    import difflib
    import shutil

    from server.bots.sandbox import bot_environment

    if not word or word.startswith("-") or any(c in word for c in "/ :\t") \
            or os.path.lexists(word) \
            or shutil.which(word, path=bot_environment().get("PATH")) is not None:
        return None
    close = difflib.get_close_matches(word, sorted(names), n=1, cutoff=0.75)
    return close[0] if close else None


def app_for(word: str) -> typer.Typer:
    """The command line that runs ``server WORD ...``: when WORD is a command, ``app``
    with that command alone, else all of ``app`` (``--help``, a group, a mistake).

    Typer turns every registered command's options into click's before it parses
    anything, and the suite starts this command hundreds of times: building only the
    command that runs saves about a fifth of its start. Its parsing, help and errors
    are the same (the root callback is kept, so it is still ``server WORD``)."""
    for info in app.registered_commands:
        if (info.name or (info.callback.__name__ if info.callback else "")) == word:
            alone = copy.copy(app)
            alone.registered_commands = [info]
            alone.registered_groups = []
            return alone
    return app


def main() -> None:
    """Entry point: route ``server AI1 ...`` to the match command."""
    args = sys.argv[1:]
    names = {c.name or (c.callback.__name__ if c.callback else "")
             for c in app.registered_commands}
    names |= {g.name for g in app.registered_groups if g.name}
    if args and args[0] not in names and args[0] not in ("--help", "-h", "--version"):
        meant = mistyped_command(args[0], names)
        if meant is not None:
            refuse(f"no such command {args[0]!r}; did you mean {meant!r}? (a match is "
                   "server AI1 AI2 AI3 AI4; 'server --help' lists the commands)")
        sys.argv.insert(1, "match")
    try:
        app_for(sys.argv[1] if len(sys.argv) > 1 else "")(prog_name="server")
    # InputError: raised anywhere in a command (server.seam.errors); OSError: a path no
    # check foresaw. Either is still one line, not a traceback.
    except (InputError, OSError) as exc:
        refuse(exc)


if __name__ == "__main__":
    main()
