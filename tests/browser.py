"""A real headless Chromium for page tests (Debian's package; never downloaded).

Tests that need it take the ``browser_page`` fixture from ``conftest``-free
import: ``from tests.browser import open_page``. Where no browser is found the
tests skip naming it (``tests.system_tools.need``), except under CI, where that fails.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.system_tools import need

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def require_browser() -> str:
    return chromium_path() or need("chromium")


@contextmanager
def open_page(url: str) -> Iterator[tuple[Any, list[str]]]:
    """A loaded page and the list its console errors and page errors go to."""
    from playwright.sync_api import sync_playwright

    executable = require_browser()
    errors: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            yield page, errors
        finally:
            browser.close()
