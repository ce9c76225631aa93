"""The project's import graph: no circle among its modules, and the layering the layout promises.

Every import statement counts, function-local and TYPE_CHECKING ones included: a circle hidden in a function body
is still a circle for whoever reads or moves the code. The built-in suite's task folders are data, not modules.
"""
from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"kernelgen": ROOT / "jobs" / "kernelgen", "kernelgen_operator": ROOT / "operator" / "kernelgen_operator"}


def _modules() -> dict[str, Path]:
    mods = {}
    for top, root in PACKAGES.items():
        for p in root.rglob("*.py"):
            rel = p.relative_to(root)
            if "suite" in rel.parts[:-1] and rel.parts[0] == "bench":
                continue
            mods[".".join((top, *rel.with_suffix("").parts)).removesuffix(".__init__")] = p
    return mods


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (`from pkg import name` counts as pkg.name when that is a module)."""
    mods = _modules()
    graph: dict[str, set[str]] = defaultdict(set)
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
                targets = [next((c for c in (f"{base}.{a.name}", base) if c in mods), "") for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            graph[name].update(t for t in targets if t in mods and t != name)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_is_read():
    g = import_graph()
    # known edges of each kind (relative, absolute, package re-export): the parser really sees imports
    assert "kernelgen.bench.evaluate" in g["kernelgen.bench.run"]
    assert "kernelgen.storage.base" in g["kernelgen.storage.local"]
    assert "kernelgen.generate" in g["kernelgen.bench.generate_stage"]


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle():
    found = circles(import_graph())
    assert not found, "import circles:\n" + "\n".join("  " + " <-> ".join(c) for c in found)


@pytest.mark.parametrize("lower, upper", [("kernelgen.generate", ("kernelgen.bench", "kernelgen.cot")),
                                          ("kernelgen.storage", ("kernelgen.bench", "kernelgen.cot",
                                                                 "kernelgen.generate", "kernelgen.train")),
                                          ("kernelgen", ("kernelgen_operator",))])
def test_layers(lower, upper):
    """generate/ is an engine library under bench/ and cot/; storage/ is under every job; jobs never import the
    operator."""
    bad = sorted(f"{a} -> {b}" for a, bs in import_graph().items() for b in bs
                 if (a == lower or a.startswith(lower + ".")) and b.startswith(upper))
    assert not bad, "\n".join(bad)
