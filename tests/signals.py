"""Starting the CLI so that Ctrl-C reaches it, however the tests themselves were started."""

from __future__ import annotations

import signal


def ctrl_c_works() -> None:
    """In the child before exec: SIGINT back to its default action.

    A shell starts a background job (``cmd &``, ``nohup``) with SIGINT ignored,
    and an ignored signal stays ignored across fork and exec: Python then never
    installs its KeyboardInterrupt handler, and a test's SIGINT would be lost.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
