"""Whether the compiled core is in use, the switch that ignores it, and its one notice.

The install (``setup.py``) compiles the modules that ``tools/build_mypyc.py`` lists
(``CORES``) with mypyc: each gets a C extension beside its source, which Python
loads before the source. Where it could not (no C compiler), the install is plain
Python: the same source, slower. The packages that hold a compiled module
(``protocol``, ``scoring``, ``server``, ``rulesets``) import this module first, so
that its switch acts before any of them loads:

* ``MAHJONG_PURE=1`` in the environment ignores the compiled files: every module of
  the project loads from its source, as on a machine without a compiler (the tests
  of the fallback, the plain figures of the benchmarks);
* a build older than its sources is ignored the same way: the build records each
  compiled module's source (``mypyc_build.sources`` here, in a source checkout), and
  an extension whose source has changed since (an edit, a ``git checkout``) would run
  the old code, and with it every compiled module (they call each other natively).

``STATE`` says which (``COMPILED``, ``FORCED``, ``STALE``, ``NOT_BUILT``);
``note_plain()`` is called by what exists to be fast (``server simulate``,
``compare``, ``tournament``, the training environments) and says once per command
(its children inherit ``MAHJONG_PLAIN_SAID``), on stderr, what plain Python costs and
how to get the compiled core.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence
from importlib.machinery import (
    EXTENSION_SUFFIXES,
    SOURCE_SUFFIXES,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from pathlib import Path
from types import ModuleType

FORCE = "MAHJONG_PURE"
SAID = "MAHJONG_PLAIN_SAID"  # set once the notice is said: a command's children stay quiet
# The build's shared library (mypyc's group): every compiled module's code is in it,
# and each module's own extension is a small shim that loads it.
SHARED_LIBRARY = "protocol.mypyc_build"
MANIFEST = "mypyc_build.sources"  # beside this file, written by an in-place build
ROOT = Path(__file__).resolve().parents[1]  # the checkout, or site-packages
PACKAGES = frozenset({"protocol", "scoring", "server", "rulesets", "sample_ai",
                      "_compiled_bots"})

COMPILED, FORCED, STALE, NOT_BUILT = "compiled", "forced", "stale", "not built"
_COST = "games, simulations and training environments run about 1.5-3 x slower"
_NOTICES = {
    NOT_BUILT: "mahjong: plain Python, the compiled core is not built (an install without "
               f"a C compiler leaves it out): {_COST}; to build it, install g++ "
               "(apt-get install g++) and reinstall (pip install -e .)",
    FORCED: f"mahjong: plain Python, as {FORCE}=1 asks (the compiled core is ignored): "
            f"{_COST}; unset {FORCE} for the compiled core",
    STALE: "mahjong: plain Python, the compiled core is older than {path} (changed since "
           f"the build): {_COST}; rebuild it: pip install -e . "
           "(or python tools/build_mypyc.py)",
}


def built(root: Path = ROOT) -> bool:
    """Is the build's shared library there?"""
    name = SHARED_LIBRARY.replace(".", "/") + "__mypyc"
    return any((root / (name + suffix)).is_file() for suffix in EXTENSION_SUFFIXES)


def _fingerprint(path: Path) -> tuple[int, int]:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def _digest(path: Path) -> str:
    import hashlib  # only when a source's size or time changed: most processes never do

    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_path(root: Path = ROOT) -> Path:
    """Where an in-place build records the sources it compiled."""
    return root / "protocol" / MANIFEST


def manifest_text(sources: Iterable[str], root: Path = ROOT) -> str:
    """The record of ``sources`` as they are now (paths relative to ``root``). A build
    takes it before it compiles: a source edited during the build then differs from
    it, and the build is found outdated rather than taken for the edit."""
    lines = []
    for source in sources:
        path = root / source
        size, mtime = _fingerprint(path)
        digest = _digest(path)
        lines.append(f"{digest} {size} {mtime} {source}\n")
    return "".join(lines)


def write_manifest(sources: Iterable[str], root: Path = ROOT, text: str | None = None) -> Path:
    """Record the sources a build compiled: ``text`` from ``manifest_text`` taken before
    the build, or (none given) the sources as they are now."""
    manifest = manifest_path(root)
    manifest.write_text(manifest_text(sources, root) if text is None else text)
    return manifest


def changed_source(root: Path = ROOT) -> str | None:
    """The first source that differs from the one the build compiled, if any.

    A source whose size and time are those recorded is not read again."""
    try:
        lines = manifest_path(root).read_text().splitlines()
    except FileNotFoundError:
        return None  # built into a wheel: its sources are not edited in place
    for line in lines:
        digest, size, mtime, source = line.split(" ", 3)
        path = root / source
        try:
            if _fingerprint(path) == (int(size), int(mtime)):
                continue
            if _digest(path) == digest:
                continue
        except OSError:
            pass
        return source
    return None


class SourcesOnly:
    """A meta path finder: the project's modules from their sources, never an extension.

    Put first on ``sys.meta_path``; a module it does not find (not the project's, or
    an extension with no source) is left to the usual finders."""

    def __init__(self) -> None:
        self._finders: dict[str, FileFinder] = {}

    def find_spec(self, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if path is None or name.partition(".")[0] not in PACKAGES:
            return None  # a top-level package: its __init__ is never compiled
        for entry in path:
            finder = self._finders.get(entry)
            if finder is None:
                finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
                self._finders[entry] = finder
            spec = finder.find_spec(name, target)
            if spec is not None and spec.loader is not None:
                return spec
        return None

    def invalidate_caches(self) -> None:
        self._finders.clear()


def _decide() -> tuple[str, str | None]:
    if os.environ.get(FORCE, "") not in ("", "0"):
        return FORCED, None
    if not built():
        return NOT_BUILT, None
    changed = changed_source()
    return (STALE, changed) if changed else (COMPILED, None)


STATE, CHANGED = _decide()
if STATE in (FORCED, STALE) and not any(isinstance(f, SourcesOnly) for f in sys.meta_path):
    sys.meta_path.insert(0, SourcesOnly())
_noted = False


def compiled() -> bool:
    """Does this process run the compiled core?"""
    return STATE == COMPILED


def notice() -> str | None:
    """The line ``note_plain`` prints, or None when the core is compiled."""
    text = _NOTICES.get(STATE)
    return text.format(path=CHANGED) if text else None


def note_plain() -> None:
    """Say once, on stderr, that this runs on plain Python, and why.

    Once per command: the processes it starts (``--jobs`` workers, a tournament's
    tables) inherit ``MAHJONG_PLAIN_SAID`` and stay quiet. The test suite says it
    once in its header and sets the variable (tests/conftest.py)."""
    global _noted
    text = notice()
    if text is None or _noted or os.environ.get(SAID):
        return
    _noted = True
    os.environ[SAID] = "1"
    print(text, file=sys.stderr, flush=True)
