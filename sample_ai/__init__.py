"""Sample AIs for students: a bot framework, a random bot and a greedy bot.

A bot is a subclass of ``Bot`` (``sample_ai.framework``). In-process it is
built as ``BotClass(seed)`` for each hand and fed messages with
``receive(message) -> answer | None``; as a program, ``run_stdio(BotClass)``
speaks the line protocol on stdin/stdout. ``load_bot`` turns a name
(``random``, ``greedy``) or ``module:Class`` into a bot class.

The bots themselves are not imported here, so ``python -m sample_ai.greedy``
runs the module once.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from sample_ai.framework import Bot, BotLike, Prompt, Table, run_stdio

BUILTIN_BOTS: dict[str, str] = {
    "random": "sample_ai.random_bot:RandomBot",
    "greedy": "sample_ai.greedy:GreedyBot",
}


def load_bot(spec: str) -> Callable[[int | None], BotLike]:
    """The bot class named by ``random``, ``greedy`` or ``package.module:Class``.

    Any class built as ``Class(seed)`` with a ``receive`` method will do; it
    need not subclass ``Bot``.
    """
    target = BUILTIN_BOTS.get(spec, spec)
    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(f"bot {spec!r}: expected a built-in name "
                         f"({', '.join(BUILTIN_BOTS)}) or module:Class")
    cls = getattr(importlib.import_module(module_name), class_name, None)
    if not isinstance(cls, type) or not callable(getattr(cls, "receive", None)):
        raise ValueError(f"bot {spec!r}: {module_name} has no class {class_name} "
                         f"with a receive(message) method")
    factory: Callable[[int | None], BotLike] = cls
    return factory


__all__ = ["BUILTIN_BOTS", "Bot", "BotLike", "Prompt", "Table", "load_bot", "run_stdio"]
