#!/usr/bin/env python3
"""Double-forks a setsid daemon that keeps stderr open and lives forever; plays legally."""

import os
import sys
import time

from _play import play

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.close(0)
        os.close(1)
        while True:
            time.sleep(3600)
    os._exit(0)
os.wait()
sys.exit(play())
