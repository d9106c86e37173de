"""The command reference of the documentation site, read from the CLI itself.

``mkdocs.yml`` loads this module as a hook: on every page, the line
``<!-- server-cli-reference -->`` is replaced by a section per command of
``server`` (``server.cli.app``'s typer app, through its click objects: typer's own
copy of click, so they are read by what they have, not by their class): its
help text, its usage line, and a table of its arguments and options with their
help, defaults and ranges, exactly as ``server COMMAND --help`` prints them. So
the reference cannot drift from the command line, and building it needs no
network and runs no command.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import typer.main

MARKER = "<!-- server-cli-reference -->"


def _subcommands(command: Any) -> dict[str, Any]:
    return dict(getattr(command, "commands", None) or {})


def commands() -> Iterator[tuple[str, Any, Any]]:
    """Every command of ``server`` (a group's subcommands after it), with its context."""
    from server.cli.app import app

    root = typer.main.get_command(app)
    top = root.context_class(root, info_name="server")
    yield "server", root, top
    for name, command in _subcommands(root).items():
        ctx = command.context_class(command, info_name=name, parent=top)
        yield f"server {name}", command, ctx
        for sub_name, sub in _subcommands(command).items():
            yield (f"server {name} {sub_name}", sub,
                   sub.context_class(sub, info_name=sub_name, parent=ctx))


def _text(value: str) -> str:
    return html.escape(value).replace("\n", "<br>")


def _paragraphs(help_text: str) -> str:
    """A command's help as Markdown: its paragraphs, a ``\\b`` block kept as written."""
    out = []
    for block in help_text.strip().split("\n\n"):
        if block.startswith("\b\n"):
            out.append("```text\n" + block[2:].rstrip() + "\n```")
        else:
            out.append(html.escape(" ".join(block.split()), quote=False)
                       .replace("*", r"\*").replace("_", r"\_"))
    return "\n\n".join(out)


def _table(command: Any, ctx: Any) -> str:
    rows = []
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        name, help_text = record
        kind = "argument" if param.param_type_name == "argument" else "option"
        rows.append(f"<tr><td><code>{_text(name)}</code></td><td>{kind}</td>"
                    f"<td>{_text(help_text)}</td></tr>")
    if not rows:
        return ""
    return ("<table>\n<thead><tr><th>name</th><th></th><th>meaning</th></tr></thead>\n"
            "<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")


def section(title: str, command: Any, ctx: Any) -> str:
    """One command's reference: heading, usage, help, and its parameters."""
    usage = " ".join([title, *command.collect_usage_pieces(ctx)])
    parts = [f"## `{title}`", f"```text\n{usage}\n```", _paragraphs(command.help or "")]
    if _subcommands(command) and title != "server":
        names = ", ".join(f"`{title} {name}`" for name in _subcommands(command))
        parts.append(f"Its commands: {names}.")
    parts.append(_table(command, ctx))
    return "\n\n".join(part for part in parts if part)


def render() -> str:
    """The whole reference, every command in the order ``server --help`` lists them."""
    return "\n\n".join(section(*entry) for entry in commands()) + "\n"


def on_page_markdown(markdown: str, **_: object) -> str:
    """MkDocs hook: the marker becomes the reference (other pages pass unchanged)."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, render())
