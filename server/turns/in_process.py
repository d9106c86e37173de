"""A ``TurnGame`` played by in-process bots on Botzone's protocol: no processes, no clock.

An in-process bot of a turn-based ruleset (Botzone's, NOI 2014's) is anything with
``respond(requests, responses) -> str``: the sample AIs' modules have that function, a
student's file may hold a module-level ``respond``, an object, or a class built afresh for
every game (``Class(seed=...)`` when its constructor takes a seed, else ``Class()``). The
bot is given the whole history of its game each turn, as a Botzone bot restarted every turn
reads it. A ``respond`` that raises is the bot's runtime error: the turn's verdict is
``RE`` and the judge ends the game as it would on Botzone; the traceback is kept.

``server compare`` drives games through this; the rulesets decide which names are their
sample AIs and what a game is.
"""

from __future__ import annotations

import inspect
import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.seam.contract import Reply, TurnGame
from server.seam.errors import InputError
from server.seam.python_bots import load_module

RE = "RE"
# file.py:NAME or package.module:NAME: what is played in-process (a command has a space, a
# path to an executable no ``.py:``).
_FILE_SPEC = re.compile(r"^(?P<source>[^\s:]+\.py):(?P<attr>[A-Za-z_]\w*)$")
_MODULE_SPEC = re.compile(r"^(?P<source>[A-Za-z_][\w.]*):(?P<attr>[A-Za-z_]\w*)$")


class Responder(Protocol):
    def respond(self, requests: Sequence[str], responses: Sequence[str]) -> str: ...


ResponderFactory = Callable[[int], Responder]


def in_process(spec: str, samples: Mapping[str, str], modes: Sequence[str] = ()) -> bool:
    """Whether ``spec`` names an in-process bot: a sample's name, ``file.py:NAME``, or
    ``package.module:NAME`` (whose package is not one of the command ``modes``, as in
    ``json:./bot``)."""
    if spec in samples or _FILE_SPEC.match(spec):
        return True
    found = _MODULE_SPEC.match(spec)
    return found is not None and found.group("source").split("+")[0] not in modes


def resolve_responder(spec: str, samples: Mapping[str, str]) -> ResponderFactory:
    """The factory of an in-process bot (``in_process``): a sample's module, or the object
    ``NAME`` of ``file.py`` / ``module``, checked now. Bad input is an ``InputError``."""
    if spec in samples:
        module = load_module(spec, samples[spec])
        return _factory(spec, module)
    found = _FILE_SPEC.match(spec) or _MODULE_SPEC.match(spec)
    if found is None:
        raise InputError(f"bot {spec!r}: not a bot played in-process (use one of "
                         f"{', '.join(samples)}, file.py:NAME or module:NAME)")
    source, attr = found.group("source"), found.group("attr")
    module = load_module(spec, source)
    target = getattr(module, attr, None)
    if target is None:
        raise InputError(f"bot {spec!r}: {source} has no {attr!r}")
    return _factory(spec, target)


def _factory(spec: str, target: Any) -> ResponderFactory:
    if isinstance(target, type):
        if not callable(getattr(target, "respond", None)):
            raise InputError(f"bot {spec!r}: class {target.__name__} has no "
                             "respond(requests, responses) method")
        try:
            takes_seed = "seed" in inspect.signature(target).parameters
        except (TypeError, ValueError):
            takes_seed = False

        def build(seed: int) -> Responder:
            bot: Responder = target(seed=seed) if takes_seed else target()
            return bot

        return build
    if not callable(getattr(target, "respond", None)):
        raise InputError(f"bot {spec!r}: no respond(requests, responses) function or method")
    return lambda seed: target


@dataclass(slots=True)
class Played:
    """A game played in-process: each seat's score, and the traceback of each seat whose
    bot raised (its verdict was RE)."""

    scores: list[float]
    errors: dict[int, str] = field(default_factory=dict)


def play_in_process(game: TurnGame, bots: Sequence[Responder]) -> Played:
    """Play ``game`` to its end with ``bots`` (one per seat)."""
    requests: list[list[str]] = [[] for _ in bots]
    responses: list[list[str]] = [[] for _ in bots]
    errors: dict[int, str] = {}
    while not game.finished:
        replies: list[Reply] = []
        for seat, request in enumerate(game.requests()):
            if request is None:
                replies.append(Reply("OK", None))
                continue
            requests[seat].append(request)
            try:
                answer = bots[seat].respond(requests[seat], responses[seat])
            except Exception:  # the bot's bug: its runtime error, as on Botzone
                errors.setdefault(seat, traceback.format_exc())
                replies.append(Reply(RE, None))
                continue
            answer = str(answer)
            responses[seat].append(answer)
            replies.append(Reply("OK", answer))
        game.step(replies)
    scores = game.scores
    if scores is None:
        raise RuntimeError("the game finished without scores")
    return Played([float(x) for x in scores], errors)
