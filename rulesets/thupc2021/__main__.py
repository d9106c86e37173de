"""``python -m rulesets.thupc2021 [WALL_FILE]``: the simulator without the server's CLI start-up."""

from __future__ import annotations

import sys
from pathlib import Path

from rulesets.thupc2021.command import thupc_command

if len(sys.argv) > 2:
    sys.stderr.write("usage: python -m rulesets.thupc2021 [WALL_FILE]\n")
    sys.exit(2)
sys.exit(thupc_command(Path(sys.argv[1]) if len(sys.argv) == 2 else None))
