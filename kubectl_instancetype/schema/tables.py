"""The generated schema tables (``data/*.json``, written by ``scripts/generate-schemas``) as schema nodes.

Keys of a table node: ``t`` type (a name, or a list of names in the OpenAPI table), ``p`` properties,
``a`` additionalProperties (a node, or a boolean), ``i`` items, ``r`` required, ``e`` enum, ``pat`` pattern,
``f`` format, ``n`` nullable, ``ios`` x-kubernetes-int-or-string, ``pu`` x-kubernetes-preserve-unknown-fields,
``emb`` x-kubernetes-embedded-resource, ``lt``/``lk`` x-kubernetes-list-type / list-map-keys, ``min``/``max``
(``xmin``/``xmax`` exclusive), ``minL``/``maxL``, ``minI``/``maxI``, ``minP``/``maxP``, ``mo`` multipleOf,
``u`` uniqueItems, ``d`` default, ``v`` x-kubernetes-validations as ``[rule, message]`` pairs, ``ref`` a
definition of the OpenAPI table. In the CRD table, child nodes are indices into ``nodes``.
"""

from __future__ import annotations

import functools
import json
import pkgutil
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

NO_DEFAULT = object()


@dataclass(frozen=True, eq=False)
class Node:
    """One schema node; absent keywords are None (or empty)."""

    type: str | tuple[str, ...] | None = None
    properties: Mapping[str, Node] = field(default_factory=dict)
    additional: Node | bool | None = None
    items: Node | None = None
    required: tuple[str, ...] = ()
    enum: tuple[Any, ...] | None = None
    pattern: re.Pattern[str] | None = None
    pattern_text: str = ""
    format: str | None = None
    nullable: bool = False
    int_or_string: bool = False
    preserve_unknown: bool = False
    embedded: bool = False
    list_type: str | None = None
    map_keys: tuple[str, ...] = ()
    limits: Mapping[str, Any] = field(default_factory=dict)
    default: Any = NO_DEFAULT
    rules: tuple[tuple[str, str], ...] = ()
    ref: str | None = None


@functools.cache
def carries(node: Node, what: str) -> bool:
    """Whether ``node`` or a node below it has CEL ``rules`` or a ``default``: walks skip the other subtrees."""
    here = bool(node.rules) if what == "rules" else node.default is not NO_DEFAULT
    children = [*node.properties.values(), node.items, node.additional]
    return here or any(carries(child, what) for child in children if isinstance(child, Node))


_LIMITS = ("min", "max", "xmin", "xmax", "minL", "maxL", "minI", "maxI", "minP", "maxP", "mo", "u")


def go_regexp(pattern: str) -> re.Pattern[str]:
    """A Go (RE2) pattern as a Python one: ``$`` ends the text, it does not also match before a newline."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def make_node(raw: Mapping[str, Any], child: Any) -> Node:
    """A node from its table form; ``child`` turns a table child (index or inline node) into a Node."""
    add = raw.get("a")
    kind = raw.get("t")
    return Node(
        type=tuple(kind) if isinstance(kind, list) else kind,
        properties={name: child(sub) for name, sub in raw.get("p", {}).items()},
        additional=add if isinstance(add, bool) or add is None else child(add),
        items=child(raw["i"]) if "i" in raw else None,
        required=tuple(raw.get("r", ())),
        enum=tuple(raw["e"]) if "e" in raw else None,
        pattern=go_regexp(raw["pat"]) if "pat" in raw else None,
        pattern_text=raw.get("pat", ""),
        format=raw.get("f"),
        nullable=bool(raw.get("n")),
        int_or_string=bool(raw.get("ios")),
        preserve_unknown=bool(raw.get("pu")),
        embedded=bool(raw.get("emb")),
        list_type=raw.get("lt"),
        map_keys=tuple(raw.get("lk", ())),
        limits={k: raw[k] for k in _LIMITS if k in raw},
        default=raw.get("d", NO_DEFAULT),
        rules=tuple((rule, message) for rule, message in raw.get("v", ())),
        ref=raw.get("ref"),
    )


def _read(name: str) -> Any:
    """A table shipped with the package (read through the loader: the release is a zipapp)."""
    data = pkgutil.get_data(__package__, f"data/{name}")
    if data is None:  # pragma: no cover - only with a loader that cannot read data
        raise OSError(f"{__package__}: no data/{name}")
    return json.loads(data)


@functools.cache
def crd_schemas() -> dict[str, Node]:
    """The CRD ``openAPIV3Schema`` of every KubeVirt kind the tool validates, by kind."""
    table = _read("crds.json")
    built: list[Node] = []
    for raw in table["nodes"]:  # children always come before their parents
        built.append(make_node(raw, built.__getitem__))
    return {kind: built[index] for kind, index in table["kinds"].items()}


@dataclass(frozen=True)
class Definitions:
    """KubeVirt's OpenAPI definitions (refs resolved on demand) and the VirtualMachine spec's root."""

    nodes: Mapping[str, Node]
    root: str

    def resolve(self, node: Node) -> Node:
        while node.ref is not None:
            node = self.nodes[node.ref]
        return node


def _inline(raw: Mapping[str, Any]) -> Node:
    return make_node(raw, _inline)


@functools.cache
def kubevirt_definitions() -> Definitions:
    table = _read("kubevirt-openapi.json")
    return Definitions({name: _inline(raw) for name, raw in table["definitions"].items()}, table["root"])
