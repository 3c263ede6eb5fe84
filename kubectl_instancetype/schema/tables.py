"""The generated schema tables (``data/*.json``, written by ``scripts/generate-schemas``) as schema nodes, for
``main`` and for every KubeVirt release of :data:`RELEASES` (``*-releases.json``: deltas against main's).

Keys of a table node: ``t`` type (a name, or a list of names in the OpenAPI table), ``p`` properties,
``a`` additionalProperties (a node, or a boolean), ``i`` items, ``r`` required, ``e`` enum, ``pat`` pattern,
``f`` format, ``n`` nullable, ``ios`` x-kubernetes-int-or-string, ``pu`` x-kubernetes-preserve-unknown-fields,
``emb`` x-kubernetes-embedded-resource, ``lt``/``lk`` x-kubernetes-list-type / list-map-keys, ``min``/``max``
(``xmin``/``xmax`` exclusive), ``minL``/``maxL``, ``minI``/``maxI``, ``minP``/``maxP``, ``mo`` multipleOf,
``u`` uniqueItems, ``d`` default, ``any`` the types of anyOf's branches (``[integer, string]``), ``v``
x-kubernetes-validations as ``[rule, message]`` pairs, ``ref`` a definition of the OpenAPI table. In the
CRD table, child nodes are indices into ``nodes``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Any

from ..api.releases import MAIN as _MAIN
from ..api.releases import RELEASES as _RELEASE_TABLE
from ..packagedata import json_beside
from ..records import dataclass

NO_DEFAULT = object()

_LIMITS = ("min", "max", "xmin", "xmax", "minL", "maxL", "minI", "maxI", "minP", "maxP", "mo", "u")


class Node:
    """One schema node, read from its table form; absent keywords are None (or empty).

    Children and patterns are built on first use, so a check builds only the part of a schema its object
    reaches (a VirtualMachine touches a small part of KubeVirt's schemas): cold start pays for no more.
    ``carries`` answers whether a rule or a default lies below without building the subtree.
    """

    def __init__(self, raw: Mapping[str, Any], child: Callable[[Any], Node],
                 carries: Flags | None = None) -> None:
        self._raw, self._child, self._carries = raw, child, carries
        self._carrying: dict[str, tuple[Mapping[str, Node], Node | None]] = {}
        kind = raw.get("t")
        self.type: str | tuple[str, ...] | None = tuple(kind) if isinstance(kind, list) else kind
        self.types: tuple[str, ...] = (kind,) if isinstance(kind, str) else tuple(kind or ())
        self.required: tuple[str, ...] = tuple(raw.get("r", ()))
        self.required_set = frozenset(self.required)  # an object holding them all has nothing to report
        self.enum: tuple[Any, ...] | None = tuple(raw["e"]) if "e" in raw else None
        self.pattern_text: str = raw.get("pat", "")
        self.format: str | None = raw.get("f")
        self.nullable = bool(raw.get("n"))
        self.int_or_string = bool(raw.get("ios"))
        self.preserve_unknown = bool(raw.get("pu"))
        self.embedded = bool(raw.get("emb"))
        self.list_type: str | None = raw.get("lt")
        self.map_keys: tuple[str, ...] = tuple(raw.get("lk", ()))
        self.limits: Mapping[str, Any] = {k: raw[k] for k in _LIMITS if k in raw}
        self.default: Any = raw.get("d", NO_DEFAULT)
        self.rules: tuple[tuple[str, str], ...] = tuple((rule, message) for rule, message in raw.get("v", ()))
        self.ref: str | None = raw.get("ref")
        self.any_of: tuple[str, ...] = tuple(raw.get("any", ()))
        # apiextensions keeps only some formats; of KubeVirt's, date-time (int32/int64 are stripped)
        self.date_time = self.format == "date-time"
        # whether a scalar of the right type can still fail here (most leaves cannot: checks skip them)
        self.checks_scalars = self.enum is not None or bool(self.limits) or "pat" in raw or self.date_time

    @cached_property
    def properties(self) -> Mapping[str, Node]:
        return {name: self._child(sub) for name, sub in self._raw.get("p", {}).items()}

    @cached_property
    def additional(self) -> Node | bool | None:
        add = self._raw.get("a")
        return add if isinstance(add, bool) or add is None else self._child(add)

    @cached_property
    def items(self) -> Node | None:
        return self._child(self._raw["i"]) if "i" in self._raw else None

    @cached_property
    def pattern(self) -> re.Pattern[str] | None:
        return go_regexp(self._raw["pat"]) if "pat" in self._raw else None

    def carrying(self, what: str) -> tuple[Mapping[str, Node], Node | None]:
        """The properties whose subtree carries ``what`` (see :meth:`carries`), and the additionalProperties
        schema if it does: a walk looking for rules or defaults descends into these only."""
        found = self._carrying.get(what)
        if found is None:
            add = self.additional
            found = self._carrying[what] = (
                {key: sub for key, sub in self.properties.items() if sub.carries(what)},
                add if isinstance(add, Node) and add.carries(what) else None,
            )
        return found

    @cached_property
    def refs(self) -> frozenset[str]:
        """The definitions this node and the inline nodes below it refer to (without following them)."""
        return _refs(self._raw)

    @cached_property
    def defaulted(self) -> tuple[tuple[str, Node], ...]:
        """The properties that have a default of their own, in schema order."""
        return tuple((key, sub) for key, sub in self.properties.items() if sub.default is not NO_DEFAULT)

    def carries(self, what: str) -> bool:
        """Whether this node or one below it has CEL ``rules`` (``what="rules"``), a ``default`` or ``required``
        properties."""
        if self._carries is None:
            self._carries = _carries_inline(self._raw)
        return self._carries[_CARRIED[what]]


_CARRIED = {"rules": 0, "default": 1, "required": 2}  # the place of each in a node's flags


def go_regexp(pattern: str) -> re.Pattern[str]:
    """A Go (RE2) pattern as a Python one: ``$`` ends the text, it does not also match before a newline."""
    return re.compile(re.sub(r"(?<!\\)\$", r"\\Z", pattern))


def _refs(raw: Mapping[str, Any]) -> frozenset[str]:
    """The definitions an inline table node and the nodes below it refer to."""
    found: set[str] = set()
    _add_refs(raw, found)
    return frozenset(found)


def _add_refs(raw: Mapping[str, Any], found: set[str]) -> None:
    if "ref" in raw:
        found.add(raw["ref"])
    for sub in raw.get("p", {}).values():
        _add_refs(sub, found)
    for key in ("i", "a"):
        sub = raw.get(key)
        if isinstance(sub, Mapping):
            _add_refs(sub, found)


def _children(raw: Mapping[str, Any]) -> list[Any]:
    """The table children of a node: its properties, items and additionalProperties schema."""
    add = raw.get("a")
    return [*raw.get("p", {}).values(), *([raw["i"]] if "i" in raw else []),
            *([] if isinstance(add, bool) or add is None else [add])]


Flags = tuple[bool, bool, bool]  # what a node carries (see Node.carries), in the order of _CARRIED


def _here(raw: Mapping[str, Any]) -> Flags:
    return bool(raw.get("v")), "d" in raw, bool(raw.get("r"))


def _carries_inline(raw: Mapping[str, Any]) -> Flags:
    rules, default, required = _here(raw)
    for sub in _children(raw):
        below = _carries_inline(sub)
        rules, default, required = rules or below[0], default or below[1], required or below[2]
    return rules, default, required


def _carries_indexed(nodes: Sequence[Mapping[str, Any]]) -> list[Flags]:
    """``carries`` of every node of the CRD table in one pass (children always come before their parents)."""
    flags: list[Flags] = []
    for raw in nodes:
        rules, default, required = _here(raw)
        for index in _children(raw):
            below = flags[index]
            rules, default, required = rules or below[0], default or below[1], required or below[2]
        flags.append((rules, default, required))
    return flags


@functools.cache
def _read(name: str) -> Any:
    """A table shipped with the package (``data/NAME``)."""
    return json_beside(__spec__, __file__, "data", name)


#: The KubeVirt releases whose tables the package ships, oldest first: every release tag from v1.5.0 (the
#: ``*-releases.json`` tables, deltas against main's) and ``main`` (kubevirt/kubevirt d923fdb8).
#: The names come from the one table of releases (:mod:`..api.releases`).
RELEASES: tuple[str, ...] = tuple(release.name for release in _RELEASE_TABLE)
MAIN = _MAIN


def _known(release: str) -> str:
    if release not in RELEASES:
        raise KeyError(f"no schema tables for KubeVirt {release!r}; known: {', '.join(RELEASES)}")
    return release


class _Indexed:
    """The CRD table's nodes (``crds.json``, then a release table's further nodes), each built on first use
    and shared by every schema that refers to it."""

    def __init__(self, raws: Sequence[Mapping[str, Any]]) -> None:
        self.raws, self.flags = raws, _carries_indexed(raws)
        self.built: dict[int, Node] = {}

    def node(self, index: int) -> Node:
        node = self.built.get(index)
        if node is None:
            node = self.built[index] = Node(self.raws[index], self.node, self.flags[index])
        return node


@functools.cache
def _crd_nodes(released: bool) -> _Indexed:
    """The nodes of main's CRD table, or (``released``) of main's and every release's."""
    nodes = _read("crds.json")["nodes"]
    return _Indexed([*nodes, *_read("crds-releases.json")["nodes"]] if released else nodes)


@functools.cache
def crd_schemas(release: str = MAIN) -> dict[str, Node]:
    """The CRD ``openAPIV3Schema`` of every KubeVirt kind the tool validates, by kind, as the API server of
    ``release`` (one of :data:`RELEASES`) holds them."""
    if _known(release) == MAIN:
        kinds, nodes = _read("crds.json")["kinds"], _crd_nodes(False)
    else:
        kinds, nodes = _read("crds-releases.json")["releases"][release], _crd_nodes(True)
    return {kind: nodes.node(index) for kind, index in kinds.items()}


@dataclass(frozen=True)
class Definitions:
    """KubeVirt's OpenAPI definitions (refs resolved on demand) and the VirtualMachine spec's root."""

    nodes: Mapping[str, Node]
    root: str

    def resolve(self, node: Node) -> Node:
        while node.ref is not None:
            node = self.nodes[node.ref]
        return node

    def reaches(self, node: Node, target: str) -> bool:
        """Whether a value at ``node`` can hold one of definition ``target`` (``node`` refers to it, or to a
        definition from which a chain of references leads to it): a walk looking for ``target`` skips the
        rest."""
        return not node.refs.isdisjoint(_reaching(self.nodes, target))


_REACHING: dict[tuple[int, str], tuple[Mapping[str, Node], frozenset[str]]] = {}  # by id of the nodes (kept alive)


def _reaching(nodes: Mapping[str, Node], target: str) -> frozenset[str]:
    """``target`` and every definition of ``nodes`` from which a chain of references leads to it."""
    entry = _REACHING.get((id(nodes), target))
    if entry is None or entry[0] is not nodes:
        # from the table itself where there is one: the nodes of definitions no value reaches stay unbuilt
        refs = {name: _refs(raw) for name, raw in nodes.raws.items()} if isinstance(nodes, _Definitions) \
            else {name: nodes[name].refs for name in nodes}
        found, grown = {target}, True
        while grown:
            more = {name for name, to in refs.items() if name not in found and not to.isdisjoint(found)}
            found |= more
            grown = bool(more)
        entry = _REACHING[(id(nodes), target)] = (nodes, frozenset(found))
    return entry[1]


class _Definitions(Mapping[str, Node]):
    """The definitions by name, each built when first resolved."""

    def __init__(self, raws: Mapping[str, Any]) -> None:
        self.raws = raws
        self._built: dict[str, Node] = {}

    def __getitem__(self, name: str) -> Node:
        node = self._built.get(name)
        if node is None:
            node = self._built[name] = _inline(self.raws[name])
        return node

    def __iter__(self) -> Any:
        return iter(self.raws)

    def __len__(self) -> int:
        return len(self.raws)


def _inline(raw: Mapping[str, Any]) -> Node:
    return Node(raw, _inline)


@functools.cache
def kubevirt_definitions(release: str = MAIN) -> Definitions:
    """KubeVirt's OpenAPI definitions that its VM webhooks check a VM's spec against, in ``release``."""
    table = _read("kubevirt-openapi.json")
    if _known(release) == MAIN:
        return Definitions(_Definitions(table["definitions"]), table["root"])
    releases = _read("kubevirt-openapi-releases.json")
    delta = releases["releases"][release]
    raws = {name: raw for name, raw in table["definitions"].items() if name not in delta["removed"]}
    raws.update({name: releases["bodies"][index] for name, index in delta["changed"].items()})
    return Definitions(_Definitions(raws), delta["root"])
