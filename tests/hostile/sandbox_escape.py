#!/usr/bin/env python3
"""Tries everything a student's bot should not reach, and says what it reached.

Its first input line is a JSON object naming the targets by absolute path (the
test creates them: a file in a home folder, an output folder's logs and tokens,
another program's file, a place to write outside /tmp, a TCP port on 127.0.0.1,
a process to signal, an environment variable to look for). It tries each one and
writes one JSON object on stderr, each attempt's name -> what it got: the text or
True where it reached the target, else the error. Then it prints ``done``.
"""

import json
import os
import signal
import socket
import sys
from pathlib import Path


def attempt(action):  # type: ignore[no-untyped-def]
    try:
        return action()
    except Exception as exc:  # every failure is an answer here
        return f"refused: {type(exc).__name__}: {exc}"


def read(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read(200)


def write(path: str) -> bool:
    with open(path, "w") as f:
        f.write("a bot was here\n")
    return True


def connect(port: int) -> bool:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    return True


def status(field: str) -> str:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return line.split(":", 1)[1].strip()
    return "?"


def environments(name: str) -> bool:
    """Whether ``name`` is in this bot's environment or any process's it can read."""
    if name in os.environ:
        return True
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            if f"{name}=".encode() in Path(f"/proc/{pid}/environ").read_bytes():
                return True
        except OSError:
            continue
    return False


def main() -> None:
    targets = json.loads(sys.stdin.readline())
    found: dict[str, object] = {}
    for name in ("home", "log", "tokens", "other_program", "shadow"):
        found[f"read_{name}"] = attempt(lambda p=targets[name]: read(p))
    found["write_outside"] = attempt(lambda: write(targets["write_outside"]))
    found["write_own_folder"] = attempt(
        lambda: write(str(Path(__file__).resolve().parent / "written.txt")))
    found["write_tmp"] = attempt(lambda: write("/tmp/mine.txt"))  # allowed: its own /tmp
    found["connect"] = attempt(lambda: connect(int(targets["port"])))
    decoy = int(targets["decoy"])
    found["see_process"] = Path(f"/proc/{decoy}").exists()
    found["processes"] = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
    found["signal_process"] = attempt(lambda: os.kill(decoy, signal.SIGTERM) or True)
    found["uid"] = os.getuid()
    found["groups"] = os.getgroups()
    found["cap_eff"] = status("CapEff")
    found["cap_bnd"] = status("CapBnd")
    found["secret_env"] = environments(targets["secret_variable"])
    found["environment"] = sorted(os.environ)
    sys.stderr.write(json.dumps(found) + "\n")
    sys.stderr.flush()
    print("done", flush=True)


if __name__ == "__main__":
    main()
