"""Person seats (``web:NAME``) from a test: the server started, its links, the seat's API.

``started`` runs ``server ARGS`` in its own session (as from a shell) and yields it
with each person's link, read from the ``web:NAME plays at LINK`` lines; it stops
the server (SIGTERM to its group, then SIGKILL) if the test leaves it running.
``Seat`` is a script at a person's seat: the state, and answers posted as the page
posts them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.signals import end_group

ROOT = Path(__file__).resolve().parents[1]
GREEDY = "sample_ai/greedy.py"


@contextmanager
def started(*args: str, persons: int = 1) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    try:
        assert process.stdout is not None
        links: dict[str, str] = {}
        deadline = time.monotonic() + 60
        while len(links) < persons and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, f"server {' '.join(args)} ended before printing its links"
            if line.startswith("web:") and " plays at " in line:
                name, _, link = line.strip().partition(" plays at ")
                links[name.removeprefix("web:")] = link
        yield process, links
    finally:
        end_group(process)


@dataclass
class Seat:
    link: str

    @property
    def api(self) -> str:
        url = urllib.parse.urlparse(self.link)
        return f"{url.scheme}://{url.netloc}/api/seat/{url.path.rsplit('/', 1)[1]}"

    @property
    def token(self) -> str:
        return urllib.parse.parse_qs(urllib.parse.urlparse(self.link).query)["token"][0]

    def raw_state(self, token: str | None = None, after: int | str = "") -> tuple[int, str]:
        query = "" if token is None else f"token={urllib.parse.quote(token)}&"
        try:
            with urllib.request.urlopen(f"{self.api}?{query}after={after}", timeout=30) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def state(self, after: int | str = "") -> dict[str, Any]:
        status, body = self.raw_state(self.token, after)
        assert status == 200, body
        return dict(json.loads(body))

    def post(self, answer: str, version: int | None, token: str | None = None
             ) -> tuple[int, dict[str, Any]]:
        body = json.dumps({"token": self.token if token is None else token,
                           "answer": answer, "version": version}).encode()
        request = urllib.request.Request(self.api + "/answer", body,
                                         {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def next_prompt(self, after: int | str = "") -> dict[str, Any]:
        """The next state with choices, or the last one (the match over)."""
        while True:
            state = self.state(after)
            if state["choices"] or state["over"]:
                return state
            after = state["version"]


def simple_answer(state: dict[str, Any]) -> str:
    """The test person's rule: a win if offered, else the drawn tile, else pass or any."""
    choices = state["choices"]
    drawn = state["board"]["drawn"]
    for choice in choices:
        if choice["kind"] in ("win", "rob"):
            return str(choice["answer"])
    for choice in choices:
        if choice["kind"] == "discard" and choice["tile"] == drawn:
            return str(choice["answer"])
    for choice in choices:
        if choice["kind"] in ("pass", "discard"):
            return str(choice["answer"])
    return str(choices[0]["answer"])


def match_args(log_dir: Path, *ais: str, hands: int = 1, seed: int = 3,
               extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    return ("match", *ais, "--hands", str(hands), "--seed", str(seed), "-d",
            "--log-dir", str(log_dir), "--announce", *extra)


def verify(folder: Path) -> str:
    done = subprocess.run([sys.executable, "-m", "server.cli", "verify", str(folder)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout
