"""What viewers and slow connections cost the other clients of ``server serve``.

``python bench/bench_web_load.py [--viewers 300] [--idle 1000] [--seconds 20]``
``python bench/bench_web_load.py --bots 3`` (the bots' answer times, below)

A real ``server serve`` process serves a folder that a writer process keeps updating as
a tournament in play does (4 tables, each a ``step`` picture every 0.1 s and a hand's
``start``/``end`` every 40 steps, standings rewritten every 2 s). Another process opens
the load; a third times requests of other clients (``/api/standings``, ``/api/tables``,
the live page, a finished table's report): 4 clients, each one request at a time on a
new connection, 50 ms apart, and prints their p50/p95/max:

* ``none``: no load;
* ``viewers``: ``--viewers`` pages on ``/api/events`` (server-sent events), each reading
  everything it is sent;
* ``idle``: ``--idle`` connections opened and left silent, or sending a request's headers
  a byte every few seconds (half each), reopened when the server closes them.

With ``--bots ROUNDS`` it plays instead real 16-hand matches of the sample AIs with
``--serve``, without and with ``--viewers`` pages on the match's own web server, in
turns, and prints each player's answer time (median/p95, from ``match.json``).

The numbers in bench/README.md ("The web under load") are from it. ``--profile`` runs
the server under py-spy (``pip install py-spy``) and writes a flame graph per part.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import trio

ROOT = Path(__file__).resolve().parents[1]
PLAYERS = ["alice", "bob", "carol", "dave"]
TABLES = 4


# --- the folder, written as a tournament in play writes it --------------------------------


def picture(turn: int, step: int) -> dict[str, Any]:
    tiles = [f"W{1 + (step + i) % 9}" for i in range(min(20, step // 4 + 1))]
    seats = [{"name": name, "wind": "ESWN"[s], "concealed": 13 - len(tiles) % 4,
              "melds": [], "discards": tiles if s == turn else tiles[:-1],
              "flowers": [], "score": None} for s, name in enumerate(PLAYERS)]
    return {"seats": seats, "turn": turn, "last": {"seat": turn, "text": "discards",
                                                   "tile": tiles[-1]},
            "wall": 80 - step, "wind": "E"}


def write(feed: Path, record: dict[str, Any]) -> None:
    with feed.open("a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


def writer(folder: Path) -> None:
    """Keep ``folder`` changing as a tournament in play does, until killed."""
    feeds = []
    for t in range(TABLES):
        table_dir = folder / "matches" / f"r01-t{t + 1:02d}"
        table_dir.mkdir(parents=True, exist_ok=True)
        feed = table_dir / "live.jsonl"
        write(feed, {"type": "table", "title": f"Round 1, table {t + 1}", "ruleset":
                     "default", "unit": "hand", "players": PLAYERS, "planned": 1000})
        feeds.append(feed)
    step, hand, last_standings = 0, 0, 0.0
    while True:
        if step % 40 == 0:
            hand += 1
            for feed in feeds:
                if hand > 1:
                    write(feed, {"type": "end", "n": hand - 1, "result": "HU", "text": "x",
                                 "scores": [8, -8, 0, 0], "hands": [["W1"] * 13] * 4})
                write(feed, {"type": "start", "n": hand, "title": f"Hand {hand}",
                             "seats": PLAYERS, "picture": picture(0, 0)})
        for feed in feeds:
            write(feed, {"type": "step", "n": hand, "picture": picture(step % 4, step % 40)})
        if time.monotonic() - last_standings > 2.0:
            last_standings = time.monotonic()
            rows = [{"rank": i + 1, "bot": p, "points": random.randint(-50, 50)}
                    for i, p in enumerate(PLAYERS)]
            tmp = folder / "standings.json.tmp"
            tmp.write_text(json.dumps({"settings": {"format": "swiss", "rounds": "3"},
                                       "standings": rows, "tables": []}))
            os.replace(tmp, folder / "standings.json")
        step += 1
        time.sleep(0.1)


# --- the load -----------------------------------------------------------------------------


async def viewer(port: int, got: list[int]) -> None:
    while True:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with stream:
                await stream.send_all(b"GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
                while chunk := await stream.receive_some(65536):
                    got[0] += len(chunk)
        except (OSError, trio.BrokenResourceError):
            await trio.sleep(0.5)


async def idle(port: int, trickle: bool) -> None:
    while True:
        try:
            stream = await trio.open_tcp_stream("127.0.0.1", port)
            async with stream:
                if trickle:
                    for byte in b"GET /api/standings HTTP/1.1\r\nHost: x\r\n":
                        await stream.send_all(bytes([byte]))
                        await trio.sleep(3.0)
                else:
                    while await stream.receive_some():
                        pass
        except (OSError, trio.BrokenResourceError):
            await trio.sleep(0.5)


async def load(kind: str, port: int, count: int) -> None:
    got = [0]
    async with trio.open_nursery() as nursery:
        for i in range(count):
            if kind == "viewers":
                nursery.start_soon(viewer, port, got)
            else:
                nursery.start_soon(idle, port, i % 2 == 1)
            if i % 50 == 49:
                await trio.sleep(0.05)  # not all in one burst: the accept queue is 100


# --- the timed requests -------------------------------------------------------------------


PATHS = ["/api/standings", "/api/tables", "/", "/matches/r00-t01.html"]
CLIENTS = 4
PAUSE = 0.05


async def timed(port: int, seconds: float) -> list[float]:
    """``CLIENTS`` clients, each asking the paths in turn, one request at a time, a new
    connection each, ``PAUSE`` apart."""
    times: list[float] = []

    async def one(path: str) -> None:
        start = time.perf_counter()
        try:
            with trio.fail_after(30):
                stream = await trio.open_tcp_stream("127.0.0.1", port)
                async with stream:
                    await stream.send_all(f"GET {path} HTTP/1.1\r\nHost: x\r\n"
                                          "Connection: close\r\n\r\n".encode())
                    while await stream.receive_some(65536):
                        pass
        except (OSError, trio.TooSlowError, trio.BrokenResourceError):
            times.append(30.0)
            return
        times.append(time.perf_counter() - start)

    async def client(first: int) -> None:
        end = time.monotonic() + seconds
        i = first
        while time.monotonic() < end:
            await one(PATHS[i % len(PATHS)])
            i += 1
            await trio.sleep(PAUSE)

    async with trio.open_nursery() as nursery:
        for c in range(CLIENTS):
            nursery.start_soon(client, c)
    return times


def summary(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[int(0.95 * (len(ms) - 1))]
    return (f"{len(ms)} requests: p50 {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms, "
            f"max {ms[-1]:.0f} ms")


# --- the parts ----------------------------------------------------------------------------


def start(argv: list[str], **kw: Any) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, start_new_session=True, text=True, **kw)


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def part(name: str, port: int, load_argv: list[str] | None, seconds: float) -> str:
    loader = start(load_argv) if load_argv else None
    try:
        if loader is not None:
            time.sleep(min(10.0, 3.0 + seconds / 4))  # the load connected
        out = subprocess.run([sys.executable, __file__, "timed", str(port), str(seconds)],
                             capture_output=True, text=True)
        if out.returncode:
            return f"{name:8} failed: {out.stderr.strip().splitlines()[-1:]}"
        result = out.stdout.strip()
    finally:
        if loader is not None:
            stop(loader)
    time.sleep(2.0)
    return f"{name:8} {result}"


# --- the bots' answer times, with and without viewers ---------------------------------------


def answer_ms(match: Path) -> list[tuple[float, float]]:
    """Each player's answer time (median, p95) in ms, from the match's ``match.json``."""
    data = json.loads((match / "match.json").read_text())
    return [(p["stats"]["answer_ms"]["median"], p["stats"]["answer_ms"]["p95"])
            for p in data["players"]]


def one_match(viewers: int, log_dir: Path) -> list[tuple[float, float]]:
    """A real 16-hand ``server match --serve`` of the sample AIs (seed 7, no sandbox: the
    bots' own time, not bwrap's), with ``viewers`` pages on its ``/api/events``."""
    greedy, rand = str(ROOT / "sample_ai" / "greedy.py"), str(ROOT / "sample_ai" /
                                                             "random_bot.py")
    match = start([sys.executable, "-m", "server.cli", "match", greedy, greedy, rand, rand,
                   "--groups", "1", "--seed", "7", "--sandbox", "none", "--log-dir",
                   str(log_dir), "--serve", "127.0.0.1:0"], cwd=ROOT, stdout=subprocess.PIPE)
    loader = None
    try:
        assert match.stdout is not None
        line = match.stdout.readline()
        port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        if viewers:
            loader = start([sys.executable, __file__, "load", "viewers", str(port),
                            str(viewers)])
        match.communicate(timeout=600)
    finally:
        if loader is not None:
            stop(loader)
        stop(match)
    (folder,) = [p for p in log_dir.iterdir() if (p / "match.json").exists()]
    got = answer_ms(folder)
    shutil.rmtree(folder)
    return got


def bots_part(viewers: int, rounds: int) -> None:
    """``rounds`` pairs of matches, without and with viewers in turn: each player's
    answer median/p95."""
    log_dir = Path(tempfile.mkdtemp(prefix="bench-web-bots-"))
    try:
        for r in range(rounds):
            for n in ((0, viewers) if r % 2 == 0 else (viewers, 0)):
                got = one_match(n, log_dir)
                shown = ", ".join(f"{m:.1f}/{p:.1f}" for m, p in got)
                print(f"round {r + 1}, {n:3d} viewers: answer ms median/p95 by player: "
                      f"{shown}", flush=True)
    finally:
        shutil.rmtree(log_dir, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, default=300)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--bots", type=int, default=0, metavar="ROUNDS",
                        help="instead: ROUNDS pairs of real matches with --serve, without "
                             "and with the viewers, and the bots' answer times")
    args = parser.parse_args()
    if args.bots:
        bots_part(args.viewers, args.bots)
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    (folder / "matches").mkdir()
    (folder / "matches" / "r00-t01.html").write_text("<p>" + "a finished table " * 500)
    feeder = start([sys.executable, __file__, "writer", str(folder)])
    serve = [sys.executable, "-m", "server.cli", "serve", str(folder), "--bind",
             "127.0.0.1:0"]
    if args.profile:
        serve = ["py-spy", "record", "-o", str(ROOT / "bench-web-profile.svg"), "--", *serve]
    server = start(serve, cwd=ROOT, stdout=subprocess.PIPE)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        port = int(line.strip().rstrip("/").rsplit(":", 1)[1])
        time.sleep(2.0)
        me = [sys.executable, __file__]
        print(part("none", port, None, args.seconds), flush=True)
        print(part("viewers", port, [*me, "load", "viewers", str(port), str(args.viewers)],
                   args.seconds) + f" ({args.viewers} viewers)", flush=True)
        print(part("idle", port, [*me, "load", "idle", str(port), str(args.idle)],
                   args.seconds) + f" ({args.idle} idle or slow connections)", flush=True)
    finally:
        stop(server)
        stop(feeder)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "writer":
        writer(Path(sys.argv[2]))
    elif len(sys.argv) > 1 and sys.argv[1] == "load":
        trio.run(load, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) > 1 and sys.argv[1] == "timed":
        print(summary(trio.run(timed, int(sys.argv[2]), float(sys.argv[3]))))
    else:
        main()
