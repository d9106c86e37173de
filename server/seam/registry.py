"""The rulesets this server hosts, found by name (``--ruleset NAME``).

Each listing names the module holding the ruleset's ``RULESET`` object
(``server.seam.contract.Ruleset``); it is imported only when a command uses it, so
listing the rulesets costs nothing and a ruleset's optional dependencies (the
Botzone calculator) matter only to those who play it.

Pure: no trio, no rich.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from server.seam.contract import Ruleset, Unsupported

DEFAULT = "default"


# What a bot process may use when no limit option is given (0: none), by option name:
# --mem-limit (MB its processes use together), --cpu-limit (CPU seconds per process),
# --file-limit (MB per file written). The same in match, check-bot, replay --bot and
# tournament.
LIMITS = {"mem_limit": 4096, "cpu_limit": 300, "file_limit": 64}
# Botzone's own: 256 MB; a kept bot's one process lives a whole game.
BOTZONE_LIMITS = {"mem_limit": 256, "cpu_limit": 3600, "file_limit": 64}


@dataclass(frozen=True, slots=True)
class Listing:
    name: str
    title: str
    module: str  # holds RULESET
    variants: tuple[str, ...] = ()
    kind: str = "match"  # "match": bots play it here; "simulator": a contest's judge only
    limits: Mapping[str, int] = field(default_factory=lambda: LIMITS)  # its bots' defaults


LISTINGS: tuple[Listing, ...] = (
    Listing(DEFAULT, "the contest of docs/SPEC.md: 96-hand duplicate, line protocol, "
            "simplified GB fans", "rulesets.default.ruleset"),
    Listing("botzone", "Botzone's Chinese Standard Mahjong (国标麻将): the official judge's "
            "rules, Botzone bots", "rulesets.botzone.ruleset", ("classic", "duplicate"),
            limits=BOTZONE_LIMITS),
    Listing("noi2014", "NOI 2014's Mahjong (血战: winners leave, target hands), its bots "
            "and its Swiss", "rulesets.noi2014.ruleset", limits=BOTZONE_LIMITS),
    Listing("thupc2021", "THUPC 2021 problem L's simulator: a game log from a wall "
            "(server thupc)", "rulesets.thupc2021.ruleset", kind="simulator"),
)


def limit_defaults(name: str) -> Mapping[str, int]:
    """The bot limits ruleset ``name`` plays by when no option sets them."""
    return listing(name).limits


def limit_default_help(key: str) -> str:
    """Each playing ruleset's default of limit ``key``, for --help: "4096 (default),
    256 (botzone, noi2014)"."""
    by_value: dict[int, list[str]] = {}
    for entry in LISTINGS:
        if entry.kind == "match":
            name = f"{entry.name} ruleset" if entry.name == DEFAULT else entry.name
            by_value.setdefault(entry.limits[key], []).append(name)
    if len(by_value) == 1:
        return f"{next(iter(by_value))} (every ruleset)"
    return ", ".join(f"{value} ({', '.join(names)})" for value, names in by_value.items())


def names() -> list[str]:
    return [listing.name for listing in LISTINGS]


def listing(name: str) -> Listing:
    for entry in LISTINGS:
        if entry.name == name:
            return entry
    raise Unsupported(f"--ruleset: no ruleset {name!r}; there are {', '.join(names())}")


def load(name: str) -> Ruleset:
    """The ruleset called ``name``; an unknown name is bad input."""
    module = importlib.import_module(listing(name).module)
    ruleset: Ruleset = module.RULESET
    return ruleset
