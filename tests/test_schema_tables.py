"""The generated tables (scripts/generate-schemas) and the CEL rules they carry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, SHARED, load_script

from kubectl_instancetype.schema.cel import RuleError, compile_rule
from kubectl_instancetype.schema.prune import has_null
from kubectl_instancetype.schema.tables import NO_DEFAULT, Node, crd_schemas, kubevirt_definitions

SCRIPT = ROOT / "scripts" / "generate-schemas"


def _generator() -> Any:
    return load_script(SCRIPT, "generate_schemas")


GENERATOR = _generator()


def _walk(node: Node, seen: set[int]) -> list[Node]:
    if id(node) in seen:
        return []
    seen.add(id(node))
    out = [node]
    for child in [*node.properties.values(), node.items, node.additional]:
        if isinstance(child, Node):
            out += _walk(child, seen)
    return out


def test_every_kind_the_tool_reads_has_a_table() -> None:
    assert set(crd_schemas()) == set(GENERATOR.CRD_FILES)
    assert crd_schemas()["VirtualMachineInstancetype"].properties["spec"].required == ("cpu", "memory")


def test_every_cel_rule_of_the_tables_compiles() -> None:
    seen: set[int] = set()
    rules = [rule for schema in crd_schemas().values() for node in _walk(schema, seen) for rule, _ in node.rules]
    assert rules, "KubeVirt's CRDs hold CEL rules"
    for rule in rules:
        compile_rule(rule)


@pytest.mark.parametrize(("rule", "value", "result"), [
    ("self.startsWith('/')", "/a", True), ("!self.contains('..')", "a/../b", False), ("self == true", False, False),
    ("self.size() <= 3 && (self != 'ab' || false)", "ab", False), ("self.endsWith(\"x\") || self == 'y'", "y", True),
])
def test_cel_subset(rule: str, value: Any, result: bool) -> None:
    assert compile_rule(rule)(value) is result


@pytest.mark.parametrize("rule", ["self.all(x, x > 0)", "has(self.a)", "self ? 1 : 2"])
def test_cel_outside_the_subset_is_refused_at_compile_time(rule: str) -> None:
    with pytest.raises(RuleError):
        compile_rule(rule)


def test_generator_interns_repeated_subschemas_and_drops_descriptions() -> None:
    leaf = {"type": "string", "description": "text", "enum": ["a"]}
    crd = {"openAPIV3Schema": {"type": "object", "properties": {"a": leaf, "b": dict(leaf)},
                               "x-kubernetes-validations": [{"rule": "self == self", "message": "m"}]}}
    swagger = {"definitions": {"v1.VirtualMachineSpec": {"type": "object", "description": "d",
                                                         "properties": {"x": {"$ref": "#/definitions/v1.X"}}},
                               "v1.X": {"type": "string"}, "v1.Unused": {"type": "string"}}}
    tables = {name: json.loads(text) for name, text in GENERATOR.generate({"K": crd}, swagger).items()}
    nodes = tables["crds.json"]["nodes"]
    assert nodes == [{"e": ["a"], "t": "string"}, {"p": {"a": 0, "b": 0}, "t": "object", "v": [["self == self", "m"]]}]
    assert tables["kubevirt-openapi.json"]["definitions"] == {
        "v1.VirtualMachineSpec": {"a": False, "p": {"x": {"ref": "v1.X"}}, "t": "object"},
        "v1.X": {"a": False, "t": "string"},
    }
    assert "text" not in json.dumps(tables)


def test_generator_refuses_keywords_it_does_not_know() -> None:
    with pytest.raises(SystemExit):
        GENERATOR.generate({"K": {"openAPIV3Schema": {"type": "object", "oneOf": []}}}, {"definitions": {
            "v1.VirtualMachineSpec": {"type": "object"}}})


def test_webhook_definitions_are_closed_and_resolve() -> None:
    defs = kubevirt_definitions()
    root = defs.nodes[defs.root]
    assert root.additional is False and "template" in root.properties
    template = defs.resolve(root.properties["template"])
    assert defs.resolve(template.properties["metadata"]).properties["name"].type == "string"


@pytest.mark.skipif(not (SHARED / "spec" / "crd-schemas").is_dir(), reason="KubeVirt's schemas are not beside the repo")
def test_committed_tables_are_current() -> None:
    assert GENERATOR.main(["--check", "--shared", str(SHARED)]) == 0


def test_tables_are_package_data() -> None:
    setup = (ROOT / "setup.cfg").read_text()
    assert "schema/data/*.json" in setup
    assert {p.name for p in Path(ROOT / "kubectl_instancetype" / "schema" / "data").glob("*.json")} == {
        "crds.json", "kubevirt-openapi.json", "crds-releases.json", "kubevirt-openapi-releases.json"}


def _carries_by_walking(node: Node, what: str) -> bool:
    here = bool(node.rules) if what == "rules" else node.default is not NO_DEFAULT
    return here or any(_carries_by_walking(child, what) for child in
                       [*node.properties.values(), node.items, node.additional] if isinstance(child, Node))


@pytest.mark.parametrize("what", ["rules", "default"])
def test_carries_from_the_table_agrees_with_a_walk_of_the_built_nodes(what: str) -> None:
    seen: set[int] = set()
    nodes = [node for schema in crd_schemas().values() for node in _walk(schema, seen)]
    assert any(node.carries(what) for node in nodes) and not all(node.carries(what) for node in nodes)
    assert all(node.carries(what) == _carries_by_walking(node, what) for node in nodes)


def test_nodes_are_built_as_a_check_reaches_them() -> None:
    raw = {"t": "object", "p": {"a": {"t": "string", "pat": "^x$"}, "b": {"t": "object", "p": {"c": {"d": 1}}}}}
    built: list[Any] = []

    def child(sub: Any) -> Node:
        built.append(sub)
        return Node(sub, child)

    root = Node(raw, child)
    assert built == []
    assert root.properties["a"].pattern is not None and root.properties["a"].pattern.search("x")
    assert len(built) == 2  # a and b, not b's child c
    assert root.carries("default") and not root.properties["a"].carries("default")


@pytest.mark.parametrize(("value", "found"), [
    ({}, False), ({"a": [1, {"b": "x"}]}, False), ({"a": None}, True), ({"a": [{"b": [None]}]}, True),
    ({"a": [0, False, ""]}, False), ([[[]], {"x": {"y": None}}], True),
])
def test_has_null(value: Any, found: bool) -> None:
    assert has_null(value) is found
