"""Remote entries in tournaments: ``tcp:NAME`` bots through the tournament's one listener.

End to end as people run it: ``server tournament`` with remote entries and
``server connect`` bridges as processes, over loopback on ephemeral ports. In
process: a round-robin whose tables of two rounds would seat the same remote
bot at once, and the bots file's and options' errors. Every process a test
starts carries its mark and must be gone when it ends.
"""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import threading
import uuid
from pathlib import Path

import pytest
import trio

from server.bots.remote import RemoteOptions
from server.bots.seats import TableOptions
from server.tournament.command import remote_for
from server.tournament.entries import EntriesError, load_entries
from server.tournament.runner import Runner, TournamentConfig
from server.tournament.schedule import TablePlan, swiss_round
from server.tournament.store import Entry, Store
from tests.rulesets.default.test_match_e2e import _quiet_logs, no_leftover_bots  # noqa: F401  (fixtures)
from tests.server.tournament.test_tournament import MARK, PY, ROOT, run_to_end, wait_gone

DRAWBOT = f"{ROOT}/tests/bots/drawbot.py"
SWISS_SEED = 2  # round 1 seats alice and bob at different tables (checked below)


def bots_toml(folder: Path, remote: dict[str, str]) -> Path:
    """Three drawbots, then one remote entry per (entry name, tcp NAME)."""
    lines = []
    for i in range(1, 4):
        lines += ["[[bot]]", f'name = "draw{i}"', f'command = ["{PY}", "{DRAWBOT}"]']
    for name, tcp in remote.items():
        lines += ["[[bot]]", f'name = "{name}"', f'command = "tcp:{tcp}"']
    path = folder / "bots.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def command(*args: str, mark: str) -> subprocess.Popen[str]:
    env = {**os.environ, MARK: mark, "COLUMNS": "160"}
    return subprocess.Popen([PY, "-m", "server.cli.app", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def listening(proc: subprocess.Popen[str], generated: int) -> tuple[int, dict[str, str], list[str]]:
    """The port and the generated tokens the tournament prints; the rest of stderr, read on."""
    assert proc.stderr is not None
    err: list[str] = []
    port = 0
    tokens: dict[str, str] = {}
    for line in proc.stderr:  # bounded: printed at once, or the server exits
        err.append(line)
        if found := re.search(r"listening on 127\.0\.0\.1:(\d+)", line):
            port = int(found[1])
        if found := re.search(r"token for tcp:(\S+): (\S+)", line):
            tokens[found[1]] = found[2]
        if port and len(tokens) == generated:
            break
    assert port, "".join(err)
    stream = proc.stderr
    threading.Thread(target=lambda: err.extend(stream), daemon=True).start()
    return port, tokens, err


# Seconds a remote seat has to join. Each hand's join waits for ``server connect`` to start
# the bot and hear its ``join`` (0.4 s on a quiet machine; seconds on one loaded 10-fold,
# when the default 5 s faulted a hand and the bridge counted one hand fewer). A join that
# comes sooner is taken at once: a passing run is no slower for it.
REMOTE_JOIN = 30.0


def per_entry(db_path: Path, total: str) -> dict[str, int]:
    """``total`` (an SQL aggregate over ``hands h``) for each entry."""
    db = sqlite3.connect(db_path)
    try:
        return dict(db.execute(f"SELECT e.name, {total} FROM hands h JOIN entries e "
                               "ON e.id = h.entry GROUP BY e.name").fetchall())
    finally:
        db.close()


# --- end to end: the commands, as processes ------------------------------------------------


def test_two_remote_bots_play_a_swiss_tournament_through_server_connect(tmp_path: Path) -> None:
    """alice's token is given, bob's generated; round 1 seats them at two tables at once."""
    first = swiss_round(5, SWISS_SEED, 1, {})
    assert [3 in t.players for t in first] != [4 in t.players for t in first]
    toml = bots_toml(tmp_path, {"alice": "alice", "bob": "bob"})
    out = tmp_path / "out"
    mark = uuid.uuid4().hex
    server = command("tournament", str(toml), "--rounds", "2", "--hands", "2", "--jobs", "2",
                     "--seed", str(SWISS_SEED), "--out", str(out), "--listen", "127.0.0.1:0",
                     "--token", "alice=s3cret", "--join-limit", str(REMOTE_JOIN), mark=mark)
    bridges: list[subprocess.Popen[str]] = []
    try:
        port, generated, err = listening(server, generated=1)
        tokens = {"alice": "s3cret", **generated}
        assert set(tokens) == {"alice", "bob"}
        for name, bot in (("alice", "greedy.py"), ("bob", "random_bot.py")):
            bridges.append(command("connect", f"127.0.0.1:{port}", "--name", name, "--token",
                                   tokens[name], "--", PY, f"{ROOT}/sample_ai/{bot}",
                                   mark=mark))
        server.wait(timeout=60)
        outputs = [b.communicate(timeout=15) for b in bridges]
    finally:
        for proc in (server, *bridges):
            proc.kill()
            proc.wait()
        wait_gone(mark)
    assert server.returncode == 0, "".join(err)
    for proc, (_, stderr) in zip(bridges, outputs, strict=True):
        assert proc.returncode == 0, stderr
        assert "stopped after 4 hand(s): the match is over" in stderr
    db = out / "tournament.sqlite"
    hands, faults = per_entry(db, "COUNT(*)"), per_entry(db, "SUM(h.faulted)")
    assert hands["alice"] == hands["bob"] == 4  # 2 rounds of 2 hands
    assert faults["alice"] == faults["bob"] == 0, faults
    standings = json.loads((out / "standings.json").read_text())
    assert {s["bot"] for s in standings["standings"]} == \
        {"draw1", "draw2", "draw3", "alice", "bob"}


@pytest.mark.slow  # a tournament end to end, its join allowance spent
def test_a_remote_bot_that_never_connects_is_faulted_and_resume_asks_for_listen_again(
        tmp_path: Path) -> None:
    toml = bots_toml(tmp_path, {"ghost": "ghost"})
    out = tmp_path / "out"
    done = run_to_end(str(toml), "--rounds", "1", "--hands", "1", "--out", str(out),
                      "--listen", "127.0.0.1:0", timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"token for tcp:ghost: \S+", done.stderr)
    db = out / "tournament.sqlite"
    assert per_entry(db, "SUM(h.faulted)") == {"draw1": 0, "draw2": 0, "draw3": 0, "ghost": 1}
    (events,) = (out / "matches").glob("r01-t01/*/events.jsonl")
    assert "no-join: no connection" in events.read_text()
    assert json.loads((out / "standings.json").read_text())["standings"]
    again = run_to_end("--resume", "--out", str(out), timeout=30)
    assert again.returncode == 2
    assert "'ghost' (tcp:ghost) need --listen HOST:PORT again" in " ".join(again.stderr.split())
    again = run_to_end("--resume", "--out", str(out), "--listen", "127.0.0.1:0",
                       "--token", "ghost=boo", timeout=30)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "listening on 127.0.0.1:" in again.stderr


def test_a_port_already_in_use_exits_2_and_leaves_no_tournament_behind(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_to_end(str(bots_toml(tmp_path, {"alice": "alice"})), "--out", str(out),
                          "--listen", f"127.0.0.1:{port}", timeout=30)
    assert done.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in " ".join(done.stderr.split())
    assert not (out / "tournament.sqlite").exists()  # the same command can simply be run again


# --- in process: one remote bot wanted by two tables at once ---------------------------------


async def test_a_remote_bot_seated_in_two_rounds_at_once_plays_its_tables_in_turn(
        tmp_path: Path) -> None:
    """Round-robin starts every round's tables together; alice's two wait for each other."""
    entries = (*(Entry(f"draw{i}", (PY, DRAWBOT)) for i in range(1, 5)),
               Entry("alice", ("tcp:alice",)))
    config = TournamentConfig(entries, "round-robin", 3, 2, tmp_path, hands=1, jobs=4,
                              options=TableOptions(host_stalls=True, join_limit=REMOTE_JOIN),
                              remote=RemoteOptions("127.0.0.1", 0, {"alice": "s3cret"}))
    store = Store(tmp_path / "tournament.sqlite")
    mark = uuid.uuid4().hex
    results: list[subprocess.CompletedProcess[bytes]] = []
    try:
        runner = Runner(config, store)
        with trio.fail_after(60):
            async with trio.open_nursery() as nursery:

                async def client(port: int) -> None:
                    # A process, as people run it (a bridge in this process would start
                    # its bot among the tables' own, and their sweeps).
                    results.append(await trio.run_process(
                        [PY, "-m", "server.cli.app", "connect", f"127.0.0.1:{port}", "--name",
                         "alice", "--token", "s3cret", "--", PY, DRAWBOT],
                        cwd=ROOT, env={**os.environ, MARK: mark}, capture_stderr=True,
                        check=False))

                def listener(what: str, plan: TablePlan | None) -> None:
                    if what == "listening":
                        assert runner.remote is not None
                        nursery.start_soon(client, runner.remote.addresses[0][1])

                runner.listener = listener
                await runner.run()
        alice = [(s, f) for s, f, players in store.db.execute(
            "SELECT started_at, finished_at, players FROM tables WHERE status = 'done' "
            "ORDER BY started_at") if 4 in json.loads(players)]
    finally:
        store.close()
        wait_gone(mark)
    assert len(alice) == 2
    assert alice[0][1] <= alice[1][0], "alice's tables overlapped"
    (connect,) = results
    assert connect.returncode == 0
    assert b"stopped after 2 hand(s): the match is over" in connect.stderr
    assert per_entry(tmp_path / "tournament.sqlite", "SUM(h.faulted)")["alice"] == 0


# --- the bots file and the options -----------------------------------------------------------


@pytest.mark.parametrize(("command", "message"), [
    ('"tcp:"', "bot 'alice': tcp:NAME '' must be 1..64"),
    ('"tcp:al ice"', "bot 'alice': a remote bot's command is just tcp:NAME"),
    ('["tcp:al ice"]', "bot 'alice': a remote bot's command is just tcp:NAME"),
    ('"tcp:alice --fast"', "bot 'alice': a remote bot's command is just tcp:NAME"),
    ('"tcp:draw1"', "bots 'draw1' and 'alice' are both tcp:draw1"),
])
def test_bad_remote_entries_are_refused_naming_the_bot(tmp_path: Path, command: str,
                                                       message: str) -> None:
    path = tmp_path / "bots.toml"
    path.write_text(f'[[bot]]\nname = "draw1"\ncommand = "tcp:draw1"\n'
                    f'[[bot]]\nname = "alice"\ncommand = {command}\n')
    with pytest.raises(EntriesError) as caught:
        load_entries(path)
    assert message in str(caught.value)


def test_a_remote_entry_is_the_one_word_tcp_name(tmp_path: Path) -> None:
    path = bots_toml(tmp_path, {"Alice Smith": "alice"})
    (*_, alice) = load_entries(path)
    assert alice == Entry("Alice Smith", ("tcp:alice",)) and alice.remote == "alice"
    assert Entry("x", (PY, DRAWBOT)).remote is None


def test_listen_and_tokens_go_with_remote_entries_only() -> None:
    local, remote = Entry("d", (PY, DRAWBOT)), Entry("Alice", ("tcp:alice",))
    assert remote_for([local], None, []) is None
    options = remote_for([local, remote], "0", ["alice=s3cret"])
    assert options is not None and (options.host, options.port) == ("127.0.0.1", 0)
    assert options.tokens == {"alice": "s3cret"} and not options.generated
    for entries, listen, tokens, message in [
        ([local], "0", [], "there are none"),
        ([local, remote], None, [], "remote bots 'Alice' (tcp:alice) need --listen"),
        ([local, remote], "0", ["Alice=x"], "no AI is tcp:Alice"),
        ([local, remote], "nowhere:port", [], "give HOST:PORT"),
    ]:
        with pytest.raises(EntriesError) as caught:
            remote_for(entries, listen, tokens)
        assert message in str(caught.value)
