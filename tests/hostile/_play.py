"""The legal core the hostile bots share: discard what you draw, pass every claim.

``play(on_prompt)`` joins and answers every prompt; ``on_prompt(n, line, answer)``
is called first with the prompt's number (from 1) and may do its bad thing.
"""

import sys
from collections.abc import Callable


def answer_to(words: list[str], me: int) -> str | None:
    """The drawbot's answer to a line, or None when the line is not a prompt."""
    if words[0] == "pick":
        return f"out {words[1]}"
    if words[0] in ("mout", "mjgang") and int(words[1]) != me:
        return "pass"
    return None


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def play(on_prompt: Callable[[int, str, str], None] | None = None, join: bool = True) -> int:
    me = -1
    prompts = 0
    if join:
        say("join")
    while line := sys.stdin.readline():
        words = line.split()
        if not words:
            continue
        if words[0] == "id":
            me = int(words[1])
        answer = answer_to(words, me)
        if answer is None:
            continue
        prompts += 1
        if on_prompt is not None:
            on_prompt(prompts, line.strip(), answer)
        say(answer)
    return 0
