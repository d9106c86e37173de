"""Loading the module of a Python bot named by file or module (server.seam.python_bots)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from server.seam.errors import InputError
from server.seam.python_bots import is_file_spec, load_module


class Refused(InputError):
    pass


def test_a_bot_file_named_like_a_standard_module_does_not_replace_it(tmp_path: Path) -> None:
    (tmp_path / "random.py").write_text("NAME = 'mine'\n")
    module = load_module("random.py:Bot", str(tmp_path / "random.py"))
    assert module.NAME == "mine"
    assert random.Random is not None and not hasattr(random, "NAME")
    assert load_module("again", str(tmp_path / "random.py")) is module  # loaded once


def test_each_failure_is_one_line_of_the_given_class(tmp_path: Path) -> None:
    (tmp_path / "exits.py").write_text("import sys\nsys.exit(3)\n")
    (tmp_path / "raises.py").write_text("1 / 0\n")
    with pytest.raises(Refused, match="no file"):
        load_module("x.py:B", str(tmp_path / "x.py"), Refused)
    with pytest.raises(Refused, match=r"sys\.exit while being imported"):
        load_module("exits.py:B", str(tmp_path / "exits.py"), Refused)
    with pytest.raises(Refused, match="ZeroDivisionError"):
        load_module("raises.py:B", str(tmp_path / "raises.py"), Refused)
    with pytest.raises(Refused, match="cannot import 'no_such_module_here'"):
        load_module("no_such_module_here:B", "no_such_module_here", Refused)


def test_a_source_with_a_slash_or_py_is_a_file() -> None:
    assert is_file_spec("bots/mine") and is_file_spec("mine.py")
    assert not is_file_spec("sample_ai.greedy")
