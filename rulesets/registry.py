"""The rulesets this server hosts, found by name (``--ruleset NAME``).

Each listing names the module holding the ruleset's ``RULESET`` object
(``rulesets.seam.Ruleset``); it is imported only when a command uses it, so
listing the rulesets costs nothing and a ruleset's optional dependencies (the
Botzone calculator) matter only to those who play it.

Pure: no trio, no rich.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from rulesets.seam import Ruleset, Unsupported

DEFAULT = "default"


@dataclass(frozen=True, slots=True)
class Listing:
    name: str
    title: str
    module: str  # holds RULESET
    variants: tuple[str, ...] = ()
    kind: str = "match"  # "match": bots play it here; "simulator": a contest's judge only


LISTINGS: tuple[Listing, ...] = (
    Listing(DEFAULT, "the contest of docs/SPEC.md: 96-hand duplicate, line protocol, "
            "simplified GB fans", "rulesets.default"),
    Listing("botzone", "Botzone's Chinese Standard Mahjong (国标麻将): the official judge's "
            "rules, Botzone bots", "rulesets.botzone.ruleset", ("classic", "duplicate")),
    Listing("noi2014", "NOI 2014's Mahjong (血战: winners leave, target hands), its bots "
            "and its Swiss", "rulesets.noi2014.ruleset"),
    Listing("thupc2021", "THUPC 2021 problem L's simulator: a game log from a wall "
            "(server thupc)", "rulesets.thupc2021.ruleset", kind="simulator"),
)


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
