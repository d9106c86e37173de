"""A package's names loaded on first use (PEP 562), each from the module that defines it.

A process that needs one module of a package (a sample bot: ``protocol.messages``,
``scoring.analysis``) then does not pay at its start for the package's others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def names_from(package: dict[str, object],
               modules: Mapping[str, tuple[str, ...]]) -> Callable[[str], object]:
    """The ``__getattr__`` of the package whose globals are ``package``: each name of
    ``modules`` (module -> its names) imported from its module when first asked for, then
    kept in the package."""
    where = {name: module for module, names in modules.items() for name in names}

    def __getattr__(name: str) -> object:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package['__name__']!r} has no attribute {name!r}")
        value: object = getattr(importlib.import_module(module), name)
        package[name] = value
        return value

    return __getattr__
