"""Hand-in tokens: made once, stored hashed, checked, revoked; names are the tournament's."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

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
