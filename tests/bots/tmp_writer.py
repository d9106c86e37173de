#!/usr/bin/env python3
"""Writes /tmp/NAME (NAME from its first argument), then plays as the drawbot.

Under ``--sandbox bwrap`` /tmp is the bot's own: the file never shows on the host.
"""

import sys
from pathlib import Path

from drawbot import main

Path("/tmp", sys.argv[1]).write_text("written by a bot\n")
sys.exit(main([]))  # its own argument is the file name, not an option of drawbot
