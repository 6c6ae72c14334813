"""No import cycle between the modules of mirrorguard and flake8_mirrorguard.

Imports are read with ``ast`` (at any depth: function-level imports count,
since they are how cycles hide), relative ones resolved. Package ``__init__``
modules are facades and are not nodes, as the project's stop hook reads them:
``from pkg import name`` is an edge to ``pkg.name`` when that is a module, and
to nothing otherwise. Cycles are the strongly connected components of more
than one module (Tarjan).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("mirrorguard", "flake8_mirrorguard")

def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name != "__init__.py":
                found[".".join(path.relative_to(ROOT).with_suffix("").parts)] = path
    return found


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    package = name.rsplit(".", 1)[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            submodules = [f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in known]
            wanted = submodules or [base]
        else:
            continue
        targets |= {target for target in wanted if target in known and target != name}
    return targets


def cycles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
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
                if len(component) > 1:
                    found.add(frozenset(component))
    return found


def test_the_cycle_finder_finds_a_cycle_and_nothing_else():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(edges) == {frozenset({"a", "b", "c"})}
    assert cycles({"a": {"b"}, "b": set()}) == set()


def test_relative_and_function_level_imports_are_edges(tmp_path):
    path = tmp_path / "m.py"
    path.write_text("def f():\n    from . import other\n    from .sub import thing\n")
    known = {"pkg.m": path, "pkg.other": path, "pkg.sub": path}
    assert imports_of("pkg.m", path, known) == {"pkg.other", "pkg.sub"}


def test_no_import_cycles():
    known = modules()
    edges = {name: imports_of(name, path, known) for name, path in known.items()}
    found = cycles(edges)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)
