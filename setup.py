"""The install's build step: the compiled core, or plain Python that says why.

``pip install -e .`` and ``pip install .`` run this (setuptools, with the mypy that
pyproject.toml's build-system pins): mypyc compiles the modules that
``tools/build_mypyc.py`` lists (``CORES``) and a copy of the sample bots into C
extensions, beside the sources for an editable install, into the wheel otherwise.
Without a working C compiler, or when mypyc fails, the install goes on in plain
Python (the same code, slower) and says so in one line that starts with
``mahjong:`` (pip shows the build's output with ``-v``; at run time
``protocol.compiled`` says it again, once per process, where speed matters).
``MAHJONG_PURE=1`` at install time skips the build.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))  # an isolated build runs with the source tree off the path

from tools import build_mypyc  # noqa: E402

FIX = "install g++ (apt-get install g++) and reinstall (pip install -e .)"


def _say(line: str) -> None:
    print(f"mahjong: {line}", file=sys.stderr, flush=True)


def _compiler_problem() -> str | None:
    """Why no C extension can be built here (no compiler, no Python headers), or None."""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler, get_python_inc

    compiler: Any = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("#include <Python.h>\nint probe(void) { return 0; }\n")
        try:
            compiler.compile([str(probe)], output_dir=tmp, include_dirs=[get_python_inc()])
        except Exception:  # CompileError, or whatever a broken toolchain raises
            command = getattr(compiler, "compiler_so", None) or ["cc"]
            return (f"no working C compiler: {command[0]!r} could not compile a file that "
                    "includes Python.h")
    return None


def _plain(why: str) -> None:
    _say(f"the compiled core was NOT built ({why}); installed as plain Python, which "
         f"works, 1.5-3 x slower; for the compiled core, {FIX}")


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


_decided: list[list[Any]] = []  # setuptools may finalize build_ext more than once


def _extensions() -> list[Any]:
    """mypyc's extensions of the core, or none (and the notice why)."""
    if _decided:
        return _decided[0]
    found: list[Any] = []
    problem = _compiler_problem()
    if os.environ.get(build_mypyc.FORCE, "") not in ("", "0"):
        _plain(f"{build_mypyc.FORCE}=1 asked for plain Python")
    elif problem:
        _plain(problem)
    else:
        build_mypyc.copy_bots()
        try:
            found = build_mypyc.extensions()
        except (Exception, SystemExit) as error:  # mypy's errors exit; they are printed above
            _plain(f"mypyc failed: {error or 'type errors, above'}")
    _decided.append(found)
    return found


class BuildCore(build_ext):
    """build_ext for the compiled core: mypyc's extensions, or none and a notice."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = _cpus()  # the shims beside the one large shared library

    def run(self) -> None:
        # mypyc runs here, not when the command is finalized: preparing the metadata
        # finalizes it too (for its list of sources), and needs no C code.
        made = {ext.name: ext for ext in _extensions()}
        if made and sorted(made) != sorted(ext.name for ext in self.extensions):
            _plain(f"mypyc made other extensions than expected: {sorted(made)}")
            made = {}
        if not made:
            self.extensions = []
        for ext in self.extensions:
            vars(ext).update(vars(made[ext.name]))  # its sources, flags (finalized: the names)
        if self.inplace:  # no older build survives, compiled or not
            build_mypyc.remove_build()
            if self.extensions:
                build_mypyc.copy_bots()
        if not self.extensions:
            return
        start = time.monotonic()
        try:
            super().run()
        except Exception as error:  # a compiler error: the lines above say which
            for path in self.get_outputs():
                Path(path).unlink(missing_ok=True)
            self.extensions = []
            if self.inplace:
                build_mypyc.remove_build()
            _plain(f"the C compiler failed: {error}")
            return
        if self.inplace:
            build_mypyc.record_sources()
        else:  # the wheel: the copy's sources beside its extensions, as in place
            copy = Path(self.build_lib, build_mypyc.COPY_PACKAGE)
            for source in (ROOT / build_mypyc.COPY_PACKAGE).glob("*.py"):
                shutil.copy2(source, copy / source.name)
        _say(f"compiled the core ({len(build_mypyc.sources())} modules) with mypyc: "
             f"{time.monotonic() - start:.0f} s of C compiling")


# Stand-ins with the names of mypyc's extensions (its shared library, a shim per
# module), so that setuptools knows them from the start (a platform wheel, their
# files); BuildCore.run gives them mypyc's sources, or drops them all.
STAND_INS = [Extension(name, sources=[]) for name in [
    build_mypyc.GROUP + "__mypyc",
    *(path.removesuffix(".py").replace("/", ".") for path in build_mypyc.sources())]]
setup(ext_modules=STAND_INS, cmdclass={"build_ext": BuildCore})
