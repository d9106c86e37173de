"""The site's command reference is read from the CLI itself (tools/cli_reference.py)."""

from __future__ import annotations

from pathlib import Path

from tools.cli_reference import MARKER, commands, on_page_markdown, render

ROOT = Path(__file__).resolve().parents[2]


def test_every_command_and_each_of_its_options_is_in_the_reference() -> None:
    text = render()
    seen = 0
    for title, command, ctx in commands():
        assert f"## `{title}`" in text, title
        for param in command.get_params(ctx):
            if param.param_type_name == "option":
                assert all(opt in text for opt in param.opts), (title, param.opts)
        seen += 1
    assert seen > 15  # server, its commands, and server human's


def test_the_reference_keeps_a_help_example_as_written() -> None:
    """fans' \\b block (its batch example) is a code block, not a reflowed paragraph."""
    assert '```text\nin:  {"hand": ["7T"' in render()


def test_the_hook_fills_the_commands_page_and_leaves_other_pages_alone() -> None:
    page = (ROOT / "docs" / "reference" / "commands.md").read_text(encoding="utf-8")
    assert MARKER in page
    built = on_page_markdown(page)
    assert MARKER not in built and "## `server tournament`" in built
    assert on_page_markdown("# Another page\n") == "# Another page\n"


def test_mkdocs_loads_the_hook() -> None:
    assert "  - tools/cli_reference.py\n" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
