"""tools.import_cycles: the contract type that finds every import circle, the two
kinds import-linter's acyclic_siblings cannot see included."""

from __future__ import annotations

import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import grimp
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.import_cycles import NoImportCyclesContract, shortest_loop, strongly_connected

# Two circles neither package's siblings show: through cyc_alpha's own __init__, and
# across the two root packages (a lazy import, inside a function).
TANGLED = {
    "cyc_alpha/__init__.py": "from cyc_alpha.sub import THING\n",
    "cyc_alpha/sub/__init__.py": "import cyc_alpha\n\nTHING = 1\n",
    "cyc_alpha/lazy.py": "def late() -> None:\n    import cyc_beta.back\n",
    "cyc_alpha/calm.py": "import cyc_beta\n",
    "cyc_beta/__init__.py": "",
    "cyc_beta/back.py": "from cyc_alpha import lazy\n",
}
ROOT = Path(__file__).resolve().parents[2]
UNTANGLED = {**TANGLED, "cyc_alpha/sub/__init__.py": "THING = 1\n", "cyc_beta/back.py": ""}


def graph_of(files: dict[str, str], root: Path,
             monkeypatch: pytest.MonkeyPatch) -> grimp.ImportGraph:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    monkeypatch.syspath_prepend(str(root))
    return grimp.build_graph("cyc_alpha", "cyc_beta", cache_dir=None)


def contract() -> NoImportCyclesContract:
    return NoImportCyclesContract(name="no circles", session_options={},
                                  contract_options={"packages": ["cyc_alpha", "cyc_beta"]})


def test_a_circle_through_an_init_and_one_across_packages_break_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    graph = graph_of(TANGLED, tmp_path, monkeypatch)
    check = contract().check(graph, verbose=False)
    assert not check.kept
    assert [c["modules"] for c in check.metadata["circles"]] == [
        ["cyc_alpha", "cyc_alpha.sub"], ["cyc_alpha.lazy", "cyc_beta.back"]]
    contract().render_broken_contract(check)
    shown = capsys.readouterr().out
    assert "-   cyc_alpha.lazy -> cyc_beta.back (l.2)" in shown
    assert "-   cyc_beta.back -> cyc_alpha.lazy (l.1)" in shown


def test_lint_imports_runs_it_where_acyclic_siblings_sees_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Why the project has its own contract type: if acyclic_siblings starts
    failing here, it has learnt to see these circles."""
    graph_of(TANGLED, tmp_path, monkeypatch)
    (tmp_path / ".importlinter").write_text(
        "[importlinter]\nroot_packages =\n    cyc_alpha\n    cyc_beta\n"
        "contract_types =\n    no_import_cycles: tools.import_cycles.NoImportCyclesContract\n"
        "[importlinter:contract:mine]\nname = Ours\ntype = no_import_cycles\n"
        "packages =\n    cyc_alpha\n    cyc_beta\n"
        "[importlinter:contract:theirs]\nname = Theirs\ntype = acyclic_siblings\n"
        "ancestors =\n    cyc_alpha\n    cyc_beta\n")
    run = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--no-cache"],
                         cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Ours BROKEN" in run.stdout and "Theirs KEPT" in run.stdout
    assert "An import circle among 2 modules: cyc_alpha, cyc_alpha.sub" in run.stdout


def test_no_circle_keeps_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = contract().check(graph_of(UNTANGLED, tmp_path, monkeypatch), verbose=False)
    assert check.kept and check.metadata["circles"] == []


GRAPHS = st.dictionaries(st.integers(0, 7), st.sets(st.integers(0, 7), max_size=4), max_size=8)


@given(GRAPHS)
def test_components_are_the_sets_of_mutually_reachable_modules(edges: dict[int, set[int]]) -> None:
    imports = {str(n): {str(m) for m in edges.get(n, set())} for n in range(8)}

    def reach(start: str) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for nxt in imports[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reachable = {n: reach(n) for n in imports}
    expected = {frozenset(m for m in imports if m in reachable[n] and n in reachable[m])
                for n in imports}
    assert {frozenset(c) for c in strongly_connected(imports)} == expected
    for component in strongly_connected(imports):
        start = min(component)
        if len(component) > 1 or start in imports[start]:
            loop = shortest_loop(start, imports, component)
            assert loop[0] == loop[-1] == start
            assert all(b in imports[a] for a, b in pairwise(loop))
