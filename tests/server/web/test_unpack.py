"""Safe unpacking of an upload: every refused entry named with why, nothing written outside
the upload's folder, and the one program found by the rule of a folder of bots."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from server.web.unpack import (
    Refused,
    UnpackLimits,
    program_command,
    save_single,
    unpack_zip,
    upload_name,
)

BOT = "#!/usr/bin/env python3\nimport helper\nif __name__ == '__main__':\n    pass\n"


def zipped(*entries: tuple[str, bytes] | zipfile.ZipInfo | tuple[zipfile.ZipInfo, bytes]
           ) -> io.BytesIO:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for entry in entries:
            if isinstance(entry, zipfile.ZipInfo):
                zf.writestr(entry, b"")
            else:
                zf.writestr(*entry)
    buffer.seek(0)
    return buffer


def unix(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3
    info.external_attr = mode << 16
    return info


def test_a_zip_of_a_folder_is_unpacked_and_its_one_program_found(tmp_path: Path) -> None:
    dest = tmp_path / "1"
    dest.mkdir()
    unpack_zip(zipped(("mybot/", b""), ("mybot/bot.py", BOT.encode()),
                      ("mybot/helper.py", b"X = 1\n"), ("mybot/data/w.txt", b"weights"),
                      (unix("mybot/run.sh", 0o100644), b"echo")), dest, UnpackLimits())
    assert program_command(dest) == ("python3", "mybot/bot.py")
    assert (dest / "mybot/data/w.txt").read_bytes() == b"weights"
    assert not stat.S_IMODE((dest / "mybot/run.sh").stat().st_mode) & 0o111
    exe = tmp_path / "2"
    exe.mkdir()
    unpack_zip(zipped((unix("bot", 0o100755), b"#!/bin/sh\n")), exe, UnpackLimits())
    assert program_command(exe) == ("bot",)


@pytest.mark.parametrize(("entry", "why"), [
    (("../escaped.py", b"x"), "'../escaped.py': '..' in its path"),
    (("a/../../escaped.py", b"x"), "'a/../../escaped.py': '..' in its path"),
    (("/tmp/escaped.py", b"x"), "'/tmp/escaped.py': an absolute path"),
    (("C:/escaped.py", b"x"), "an absolute path"),
    (("a\\..\\escaped.py", b"x"), "a backslash"),
    ((unix("link", 0o120777), b"/etc/passwd"), "'link': a symbolic link"),
    ((unix("fifo", 0o010644), b""), "'fifo': a device or other special file"),
    ((unix("dev", 0o020644), b""), "'dev': a device or other special file"),
])
def test_each_entry_that_could_escape_is_refused_by_name_and_nothing_is_written(
        tmp_path: Path, entry: tuple[str | zipfile.ZipInfo, bytes], why: str) -> None:
    dest = tmp_path / "in" / "1"
    dest.mkdir(parents=True)
    with pytest.raises(Refused, match="cannot be unpacked") as refused:
        unpack_zip(zipped(("bot.py", BOT.encode()), entry), dest, UnpackLimits())
    assert why in str(refused.value)
    assert [p.name for p in tmp_path.rglob("*")] == ["in", "1"], "nothing written"


def test_too_many_files_too_many_bytes_and_a_zip_that_is_none_are_refused(
        tmp_path: Path) -> None:
    dest = tmp_path / "1"
    dest.mkdir()
    many = zipped(*((f"f{i}.txt", b"x") for i in range(6)))
    with pytest.raises(Refused, match=r"too many files in the zip: 6 \(at most 5\)"):
        unpack_zip(many, dest, UnpackLimits(max_files=5))
    bomb = zipped(("bot.py", BOT.encode()), ("zeros.bin", bytes(2 << 20)))
    assert len(bomb.getvalue()) < 10_000
    with pytest.raises(Refused, match=r"too many bytes once unpacked: the zip says 2\.0 MB.*"
                                      r"1\.0 MB \(a zip bomb\?\)"):
        unpack_zip(bomb, dest, UnpackLimits(max_bytes=1 << 20))
    with pytest.raises(Refused, match="not a zip file"):
        unpack_zip(io.BytesIO(b"PK but not really"), dest, UnpackLimits())
    with pytest.raises(Refused, match="the same file as"):
        unpack_zip(zipped(("a.py", b"1"), ("./a.py", b"2")), dest, UnpackLimits())
    assert list(dest.iterdir()) == []


def test_a_zip_with_no_program_or_two_says_what_it_found(tmp_path: Path) -> None:
    none, two = tmp_path / "none", tmp_path / "two"
    for folder in (none, two):
        folder.mkdir()
    unpack_zip(zipped(("notes.txt", b"hi"), ("model", b"\0")), none, UnpackLimits())
    with pytest.raises(Refused, match=r"no program at the top of the zip.*model \(not "
                                      r"executable"):
        program_command(none)
    unpack_zip(zipped(("a.py", BOT.encode()), ("b.py", BOT.encode())), two, UnpackLimits())
    with pytest.raises(Refused, match=r"2 programs at the top of the zip \(a\.py, b\.py\)"):
        program_command(two)


def test_a_single_file_keeps_its_own_name_and_a_program_its_exec_bit(tmp_path: Path) -> None:
    assert upload_name("C:\\Users\\me\\bot.py") == "bot.py"
    for bad in ("", ".hidden.py", "a b.py", "x" * 101):
        with pytest.raises(Refused):
            upload_name(bad)
    assert save_single(io.BytesIO(b"print(1)\n"), "bot.py", tmp_path, 100) == ("python3",
                                                                               "bot.py")
    assert save_single(io.BytesIO(b"\x7fELF"), "bot", tmp_path, 100) == ("bot",)
    assert stat.S_IMODE((tmp_path / "bot").stat().st_mode) == 0o755
    with pytest.raises(Refused, match="more than 100 bytes"):
        save_single(io.BytesIO(bytes(101)), "big.py", tmp_path, 100)
    with pytest.raises(Refused, match="empty"):
        save_single(io.BytesIO(b""), "empty.py", tmp_path, 100)
