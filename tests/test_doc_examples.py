"""Every code example in the project's Markdown files works as written.

Every ``*.md`` file of the repository is read (any folder: a new guide is
covered the day it is added):

* Its Python blocks (```` ```python ````) run in order in one fresh interpreter,
  sharing one namespace, as a module in the Markdown file's folder (so a later
  block may use what an earlier one defined, as a reader would). A block that
  starts with ``#!`` is a whole program: it is also run as one, with nothing on
  its input, and must end with status 0.
* Every ``server ...`` command line of its shell blocks (```` ```bash ````,
  ``sh``, ``console``, or an indented block with such a line) names a real
  command and only options that command has (read from the CLI itself, not
  from a list kept here). A line that starts
  with ``$`` and is followed by its output is run, and must print that output.
* The bot author's guide (``docs/guides/bot-authors.md``) shows its smallest bot in
  Python, C++ and Java: each is built as the guide says and passes ``server
  check-bot`` through real pipes, with ``PYTHONUNBUFFERED`` unset (so a guide that
  forgot to flush fails here).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer.main

from server.cli.app import app
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {"node_modules", "logs", "build", "dist", "__pycache__", "site", "mybots"}
PYTHON = {"python", "py", "python3"}
SHELL = {"bash", "sh", "shell", "console"}
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<info>[^\s`]*)")


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # 1-based line of the opening fence
    info: str
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


def markdown_files() -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not d.endswith(".egg-info"))
        found += [Path(folder) / f for f in sorted(files) if f.endswith(".md")]
    return found


def blocks(path: Path) -> list[Block]:
    """The fenced code blocks of a Markdown file, and its indented ones (info
    ``indented``: four spaces after a blank line)."""
    out: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if opening is None:
            if lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
                j = i
                while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                    j += 1
                text = "\n".join(line[4:] for line in lines[i:j]).strip("\n")
                out.append(Block(path, i + 1, "indented", text + "\n"))
                i = j
                continue
            i += 1
            continue
        fence, indent = opening["fence"], len(opening["indent"])
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence):
            body.append(lines[j][indent:] if lines[j][:indent].isspace() else lines[j])
            j += 1
        out.append(Block(path, i + 1, opening["info"].lower(), "\n".join(body) + "\n"))
        i = j + 1
    return out


FILES = markdown_files()
PYTHON_FILES = [p for p in FILES if any(b.info in PYTHON for b in blocks(p))]
PROGRAMS = [b for p in FILES for b in blocks(p)
            if b.info in PYTHON and b.text.startswith("#!")]
SHELL_BLOCKS = [b for p in FILES for b in blocks(p) if b.info in SHELL or (
    b.info == "indented" and re.search(r"^\$? *(\S*/)?server ", b.text, re.MULTILINE))]


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


# --- Python --------------------------------------------------------------------------------

RUNNER = textwrap.dedent("""
    import sys
    namespace = {"__name__": "doc_example", "__file__": sys.argv[1]}
    for where, code in zip(sys.argv[2::2], sys.argv[3::2]):
        print(f"--- {where}", file=sys.stderr, flush=True)
        exec(compile(code, where, "exec"), namespace)
""")


def test_the_repository_has_markdown_with_examples() -> None:
    """The finder works: the guides' examples are found (so the tests below test)."""
    names = {_id(p) for p in FILES}
    assert {"README.md", "sample_ai/README.md", "rulesets/botzone/README.md"} <= names
    assert any(_id(b.path) == "sample_ai/README.md" for b in PROGRAMS)
    assert any("server tournament" in b.text for b in SHELL_BLOCKS)
    assert "docs/guides/bot-authors.md" in names and "docs/reference/commands.md" in names


def test_the_readme_is_short_and_links_every_guide_of_the_site() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    site = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    guides = re.findall(r": (guides/[\w-]+\.md)$", site, re.MULTILINE)
    assert len(guides) >= 8
    assert [g for g in guides if f"](docs/{g})" not in readme] == []


@pytest.mark.parametrize("path", PYTHON_FILES, ids=_id)
def test_python_examples_run(path: Path) -> None:
    args: list[str] = []
    for block in blocks(path):
        if block.info in PYTHON:
            args += [block.where, block.text]
    done = subprocess.run([sys.executable, "-c", RUNNER, str(path.parent / "doc_example.py"),
                           *args], cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.mark.parametrize("block", PROGRAMS, ids=lambda b: b.where)
def test_example_programs_run_as_programs(block: Block, tmp_path: Path) -> None:
    """A whole bot program in a guide starts, and ends with status 0 when its input ends."""
    program = tmp_path / "example.py"
    program.write_text(block.text, encoding="utf-8")
    done = subprocess.run([sys.executable, str(program)], cwd=ROOT, stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]


# --- the server's command lines ------------------------------------------------------------

CLI = typer.main.get_command(app)
COMMANDS = getattr(CLI, "commands")  # noqa: B009 (a group: its subcommands by name)


def command_lines(block: Block) -> list[tuple[str, str | None]]:
    """The shell command lines of a block, with the output shown after a ``$`` line
    (None when none is shown), continuation lines joined."""
    out: list[tuple[str, str | None]] = []
    lines = block.text.replace("\\\n", " ").splitlines()
    prompted = any(line.startswith("$ ") for line in lines)
    i = 0
    while i < len(lines):
        line = lines[i]
        if prompted and not line.startswith("$ "):
            i += 1
            continue
        if prompted:
            shown = []
            while i + 1 < len(lines) and not lines[i + 1].startswith("$ "):
                i += 1
                shown.append(lines[i])
            out.append((line[2:], "\n".join(shown).strip() or None))
        elif line.strip():
            out.append((line, None))
        i += 1
    return out


def server_calls(line: str) -> list[list[str]]:
    """The ``server`` commands of a shell line, each as its words after ``server``."""
    words = shlex.split(line, comments=True)
    calls: list[list[str]] = []
    current: list[str] | None = None
    for word in words:
        if word in ("&&", "||", "|", ";"):
            current = None
        elif current is not None:
            current.append(word)
        elif word == "server" or word.endswith("/bin/server"):
            current = []
            calls.append(current)
    return calls


def option_problems(words: list[str]) -> list[str]:
    """What is wrong with ``server WORDS``'s command and options, per the CLI itself."""
    name = words[0] if words and words[0] in COMMANDS else "match"
    args = words[1:] if words and words[0] in COMMANDS else words
    command = COMMANDS[name]
    group = getattr(command, "commands", None)  # a group (server human): its subcommand's
    if group and args and args[0] in group:
        name, command, args = f"{name} {args[0]}", group[args[0]], args[1:]
    known: set[str] = {"--help"}
    for param in command.params:
        if param.param_type_name == "option":
            known |= set(param.opts) | set(param.secondary_opts)
    problems = []
    for word in args:
        if word == "--":
            break
        if word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            option = word.split("=", 1)[0]
            if option not in known:
                problems.append(f"'server {name}' has no option {option}")
    return problems


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=lambda b: b.where)
def test_server_command_lines_name_real_commands_and_options(block: Block) -> None:
    problems = []
    for line, _ in command_lines(block):
        for call in server_calls(line):
            problems += [f"{block.where}: {line.strip()}: {p}" for p in option_problems(call)]
    assert not problems, "\n".join(problems)


SHOWN = [(b, line, shown) for b in SHELL_BLOCKS for line, shown in command_lines(b)
         if shown is not None and server_calls(line)]


@pytest.mark.slow  # commands run end to end (compares of ~30 deals among them)
@pytest.mark.parametrize(("block", "line", "shown"), SHOWN,
                         ids=[f"{b.where}:{line[:30]}" for b, line, _ in SHOWN])
def test_server_transcripts_print_what_the_docs_show(block: Block, line: str,
                                                     shown: str) -> None:
    server = f"{shlex.quote(sys.executable)} -m server.cli.app"
    command = re.sub(r"(^|[|;&]\s*)(\S*/)?server\b", lambda m: m[1] + server, line)
    # the time limit only ends a hung command: a compare of ~80 deals took 40 s on a quiet
    # machine, and more than 60 under the suite's load
    done = subprocess.run(command, shell=True, cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == shown


def test_the_option_check_catches_a_wrong_option() -> None:
    assert option_problems(["tournament", "bots.toml", "--round", "3"]) == [
        "'server tournament' has no option --round"]
    assert option_problems(["a", "b", "c", "d", "--groups", "1", "-v"]) == []
    assert option_problems(["human", "convert", "f.txt", "--out", "a.npz", "--jobs", "2"]) \
        == []
    assert option_problems(["human", "write", "logs", "--jobs", "2"]) == [
        "'server human write' has no option --jobs"]
    assert option_problems(["connect", "H:1", "--name", "a", "--", "bot", "--level"]) == []


# --- the bot author's guide: its smallest bot in each language plays ----------------------

BOT_GUIDE = ROOT / "docs" / "guides" / "bot-authors.md"


def guide_bot(info: str) -> str:
    """The one ``info`` block (``python``, ``cpp``, ``java``) of the bot author's guide."""
    (found,) = [b.text for b in blocks(BOT_GUIDE) if b.info == info]
    return found


def build_guide_bot(language: str, folder: Path) -> str:
    """The guide's bot in ``language``, built as the guide says: its command line."""
    if language == "python":
        (folder / "mybot.py").write_text(guide_bot("python"), encoding="utf-8")
        return f"{shlex.quote(sys.executable)} {folder / 'mybot.py'}"
    if language == "cpp":
        compiler = need("g++")
        (folder / "mybot.cpp").write_text(guide_bot("cpp"), encoding="utf-8")
        subprocess.run([compiler, "-O2", "-Wall", "-Werror", "-o", str(folder / "mybot"),
                        str(folder / "mybot.cpp")], check=True, timeout=120)
        return str(folder / "mybot")
    java, javac = need("java"), need("javac")
    (folder / "Main.java").write_text(guide_bot("java"), encoding="utf-8")
    subprocess.run([javac, "-d", str(folder / "build"), str(folder / "Main.java")],
                   check=True, timeout=120)
    return f"{java} -cp {folder / 'build'} Main"


@pytest.mark.slow  # a compiler and check-bot's hand for each language
@pytest.mark.parametrize("language", ["python", "cpp", "java"])
def test_the_bot_guides_smallest_bot_passes_check_bot(language: str, tmp_path: Path) -> None:
    """As written in the guide (flushing, debug text on stderr), each language's bot
    plays a hand through real pipes and check-bot finds no problem."""
    command = build_guide_bot(language, tmp_path)
    quiet = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # flush or fail
    done = subprocess.run([sys.executable, "-m", "server.cli.app", "check-bot", command,
                           "--hands", "1"], cwd=ROOT, stdin=subprocess.DEVNULL, env=quiet,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "speaks the protocol correctly" in done.stdout
