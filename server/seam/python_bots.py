"""Python bots played in-process, named ``package.module:NAME`` or ``path/to/bot.py:NAME``:
finding their module (every ruleset's in-process bots: the default ruleset's simulation,
the turn-based rulesets' ``respond`` bots).

A module is looked for in the current folder first, as ``python -m`` would (the ``server``
command, unlike ``python``, does not put it on the path); a file is loaded under a name of
its own (a bot file called ``random.py`` must not replace the module ``random``) with its
own folder on the path, as ``python path/to/bot.py`` would. Whatever goes wrong is the
given error class (an ``InputError``) with one line saying why.

Pure: importlib only, no trio, no rich.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from server.seam.errors import InputError


def is_file_spec(source: str) -> bool:
    """Whether a spec's part before the colon names a file (else a module)."""
    return source.endswith(".py") or "/" in source or os.sep in source


def load_module(spec: str, source: str, error: type[InputError] = InputError) -> ModuleType:
    """The module ``source`` of the bot ``spec``: a file or a module's name."""
    return _load_file(spec, source, error) if is_file_spec(source) else \
        _import(spec, source, error)


def why(exc: BaseException) -> str:
    """A bot module's own failure, as one line."""
    if isinstance(exc, SystemExit):
        return ("it called sys.exit while being imported (start the bot under "
                "'if __name__ == \"__main__\":')")
    return f"{type(exc).__name__}: {exc}"


def on_path(folder: str) -> None:
    """Put ``folder`` first on the import path (once)."""
    if folder not in sys.path:
        sys.path.insert(0, folder)


def _import(spec: str, name: str, error: type[InputError]) -> ModuleType:
    on_path(os.getcwd())
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise error(f"bot {spec!r}: cannot import {name!r} ({exc}; looked in "
                    f"{os.getcwd()} and on the Python path)") from None
    except (Exception, SystemExit) as exc:  # the module's own code failed: not our bug
        raise error(f"bot {spec!r}: importing {name!r} failed: {why(exc)}") from None


def _load_file(spec: str, source: str, error: type[InputError]) -> ModuleType:
    path = Path(source).resolve()
    if not path.is_file():
        raise error(f"bot {spec!r}: no file {source}")
    name = "_bot_" + hashlib.sha256(str(path).encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    loader_spec = importlib.util.spec_from_file_location(name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise error(f"bot {spec!r}: {source} cannot be loaded as Python")
    module = importlib.util.module_from_spec(loader_spec)
    on_path(str(path.parent))
    sys.modules[name] = module  # dataclasses and pickling look classes up by module
    try:
        loader_spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        del sys.modules[name]
        raise error(f"bot {spec!r}: loading {source} failed: {why(exc)}") from None
    return module
