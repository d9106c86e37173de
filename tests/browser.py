"""A real headless Chromium for page tests (Debian's package; never downloaded).

Tests that need it take the ``browser_page`` fixture from ``conftest``-free
import: ``from tests.browser import open_page``. Where no browser is found the
tests skip naming it (``tests.system_tools.need``), except under CI, where that fails.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import threading
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


class _Browser:
    """The worker's one Chromium, started at its first page and closed at the worker's exit.

    Starting Playwright's driver and Chromium costs about 1.3 s of CPU; the suite opens 35
    pages, each of them in a context of its own (``open_page``): a fresh profile, as a fresh
    browser would be (no cookies, storage or cache from another test). Playwright's sync API
    is bound to the thread that started it, so another thread starts a browser of its own.
    """

    def __init__(self) -> None:
        self.thread: int | None = None
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is not None and not self.browser.is_connected():
            self.close()  # crashed or killed: start a new one
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            executable = require_browser()
            with _untagged():
                self.playwright = sync_playwright().start()
                self.browser = self.playwright.chromium.launch(executable_path=executable,
                                                               args=CHROMIUM_ARGS)
            self.thread = threading.get_ident()
            atexit.register(self.close)
        return self.browser

    def close(self) -> None:
        browser, playwright, self.browser, self.playwright = (
            self.browser, self.playwright, None, None)
        with contextlib.suppress(Exception):  # already gone: nothing left to close
            if browser is not None:
                browser.close()
        with contextlib.suppress(Exception):
            if playwright is not None:
                playwright.stop()


_SHARED = _Browser()


@contextmanager
def _untagged() -> Iterator[None]:
    """The environment without the tags by which tests find the processes they left running
    (``*_TEST_TAG``): the shared browser outlives the test that started it, and is not its."""
    tags = {name: value for name, value in os.environ.items() if name.endswith("_TEST_TAG")}
    for name in tags:
        del os.environ[name]
    try:
        yield
    finally:
        os.environ.update(tags)


@contextmanager
def open_page(url: str) -> Iterator[tuple[Any, list[str]]]:
    """A loaded page and the list its console errors and page errors go to."""
    if _SHARED.thread not in (None, threading.get_ident()):
        with _own_browser() as browser:
            yield from _page_of(browser, url)
        return
    yield from _page_of(_SHARED.get(), url)


@contextmanager
def _own_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = require_browser()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def _page_of(browser: Any, url: str) -> Iterator[tuple[Any, list[str]]]:
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        yield page, errors
    finally:
        context.close()
