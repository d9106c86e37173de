"""The compiled core: the pure cores compiled with mypyc, in place, and removed again.

    .venv/bin/pip install -e .                      # the install builds it (setup.py)
    .venv/bin/python tools/build_mypyc.py           # rebuild in place (about 1.5 min), then check
    .venv/bin/python tools/build_mypyc.py --status  # which modules load compiled
    .venv/bin/python tools/build_mypyc.py --clean   # back to plain Python

mypyc (it ships with mypy) turns strictly typed modules into C extensions. Python
loads ``name.cpython-*.so`` before ``name.py`` from the same folder, so the build
puts one next to each compiled module and changes no source file; ``--clean``
deletes them and the plain install is back. ``CORES`` below is the one list of what
is compiled: the install (``setup.py``: ``pip install -e .`` builds in place, ``pip
install .`` into the wheel) and this tool's rebuild both read it, through the same
``setup.py``. Without a working C compiler the install is plain Python and says so;
``protocol.compiled`` tells at run time, ignores an outdated build, and
``MAHJONG_PURE=1`` ignores any build (ARCHITECTURE.md, "The compiled core").

What is compiled (``CORES``): ``scoring``; ``protocol.counting`` (``tile_counts``,
which ``protocol.tiles`` re-exports); the default ruleset's engine, deals, in-process
driver, seat view and environment table; the seed stream; the pure side of Botzone's
training environment (its tiles, judge, seat view and game table) and the course
drop-in's table (``course_table``: numpy is only called from it; ``CourseAgent`` stays
plain, students subclass it); NOI 2014's tiles, hands, nearest target, engine, seat
view, tables and planes. ``rulesets.botzone.env`` and its encoders stay plain: they
are the numpy and PettingZoo shell; ``fans`` is a thin call into PyMahjongGB, already
C++. A compiled class has no ``__dict__``, so ``Judge.copy`` copies its attributes one
by one. Not compiled: ``protocol.messages`` (mypyc turns a dataclass's ``ClassVar``
into an instance attribute, and the frozen messages then fail to build),
``protocol.tiles`` (a compiled function checks its arguments' types on entry, so
``parse_tile(None)`` would raise ``TypeError`` where the plain one raises
``TileError``), and the shell.

The sample bots stay plain Python: students subclass ``sample_ai.framework.Bot``
and step through it in a debugger, which a C extension would prevent. Instead the
build compiles a COPY of the framework and of the random and greedy bots as the
package ``_compiled_bots`` (generated at the repository root, ignored by git, ruff,
mypy and lint-imports), and ``resolve_bot`` in ``rulesets.default.engine.simulate``
uses that copy for the names ``random`` and ``greedy`` when the core is compiled
(``protocol.compiled``; the wheel of ``pip install .`` holds the copy too). A bot named
by module or file (``sample_ai.random_bot:RandomBot``, a student's subclass) is the
plain class, as always.

The results are the same, compiled or not: ``bench/same_results.py`` prints the
same fingerprint of 2,000 random-bot and 300 mixed hands, ``bench/same_results_botzone.py``
the same fingerprint of 300 training-environment games per Botzone variant,
``bench/check_env_botzone.py`` finds the masks and the judge agreeing action by
action, and the tests of these modules pass on the compiled build.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from protocol.compiled import FORCE, SHARED_LIBRARY, manifest_path, manifest_text, write_manifest

ROOT = Path(__file__).resolve().parents[1]
CORES = (
    "scoring/analysis.py",
    "scoring/distance.py",
    "scoring/fans.py",
    "scoring/melds.py",
    "scoring/settlement.py",
    "protocol/counting.py",
    "rulesets/default/engine/hand.py",
    "rulesets/default/engine/rng.py",
    "rulesets/default/engine/simulate.py",
    "rulesets/default/seat_view.py",
    "rulesets/default/env_table.py",
    "server/seam/seeds.py",
    "rulesets/botzone/tiles.py",
    "rulesets/botzone/judge.py",
    "rulesets/botzone/seat_view.py",
    "rulesets/botzone/table.py",
    "rulesets/botzone/course_table.py",
    "rulesets/noi2014/tiles.py",
    "rulesets/noi2014/hands.py",
    "rulesets/noi2014/nearest.py",
    "rulesets/noi2014/engine.py",
    "rulesets/noi2014/seat_view.py",
    "rulesets/noi2014/table.py",
    "rulesets/noi2014/planes.py",
    "rulesets/noi2014/fast_table.py",
)
COPY_PACKAGE = "_compiled_bots"  # rulesets.default.engine.simulate.COMPILED_BOTS names it
COPIED = ("framework.py", "random_bot.py", "greedy.py")  # from sample_ai/
# The shared library of the build, protocol/mypyc_build__mypyc.cpython-*.so: inside a
# package, so that it is found wherever the packages are (an editable install finds
# only them, not the repository root).
GROUP = SHARED_LIBRARY
TARGET = "build/mypyc"  # the generated C and mypyc's type-check cache (ignored by git)

_INIT = '''"""GENERATED by the build (setup.py, tools/build_mypyc.py): a compiled copy of
sample_ai's framework and random and greedy bots, used by ``server simulate`` for the
names ``random`` and ``greedy``. Edit sample_ai/, never this; ``tools/build_mypyc.py
--clean`` removes it."""

import protocol.compiled  # noqa: F401  (first: MAHJONG_PURE acts before a compiled module)
'''

# mypyc reads the type checker's options; the project's (strict) ones are checked by
# mypy itself, so the build needs only these.
_MYPY_INI = "[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"


def sources() -> list[str]:
    """The modules the build compiles, relative to the root (the copy included)."""
    return [*CORES, *(f"{COPY_PACKAGE}/{name}" for name in COPIED)]


def origins() -> list[str]:
    """The sources a compiled module comes from: the copy's are sample_ai's."""
    return [*CORES, *(f"sample_ai/{name}" for name in COPIED)]


def compiled_files() -> list[Path]:
    """Every file the build made (the extensions, the shared library, the copy)."""
    found = [ROOT / COPY_PACKAGE] if (ROOT / COPY_PACKAGE).exists() else []
    found += sorted(ROOT.glob(GROUP.replace(".", "/") + "__mypyc.*"))
    found += [path for path in [manifest_path(ROOT)] if path.exists()]
    # Every extension beside a module of the project's packages, not only those of
    # CORES: an older build may have compiled a module that CORES no longer names.
    for package in ("protocol", "scoring", "server", "sample_ai", "rulesets"):
        found += sorted(path for path in (ROOT / package).rglob("*.cpython-*.so")
                        if path.with_name(path.name.split(".")[0] + ".py").is_file())
    return found


def remove_build() -> int:
    """Delete every file the build made; how many."""
    removed = compiled_files()
    for path in removed:
        if path.is_dir():
            shutil.rmtree(path)
        else:
            path.unlink()
    return len(removed)


def clean() -> int:
    removed = remove_build()
    print(f"removed {removed} compiled file(s): plain Python again" if removed
          else "nothing to remove: the install is plain Python")
    return 0


def copy_bots() -> None:
    """Write the copy of the sample bots (anew: sample_ai/ may have changed)."""
    package = ROOT / COPY_PACKAGE
    shutil.rmtree(package, ignore_errors=True)
    package.mkdir()
    (package / "__init__.py").write_text(_INIT)
    for name in COPIED:
        text = (ROOT / "sample_ai" / name).read_text()
        (package / name).write_text(text.replace("from sample_ai.framework import",
                                                 f"from {COPY_PACKAGE}.framework import"))


def extensions() -> list[Any]:
    """mypyc's C code for ``sources()`` (written under ``TARGET``) and its extensions.

    Raises (or exits) when mypyc fails; the copy of the bots must be there."""
    from mypyc.build import mypycify

    target = ROOT / TARGET
    target.mkdir(parents=True, exist_ok=True)
    (target / "mypy.ini").write_text(_MYPY_INI)
    options = ["--config-file", str(target / "mypy.ini"), "--cache-dir", str(target / "cache")]
    # Relative paths from the root (setuptools' working directory), as setuptools
    # wants an extension's sources.
    os.chdir(ROOT)
    _compiled_sources.append(manifest_text(origins(), ROOT))  # before mypyc reads them
    built: list[Any] = mypycify([*options, *sources()], opt_level="3", group_name=GROUP,
                                target_dir=TARGET)
    return built


_compiled_sources: list[str] = []  # the sources' record, taken as the build began


def record_sources() -> None:
    """After an in-place build: what it compiled, so that an edit since is noticed (an
    edit during the build too: the record is the one taken before mypyc read them)."""
    write_manifest(origins(), ROOT, _compiled_sources[0] if _compiled_sources else None)


def build() -> int:
    if importlib.util.find_spec("mypyc") is None:
        print("build_mypyc: mypyc is not installed; it ships with mypy: "
              "pip install -e '.[test]' (or pip install mypy)", file=sys.stderr)
        return 2
    done = subprocess.run([sys.executable, "setup.py", "--quiet", "build_ext", "--inplace"],
                          cwd=ROOT, check=False, env={**os.environ, FORCE: ""})
    if done.returncode != 0 or not compiled_files():
        print("build_mypyc: the build failed (above); the install is plain Python",
              file=sys.stderr)
        return 1
    return status()


def status() -> int:
    """Load each module in a fresh interpreter and say whether it is compiled."""
    names = [p.removesuffix(".py").replace("/", ".") for p in CORES]
    names += [f"{COPY_PACKAGE}.{n.removesuffix('.py')}" for n in COPIED]
    probe = ("import importlib.util, sys\n"
             "from protocol import compiled\n"
             "for name in sys.argv[1:]:\n"
             "    spec = importlib.util.find_spec(name.rpartition('.')[0] or name)\n"
             "    found = spec and importlib.util.find_spec(name)\n"
             "    origin = found.origin if found else None\n"
             "    print(name, 'compiled' if origin and origin.endswith('.so') else\n"
             "          'plain' if origin else 'absent')\n"
             "print('the core:', compiled.STATE)\n"
             "print(compiled.notice() or '', end='')\n")
    done = subprocess.run([sys.executable, "-c", probe, *names], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    print(done.stdout + done.stderr, end="")
    return 0 if done.returncode == 0 else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--clean", action="store_true", help="remove the compiled build")
    group.add_argument("--status", action="store_true", help="say which modules are compiled")
    args = parser.parse_args(argv)
    if args.clean:
        return clean()
    if args.status:
        return status()
    return build()


if __name__ == "__main__":
    sys.exit(main())
