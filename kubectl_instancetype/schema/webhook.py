"""KubeVirt's own schema check in its VirtualMachine webhooks, after the API server stored the object.

``pkg/util/webhooks/webhooks.go`` ``ValidateSchema`` validates the VM's ``spec`` against KubeVirt's OpenAPI
definitions with go-openapi (``pkg/util/openapi/openapi.go``), every definition closed to unknown properties.
That is stricter than the CRD where the CRD keeps unknown fields (``spec.template.metadata``,
``spec.dataVolumeTemplates[].metadata``, ``spec.template.spec.domain.clock``) and where it keeps nulls there.
The messages are go-openapi's, with list indices left out of the path (spec §9.0); KubeVirt joins them with
``, ``.
"""

from __future__ import annotations

from typing import Any

from .fielderror import Path
from .openapi import kind_of, type_matches
from .tables import MAIN, Definitions, Node, kubevirt_definitions

Problem = tuple[Path, str]


def spec_problems(vm: dict[str, Any], definitions: Definitions | None = None, release: str = MAIN) -> list[Problem]:
    """KubeVirt's complaints about ``vm['spec']``: (path with list indices, go-openapi message), with the
    definitions of ``release`` unless ``definitions`` are given."""
    defs = definitions or kubevirt_definitions(release)
    out: list[Problem] = []
    _node(vm.get("spec"), defs.nodes[defs.root], ("spec",), defs, out)
    return out


def _name(path: Path) -> str:
    return ".".join(str(step) for step in path if not isinstance(step, int))


def _node(value: Any, node: Node, path: Path, defs: Definitions, out: list[Problem]) -> None:
    node = defs.resolve(node)
    types = node.types
    if value is None:
        if not (node.nullable or "null" in types or not types):
            out.append((path, f'{_name(path)} in body must be of type {",".join(types)}: "null"'))
        return
    if types and not type_matches(value, types):
        out.append((path, f'{_name(path)} in body must be of type {",".join(types)}: "{kind_of(value)}"'))
        return
    if node.enum is not None and value not in node.enum:
        shown = " ".join(str(v) for v in node.enum)
        out.append((path, f"{_name(path)} in body should be one of [{shown}]"))
    if isinstance(value, dict):
        _object(value, node, path, defs, out)
    elif isinstance(value, list) and node.items is not None:
        for i, item in enumerate(value):
            _node(item, node.items, (*path, i), defs, out)


def _object(value: dict[str, Any], node: Node, path: Path, defs: Definitions, out: list[Problem]) -> None:
    if node.required:
        out.extend(((*path, key), f"{_name(path)}.{key} in body is required") for key in node.required
                   if key not in value)
    for key, item in value.items():
        sub = node.properties.get(key)
        if sub is None and isinstance(node.additional, Node):
            sub = node.additional
        if sub is not None:
            if not _plain_leaf(item, defs.resolve(sub)):
                _node(item, sub, (*path, key), defs, out)
        elif node.additional is False:
            out.append(((*path, key), f"{_name(path)}.{key} in body is a forbidden property"))


def _plain_leaf(value: Any, node: Node) -> bool:
    """A string or boolean of the right type and no enum: nothing to say, and no path to build for it."""
    return value.__class__ in (str, bool) and node.enum is None and (not node.types or type_matches(value, node.types))
