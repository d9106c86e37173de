#!/usr/bin/env python3
"""Says on stdout why it cannot start, as a JVM does (both lines in one write, so the
server cannot stop it between them), and exits 1 before answering."""

import sys

sys.stdout.write("Error occurred during initialization of VM\n"
                 "Could not reserve enough space for code cache\n")
sys.stdout.flush()
sys.exit(1)
