"""Playing Botzone games from the command line: ``match`` and ``check-bot``.

The shell's turn driver plays the judge (``server.turns.match``) with Botzone
bots (``server.bots.botzone_bots``); this module only turns the options into a
match: its players, its plan (``formats``), the bots' limits and the log
folder.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rulesets.botzone import formats
from rulesets.botzone.fans import calculator
from rulesets.botzone.person_board import PersonBoard
from rulesets.botzone.records import NAME, fault_causes
from rulesets.botzone.rules import VARIANTS, BotzoneRules, game_header, parse_initdata
from rulesets.botzone.stats import game_facts
from server.bots.botzone_bots import Bots
from server.bots.person import stand_ins
from server.seam.contract import CommandArgs, GamePlan, TableRequest, TableRow
from server.seam.errors import InputError
from server.turns.match import GameOutcome

if TYPE_CHECKING:
    from server.turns.match import SeatOpener

CHECK_OPPONENTS = ("greedy_bot.py", "greedy_bot.py", "random_bot.py")


def variant_of(args: CommandArgs) -> str:
    variant = str(args.get("variant", "classic"))
    if variant not in VARIANTS:
        raise InputError(f"--variant must be {' or '.join(VARIANTS)}, not {variant!r}")
    return variant


def checked_initdata(text: str, variant: str) -> dict[str, Any]:
    """``--initdata``, refused now if the judge cannot start a game from it."""
    from rulesets.botzone.judge import Judge

    initdata = parse_initdata(text)
    try:
        Judge(variant, initdata)
    except InputError:
        raise
    except (ValueError, TypeError) as exc:
        raise InputError(f"--initdata: {exc}") from None
    return initdata


def plans_of(args: CommandArgs, seed: int, variant: str) -> tuple[str, list[GamePlan]]:
    fmt = str(args.get("format", "one"))
    if fmt not in formats.FORMATS:
        raise InputError(f"--format must be {' or '.join(formats.FORMATS)} in the botzone "
                         f"ruleset, not {fmt!r}")
    if fmt == "one":
        for name in ("walls", "orders"):
            if name in args.given:
                raise InputError(f"--{name} is for --format duplicate")
        initdata = checked_initdata(args["initdata"], variant) if args.get("initdata") \
            else None
        return fmt, formats.one_game(seed, initdata)
    if args.get("initdata"):
        raise InputError("--initdata is for one game (--format one): a duplicate match "
                         "makes its walls from --seed")
    return fmt, formats.duplicate(seed, int(args.get("walls", 4)), int(args.get("orders", 24)))


def run_match(args: CommandArgs) -> int:
    from server.bots.leftovers import stop_earlier_bots_and_say
    from server.bots.person import seats_of
    from server.output.console import configure_logging
    from server.output.paths import output_folder
    from server.turns.match import TurnMatch, players_named
    from server.turns.match_cli import match_folder, run_turn_match_cli
    from server.web.seat_page import person_pages

    specs: list[str] = list(args["ais"])
    if len(specs) != 4:
        raise InputError(f"need exactly 4 bots, got {len(specs)}")
    variant = variant_of(args)
    seed = args["seed"] if args["seed"] is not None else secrets.randbelow(2**31)
    fmt, plans = plans_of(args, seed, variant)
    persons = seats_of(specs, args, partial(PersonBoard, variant), AFTER_TIMEOUT)
    # A web:NAME seat is opened by ``persons`` before ``bots`` is asked: its stand-in
    # command is never started.
    bots = Bots.from_args([PERSON_STAND_IN if spec.startswith("web:") else spec
                           for spec in specs], args, args["work_dir"])
    root = None
    if args["debug"] or args.get("serve"):  # --serve shows the log folder
        root = match_folder(output_folder(args["log_dir"], "--log-dir"), NAME, seed)
    match = TurnMatch(NAME, players_named(specs), plans,
                      BotzoneRules(variant), bots.opener, root,
                      meta={"variant": variant, "format": fmt, "seed": seed,
                            "time_limit": bots.limits.base_seconds},
                      header=game_header, facts=game_facts)
    if persons is not None:
        match.opener = cast("SeatOpener", persons.turn_opener(specs, bots.opener))
        match.around = partial(person_pages, persons, "game")
    calculator()  # missing: one line now, before any bot starts
    configure_logging(False)
    stop_earlier_bots_and_say()
    if args.get("title"):  # the pages' title: match.json's, beside the meta
        match.meta = {**match.meta, "title": args["title"]}
    return run_turn_match_cli(match, verbose=bool(args["verbose"]), seed=seed,
                              serve=args.get("serve"))


PERSON_STAND_IN = "true"
# What a person who does not answer in time gets, in words for their page.
AFTER_TIMEOUT = ("the judge takes it as a bot's TLE (an error it reaches ends the game); "
                 "you play again in the next game.")


def check_bot(args: CommandArgs, samples: Path) -> int:
    """Play a few games of one bot against the sample bots (in ``samples``); report every
    verdict that was not OK and every wrong answer, with the request that caused it."""
    import trio
    from rich.console import Console

    from server.bots.leftovers import stop_earlier_bots_and_say
    from server.output.console import configure_logging
    from server.output.say import one_line
    from server.turns.match import TurnMatch, players_named, run_turn_match

    cmd: str = args["cmd"]
    variant = variant_of(args)
    games = int(args.get("games", 2))
    seed = int(args["seed"])
    # The sample opponents keep running (as NOI 2014's do): restarted every turn, they
    # made a game of check-bot take about 15 s.
    opponents = [f"json+keep-running:python3 {samples / name} --keep-running"
                 for name in CHECK_OPPONENTS]
    specs = [cmd, *opponents]
    bots = Bots.from_args(specs, args)
    plans = []
    for n in range(games):
        order = tuple((k - n) % 4 for k in range(4))  # the bot moves one seat each game
        plans.append(GamePlan(n + 1, n + 1, order, {"srand": formats.derived_srand(seed, n)},
                              f"game {n + 1}"))
    match = TurnMatch(NAME, players_named(specs), plans,
                      BotzoneRules(variant), bots.opener, None, header=game_header)
    calculator()
    configure_logging(False)
    stop_earlier_bots_and_say()
    result = trio.run(run_turn_match, match)
    out = Console(soft_wrap=True, highlight=False, emoji=False)
    problems = 0
    for plan, record in zip(plans, result.records, strict=True):
        seat = plan.order.index(0)
        line = BotzoneRules(variant).game_line(record, ["your bot" if p == 0 else f"sample {p}"
                                                        for p in plan.order])
        out.print(f"game {plan.number} (your bot in seat {seat}): {line}", markup=False)
        turns = record["players"][seat]
        for k, item in enumerate(turns):
            if item is not None and item["verdict"] != "OK":
                problems += 1
                out.print(f"  turn {k}: {item['verdict']}: {item['cause']} (request "
                          f"{one_line(item['request'], 60)!r})", markup=False)
        display = formats.finish(record)
        if display.get("player") == seat and display.get("action") in ("WA", "WH"):
            problems += 1
            last = next(i for i in reversed(turns) if i is not None)
            out.print(f"  {display['action']}: answered {one_line(str(last['response']), 60)!r}"
                      f" to {one_line(last['request'], 60)!r}", markup=False)
    out.print(f"{games} game(s), {problems} problem(s)", markup=False)
    return 0 if problems == 0 else 1


async def play_table(table: TableRequest, defaults: Mapping[str, str]) -> list[TableRow]:
    """A tournament table: a duplicate match of its four players (the tournament's
    walls and seat orders, walls from the table's seed, ``defaults`` for the settings
    it does not give); one row per seat and game."""
    from server.turns.match import TurnMatch, TurnPlayer, play_table_games

    settings = {**defaults, **table.settings}
    plans = formats.duplicate(table.seed, int(settings["walls"]), int(settings["orders"]))
    commands = [command[0] for _, command in table.players]
    bots = Bots.for_table(stand_ins(table, PERSON_STAND_IN), float(settings["time_limit"]))
    specs = [c if c.startswith("web:") else spec.text
             for c, spec in zip(commands, bots.specs, strict=True)]
    match = TurnMatch(NAME, [TurnPlayer(name, spec) for (name, _), spec in
                                  zip(table.players, specs, strict=True)], plans,
                      BotzoneRules(settings["variant"]), bots.opener, table.root,
                      meta={"variant": settings["variant"], "format": "duplicate",
                            "seed": table.seed, "time_limit": bots.limits.base_seconds},
                      header=game_header, facts=game_facts)
    if table.persons is not None:  # web:NAME players: the tournament's person seats
        match.opener = cast("SeatOpener", table.persons.turn_opener(commands, bots.opener))

    return await play_table_games(match, table, table_outcome)


def table_outcome(record: Mapping[str, Any]) -> GameOutcome:
    """What the tournament keeps of a Botzone game."""
    winner, offender = formats.winner_and_offender(record)
    action = str(formats.finish(record).get("action", "unfinished"))
    scores = record.get("scores") or [0, 0, 0, 0]
    return GameOutcome([int(x) for x in scores],
                       frozenset(() if offender is None else (offender,)),
                       frozenset(() if winner is None else (winner,)), action == "HUANG",
                       action, fault_causes(record))
