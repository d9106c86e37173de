#!/usr/bin/env python3
"""Joins, then answers with what a terminal library would read as markup and emoji.

The server quotes a malformed line in the fault it prints; if it let rich
read ``[/x]`` as a closing tag, printing the fault would stop the match.
"""

import sys

from _play import play, say


def on_prompt(n: int, line: str, answer: str) -> None:
    say("[/x] [bold]:ghost: [link=file:///etc/passwd]" + answer)


sys.exit(play(on_prompt))
