#!/usr/bin/env python3
"""Says on stdout why it cannot start, as a JVM does, and exits 1 before answering."""

import sys

print("Error occurred during initialization of VM")
print("Could not reserve enough space for code cache")
sys.exit(1)
