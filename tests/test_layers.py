"""The package's import graph: no two packages import each other, and the bottom layer stays at the bottom.

Each subpackage and top-level module of ``kubectl_instancetype`` is one node; a module importing another
node (at import time or inside a function) is an edge. Read from the source, so it needs no imports.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "kubectl_instancetype"

# What each lower layer may import: nothing above it (STYLE.md, "The shape"). ``records`` (the decorator of the
# value classes) and ``packagedata`` (the reader of the tables shipped beside modules) are below every layer and
# import nothing of the package.
ALLOWED = {
    "api": {"errors", "quantity", "records"},
    "catalog": {"api", "apitypes", "errors", "packagedata", "quantity", "records", "schema", "yamlio"},
    "expand": {"api", "catalog", "config", "quantity", "records"},
    "vmi": {"api", "config", "quantity", "records"},
    "admission": {"api", "config", "packagedata", "quantity", "records", "schema"},
    "launcher": {"admission", "api", "config", "quantity", "records"},
    "pipeline": {"admission", "api", "catalog", "config", "errors", "expand", "launcher", "quantity", "records", "vmi"},
}


def _node(parts: tuple[str, ...]) -> str:
    return parts[0] if parts else "__init__"


def _targets(path: Path) -> set[str]:
    """The nodes the module at ``path`` imports, itself excluded."""
    rel = path.relative_to(PACKAGE).with_suffix("").parts
    package = rel[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            target = (*base, *(node.module.split(".") if node.module else ()))
        elif node.module and node.module.split(".")[0] == PACKAGE.name:
            target = tuple(node.module.split(".")[1:])
        else:
            continue
        if target and target[0] != _node(rel):
            found.add(target[0])
    return found


def import_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).with_suffix("").parts
        graph.setdefault(_node(rel), set()).update(_targets(path))
    return graph


def _cycle_from(graph: dict[str, set[str]], start: str) -> list[str] | None:
    stack: list[tuple[str, list[str]]] = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, trail = stack.pop()
        for nxt in sorted(graph.get(node, ())):
            if nxt == start:
                return [*trail, nxt]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*trail, nxt]))
    return None


def test_no_package_imports_in_a_circle() -> None:
    graph = import_graph()
    cycles = [c for node in sorted(graph) if (c := _cycle_from(graph, node))]
    assert cycles == []


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_lower_layers_import_only_below_them(layer: str) -> None:
    assert import_graph()[layer] <= ALLOWED[layer]


def test_records_import_nothing_of_the_package() -> None:
    """Records, the compiled constructors of their shapes and the reader of the shipped tables are below
    everything."""
    graph = import_graph()
    assert graph["records"] == {"record_shapes"} and graph["record_shapes"] == set()
    assert graph["packagedata"] == set()


def test_the_graph_sees_relative_and_absolute_imports() -> None:
    graph = import_graph()
    assert "api" in graph["pipeline"]
    assert "pipeline" in graph["render"]


@pytest.mark.parametrize(
    ("graph", "cycle"),
    [
        ({"a": {"b"}, "b": {"a"}}, ["a", "b", "a"]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
    ],
)
def test_cycle_detection(graph: dict[str, set[str]], cycle: list[str] | None) -> None:
    assert _cycle_from(graph, "a") == cycle
