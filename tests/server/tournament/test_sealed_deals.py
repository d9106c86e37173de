"""Acceptance: no deal can be read, from disk or from the web, before every table with
that deal has played it.

A duplicate-format tournament (the default ruleset; 8 entries, two tables a round,
both rounds scheduled at the start, two tables at once, 5 hands a table so hand 5
replays hand 1's wall) under the bwrap sandbox, with the web served
(``--serve 127.0.0.1:0``). Four of the entries peek: at every hand start a peeking bot
searches the tournament's folder (its path written into the bot) and then every path
it can read from ``/`` (system folders left out), within a time budget, for a file
holding its own starting hand as the logs write it, and says on stderr what it found.
Meanwhile the test polls the web for every URL it can learn of (the live page, the
API, the server-sent events, and the folder's files by the names the logs use) and
keeps each served body with the runner's ``sealed.json`` as it was read just after the
body came: a table still listed then was sealed when the body was served (a table
leaves the list for good when its round's last table finishes), so a body of it, or
holding its starting hands, is a leak.

Passes once bots see only their own folder (the sandbox's policy) and the web keeps
sealed tables' files and live ``end`` records to itself (``sealed.json``).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PY = sys.executable
ROUNDS, TABLES, HANDS = 2, 2, 5
NAMES = [f"r{r:02d}-t{t:02d}" for r in range(1, ROUNDS + 1) for t in range(1, TABLES + 1)]

PEEK = r'''
"""A greedy bot that, at every hand start, looks for its starting hand on disk."""
import os
import stat
import sys
import time

sys.path.insert(0, ROOT)
from protocol.messages import Init, format_line  # noqa: E402
from sample_ai.framework import run_stdio  # noqa: E402
from sample_ai.greedy import GreedyBot  # noqa: E402

SKIP = {"/proc", "/sys", "/dev", "/usr", "/lib", "/lib32", "/lib64", "/libx32", "/bin",
        "/sbin", "/boot", "/run", "/snap", "/etc", "/var/lib", "/var/cache", "/var/log"}
BUDGET = 0.3  # seconds a search may take: well within the answer's deadline


def search(needles, deadline):
    found, seen = [], set()
    for top in (OUT, "/"):
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if os.path.join(folder, d) not in SKIP]
            for name in names:
                if time.monotonic() > deadline:
                    return found, len(seen), True
                path = os.path.join(folder, name)
                if path in seen:
                    continue
                seen.add(path)
                try:
                    st = os.lstat(path)
                    if not stat.S_ISREG(st.st_mode) or st.st_size > 4 << 20:
                        continue
                    with open(path, "rb") as f:
                        data = f.read(1 << 20)
                except OSError:
                    continue
                if any(n in data for n in needles):
                    found.append(path)
    return found, len(seen), False


class Peek(GreedyBot):
    def receive(self, message):
        if isinstance(message, Init):
            tiles = format_line(message).split(" ", 1)[1]
            words = tiles.split()
            needles = [tiles.encode(), ", ".join(f'"{w}"' for w in words).encode(),
                       ",".join(f'"{w}"' for w in words).encode()]
            start = time.monotonic()
            found, files, cut = search(needles, start + BUDGET)
            sys.stderr.write(f"peek: searched {files} files in "
                             f"{time.monotonic() - start:.2f} s{' (cut)' if cut else ''}; "
                             f"found: {' '.join(found) or '-'}\n")
            sys.stderr.flush()
        return super().receive(message)


if __name__ == "__main__":
    sys.exit(run_stdio(Peek))
'''

_TILES = r"(?:[1-9][MST]|[ESWNZFB])"
_HAND_LINE = re.compile(rf"^{_TILES}(?: {_TILES}){{12}}$", re.M)


@dataclass
class Seen:
    """What the web served, each with the tables sealed.json listed just after it came."""

    bodies: list[tuple[frozenset[str], str, str]] = field(default_factory=list)
    ends: list[tuple[frozenset[str], dict[str, object]]] = field(default_factory=list)
    pages: set[str] = field(default_factory=set)  # hand folder names the logs use
    stop: threading.Event = field(default_factory=threading.Event)


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.read().decode("utf-8", errors="replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, OSError, http.client.HTTPException):
        return 0, ""  # not served, or cut off (the server going away at the end)


def sealed_now(out: Path) -> frozenset[str]:
    try:
        return frozenset(json.loads((out / "sealed.json").read_text())["tables"])
    except (OSError, ValueError):
        return frozenset(NAMES)  # not written yet (or being replaced): taken as all


def poll(base: str, out: Path, seen: Seen) -> None:
    """Fetch every URL known, again and again, until told to stop."""
    while not seen.stop.is_set():
        urls = ["", "api/standings", "api/tables", "standings.json", "hands.csv",
                "tournament.html"]
        for name in NAMES:
            urls += [f"matches/{name}.html", f"matches/{name}/match.json",
                     f"matches/{name}/scoresheet.csv", f"matches/{name}/live.jsonl"]
            for hand in sorted(seen.pages):
                urls += [f"matches/{name}/{hand}/game.log",
                         f"matches/{name}/{hand}/events.jsonl",
                         f"matches/{name}/{hand}/seat0.transcript",
                         f"matches/{name}-hands/{hand}.html"]
        for url in urls:
            status, body = get(base + url)
            if status == 200:
                seen.bodies.append((sealed_now(out), url, body))
                seen.pages |= set(re.findall(r"-hands/([0-9]{3}-[0-9a-f]{8})\.html", body))
            if seen.stop.is_set():
                return
        time.sleep(0.05)


def follow_events(base: str, out: Path, seen: Seen) -> None:
    """The server-sent events, each ``end`` record kept with when it came."""
    while not seen.stop.is_set():
        try:
            with urllib.request.urlopen(base + "api/events", timeout=5) as stream:
                for raw in stream:
                    line = raw.decode("utf-8", errors="replace")
                    if seen.stop.is_set():
                        return
                    if not line.startswith("data: "):
                        continue
                    data = line[6:]
                    seen.pages |= set(re.findall(r"-hands/([0-9]{3}-[0-9a-f]{8})\.html", data))
                    record = json.loads(data)
                    if isinstance(record, dict) and record.get("type") == "end":
                        seen.ends.append((sealed_now(out), record))
        except (OSError, ValueError):
            time.sleep(0.1)


def starting_hands(out: Path) -> dict[str, set[str]]:
    """Each table's starting hands as its game.log files write them."""
    hands: dict[str, set[str]] = {}
    for log in out.glob("matches/r*-t*/*/game.log"):
        hands.setdefault(log.parent.parent.name, set()).update(
            _HAND_LINE.findall(log.read_text()))
    return hands


@pytest.mark.slow
def test_no_deal_is_found_on_disk_or_on_the_web_before_every_table_has_played_it(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "peek.py").write_text(f"ROOT = {str(ROOT)!r}\nOUT = {str(out)!r}\n" + PEEK,
                                  encoding="utf-8")
    entries = [(f"peek{i}", [PY, str(bots / "peek.py"), "--seed", str(i)]) for i in range(4)]
    entries += [(f"greedy{i}", [PY, str(ROOT / "sample_ai/greedy.py"), "--seed", str(i)])
                for i in range(4)]
    toml = tmp_path / "bots.toml"
    toml.write_text("".join(f'[[bot]]\nname = "{n}"\ncommand = {json.dumps(c)}\n'
                            for n, c in entries), encoding="utf-8")
    seed = secrets.randbelow(1 << 40)  # deals no other run on this machine has logged
    process = subprocess.Popen(
        [PY, "-m", "server.cli", "tournament", str(toml), "--format", "round-robin",
         "--rounds", str(ROUNDS), "--hands", str(HANDS), "--jobs", "2", "--seed", str(seed),
         "--sandbox", "bwrap", "--out", str(out), "--serve", "127.0.0.1:0"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=(tmp_path / "console").open("w"), text=True,
        start_new_session=True, env={**os.environ, "MAHJONG_RUN_DIR": str(tmp_path / "runs")})
    seen = Seen()
    threads: list[threading.Thread] = []
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("serving "), (tmp_path / "console").read_text()
        base = line.split()[1]
        threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in (
            (poll, (base, out, seen)), (follow_events, (base, out, seen)))]
        for thread in threads:
            thread.start()
        assert process.wait(600) == 0, (tmp_path / "console").read_text()[-3000:]
    finally:
        seen.stop.set()
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for thread in threads:
            thread.join(15)
    hands = starting_hands(out)
    assert sorted(hands) == NAMES and all(len(h) == 4 * min(HANDS, 4) for h in hands.values())
    problems: list[str] = []
    # The peeking bots: at a hand's start its deal is still to be played at its table.
    peeks = [line for f in out.glob("matches/r*-t*/*/seat*.stderr")
             for line in f.read_text(errors="replace").splitlines()
             if line.startswith("peek: ")]
    assert len(peeks) == 4 * ROUNDS * HANDS, "each peeking bot searched at each hand start"
    problems += [f"a bot found its deal on disk: {p}" for p in peeks
                 if not p.endswith("found: -")]
    # The web: a file of a sealed table, or a body holding a table's starting hands
    # while it was sealed.
    for sealed, url, body in seen.bodies:
        mine = next((n for n in NAMES if url.startswith((f"matches/{n}/", f"matches/{n}.",
                                                         f"matches/{n}-hands/"))), None)
        if mine is not None and mine in sealed:
            problems.append(f"the web served {url} while {mine} was sealed")
            continue
        for name, dealt in hands.items():
            if name in sealed and any(h in body for h in dealt):
                problems.append(f"the web served {url} holding {name}'s deals while "
                                f"{name} was sealed")
                break
    # A live end record of a sealed table shows no tiles.
    for sealed, record in seen.ends:
        name = str(record.get("table", "")).rsplit("/", 1)[-1]
        shown = [t for h in record.get("hands") or [] for t in h]  # type: ignore[attr-defined]
        if name in sealed and shown:
            problems.append(f"the live end record of {name} hand {record.get('n')} showed "
                            "its hands while the table was sealed")
    assert sealed_now(out) == frozenset()
    assert any(len(sealed) < len(NAMES) for sealed, _, _ in seen.bodies), \
        "the web was read once the first round was played"
    kinds = {kind: sum(1 for p in problems if p.startswith(kind)) for kind in (
        "a bot found", "the web served", "the live end record")}
    assert not problems, f"{len(problems)} leaks {kinds}, the first: " + \
        "; ".join(p[:300] for p in problems[:4])
