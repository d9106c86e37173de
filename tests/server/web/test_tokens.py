"""Hand-in tokens: made once, stored hashed, checked, revoked; names are the tournament's."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import server.web.tokens as tokens_module
from server.tournament.store import Entry, Store
from server.web.tokens import (
    TokenError,
    check_name,
    find,
    load_tokens,
    make_tokens,
    revoke,
    tokens_path,
)

ROOT = Path(__file__).resolve().parents[3]
FAST = 1000  # PBKDF2 rounds in these tests (the real ones: tokens.ITERATIONS)


def test_a_token_is_stored_only_as_a_salted_hash_and_opens_its_name_only(
        tmp_path: Path) -> None:
    made = make_tokens(tmp_path, ["alice", "bob"], FAST)
    (alice, a_token, replaced), (_, b_token, _) = made
    assert alice == "alice" and not replaced
    text = tokens_path(tmp_path).read_text()
    assert a_token not in text and a_token.split(".")[1] not in text
    assert stat.S_IMODE(tokens_path(tmp_path).stat().st_mode) == 0o600
    records = load_tokens(tmp_path)
    assert records["alice"].salt != records["bob"].salt
    assert find(records, a_token) == "alice" and find(records, b_token) == "bob"
    token_id, secret = a_token.split(".")
    assert find(records, f"{token_id}.{secret[:-1]}x") is None, "a wrong secret"
    assert find(records, f"{b_token.split('.')[0]}.{secret}") is None, "another's id"
    for junk in ("", ".", "nodot", "ü.ü", f"{token_id}."):
        assert find(records, junk) is None


def test_a_new_token_replaces_the_old_and_a_revoked_one_opens_nothing(tmp_path: Path) -> None:
    (_, first, _), = make_tokens(tmp_path, ["alice"], FAST)
    (_, second, replaced), = make_tokens(tmp_path, ["alice"], FAST)
    assert replaced and find(load_tokens(tmp_path), first) is None
    assert find(load_tokens(tmp_path), second) == "alice"
    revoke(tmp_path, "alice")
    assert find(load_tokens(tmp_path), second) is None
    with pytest.raises(TokenError, match="'alice' has no token"):
        revoke(tmp_path, "alice")


def test_names_must_be_the_tournaments_entries_and_folder_names(tmp_path: Path) -> None:
    store = Store(tmp_path / "tournament.sqlite")
    store.initialise({"format": "swiss"}, [Entry("alice", ("x",)), Entry("bob", ("y",)),
                                           Entry("fill-in-1", ("z",), True)])
    store.close()
    with pytest.raises(TokenError, match=r"'carol': not an entry of the tournament in .*"
                                         r"\(its bots: alice, bob\)"):
        make_tokens(tmp_path, ["alice", "carol"], FAST)
    assert not tokens_path(tmp_path).exists(), "nothing is made when one name is wrong"
    with pytest.raises(TokenError, match="fill-in-N"):
        make_tokens(tmp_path, ["fill-in-1"], FAST)
    for bad in ("../x", "a/b", ".hidden", "", " x", "a\nb", "x" * 65):
        assert check_name(bad) is not None, bad
    assert check_name("王小明") is None
    with pytest.raises(TokenError, match="named twice: bob"):
        make_tokens(tmp_path, ["bob", "bob"], FAST)


def test_a_tokens_file_that_is_not_one_is_named(tmp_path: Path) -> None:
    tokens_path(tmp_path).parent.mkdir(parents=True)
    tokens_path(tmp_path).write_text(json.dumps({"tokens": {"a": {"id": 1}}}))
    with pytest.raises(TokenError, match="not a tokens file written by 'server tokens'"):
        load_tokens(tmp_path)


def test_server_tokens_prints_each_token_once_lists_and_revokes(tmp_path: Path) -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "server.cli", "tokens", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=60,
                              check=False, env={**os.environ, "COLUMNS": "200"})

    out = tmp_path / "out"
    made = run(str(out), "alice", "bob")
    assert made.returncode == 0, made.stderr
    tokens = dict(line.split()[:2] for line in made.stdout.splitlines())
    assert set(tokens) == {"alice", "bob"}
    assert find(load_tokens(out), tokens["bob"]) == "bob"
    assert "not shown again" in made.stderr
    listed = run(str(out), "--list")
    assert listed.returncode == 0 and "alice" in listed.stdout
    assert tokens["alice"] not in listed.stdout
    gone = run(str(out), "--revoke", "bob")
    assert gone.returncode == 0 and set(load_tokens(out)) == {"alice"}
    bad = run(str(out), "a/b")  # each refusal's words: the tests above
    assert bad.returncode == 2 and "must not hold /" in bad.stderr
    assert "Traceback" not in bad.stderr


def median_seconds(check: Callable[[], object], other: Callable[[], object], trials: int
                   ) -> tuple[float, float]:
    """The median time of each of two checks, run alternately, as this thread's CPU time:
    the work each does, which the wall clock of a loaded machine (other processes'
    turns) only adds to."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(trials):
        for i, call in enumerate((check, other)):
            start = time.thread_time()
            call()
            times[i].append(time.thread_time() - start)
    return statistics.median(times[0]), statistics.median(times[1])


@pytest.mark.parametrize("kinds", [(5_000,), (0, 5_000)], ids=["pbkdf2", "mixed"])
def test_a_checks_time_does_not_tell_whether_the_id_exists(
        tmp_path: Path, kinds: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """A wrong secret for a known id costs what an unknown id costs, in a file of PBKDF2
    tokens (an older file) and in one holding both kinds of hash: the same hashes, of
    the same sizes and iterations, in the same order (the work, counted exactly), and
    so much the same time that only a gross difference is looked for on the clock."""
    made = [make_tokens(tmp_path, [f"s{i}"], kind)[0] for i, kind in enumerate(kinds)]
    records = load_tokens(tmp_path)
    work: list[tuple[int, int, int]] = []
    real_hash = tokens_module._hash

    def counted(secret: str, salt: bytes, iterations: int) -> bytes:
        work.append((len(secret), len(salt), iterations))
        return real_hash(secret, salt, iterations)

    for _, token, _ in made:
        known = token.split(".")[0] + ".wrong-secret"
        unknown = "0badf00d.wrong-secret"
        with monkeypatch.context() as patch:
            patch.setattr(tokens_module, "_hash", counted)
            assert find(records, known) is None
            known_work, work[:] = list(work), []
            assert find(records, unknown) is None
            assert work == known_work and len(work) == len(set(kinds))
            work.clear()
        a, b = median_seconds(lambda k=known: find(records, k),
                              lambda u=unknown: find(records, u), trials=21)
        assert 0.5 < a / b < 2, f"known id {a * 1e3:.2f} ms, unknown {b * 1e3:.2f} ms"


def test_new_tokens_are_one_hmac_and_old_pbkdf2_files_still_open(tmp_path: Path) -> None:
    (_, new, _), = make_tokens(tmp_path, ["alice"])
    data = json.loads(tokens_path(tmp_path).read_text())
    assert data["tokens"]["alice"]["iterations"] == 0
    start = time.perf_counter()
    assert find(load_tokens(tmp_path), new) == "alice"
    assert time.perf_counter() - start < 0.05, "no key stretching for a random secret"
    old = {"version": 1, "tokens": {"bob": {
        "id": "0000beef", "salt": "00" * 16, "iterations": 1000, "made": 1.0,
        "hash": hashlib.pbkdf2_hmac("sha256", b"s3cret", bytes(16), 1000).hex()}}}
    tokens_path(tmp_path).write_text(json.dumps(old))
    assert find(load_tokens(tmp_path), "0000beef.s3cret") == "bob"
    assert find(load_tokens(tmp_path), "0000beef.s3cres") is None
