#!/usr/bin/env python3
"""While the file named by its argument exists: ignores SIGTERM, starts a forked child
and a setsid daemon that sleep forever (deaf to SIGTERM too), and sleeps before it
would join. Once the file is gone, it plays like ``tests/bots/drawbot.py``.

Only SIGKILL stops any of them, and only the bot itself is the server's child.
"""

import os
import signal
import sys
import time
from pathlib import Path

if not Path(sys.argv[1]).exists():
    drawbot = Path(__file__).resolve().parents[1] / "bots" / "drawbot.py"
    os.execv(sys.executable, [sys.executable, str(drawbot)])

signal.signal(signal.SIGTERM, signal.SIG_IGN)
if os.fork() == 0:  # a child in the bot's own session
    while True:
        time.sleep(3600)
daemon = os.fork()
if daemon == 0:  # a daemon in a session of its own
    os.setsid()
    if os.fork() == 0:
        while True:
            time.sleep(3600)
    os._exit(0)
os.waitpid(daemon, 0)
while True:
    time.sleep(3600)
