"""``server serve`` and ``--serve`` refuse bad input with one line and exit status 2
before anything starts (``server.web.command``, ``server.cli.app``)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from server.cli.app import main


def refused(argv: list[str], capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(sys, "argv", ["server", *argv])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_a_missing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused(["serve", str(tmp_path / "nothing")], capsys, monkeypatch)
    assert "no such folder" in line


@pytest.mark.parametrize("bind", ["localhost:http", "70000", "host:"])
def test_a_bad_bind_is_refused(tmp_path: Path, bind: str,
                               capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused(["serve", str(tmp_path), "--bind", bind], capsys, monkeypatch)
    assert "--bind" in line and bind in line


@pytest.mark.parametrize("command", [["match", "a", "b", "c", "d"], ["tournament", "."],
                                     ["match", "--ruleset", "botzone", "a", "b", "c", "d"]])
def test_a_bad_serve_address_is_refused_before_any_bot_starts(
        command: list[str], capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    line = refused([*command, "--serve", "nowhere:port"], capsys, monkeypatch)
    assert "--serve" in line


def test_a_port_in_use_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        line = refused(["serve", str(tmp_path), "--bind", f"127.0.0.1:{port}"], capsys,
                       monkeypatch)
    assert f"cannot serve on 127.0.0.1:{port}" in line
