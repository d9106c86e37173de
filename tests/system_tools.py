"""System tools some tests need, and the one way those tests skip without them.

The README's first lines list the Debian/Ubuntu packages that give every tool
below; ``.ci/run`` installs the same list. A test that needs one calls
``need(tool)``: where the tool is missing it skips with a reason naming the
tool and the package to install, except under CI (``CI=true``), where a missing
tool fails. No test skips for any other reason.
"""

from __future__ import annotations

import os
import shutil

import pytest

# tool -> the Debian/Ubuntu package that provides it (keep in step with README.md and .ci/run)
PACKAGES = {
    "bwrap": "bubblewrap",
    "chromium": "chromium",
    "g++": "g++",
    "java": "default-jdk-headless",
    "javac": "default-jdk-headless",
    "node": "nodejs",
}


def need(tool: str, *alternatives: str) -> str:
    """The path of ``tool`` (or of the first of ``alternatives`` found), or a skip naming it."""
    for name in (tool, *alternatives):
        found = shutil.which(name)
        if found:
            return found
    reason = f"{tool} is not installed (Debian/Ubuntu: apt-get install {PACKAGES[tool]})"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: CI must run every test")
    pytest.skip(reason)
