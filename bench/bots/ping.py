"""The sandbox bench's Python bot: answers each line with ``ok`` and the line."""

import sys

for line in sys.stdin:
    sys.stdout.write("ok " + line)
    sys.stdout.flush()
