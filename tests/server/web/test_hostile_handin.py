"""Acceptance of issue 32: a hostile bot handed in through the page, under the defaults,
reaches nothing, at check time and at play time.

Everything is real and as a teacher runs it: ``server tokens``, ``server tournament``
(sandboxed by default), ``server serve OUT --handins`` on 127.0.0.1 port 0, a multipart
POST with http.client. The bot (the sample random bot, so that it plays correctly, with
probes run as it starts) tries to read the tokens, another student's upload, the BOTS
file, the output folder's logs, a file in a home folder and /etc/shadow; to write outside
its /tmp; to make itself the program of another entry (``handins/bob/1/bot.py`` and
``current.json``); to connect to the hand-in page. It writes what it reached on stderr
as one JSON line. At check time that line is read from check-bot's report (upload 1
stops after its probes, so the report shows its stderr; upload 2 plays on and passes);
at play time, from the seat's stderr file of every hand it played.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from tests.server.bots.test_hostile import (
    bwrap_or_skip,
    no_leftovers,  # noqa: F401  (autouse: nothing left running)
)
from tests.server.web.test_handins import multipart, snapshot

ROOT = Path(__file__).resolve().parents[3]
SERVER = [sys.executable, "-m", "server.cli"]
SAMPLE = (ROOT / "sample_ai" / "random_bot.py").read_text()
MARK = "HOSTILE "

# Run as the bot starts, before it plays: every attempt, and one JSON line of what it got.
PROBES = r'''
import json as _json
import os as _os
import socket as _socket
from pathlib import Path as _Path


def _reads(path):
    try:
        with open(path, "rb") as f:
            f.read(1)
        return True
    except OSError:
        return False


def _probe(where):
    own = _Path(__file__).resolve().parent
    got = {"at": where}
    for key, path in READS.items():
        got[key] = _reads(path)
    logs = 0
    for base, _, files in _os.walk(OUT):
        if _Path(base).resolve().is_relative_to(own):
            continue
        logs += sum(_reads(_os.path.join(base, name)) for name in files)
    got["logs"] = logs
    wrote = 0
    for target in WRITES + [str(own / "escaped.txt")]:
        try:
            with open(target, "x") as f:
                f.write("escaped\n")
            wrote += 1
        except OSError:
            pass
    got["write"] = wrote
    other = _Path(OUT) / "handins" / "bob"
    try:
        (other / "1").mkdir(parents=True, exist_ok=True)
        (other / "1" / "bot.py").write_text(_Path(__file__).read_text())
        (other / "current.json").write_text(_json.dumps({"n": 1, "command": ["python3",
                                                                             "bot.py"]}))
        got["bob"] = True
    except OSError:
        got["bob"] = False
    try:
        with _socket.create_connection(PAGE, timeout=2):
            got["net"] = True
    except OSError:
        got["net"] = False
    try:
        with open("/tmp/mine.txt", "w") as f:
            f.write("its own /tmp\n")
        got["tmp"] = True
    except OSError:
        got["tmp"] = False
    sys.stderr.write("HOSTILE " + _json.dumps(got, separators=(",", ":")) + "\n")
    sys.stderr.flush()


_probe(WHERE)
if STOP:
    sys.exit(3)
'''


def hostile(paths: dict[str, Any], stop: bool) -> str:
    """The sample random bot with the probes run once its imports are done."""
    head = "".join(f"{name} = {value!r}\n" for name, value in paths.items())
    probes = head + f"STOP = {stop!r}\nWHERE = {'check' if stop else 'play'!r}\n" + PROBES
    anchor = "\nfrom sample_ai.framework import Bot, run_stdio\n"
    assert anchor in SAMPLE
    return SAMPLE.replace(anchor, anchor + probes, 1)


def reports(text: str) -> list[dict[str, Any]]:
    return [json.loads(line[line.index(MARK) + len(MARK):].strip().rstrip("…"))
            for line in text.splitlines() if MARK in line]


def reached(report: dict[str, Any]) -> dict[str, Any]:
    """What a report says the bot got at: every key but where and its own /tmp."""
    return {k: v for k, v in report.items() if k not in ("at", "tmp") and v}


def post(url: str, token: str, name: str, data: bytes) -> tuple[int, dict[str, Any]]:
    body, content_type = multipart({"token": token}, [("file", name, data)])
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port, timeout=180)
    try:
        conn.request("POST", "/handin", body=body, headers={
            "Content-Type": content_type, "Accept": "application/json"})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def mode(path: Path) -> int:
    return os.stat(path).st_mode & 0o777


def outside(root: Path, out: Path) -> dict[str, tuple[str, str]]:
    """A snapshot of ``root`` without ``out`` (the server's own writes)."""
    name = out.relative_to(root).as_posix()
    return {k: v for k, v in snapshot(root).items() if k != name and
            not k.startswith(name + "/")}


def stored_meta(out: Path) -> dict[str, str] | None:
    from server.web.tokens import TokenError, tournament_meta

    try:
        return tournament_meta(out)
    except TokenError:  # being written
        return None


@pytest.mark.slow
def test_a_hostile_handin_reaches_nothing_at_check_time_or_at_play_time(
        tmp_path: Path) -> None:
    bwrap_or_skip()
    out = tmp_path / "out"
    home = tmp_path / "home" / "teacher"
    home.mkdir(parents=True)
    (home / "secret.txt").write_text("the teacher's own file\n")
    bots = tmp_path / "BOTS.toml"
    sample = {"alice": "random_bot.py", "bob": "greedy.py", "carol": "random_bot.py",
              "dave": "greedy.py"}
    bots.write_text("".join(f'[[bot]]\nname = "{n}"\ncommand = "{sys.executable} '
                            f'{ROOT / "sample_ai" / f}"\n' for n, f in sample.items()))

    made = subprocess.run([*SERVER, "tokens", str(out), "alice"], capture_output=True,
                          text=True, timeout=60, check=True)
    (token,) = re.findall(r"^alice\s+(\S+)", made.stdout, re.M)
    # The tournament stores its settings (the defaults: bwrap) and is stopped at once;
    # the upload plays when it is resumed.
    first = subprocess.Popen([*SERVER, "tournament", "--seed", "0", str(bots), "--out", str(out),
                              "--rounds", "2", "--hands", "2", "--jobs", "1"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while (meta := stored_meta(out)) is None or "sandbox" not in meta:
            assert first.poll() is None and time.monotonic() < end, first.stderr
            time.sleep(0.02)
        first.send_signal(signal.SIGTERM)
        first.wait(60)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert meta["sandbox"] == "bwrap", "a tournament sandboxes its bots by default"
    other_upload = out / "handins" / "carol" / "1" / "bot.py"  # stands for carol's upload
    other_upload.parent.mkdir(parents=True)
    other_upload.write_text("# carol's program\n")

    page = subprocess.Popen([*SERVER, "serve", str(out), "--handins", "--bind",
                             "127.0.0.1:0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert page.stdout is not None
        url = page.stdout.readline().split()[-1]
        assert url.startswith("http://127.0.0.1:"), page.stderr
        host, port = urlsplit(url).hostname, urlsplit(url).port
        paths = {
            "READS": {"tokens": str(out / "handins" / "tokens.json"),
                      "upload": str(other_upload), "bots": str(bots),
                      "home": str(home / "secret.txt"), "shadow": "/etc/shadow"},
            "OUT": str(out), "PAGE": (host, port),
            "WRITES": [str(tmp_path / "escaped.txt"), str(out / "escaped.txt"),
                       str(home / "escaped.txt"), str(out / "handins" / "escaped.txt")],
        }
        before = outside(tmp_path, out)
        carol_before = snapshot(other_upload.parent.parent)

        status, probe = post(url, token, "hostile.py", hostile(paths, stop=True).encode())
        assert status == 422 and probe["sandbox"] == "bwrap", probe
        (at_check,) = reports(probe["report"])
        status, taken = post(url, token, "hostile.py", hostile(paths, stop=False).encode())
        assert status == 200, taken.get("report", taken)
    finally:
        page.send_signal(signal.SIGTERM)
        page.wait(30)

    resumed = subprocess.run([*SERVER, "tournament", "--resume", "--out", str(out)],
                             capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    played = [r for f in sorted((out / "matches").rglob("seat*.stderr"))
              for r in reports(f.read_text(errors="replace"))]
    assert played, "the upload played at least one hand"

    assert at_check["tmp"] and all(r["tmp"] for r in played), "the probes ran"
    # What it changed: nothing, here or in the output folder beyond the server's writes.
    assert outside(tmp_path, out) == before, "nothing outside the output folder changed"
    assert snapshot(other_upload.parent.parent) == carol_before
    assert not list(tmp_path.rglob("escaped.txt"))
    assert not (out / "handins" / "bob").exists(), "bob got no program"
    for programs in (out / "matches").glob("*/programs.json"):
        bob = next(p for p in json.loads(programs.read_text()) if p["name"] == "bob")
        assert Path(bob["command"][-1]).name == "greedy.py"  # BOTS's, shown without a path
        assert "handins" not in json.dumps(bob), "bob plays no upload"
    # The server's files are its user's; what the sandbox's user runs is readable.
    alice = out / "handins" / "alice"
    private = [out, out / "handins", alice, out / "matches", out / "programs"]
    assert {p.name: mode(p) for p in private} == {p.name: 0o700 for p in private}
    files = [out / "handins" / "tokens.json", alice / "current.json", alice / "uploads.jsonl",
             alice / f"report-{taken['n']}.txt", out / "tournament.sqlite",
             *(out / "matches").rglob("seat*.stderr"), *(out / "matches").rglob("*.log")]
    assert {str(f): mode(f) for f in files} == {str(f): 0o600 for f in files}
    upload = alice / str(taken["n"])
    assert (mode(upload), mode(upload / "hostile.py")) == (0o755, 0o644)
    for pinned in (out / "programs").iterdir():
        assert mode(pinned) == 0o755
    # What it read and reached: nothing (the reads wait for the deny-by-default policy).
    for report in [at_check, *played]:
        assert {k: report[k] for k in ("write", "bob", "net")} == \
            {"write": 0, "bob": False, "net": False}, report
    assert reached(at_check) == {}, f"at check time the bot reached {reached(at_check)}"
    for report in played:
        assert reached(report) == {}, f"at play time the bot reached {reached(report)}"
