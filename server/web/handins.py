"""Hand-ins through the page: a student uploads a bot with their token, the server runs
check-bot on it at once, and a bot that passes plays from the student's next table.

``routes(root, settings)`` gives the page (``GET /handin``: a form with the token
and the file) and the upload (``POST /handin``). An upload, in order:

1. its size: a Content-Length over the cap is refused before a byte is kept
   (413), and the body is counted as it streams, so a body without one stops
   at the cap too (the rest, if not much larger, is read and dropped so that
   the client sees the answer); starlette's form parser takes one file and a few small fields
   (``max_files``, ``max_fields``, ``max_part_size``);
2. its token (the form's ``token``, or ``Authorization: Bearer``): missing 401,
   wrong or revoked 403 (``server.web.tokens``: one hash, constant-time compare, the
   same work for an id that does not exist); an address that keeps sending wrong
   secrets for one token id is refused that id for a while (429), its attempt counted
   before the hash so that concurrent requests cannot pass the limit together, and
   without touching the other students behind the same address (a classroom's NAT);
   hashes run a few at a time, one at a time per address, so no address takes the
   server's CPU (a token seen right before needs no hash);
3. the student's rate: at most ``uploads_per_minute`` uploads a minute and one
   check at a time (429 with ``Retry-After``);
4. its files, in ``OUT/handins/<name>/<n>/`` and nowhere else
   (``server.web.unpack``: one bot file, or a zip checked entry by entry), within
   the student's ``quota``; an upload refused is removed (check-bot's report of
   it stays, ``report-<n>.txt``), a passed one is kept;
5. check-bot, at once: ``server check-bot`` of the tournament's ruleset, with the
   sandbox (bwrap unless the teacher stored ``none``), limits and deadlines the
   tournament stores (its ``tournament.sqlite``,
   read-only), in a process of its own (killed with its group past
   ``check_timeout``), so a bot being checked never shares the page's event loop;
6. on a pass, ``OUT/handins/<name>/current.json`` (``server.tournament.uploads``):
   the tournament takes it when the student's next table starts.

A body that stalls (no bytes for ``body_idle_seconds``) or trickles (not all there
after ``body_seconds``) is answered 408 and its connection closed; a client that goes
away mid-body is one line of the log.

Every answer says why: HTML for the browser's form, JSON when asked (``Accept:
application/json``): ``{"ok", "status", "reason", "name", "n", "report", "sandbox"}``.
Every upload that got past the token is also logged in
``OUT/handins/<name>/uploads.jsonl``. A tournament stored with ``--sandbox none``
(the teacher opted out by name) has the page and every answer say that programs run
without a sandbox, as the teacher's user.
"""

from __future__ import annotations

import contextlib
import html
import json
import logging
import math
import os
import re
import shlex
import signal
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import Any

import trio
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from server.bots.leftovers import stop_earlier_bots
from server.bots.remote import PREFIX as REMOTE
from server.output.pages import back_link, page
from server.seam.errors import InputError
from server.seam.registry import DEFAULT, load
from server.tournament.uploads import student_dir, write_current
from server.web.tokens import (
    TokenError,
    check_name,
    entry_command,
    find,
    load_tokens,
    token_id,
    tournament_meta,
    tournament_names,
)
from server.web.unpack import (
    Refused,
    UnpackLimits,
    discard,
    is_zip,
    program_command,
    save_single,
    unpack_zip,
    upload_name,
)

PATH = "/handin"
FORM_SLACK = 16 << 10  # bytes of a form around its file: the token, the boundaries
HASHES_AT_ONCE = 2  # token hashes running together (each address: one at a time)
FAILURE_KEYS = 4096  # (address, id) windows kept before the idle ones are forgotten
DRAIN_TIMES = 4  # a body this many times the limit is read and dropped to answer 413
REPORT_LIMIT = 20_000  # characters of check-bot's output shown
UPLOADS_LOG = "uploads.jsonl"
REPORT_FILE = "report-{n}.txt"  # OUT/handins/<name>/report-<n>.txt: check-bot's
# The options of ``server check-bot`` taken from the tournament's stored settings.
CHECK_OPTIONS = ("hard_limit", "join_limit", "mem_limit", "cpu_limit", "file_limit",
                 "sandbox", "variant", "time_limit")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HandinSettings:
    """The limits of hand-ins through the page (``server serve --handins``)."""

    max_bytes: int = 8 << 20  # an upload, as sent
    max_files: int = 200  # files in a zip
    max_unpacked: int = 64 << 20  # bytes of a zip's files once unpacked
    uploads_per_minute: int = 4  # per student (their token)
    failures_per_minute: int = 20  # wrong secrets per client address and token id
    check_hands: int = 2  # hands (games, in botzone and noi2014) check-bot plays
    check_timeout: float = 300.0  # seconds before a check is stopped
    checks_at_once: int = 1  # checks running together (the others wait their turn)
    quota: int = 256 << 20  # bytes a student's folder may hold (passed uploads are kept)
    body_idle_seconds: float = 30.0  # an upload's body silent this long: 408
    body_seconds: float = 300.0  # an upload's whole body within this: 408


class Answer(Exception):
    """An upload's answer: its HTTP status and why, for the student."""

    def __init__(self, status: int, reason: str, *, retry_after: int | None = None,
                 name: str | None = None, n: int | None = None, report: str = "") -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.retry_after = retry_after
        self.name = name
        self.n = n
        self.report = report


class _TooLarge(Exception):
    pass


@dataclass(slots=True)
class _Window:
    """Times of recent events, to count how many fell in the last minute."""

    times: deque[float] = field(default_factory=deque)

    def wait(self, limit: int, now: float) -> int | None:
        """Seconds to wait before one more is allowed (None: allowed now)."""
        while self.times and self.times[0] <= now - 60.0:
            self.times.popleft()
        if len(self.times) < limit:
            return None
        return max(1, math.ceil(self.times[0] + 60.0 - now))


@dataclass(slots=True)
class _State:
    """What the upload routes remember between requests (in memory only)."""

    uploads: dict[str, _Window] = field(default_factory=dict)  # by student
    failures: dict[tuple[str, str], _Window] = field(default_factory=dict)  # address, id
    hashing: dict[str, trio.Lock] = field(default_factory=dict)  # by address
    hashes: trio.CapacityLimiter | None = None
    checking: set[str] = field(default_factory=set)  # students whose upload is checked
    verified: dict[str, tuple[str, str]] = field(default_factory=dict)  # sha256 -> name, hash
    limiter: trio.CapacityLimiter | None = None


def routes(root: Path, settings: HandinSettings | None = None) -> list[BaseRoute]:
    """The hand-in page and its upload, for the output folder ``root``."""
    settings = settings or HandinSettings()
    upload = Upload(root.resolve(), settings)
    return [Route(PATH, endpoint=_form_page(root.resolve(), settings), methods=["GET"]),
            Route(PATH, endpoint=upload, methods=["POST"])]


def _form_page(root: Path, settings: HandinSettings
               ) -> Callable[[Request], Awaitable[Response]]:
    async def show(request: Request) -> Response:
        return HTMLResponse(form_html(settings, sandboxed=await _sandboxed(root)))
    return show


async def _sandboxed(root: Path) -> bool:
    """Whether the tournament in ``root`` runs hand-ins in a sandbox (as the check does)."""
    try:
        meta = await trio.to_thread.run_sync(tournament_meta, root)
    except TokenError:
        meta = None
    return check_sandbox(meta) != "none"


def _size(n: int) -> str:
    return f"{n / (1 << 20):.3g} MB" if n >= 1 << 20 else f"{n / (1 << 10):.0f} KB"


def form_html(settings: HandinSettings, said: str = "", *, sandboxed: bool = True) -> str:
    """The upload form (under the page's one heading, with a link back to the live
    page), with what was said about the last upload above it (and, when the teacher
    opted out of the sandbox, that programs run without one)."""
    s = settings
    where = "in the tournament's sandbox" if sandboxed else "without a sandbox"
    # The page is /handin beside the live page, /: "./" leads back from either.
    body = (f"{back_link(('./', 'the live page: standings, tables, faults'))}"
            f"{'' if sandboxed else UNSANDBOXED}{said}"
            f'<form method="post" action="{PATH}" enctype="multipart/form-data">'
            '<p><label>Your token <input type="password" name="token" autocomplete="off" '
            'size="60" required></label></p>'
            '<p><label>Your bot: one file (<code>bot.py</code>, or a program) or a '
            '<code>.zip</code> of its folder <input type="file" name="file" required>'
            '</label></p><p><button type="submit">Hand in</button></p></form>'
            f"<p>It is checked at once (check-bot: {s.check_hands} hands or games against "
            f"the sample bots, {where}); if it passes, it plays from your "
            "next table, and the one you handed in before plays until then. A zip holds "
            "exactly one program (a <code>*.py</code> file with a <code>__main__</code> "
            "block or a <code>#!</code> line, or an executable) and the files it needs.</p>"
            f"<p>Limits: {_size(s.max_bytes)} an upload; a zip at most {s.max_files} files "
            f"and {_size(s.max_unpacked)} unpacked, no links, no absolute paths or "
            f"<code>..</code>; {s.uploads_per_minute} uploads a minute.</p>")
    return page("Hand in your bot", body)


def _result_html(settings: HandinSettings, answer: Answer, sandboxed: bool = True) -> str:
    ok = answer.status == 200
    colour = "#172" if ok else "#b22"
    report = f"<pre>{html.escape(answer.report)}</pre>" if answer.report else ""
    # Whose bot it was (the token's entry), so a student sees the upload went to them.
    whose = f" {answer.name}'s bot" if answer.name else ""
    said = (f'<div style="border:2px solid {colour};padding:.5em 1em;background:#fff">'
            f'<p style="color:{colour};font-weight:bold">{"Taken" if ok else "Refused"}'
            f"{html.escape(whose)}: {html.escape(answer.reason)}</p>{report}</div>")
    return form_html(settings, said, sandboxed=sandboxed)


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "")


class Upload:
    """``POST /handin`` as an ASGI app: it counts the body as it arrives."""

    def __init__(self, root: Path, settings: HandinSettings) -> None:
        self.root = root
        self.settings = settings
        self.state = _State()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        s = self.settings
        deadline = trio.current_time() + s.body_seconds
        seen = 0

        async def timed() -> Message:  # the body's idle and total limits
            nonlocal seen
            with trio.fail_after(min(s.body_idle_seconds,
                                     max(0.0, deadline - trio.current_time()))):
                message = await receive()
            seen += len(message.get("body", b""))
            return message

        address = str((scope.get("client") or ("?", 0))[0])
        try:
            answer = await self._upload(scope, timed)
        except Answer as refused:
            answer = refused
        except trio.TooSlowError:
            log.warning("upload from %s stopped: its body stalled after %d bytes", address,
                        seen)
            answer = Answer(408, f"the upload was not all sent within {s.body_seconds:g} s, "
                            f"or stopped for {s.body_idle_seconds:g} s: send it again")
        except ClientDisconnect:
            log.warning("upload from %s aborted: the client went away after %d bytes",
                        address, seen)
            return
        sandboxed = await _sandboxed(self.root)
        await self._respond(Request(scope, receive), answer, sandboxed)(scope, receive, send)

    def _respond(self, request: Request, answer: Answer, sandboxed: bool) -> Response:
        headers = {} if answer.retry_after is None else {"Retry-After": str(answer.retry_after)}
        if answer.status == 401:
            headers["WWW-Authenticate"] = 'Bearer realm="hand-ins"'
        if answer.status in (408, 413):
            headers["Connection"] = "close"
        if _wants_json(request):
            return JSONResponse({"ok": answer.status == 200,
                                 "status": "taken" if answer.status == 200 else "refused",
                                 "reason": answer.reason, "name": answer.name, "n": answer.n,
                                 "retry_after": answer.retry_after, "report": answer.report,
                                 "sandbox": "bwrap" if sandboxed else "none"},
                                status_code=answer.status, headers=headers)
        return HTMLResponse(_result_html(self.settings, answer, sandboxed),
                            status_code=answer.status,
                            headers=headers)

    async def _upload(self, scope: Scope, receive: Receive) -> Answer:
        s = self.settings
        cap = s.max_bytes + FORM_SLACK
        request = Request(scope, receive)
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > cap):
            if not length.isdigit():
                raise Answer(400, f"a bad Content-Length: {length[:40]!r}")
            await _drain(receive, int(length), s.max_bytes)
            raise Answer(413, f"the upload is larger than {_size(s.max_bytes)}, the limit of "
                         "a hand-in")
        if not request.headers.get("content-type", "").startswith("multipart/form-data"):
            raise Answer(400, "send the form as multipart/form-data, with the fields token "
                         "and file")
        client = scope.get("client") or ("?", 0)
        address = str(client[0])
        header = request.headers.get("authorization", "")
        token = header[7:].strip() if header.lower().startswith("bearer ") else None
        name = await self._who(token, address) if token else None
        form = await self._form(scope, receive, cap)
        try:
            if name is None:
                field_token = form.get("token")
                token = field_token.strip() if isinstance(field_token, str) else ""
                name = await self._who(token, address)
            return await self._take(name, form)
        finally:
            await form.close()

    async def _form(self, scope: Scope, receive: Receive, cap: int) -> FormData:
        """The form, its body counted as it streams: past ``cap`` bytes it stops (413)."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    raise _TooLarge
            return message

        request = Request(scope, counted)
        try:
            return await request.form(max_files=1, max_fields=4, max_part_size=4096)
        except _TooLarge:
            await _drain(receive, None, self.settings.max_bytes)
            raise Answer(413, f"the upload is larger than {_size(self.settings.max_bytes)}, "
                         "the limit of a hand-in") from None
        except (MultiPartException, HTTPException) as exc:
            why = exc.message if isinstance(exc, MultiPartException) else exc.detail
            raise Answer(400, f"the form cannot be read: {why} (send one file and your "
                         "token)") from None

    async def _who(self, token: str, address: str) -> str:
        """The student ``token`` belongs to, or the answer why not (401, 403)."""
        if not token:
            raise Answer(401, "no token: give the token your teacher made for you")
        key = sha256(token.encode("utf-8", "replace")).hexdigest()
        try:
            records = load_tokens(self.root)
        except TokenError as exc:
            raise Answer(503, f"hand-ins are closed: the tokens cannot be read ({exc})") from None
        known = self.state.verified.get(key)
        if known is not None and (r := records.get(known[0])) is not None and r.hash == known[1]:
            name: str | None = known[0]
        else:
            name = await self._hash_check(records, token, address)
        if name is None:
            raise Answer(403, "this token is not valid: mistyped, or revoked (ask your "
                         "teacher for a new one)")
        self.state.verified[key] = (name, records[name].hash)
        if (why := check_name(name)) is not None:
            raise Answer(403, f"the name of this token, {name!r}, cannot be used: {why}")
        try:
            names = tournament_names(self.root)
        except TokenError as exc:
            raise Answer(503, str(exc)) from None
        if names is not None and name not in names:
            raise Answer(403, f"{name!r} is not an entry of this tournament", name=name)
        command = entry_command(self.root, name) if names is not None else None
        if command and len(command) == 1 and command[0].startswith(REMOTE):
            raise Answer(403, f"{name!r} plays as a remote bot ({command[0]}): it is the "
                         "program you connect with 'server connect', not one handed in here",
                         name=name)
        return name

    async def _hash_check(self, records: dict[str, Any], token: str, address: str
                          ) -> str | None:
        """``find`` in a thread, within the limits of wrong secrets by (address, id): the
        attempt is counted before the hash and forgotten when the secret is right."""
        state, now = self.state, time.monotonic()
        wanted = token_id(token)
        window = state.failures.get((address, wanted))
        if window is None:
            if len(state.failures) >= FAILURE_KEYS:
                _forget_idle(state.failures, now)
            window = state.failures[(address, wanted)] = _Window()
        if (wait := window.wait(self.settings.failures_per_minute, now)) is not None:
            raise Answer(429, f"too many wrong tokens from your address for the id "
                         f"{wanted!r}: try again in {wait} s", retry_after=wait)
        window.times.append(now)  # reserved before the hash: concurrent ones count
        if state.hashes is None:
            state.hashes = trio.CapacityLimiter(HASHES_AT_ONCE)
        lock = state.hashing.setdefault(address, trio.Lock())
        try:
            async with lock, state.hashes:
                name = await trio.to_thread.run_sync(find, records, token)
        finally:
            if not lock.locked() and lock.statistics().tasks_waiting == 0:
                state.hashing.pop(address, None)
        if name is not None:
            with contextlib.suppress(ValueError):
                window.times.remove(now)
        return name

    async def _take(self, name: str, form: FormData) -> Answer:
        s = self.settings
        if name in self.state.checking:
            raise Answer(429, "your last upload is still being checked: wait for its "
                         "answer", retry_after=10, name=name)
        now = time.monotonic()
        window = self.state.uploads.setdefault(name, _Window())
        if (wait := window.wait(s.uploads_per_minute, now)) is not None:
            raise Answer(429, f"too many uploads: {s.uploads_per_minute} a minute; try "
                         f"again in {wait} s", retry_after=wait, name=name)
        window.times.append(now)
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise Answer(400, "no file: choose your bot's file or a zip of its folder",
                         name=name)
        if upload.size is not None and upload.size > s.max_bytes:
            raise Answer(413, f"the file is larger than {_size(s.max_bytes)}, the limit of a "
                         "hand-in", name=name)
        used = await trio.to_thread.run_sync(_folder_bytes, student_dir(self.root, name))
        if used + (upload.size or 0) > s.quota:
            raise Answer(413, f"your hand-ins already take {_size(used)}, and a student may "
                         f"keep {_size(s.quota)}: ask your teacher to remove old ones",
                         name=name)
        self.state.checking.add(name)
        try:
            return await self._check(name, upload)
        finally:
            self.state.checking.discard(name)

    async def _check(self, name: str, upload: UploadFile) -> Answer:
        """Upload ``n`` of ``name``: kept in its own folder, judged, and logged."""
        folder = student_dir(self.root, name)
        try:
            n, dest = await trio.to_thread.run_sync(_new_upload_dir, folder)
        except OSError as exc:
            raise Answer(500, f"cannot keep your upload ({exc.strerror or exc})",
                         name=name) from None
        try:
            answer = await self._judge(name, upload, n, dest)
        except Answer as refused:
            answer = refused
        await trio.to_thread.run_sync(_log, folder, n, answer)
        if answer.status != 200:
            raise answer
        return answer

    async def _judge(self, name: str, upload: UploadFile, n: int, dest: Path) -> Answer:
        """Lay the upload out in ``dest`` and check it; on a pass it is the student's
        program from their next table."""
        s = self.settings
        try:
            command = await trio.to_thread.run_sync(
                _lay_out, upload, dest, UnpackLimits(s.max_files, s.max_unpacked))
        except Refused as exc:
            await trio.to_thread.run_sync(discard, dest)
            raise Answer(422, str(exc), name=name, n=n) from None
        if self.state.limiter is None:
            self.state.limiter = trio.CapacityLimiter(max(1, s.checks_at_once))
        async with self.state.limiter:
            status, report = await run_check(self.root, name, command, dest, s)
        report_file = dest.parent / REPORT_FILE.format(n=n)  # beside: the upload is pinned whole
        await trio.to_thread.run_sync(report_file.write_text, report, "utf-8")
        if status != 0:  # its files go; its report stays (beside them) for the teacher
            await trio.to_thread.run_sync(discard, dest)
        if status == 1:
            raise Answer(422, "check-bot found problems: this bot is not taken, and the one "
                         "you handed in before plays on", name=name, n=n, report=report)
        if status != 0:
            last = report.strip().splitlines()[-1] if report.strip() else ""
            raise Answer(422, f"check-bot could not run your bot: {last or status}",
                         name=name, n=n, report=report)
        await trio.to_thread.run_sync(write_current, self.root, name, n, command, report)
        return Answer(200, f"upload {n} passed check-bot: it plays from your next table",
                      name=name, n=n, report=report)


async def _drain(receive: Receive, length: int | None, max_bytes: int) -> None:
    """Read and drop the rest of a body too large to take, so that the client, still
    sending, gets the answer (a browser shows it rather than a reset connection); but
    only up to ``DRAIN_TIMES`` the limit: past that the connection is closed unread."""
    budget = DRAIN_TIMES * max_bytes
    if length is not None and length > budget:
        return
    while budget > 0:
        message = await receive()
        if message["type"] != "http.request":
            return
        budget -= len(message.get("body", b""))
        if not message.get("more_body", False):
            return


def _forget_idle(windows: dict[tuple[str, str], _Window], now: float) -> None:
    """Drop the windows with nothing in the last minute (many ids tried: memory stays
    bounded by the attempts of one minute)."""
    for key in [k for k, w in windows.items() if not w.times or w.times[-1] <= now - 60.0]:
        del windows[key]


def _folder_bytes(folder: Path) -> int:
    """The bytes of the files under ``folder`` (0 when it is not there)."""
    total = 0
    for base, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(base, name)).st_size
    return total


def _new_upload_dir(folder: Path) -> tuple[int, Path]:
    """The next upload's folder, ``folder/<n>/``, made new (n = 1, 2, ...: never the number
    of an earlier upload, even one refused and removed)."""
    if folder.is_symlink():
        raise OSError(f"{folder.name} is a link")
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    taken = [int(p.name) for p in folder.iterdir() if p.name.isdigit()]
    taken += [int(m[1]) for p in folder.glob("report-*.txt")
              if (m := re.fullmatch(r"report-(\d+)\.txt", p.name))]
    with contextlib.suppress(OSError):  # a refused upload leaves only its line
        for line in (folder / UPLOADS_LOG).read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, TypeError, AttributeError):
                taken.append(int(json.loads(line)["n"]))
    n = max(taken, default=0) + 1
    while True:
        try:
            (folder / str(n)).mkdir()
            os.chmod(folder / str(n), 0o755)  # the sandbox's user reads it (check-bot)
            return n, folder / str(n)
        except FileExistsError:
            n += 1


def _lay_out(upload: UploadFile, dest: Path, limits: UnpackLimits) -> tuple[str, ...]:
    """The upload's files in ``dest``, and its program's command (relative to it)."""
    name = upload_name(upload.filename)
    upload.file.seek(0)
    if is_zip(name):
        unpack_zip(upload.file, dest, limits)
        return program_command(dest)
    return save_single(upload.file, name, dest, limits.max_bytes)


def _log(folder: Path, n: int, answer: Answer) -> None:
    """One line of ``uploads.jsonl``: what became of upload ``n``."""
    line = json.dumps({"n": n, "at": time.time(), "status": answer.status,
                       "taken": answer.status == 200, "reason": answer.reason},
                      ensure_ascii=False)
    with contextlib.suppress(OSError), (folder / UPLOADS_LOG).open("a", encoding="utf-8") as f:
        f.write(line + "\n")


def check_sandbox(meta: dict[str, str] | None) -> str:
    """The sandbox a hand-in's check runs in: the tournament's, and bwrap unless the
    teacher stored ``--sandbox none`` (no tournament yet: bwrap)."""
    return (meta or {}).get("sandbox") or "bwrap"


UNSANDBOXED = ("<p><strong>This tournament runs its programs without a sandbox</strong> "
               "(the teacher chose <code>--sandbox none</code>): your program is checked "
               "and plays as the teacher's user, and can read what the teacher can.</p>")


def check_argv(root: Path, name: str, command: Sequence[str], dest: Path,
               settings: HandinSettings) -> list[str]:
    """``server check-bot`` of the tournament's ruleset for the upload in ``dest``, with
    the sandbox, limits and deadlines the tournament stores (the defaults without one)."""
    meta = tournament_meta(root) or {}
    ruleset = meta.get("ruleset", DEFAULT)
    rules = load(ruleset)
    known = rules.options.get("check-bot", frozenset())
    argv = [sys.executable, "-m", "server.cli", "check-bot", "--ruleset", ruleset]
    argv += ["--hands" if "hands" in known else "--games", str(settings.check_hands)]
    for key in CHECK_OPTIONS:
        value = check_sandbox(meta) if key == "sandbox" else meta.get(key)
        if key in known and value:
            argv += ["--" + key.replace("_", "-"), value]
    words = [str(dest / w) if (dest / w).is_file() else w for w in command]
    if rules.command_modes:  # the entry's own way to talk (Botzone's json:, keep-running)
        stored = entry_command(root, name)
        prefix = rules.split_command(stored)[0] if stored else ""
        argv.append(rules.join_command(prefix, words)[0])
    else:
        argv.append(shlex.join(words))
    return argv


async def run_check(root: Path, name: str, command: Sequence[str], dest: Path,
                    settings: HandinSettings) -> tuple[int, str]:
    """Run check-bot on the upload in ``dest``: its exit status (0 passed, 1 problems,
    2 a command that cannot run) and its report, with ``dest`` written ``.``."""
    try:
        argv = await trio.to_thread.run_sync(check_argv, root, name, command, dest, settings)
    except (InputError, TokenError) as exc:
        return 2, f"check-bot cannot run: {exc}"
    here = await trio.to_thread.run_sync(dest.resolve)
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "100"}
    result: Any = None
    with trio.move_on_after(settings.check_timeout):
        result = await trio.run_process(argv, cwd=dest, env=env, check=False,
                                        capture_stdout=True, capture_stderr=True,
                                        start_new_session=True, deliver_cancel=_kill_group)
    if result is None:
        # Stopped: what it had started and not yet stopped when it was killed (a bot
        # runs in its own process group) carries its run id, now that of a server gone.
        await trio.to_thread.run_sync(stop_earlier_bots)
        return 3, (f"check-bot took longer than {settings.check_timeout:g} s and was "
                   "stopped: does the bot answer at all?")
    text = result.stdout.decode("utf-8", "replace")
    err = result.stderr.decode("utf-8", "replace").strip()
    if result.returncode not in (0, 1) and err:
        text += ("\n" if text else "") + err
    text = text.replace(str(here) + "/", "").replace(str(here), ".")
    if len(text) > REPORT_LIMIT:
        text = text[:REPORT_LIMIT] + "\n... (cut)"
    return int(result.returncode), text


async def _kill_group(process: trio.Process) -> None:
    """Stop check-bot and every bot it started: its process group, terminate, then kill."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with trio.move_on_after(5.0):  # check-bot stops its bots on SIGTERM
        await process.wait()
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
