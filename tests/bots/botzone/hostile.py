#!/usr/bin/env python3
"""One bad behaviour of a Botzone bot: ``hostile.py MODE BEHAVIOUR [--kept]``.

With ``--kept`` it first answers one turn well and asks to keep running, and
misbehaves on its next (kept) turn; otherwise on its first turn.
"""

import os
import signal
import sys
import time

from _bz import MARKER, answer, discard, read_kept, read_turn

mode, behaviour = sys.argv[1], sys.argv[2]
kept = "--kept" in sys.argv[3:]
turn = read_turn(mode)
request = turn.requests[-1]
if kept:
    answer(mode, discard(request), keep=True)
    request = read_kept(mode)


def forever() -> None:
    while True:
        time.sleep(3600)


if behaviour == "silent":
    forever()
elif behaviour == "slow":
    time.sleep(5)
    answer(mode, discard(request))
elif behaviour == "crash":
    raise RuntimeError("boom")
elif behaviour == "segfault":
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGSEGV)
elif behaviour == "memory_hog":
    hoard = []
    while True:  # memory used is what the limit counts: every page is written
        hoard.append(b"\x01" * (16 << 20))
elif behaviour == "garbage":
    print("hello there, judge", flush=True)
elif behaviour == "not_object":
    print('["PASS"]', flush=True)
elif behaviour == "invalid_utf8":
    sys.stdout.buffer.write(b'\xff\xfe{"response": "PASS"}\xc3\n')
    sys.stdout.flush()
elif behaviour == "huge_line":
    chunk = b"x" * (1 << 20)
    for _ in range(100):
        sys.stdout.buffer.write(chunk)
    sys.stdout.flush()
    forever()
elif behaviour == "stderr_flood":
    chunk = b"e" * (1 << 20)
    for _ in range(20):
        sys.stderr.buffer.write(chunk)
    sys.stderr.flush()
    answer(mode, discard(request))
elif behaviour == "marker_then_exit":
    answer(mode, discard(request), keep=True)
elif behaviour == "marker_then_crash_at_eof":  # after its marker it reads to end of input
    answer(mode, discard(request), keep=True)
    sys.stdin.read()
    raise RuntimeError("no next request: end of input")
elif behaviour == "marker_only":
    print(MARKER, flush=True)
    forever()
elif behaviour == "ignore_sigterm":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    forever()
elif behaviour == "daemon":
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.close(0)
            os.close(1)
            forever()
        os._exit(0)
    os.wait()
    answer(mode, discard(request))
elif behaviour == "close_stdout":
    sys.stdout.flush()
    os.close(1)
    forever()
elif behaviour == "answer_no_exit":
    answer(mode, discard(request))
    forever()
elif behaviour == "unflushed":  # answers and asks to keep running, all in its buffer
    answer(mode, discard(request), keep=True, flush=False)
    read_kept(mode)
elif behaviour == "exit_silent":
    sys.exit(0)
else:
    sys.exit(f"unknown behaviour {behaviour!r}")
