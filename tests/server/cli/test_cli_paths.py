"""Every command, given a bad path, exits 2 with one line naming it: never a traceback.

One table of cases: a file where a folder is wanted and the reverse, a parent
that is a file, a folder nobody can write in (under ``/sys``, which refuses
even root), a missing input. Each runs the real command line and must fail
before any bot starts. ``fans --batch`` reads stdin and takes no path.

The cases call the command line's entry point (``server.cli.app.main``) in this process,
with its arguments, its streams and its exit status: a process each cost a second of
start-up apiece for no check more. A few run as the real ``server`` process too, for the
exit status and the one line a person's shell sees.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.cli.inprocess import server_here

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-c", "from server.cli.app import main; main()"]
DRAW = "tests/bots/drawbot.py"
UNWRITABLE = Path("/sys/mahjong-cli-paths-test")  # sysfs: no new entries, even for root


def server(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SERVER, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, "COLUMNS": "80"})


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The places the cases name: real files and folders, and a short match's records."""
    base = tmp_path_factory.mktemp("paths")
    logs = base / "logs"
    # One hand is all the cases need: a match folder and a hand folder in it.
    run = server(DRAW, DRAW, DRAW, DRAW, "-d", "--hands", "1", "--seed", "1",
                 "--log-dir", str(logs), timeout=120)
    assert run.returncode == 0, run.stderr
    (match,) = logs.iterdir()
    hand = sorted(p for p in match.iterdir() if p.is_dir())[0]
    afile = base / "afile.txt"
    afile.write_text("not a folder, not a log\n")
    binary = base / "binary.bin"
    binary.write_bytes(bytes(range(256)))
    adir = base / "adir"
    adir.mkdir()
    bots = base / "bots"
    bots.mkdir()
    for name in ("ann.py", "bob.py"):
        (bots / name).write_text((ROOT / DRAW).read_text())
    not_db = base / "not-a-tournament"
    not_db.mkdir()
    (not_db / "tournament.sqlite").write_text("not a database\n")
    return {"match": str(match), "hand": str(hand), "file": str(afile), "binary": str(binary),
            "dir": str(adir), "bots": str(bots), "not_db": str(not_db),
            "missing": str(base / "no" / "such" / "thing"), "unwritable": str(UNWRITABLE),
            "tmp": str(base)}


# (id, arguments with {placeholders} from ``paths``, a fragment the one line must hold)
CASES = [
    # match
    ("match-log-dir-is-a-file", [DRAW] * 4 + ["-d", "--log-dir", "{file}"],
     "--log-dir {file}: a file, not a folder"),
    ("match-log-dir-under-a-file", [DRAW] * 4 + ["-d", "--log-dir", "{file}/logs"],
     "{file} is a file, not a folder"),
    ("match-log-dir-unwritable", [DRAW] * 4 + ["-d", "--log-dir", "{unwritable}"],
     "--log-dir {unwritable}: cannot make this folder"),
    ("match-work-dir-is-a-file", [DRAW] * 4 + ["--work-dir", "{file}"],
     "--work-dir {file}: a file, not a folder"),
    ("match-work-dir-unwritable", [DRAW] * 4 + ["--work-dir", "{unwritable}"],
     "--work-dir {unwritable}: cannot make this folder"),
    ("match-ai-is-a-folder", ["{dir}", DRAW, DRAW, DRAW], "{dir} is a folder, not a program"),
    ("match-ai-is-a-folder-here", ["sample_ai", DRAW, DRAW, DRAW],
     "sample_ai is a folder, not a program"),
    ("match-ai-missing", ["{missing}", DRAW, DRAW, DRAW], "{missing} does not exist"),
    # replay
    ("replay-hand-missing", ["replay", "{missing}"], "{missing}: no such file or folder"),
    ("replay-folder-not-a-hand", ["replay", "{dir}"], "{dir}: no game.log"),
    ("replay-file-not-text", ["replay", "{binary}"], "{binary}: not a text file"),
    ("replay-html-under-a-file", ["replay", "{hand}", "--html", "{file}/x.html"],
     "--html {file}/x.html: {file} is a file, not a folder"),
    ("replay-html-is-a-folder", ["replay", "{hand}", "--html", "{dir}"],
     "--html {dir}: a folder"),
    ("replay-html-unwritable", ["replay", "{hand}", "--html", "{unwritable}/x.html"],
     "--html {unwritable}/x.html: cannot write in {unwritable}"),
    ("replay-bot-folder-not-a-hand", ["replay", "{dir}", "--seat", "0", "--bot", DRAW],
     "seat0.transcript"),
    # verify
    ("verify-missing", ["verify", "{missing}"], "{missing}: no such file or folder"),
    ("verify-folder-not-a-record", ["verify", "{dir}"], "{dir}: not a match folder"),
    ("verify-file-not-a-log", ["verify", "{file}"], "{file}: not an original-format log"),
    ("verify-file-not-text", ["verify", "{binary}"], "{binary}: not a text file"),
    # report
    ("report-match-missing", ["report", "{missing}", "--html", "{tmp}/r.html"],
     "{missing} is not a match folder"),
    ("report-match-is-a-file", ["report", "{file}", "--html", "{tmp}/r.html"],
     "{file} is not a match folder"),
    ("report-html-under-a-file", ["report", "{match}", "--html", "{file}/r.html"],
     "--html {file}/r.html: {file} is a file, not a folder"),
    ("report-html-is-a-folder", ["report", "{match}", "--html", "{dir}"],
     "--html {dir}: a folder"),
    ("report-html-unwritable", ["report", "{match}", "--html", "{unwritable}/r.html"],
     "--html {unwritable}/r.html: cannot write in {unwritable}"),
    # tournament
    ("tournament-bots-missing", ["tournament", "{missing}", "--out", "{tmp}/t"],
     "{missing}: no such file or folder"),
    ("tournament-bots-not-text", ["tournament", "{binary}", "--out", "{tmp}/t"],
     "{binary}: not a text file"),
    ("tournament-out-is-a-file", ["tournament", "{bots}", "--out", "{file}"],
     "--out {file}: a file, not a folder"),
    ("tournament-out-under-a-file", ["tournament", "{bots}", "--out", "{file}/t"],
     "{file} is a file, not a folder"),
    ("tournament-out-unwritable", ["tournament", "{bots}", "--out", "{unwritable}"],
     "--out {unwritable}: cannot make this folder"),
    ("tournament-work-dir-is-a-file", ["tournament", "{bots}", "--out", "{tmp}/t",
                                       "--work-dir", "{file}"],
     "--work-dir {file}: a file, not a folder"),
    ("tournament-resume-out-missing", ["tournament", "--resume", "--out", "{missing}"],
     "--resume: {missing} does not exist"),
    ("tournament-resume-out-is-a-file", ["tournament", "--resume", "--out", "{file}"],
     "--resume: --out {file} is a file"),
    ("tournament-resume-no-tournament", ["tournament", "--resume", "--out", "{dir}"],
     "--resume: {dir} holds no tournament"),
    ("tournament-resume-not-a-database", ["tournament", "--resume", "--out", "{not_db}"],
     "{not_db}/tournament.sqlite: not a tournament's file"),
    # check-bot, simulate, thupc, connect
    ("check-bot-is-a-folder", ["check-bot", "{dir}"], "{dir} is a folder, not a program"),
    ("check-bot-missing", ["check-bot", "{missing}"], "{missing} does not exist"),
    ("simulate-module-missing", ["simulate", "--bots", "no_such_module_here:Bot,random,random,"
                                 "random", "--hands", "1"], "cannot import 'no_such_module_here'"),
    ("thupc-wall-missing", ["thupc", "{missing}"], "cannot read {missing}"),
    ("thupc-wall-is-a-folder", ["thupc", "{dir}"], "cannot read {dir}"),
    ("connect-bot-is-a-folder", ["connect", "127.0.0.1:9", "--name", "a", "--token", "b",
                                 "--", "{dir}"], "{dir} is a folder, not a program"),
    ("connect-bot-missing", ["connect", "127.0.0.1:9", "--name", "a", "--token", "b",
                             "--", "{missing}"], "{missing} does not exist"),
    ("connect-address-without-port", ["connect", "localhost", "--name", "a", "--token", "b",
                                      "--", DRAW], "the server's address 'localhost'"),
]


def said_in_one_line(run: subprocess.CompletedProcess[str], fragment: str) -> None:
    assert "Traceback" not in run.stdout + run.stderr, run.stderr
    assert run.returncode == 2, run.stderr
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    assert fragment in lines[0]


@pytest.mark.parametrize(("args", "fragment"), [(a, f) for _, a, f in CASES],
                         ids=[case_id for case_id, _, _ in CASES])
def test_a_bad_path_exits_2_with_one_line_and_no_traceback(
        paths: dict[str, str], args: list[str], fragment: str) -> None:
    if "{unwritable}" in " ".join(args):
        try:
            UNWRITABLE.mkdir()
        except OSError:
            pass
        else:
            UNWRITABLE.rmdir()
            pytest.fail(f"{UNWRITABLE.parent} took a new folder: this test needs one that cannot")
    said_in_one_line(server_here(*(a.format(**paths) for a in args)),
                     fragment.format(**paths))


REAL = ["match-log-dir-is-a-file", "replay-file-not-text", "tournament-resume-not-a-database",
        "connect-bot-missing"]


@pytest.mark.parametrize(("args", "fragment"), [(a, f) for i, a, f in CASES if i in REAL],
                         ids=REAL)
def test_the_server_process_given_a_bad_path_exits_2_with_one_line(
        paths: dict[str, str], args: list[str], fragment: str) -> None:
    """The real process, for a case of each kind of command: a match (``server AI ...``,
    routed to ``match``), a record's reader, a tournament, and a remote bot's bridge."""
    said_in_one_line(server(*(a.format(**paths) for a in args)), fragment.format(**paths))
