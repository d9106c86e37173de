"""Playing NOI 2014 games: ``match``, ``check-bot`` and a tournament's table.

The shell's turn driver (``server.turns.match``) plays the engine with the
Botzone bot runner in the contest's dialect; this module turns the options
into a match: its players, its plan (``formats``), the bots' limits, the log.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rulesets.noi2014 import formats
from rulesets.noi2014.engine import PLAYERS
from rulesets.noi2014.person_board import PersonBoard
from rulesets.noi2014.records import NAME, fault_causes, game_line
from rulesets.noi2014.rules import NoiRules
from rulesets.noi2014.stats import game_facts
from server.bots.botzone_bots import Bots
from server.bots.botzone_io import NOI2014
from server.bots.person import stand_ins
from server.seam.contract import CommandArgs, GamePlan, TableRequest, TableRow
from server.seam.errors import InputError
from server.turns.match import GameOutcome

if TYPE_CHECKING:
    from server.turns.match import SeatOpener

CHECK_OPPONENTS = ("greedy_bot.py", "greedy_bot.py", "random_bot.py")


def plans_of(args: CommandArgs, seed: int) -> tuple[str, list[GamePlan]]:
    fmt = str(args.get("format", "one"))
    if fmt not in formats.FORMATS:
        raise InputError(f"--format must be {' or '.join(formats.FORMATS)} in the noi2014 "
                         f"ruleset, not {fmt!r}")
    if fmt == "one":
        for name in ("walls", "orders"):
            if name in args.given:
                raise InputError(f"--{name} is for --format round")
        return fmt, formats.one_game(seed)
    orders = int(args.get("orders", PLAYERS))
    if not 1 <= orders <= PLAYERS:
        raise InputError("--orders: a round plays its wall 1 to 4 times")
    return fmt, formats.rounds(seed, int(args.get("walls", 1)), orders)


def match_meta(fmt: str, seed: int, bots: Bots) -> dict[str, Any]:
    return {"format": fmt, "seed": seed, "time_limit": bots.limits.base_seconds}


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
    seed = args["seed"] if args["seed"] is not None else secrets.randbelow(2**31)
    fmt, plans = plans_of(args, seed)
    persons = seats_of(specs, args, PersonBoard, AFTER_TIMEOUT)
    # A web:NAME seat is opened by ``persons`` before ``bots`` is asked: its stand-in
    # command is never started.
    bots = Bots.from_args([PERSON_STAND_IN if spec.startswith("web:") else spec
                           for spec in specs], args, args["work_dir"], NOI2014)
    root = None
    if args["debug"] or args.get("serve"):  # --serve shows the log folder
        root = match_folder(output_folder(args["log_dir"], "--log-dir"), NAME, seed)
    match = TurnMatch(NAME, players_named(specs), plans, NoiRules(),
                      bots.opener, root, meta=match_meta(fmt, seed, bots),
                      header=formats.game_header, facts=game_facts)
    if persons is not None:
        match.opener = cast("SeatOpener", persons.turn_opener(specs, bots.opener))
        match.around = partial(person_pages, persons, "game")
    configure_logging(False)
    stop_earlier_bots_and_say()
    if args.get("title"):  # the pages' title: match.json's, beside the meta
        match.meta = {**match.meta, "title": args["title"]}
    return run_turn_match_cli(match, verbose=bool(args["verbose"]), seed=seed,
                              serve=args.get("serve"))


PERSON_STAND_IN = "true"
# What a person who does not answer in time gets, in words for their page.
AFTER_TIMEOUT = ("a fault, as for a bot: you leave this game and rank after the others; you "
                 "play again in the next game.")


def check_bot(args: CommandArgs, samples: Path) -> int:
    """Play a few games of one bot against the sample bots in ``samples`` (it moves one seat
    each game); report every answer that was a fault or whose verdict was not OK, with its
    request."""
    import trio
    from rich.console import Console

    from server.bots.leftovers import stop_earlier_bots_and_say
    from server.output.console import configure_logging
    from server.output.say import one_line
    from server.turns.match import TurnMatch, players_named, run_turn_match

    cmd: str = args["cmd"]
    games = int(args.get("games", 2))
    seed = int(args["seed"])
    specs = [cmd, *(f"json+keep-running:python3 {samples / name} --keep-running"
                    for name in CHECK_OPPONENTS)]
    bots = Bots.from_args(specs, args, dialect=NOI2014)
    plans = [GamePlan(n + 1, n + 1, formats.rotation(n), {"seed": seed, "game": n},
                      f"game {n + 1}") for n in range(games)]
    match = TurnMatch(NAME, players_named(specs), plans, NoiRules(), bots.opener,
                      None, header=formats.game_header)
    configure_logging(False)
    stop_earlier_bots_and_say()
    result = trio.run(run_turn_match, match)
    out = Console(soft_wrap=True, highlight=False, emoji=False)
    problems = 0
    for plan, record in zip(plans, result.records, strict=True):
        seat = plan.order.index(0)
        names = ["your bot" if p == 0 else f"sample {p}" for p in plan.order]
        out.print(f"game {plan.number} (your bot in seat {seat}): {game_line(record, names)}",
                  markup=False)
        turns = [item for item in record["players"][seat] if item is not None]
        for item in turns:
            if item["verdict"] != "OK":
                problems += 1
                out.print(f"  {item['verdict']}: {item['cause']} (request "
                          f"{one_line(item['request'], 60)!r})", markup=False)
        cause = fault_causes(record).get(seat)
        if cause is not None and turns and turns[-1]["verdict"] == "OK":
            problems += 1
            out.print(f"  fault {cause}: answered {one_line(str(turns[-1]['response']), 60)!r}"
                      f" to {one_line(turns[-1]['request'], 60)!r}", markup=False)
        target = formats.result_of(record).get("remaining", {}).get(str(seat))
        if target is not None and not target.get("valid"):
            problems += 1
            out.print(f"  its target hand is not valid: {target.get('reason')} (answered "
                      f"{one_line(str(target.get('target')), 60)!r})", markup=False)
    out.print(f"{games} game(s), {problems} problem(s)", markup=False)
    return 0 if problems == 0 else 1


async def play_table(table: TableRequest, defaults: Mapping[str, str]) -> list[TableRow]:
    """A tournament table: the tournament's rounds (one wall played ``orders`` times,
    seats rotated; ``defaults`` for the settings it does not give) of its four players;
    one row per seat and game."""
    from server.turns.match import TurnMatch, TurnPlayer, play_table_games

    settings = {**defaults, **table.settings}
    plans = formats.rounds(table.seed, int(settings["walls"]), int(settings["orders"]))
    commands = [command[0] for _, command in table.players]
    bots = Bots.for_table(stand_ins(table, PERSON_STAND_IN), float(settings["time_limit"]), NOI2014)
    specs = [c if c.startswith("web:") else spec.text
             for c, spec in zip(commands, bots.specs, strict=True)]
    match = TurnMatch(NAME, [TurnPlayer(name, spec) for (name, _), spec in
                             zip(table.players, specs, strict=True)], plans, NoiRules(),
                      bots.opener, table.root, meta=match_meta("round", table.seed, bots),
                      header=formats.game_header, facts=game_facts)
    if table.persons is not None:  # web:NAME players: the tournament's person seats
        match.opener = cast("SeatOpener", table.persons.turn_opener(commands, bots.opener))

    return await play_table_games(match, table, table_outcome)


def table_outcome(record: Mapping[str, Any]) -> GameOutcome:
    """What the tournament keeps of a NOI 2014 game."""
    outcome = formats.result_of(record)
    winners = frozenset(outcome.get("winners") or [])
    faulted = frozenset(outcome.get("faulted") or [])
    scores = record.get("scores") or [0, 0, 0, 0]
    return GameOutcome([formats.whole(x) for x in scores], faulted, winners, not winners,
                       "HU" if winners else ("FAULT" if faulted else "HUANG"),
                       {seat: cause.removeprefix("(").removesuffix(")")
                        for seat, cause in fault_causes(record).items()})
