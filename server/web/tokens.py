"""Hand-in tokens: one secret per student, stored hashed in ``OUT/handins/tokens.json``.

``server tokens OUT NAME...`` makes them (each printed once, never stored in
the clear); the upload page (``server.web.handins``) checks them.

A token is ``<id>.<secret>``: the id (8 hex digits) finds the student's record
at once, so a wrong token costs one hash, never one per student; the secret (32
random bytes, URL-safe) is checked against a salted hash of it, compared in constant
time. The hash is one HMAC-SHA256 keyed by the salt (``iterations`` 0): a secret of 256
random bits cannot be guessed whatever the hash's cost, so key stretching would buy
nothing and would hand a client a lever on the server's CPU. Files written before (with
a PBKDF2-HMAC-SHA256 of ``iterations`` rounds) are read and checked as they are.

A check costs the same whether the id exists or not (``find``): an unknown id is hashed
with a dummy salt, and every kind of hash the file holds is computed once per check, so
its time does not tell which ids exist. The file::

    {"version": 2, "tokens": {"alice": {"id": "3f9a1c2e", "salt": "<hex>",
      "hash": "<hex>", "iterations": 0, "made": 1764190000.5}, ...}}

Names are those of the tournament's entries when ``OUT`` holds one (read from
its ``tournament.sqlite``, read-only), and always names a folder can have:
each student's uploads land in ``OUT/handins/<name>/``.

Plain blocking file work, no trio.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from server.output.paths import write_atomic
from server.seam.errors import InputError
from server.tournament.uploads import HANDINS

TOKENS_FILE = "tokens.json"  # OUT/handins/tokens.json
TOURNAMENT_DB = "tournament.sqlite"  # server.tournament.command.DB_NAME
ITERATIONS = 0  # one HMAC-SHA256 (older files: PBKDF2 rounds, 200,000)
_DUMMY_SALT = bytes(16)  # an unknown id's hash: the same work as a known one's
ID_DIGITS = 8
MAX_NAME = 64
# A name is a folder's name: no separator, no control character, not hidden.
_BAD_NAME = re.compile(r"[/\\\x00-\x1f\x7f]")


class TokenError(InputError):
    """Tokens that cannot be made, listed or revoked: the message says why."""


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """One student's stored token (its hash, never the token)."""

    name: str
    id: str
    salt: str  # hex
    hash: str  # hex
    iterations: int
    made: float


def handins_dir(out: Path) -> Path:
    return out / HANDINS


def tokens_path(out: Path) -> Path:
    return handins_dir(out) / TOKENS_FILE


def check_name(name: str) -> str | None:
    """Why ``name`` cannot be a student's folder name, or None."""
    if not name or name.strip() != name:
        return "a name must not be empty or start or end with a space"
    if len(name) > MAX_NAME:
        return f"a name has at most {MAX_NAME} characters"
    if name in (".", "..") or name.startswith("."):
        return "a name must not start with a dot"
    if _BAD_NAME.search(name):
        return "a name must not hold / or \\ or control characters"
    if name.startswith("fill-in-"):
        return "fill-in-N are the house's bots"
    return None


def _read_only(out: Path, sql: str) -> list[tuple[object, ...]] | None:
    """The rows of ``sql`` in the tournament's file in ``out`` (None: no tournament),
    read-only: a running tournament is not disturbed."""
    db = out / TOURNAMENT_DB
    if not db.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return [tuple(row) for row in conn.execute(sql)]
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise TokenError(f"{db}: not a tournament's file ({exc})") from None


def tournament_names(out: Path) -> list[str] | None:
    """The names of the tournament's entries in ``out`` (fill-ins left out), or None
    when ``out`` holds no tournament."""
    rows = _read_only(out, "SELECT name FROM entries WHERE fill_in = 0 ORDER BY id")
    return None if rows is None else [str(row[0]) for row in rows]


def tournament_meta(out: Path) -> dict[str, str] | None:
    """The tournament's stored settings (its ruleset, sandbox and limits), or None."""
    rows = _read_only(out, "SELECT key, value FROM meta")
    return None if rows is None else {str(k): str(v) for k, v in rows}


def entry_command(out: Path, name: str) -> list[str] | None:
    """The command the tournament stores for ``name`` (None: no tournament or no such
    entry)."""
    rows = _read_only(out, "SELECT name, command FROM entries WHERE fill_in = 0")
    for entry, command in rows or []:
        if entry == name:
            try:
                words = json.loads(str(command))
            except ValueError:
                return None
            return [str(w) for w in words] if isinstance(words, list) else None
    return None


def load_tokens(out: Path) -> dict[str, TokenRecord]:
    """The stored tokens by name (none when there is no file)."""
    path = tokens_path(out)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise TokenError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        data = json.loads(text)
        records = {name: TokenRecord(name, str(r["id"]), str(r["salt"]), str(r["hash"]),
                                     int(r["iterations"]), float(r["made"]))
                   for name, r in data["tokens"].items()}
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise TokenError(f"{path}: not a tokens file written by 'server tokens' "
                         f"({type(exc).__name__}: {exc})") from None
    return records


def save_tokens(out: Path, records: dict[str, TokenRecord]) -> None:
    """Write the tokens file at once (a temporary file renamed), readable by its owner
    only."""
    path = tokens_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": 2, "tokens": {
        r.name: {"id": r.id, "salt": r.salt, "hash": r.hash, "iterations": r.iterations,
                 "made": r.made} for r in sorted(records.values(), key=lambda r: r.name)}}
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n", mode=0o600)


def _hash(secret: str, salt: bytes, iterations: int) -> bytes:
    """0 iterations: one HMAC-SHA256 keyed by the salt; more: PBKDF2-HMAC-SHA256."""
    if iterations <= 0:
        return hmac.new(salt, secret.encode("utf-8"), hashlib.sha256).digest()
    return hashlib.pbkdf2_hmac("sha256", secret.encode("utf-8"), salt, iterations)


def make_tokens(out: Path, names: Sequence[str], iterations: int = ITERATIONS
                ) -> list[tuple[str, str, bool]]:
    """A new token for each of ``names``: (name, token, whether it replaced one). The
    tokens themselves are returned once and stored hashed."""
    if not names:
        raise TokenError("give the names of the students to make tokens for")
    problems = [f"{name!r}: {why}" for name in names if (why := check_name(name)) is not None]
    if problems:
        raise TokenError("; ".join(problems))
    dupes = sorted({n for n in names if list(names).count(n) > 1})
    if dupes:
        raise TokenError(f"named twice: {', '.join(dupes)}")
    known = tournament_names(out)
    if known is not None:
        strangers = [n for n in names if n not in known]
        if strangers:
            raise TokenError(f"{', '.join(map(repr, strangers))}: not "
                             f"{'an entry' if len(strangers) == 1 else 'entries'} of the "
                             f"tournament in {out} (its bots: {', '.join(known) or 'none'})")
    records = load_tokens(out)
    ids = {r.id for r in records.values()}
    made = []
    for name in names:
        token_id = secrets.token_hex(ID_DIGITS // 2)
        while token_id in ids:
            token_id = secrets.token_hex(ID_DIGITS // 2)
        ids.add(token_id)
        secret = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        replaced = name in records
        records[name] = TokenRecord(name, token_id, salt.hex(),
                                    _hash(secret, salt, iterations).hex(), iterations,
                                    time.time())
        made.append((name, f"{token_id}.{secret}", replaced))
    save_tokens(out, records)
    return made


def revoke(out: Path, name: str) -> None:
    """Remove ``name``'s token: it opens nothing from now on."""
    records = load_tokens(out)
    if name not in records:
        raise TokenError(f"{name!r} has no token in {tokens_path(out)}"
                         + (f" (tokens: {', '.join(sorted(records))})" if records else ""))
    del records[name]
    save_tokens(out, records)


def find(records: dict[str, TokenRecord], token: str) -> str | None:
    """The name ``token`` belongs to, or None: its secret hashed and compared in constant
    time with the stored hash, with the same work for an unknown id or a bad record (a
    dummy salt) and for every kind of hash the file holds (the module's docstring)."""
    token_id, dot, secret = token.strip().partition(".")
    if not dot or not secret:
        return None
    wanted = token_id.encode("utf-8")
    record: TokenRecord | None = None
    for candidate in records.values():  # every id compared: no early way out
        if hmac.compare_digest(candidate.id.encode("utf-8"), wanted):
            record = candidate
    salt, stored = _DUMMY_SALT, b""
    if record is not None:
        try:
            salt, stored = bytes.fromhex(record.salt), bytes.fromhex(record.hash)
        except ValueError:
            record = None
    costs = sorted({r.iterations for r in records.values()})
    own = record.iterations if record is not None else (costs[-1] if costs else ITERATIONS)
    digest = b""
    for iterations in costs or [own]:
        result = _hash(secret, salt if iterations == own else _DUMMY_SALT, iterations)
        if iterations == own:
            digest = result
    matched = hmac.compare_digest(digest, stored) and bool(stored)
    return record.name if record is not None and matched else None


def token_id(token: str) -> str:
    """The id part of a token (what a rate limit is kept by), checked or not."""
    return token.strip().partition(".")[0][:ID_DIGITS * 2]
