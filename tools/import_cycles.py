"""An import-linter contract type that forbids every import circle among the
modules of the given packages (``type = no_import_cycles`` in pyproject.toml).

import-linter's own ``acyclic_siblings`` compares the children of one package at
a time, so it cannot see two kinds of circle: one that crosses the root packages
(``server.x -> rulesets.y -> server.x``: no package holds both) and one through a
package's own ``__init__`` (``rulesets.botzone -> rulesets.botzone.play ->
rulesets.botzone``: the ``__init__`` is no child). This contract takes the graph's
modules one by one instead: every strongly connected component of more than one
module is a circle, reported with one shortest loop through it and the line of
each import. Imports inside functions (lazy ones) and under ``TYPE_CHECKING``
count: grimp records them all.

Used only by ``lint-imports``, which puts the repository root on ``sys.path``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from itertools import pairwise

from grimp import ImportGraph
from importlinter import Contract, ContractCheck, fields, output


class NoImportCyclesContract(Contract):
    """No module of ``packages`` reaches itself through imports of modules of ``packages``."""

    type_name = "no_import_cycles"

    packages = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        modules: set[str] = set()
        for package in self.packages:  # type: ignore[attr-defined]
            modules |= {package.name} | graph.find_descendants(package.name)
        imports = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
        circles = [sorted(c) for c in strongly_connected(imports) if len(c) > 1]
        output.verbose_print(verbose, f"{len(modules)} modules, {len(circles)} circles.")
        found = []
        for circle in sorted(circles):
            loop = shortest_loop(circle[0], imports, set(circle))
            steps = [(a, b, [d["line_number"] for d in graph.get_import_details(
                importer=a, imported=b)]) for a, b in pairwise(loop)]
            found.append({"modules": circle, "loop": steps})
        return ContractCheck(kept=not found, warnings=None, metadata={"circles": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for circle in check.metadata["circles"]:
            modules = circle["modules"]
            output.print_error(f"An import circle among {len(modules)} modules: "
                               + ", ".join(modules))
            output.print("One shortest loop through it:")
            for importer, imported, lines in circle["loop"]:
                where = ", ".join(f"l.{n}" for n in lines) or "l.?"
                output.print(f"-   {importer} -> {imported} ({where})")
            output.new_line()


def strongly_connected(imports: Mapping[str, Iterable[str]]) -> list[set[str]]:
    """Tarjan's strongly connected components of a directed graph, without recursion."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []
    for root in sorted(imports):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(sorted(imports[root])))]
        while work:
            node, successors = work[-1]
            advanced = False
            for nxt in successors:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(imports[nxt]))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(component)
    return components


def shortest_loop(start: str, imports: Mapping[str, Iterable[str]],
                  within: set[str]) -> list[str]:
    """The shortest path start -> ... -> start inside ``within`` (breadth first)."""
    came_from: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for nxt in sorted(imports[node]):
            if nxt not in within:
                continue
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if nxt not in came_from:
                came_from[nxt] = node
                queue.append(nxt)
    raise ValueError(f"{start} is in no loop")
