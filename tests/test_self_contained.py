"""The repository stands alone: nothing in it reads or points to a folder beside it.

A user's clone has nothing next to it, so no code, test, benchmark or document
may send anyone to the contest organisers' shared folder (its data, its
contracts, its seed files): the test data is in ``tests/data`` and the rules
are in ``docs/``. Every relative link in the Markdown documents leads to a file
of the repository.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from tests.datadir import DATA

ROOT = Path(__file__).resolve().parents[1]
# (site/: the built documentation; mybots/: a student's own bots, both git-ignored)
SKIP_DIRS = {".git", ".venv", "logs", "build", "site", "mybots", "node_modules", "__pycache__",
             ".mypy_cache", ".ruff_cache", ".pytest_cache", ".hypothesis"}
TEXT = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".sh", ".cpp", ".c",
        ".h", ".java", ".js", ".html", ".json", ".csv", ""}
OUTSIDE = [  # (this file, which spells them, is not scanned)
    re.compile(r"\.\./shared"),                     # the folder beside the repository, at any depth
    re.compile(r"shared/(data|seeds|SPEC)"),        # shared/data/..., shared/SPEC-botzone.md
    re.compile(r"contest's shared folder"),
    re.compile(r"""["']shared["']"""),              # Path(...) / its name, quoted
    re.compile(r"\b00[0-4]_[0-9a-f]{16}\.txt"),     # the organisers' seed files
]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def repository_files() -> list[Path]:
    """The repository's text files but this one and the Botzone games (recorded data)."""
    found = []
    for folder, dirs, names in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info")]
        for name in names:
            path = Path(folder) / name
            if path.suffix in TEXT and path != Path(__file__).resolve() \
                    and not path.is_relative_to(DATA / "botzone"):
                found.append(path)
    return found


def test_no_file_reads_or_points_to_a_folder_beside_the_repository() -> None:
    files = repository_files()
    assert len(files) > 100 and ROOT / "README.md" in files
    hits = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if any(pattern.search(line) for pattern in OUTSIDE):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_every_relative_link_in_the_documents_leads_to_a_file_here() -> None:
    broken = []
    for path in repository_files():
        if path.suffix != ".md":
            continue
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or a place in the same page
            where = (path.parent / target.split("#")[0]).resolve()
            if not where.exists() or not where.is_relative_to(ROOT):
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)


def test_the_rules_of_every_ruleset_are_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in ("docs/SPEC.md", "docs/SPEC-botzone.md", "docs/SPEC-noi2014.md",
                "rulesets/thupc2021/README.md#the-rules"):
        assert f"]({doc})" in readme, doc
    thupc = (ROOT / "rulesets/thupc2021/README.md").read_text(encoding="utf-8")
    assert "\n## The rules\n" in thupc
