"""KubeVirt's own schema check in its VirtualMachine webhooks, after the API server stored the object.

``pkg/util/webhooks/webhooks.go`` ``ValidateSchema`` validates the VM's ``spec`` against KubeVirt's OpenAPI
definitions with go-openapi (``pkg/util/openapi/openapi.go``), every definition closed to unknown properties.
That is stricter than the CRD where the CRD keeps unknown fields (``spec.template.metadata``,
``spec.dataVolumeTemplates[].metadata``, ``spec.template.spec.domain.clock``) and where it keeps nulls there.
The messages are go-openapi's, with list indices left out of the path (spec §9.0); KubeVirt joins them with
``, ``. KubeVirt decodes the request into ``map[string]interface{}`` first, so every JSON number reaches
go-openapi as a float64: its kind is ``number`` (format ``float64``) whatever it looks like, and a whole one
still passes as an integer. When the schema passes, the mutating webhook decodes the VM into KubeVirt's Go
types: a malformed timestamp in metadata the CRD keeps unchecked, or an integer outside its Go field's range,
fails there (:mod:`.godecode`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from . import godecode
from .fielderror import Path, go_quote
from .gotime import is_date_time
from .tables import MAIN, NO_DEFAULT, Definitions, Node, kubevirt_definitions

Problem = tuple[Path, str]
QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity"  # the definition of a resource quantity


def spec_problems(vm: dict[str, Any], definitions: Definitions | None = None, release: str = MAIN,
                  decode: bool = True, quantities: list[tuple[Path, Any]] | None = None) -> list[Problem]:
    """KubeVirt's complaints about ``vm['spec']``: (path with list indices, go-openapi message), with the
    definitions of ``release`` unless ``definitions`` are given (whose root is the spec's definition); with
    ``decode``, a VM's decoding failure when the schema passes.

    With ``quantities``, the walk also adds there every value (not null) whose definition is a Quantity, with
    its path, for the decoding that follows the check (:func:`.mutating.decode`): where it finds no problem,
    the walk goes everywhere along the definitions."""
    defs = definitions or kubevirt_definitions(release)
    out: list[Problem] = []
    walk = _walk(defs, quantities)
    root = defs.nodes[defs.root]
    _node(vm.get("spec"), walk.seen.get(root) or _see(root, walk), ("spec",), walk, out)
    if not out and decode:
        failure = godecode.decode_problem(vm.get("spec"))
        if failure is not None:
            out.append(failure)
    return out


def _name(path: Path) -> str:
    return ".".join(str(step) for step in path if not isinstance(step, int))


# What a walk knows of a schema node: the node resolved, the classes of the scalars it has nothing to say
# about (the right type and no enum; for strings and booleans no format either), and the container classes
# of the right type when it has no enum (only their contents remain to check). Most of a VM's values are
# such, and pass without the checks below or a path built for them.
_Seen = tuple[Node, frozenset[type], frozenset[type], bool]  # and whether the node is a Quantity
# What a walk knows of an object node (resolved), worked out on first use: what it knows of each property and
# of the additionalProperties schema (None: the object is closed or open to anything), and whether the
# object is closed (an unknown key is a forbidden property).
_Fields = tuple[dict[str, _Seen], _Seen | None, bool]
_SEEN: dict[int, tuple[Any, dict[Node, _Seen], dict[Node, _Fields]]] = {}  # by set of definitions (id of its
# nodes, kept alive)


class _Walk(NamedTuple):
    """One check's definitions, what is known of their nodes, and where it adds the quantities it meets (None:
    nowhere)."""

    defs: Definitions
    seen: dict[Node, _Seen]
    fields: dict[Node, _Fields]
    quantities: list[tuple[Path, Any]] | None


def _walk(defs: Definitions, quantities: list[tuple[Path, Any]] | None) -> _Walk:
    entry = _SEEN.get(id(defs.nodes))
    if entry is None or entry[0] is not defs.nodes:
        entry = _SEEN[id(defs.nodes)] = (defs.nodes, {}, {})
    return _Walk(defs, entry[1], entry[2], quantities)


def _see(node: Node, walk: _Walk) -> _Seen:
    resolved = walk.defs.resolve(node)
    leaves: set[type] = set()
    typed: set[type] = set()
    if resolved.enum is None:  # _type_problem reads only the class of these (every int is a whole number)
        leaves.update(cls for cls, sample in ((str, ""), (bool, False))
                      if resolved.format is None and _type_problem(sample, resolved) is None)
        if _type_problem(0, resolved) is None:
            leaves.add(int)
        typed.update(cls for cls, sample in ((dict, {}), (list, [])) if _type_problem(sample, resolved) is None)
    seen = walk.seen[node] = (resolved, frozenset(leaves), frozenset(typed), node.ref == QUANTITY)
    return seen


def _fields(node: Node, walk: _Walk) -> _Fields:
    additional = node.additional
    fields = walk.fields[node] = (
        {},  # filled as the walk meets each property (:func:`_field`): most are never met
        (walk.seen.get(additional) or _see(additional, walk)) if isinstance(additional, Node) else None,
        additional is False,
    )
    return fields


def _field(node: Node, key: str, walk: _Walk) -> _Seen | None:
    """What the walk knows of property ``key`` of ``node`` (None: no such property), kept in its fields."""
    sub = node.properties.get(key)
    if sub is None:
        return None
    seen = walk.fields[node][0][key] = walk.seen.get(sub) or _see(sub, walk)
    return seen


def _node(value: Any, seen: _Seen, path: Path, walk: _Walk, out: list[Problem]) -> None:
    node, leaves, typed, _ = seen
    cls = value.__class__
    if cls in leaves:
        return
    if cls in typed:
        if cls is dict:
            _object(value, node, path, walk, out)
        elif node.items is not None:
            _items(value, node.items, path, walk, out)
        return
    types = node.types
    if value is None:
        if not (node.nullable or "null" in types or not types):
            out.append((path, f'{_name(path)} in body must be of type {",".join(types)}: "null"'))
        return
    wrong = _type_problem(value, node)
    if wrong is not None:
        out.append((path, f"{_name(path)} in body must be of type {wrong}"))
        return
    if node.format == "date-time" and isinstance(value, str) and not is_date_time(value):
        out.append((path, f"{_name(path)} in body must be of type date-time: {go_quote(value)}"))
    if node.enum is not None and value not in node.enum:
        shown = " ".join(str(v) for v in node.enum)
        out.append((path, f"{_name(path)} in body should be one of [{shown}]"))
    if isinstance(value, dict):
        _object(value, node, path, walk, out)
    elif isinstance(value, list) and node.items is not None:
        _items(value, node.items, path, walk, out)


def _items(value: list[Any], items: Node, path: Path, walk: _Walk, out: list[Problem]) -> None:
    seen = walk.seen.get(items) or _see(items, walk)
    leaves = seen[1]
    for i, item in enumerate(value):
        if seen[3] and walk.quantities is not None and item is not None:
            walk.quantities.append(((*path, i), item))
        if item.__class__ not in leaves:
            _node(item, seen, (*path, i), walk, out)


def _object(value: dict[str, Any], node: Node, path: Path, walk: _Walk, out: list[Problem]) -> None:
    if node.required and not value.keys() >= node.required_set:
        out.extend(((*path, key), f"{_name(path)}.{key} in body is required") for key in node.required
                   if key not in value and not _defaulted(node, key))
    known, additional, closed = walk.fields.get(node) or _fields(node, walk)
    for key, item in value.items():
        seen = known.get(key) or _field(node, key, walk) or additional
        if seen is not None:
            if seen[3] and walk.quantities is not None and item is not None:
                walk.quantities.append(((*path, key), item))
            cls = item.__class__
            if cls is dict and cls in seen[2]:  # an object where one belongs: straight to its fields
                _object(item, seen[0], (*path, key), walk, out)
            elif cls not in seen[1]:
                _node(item, seen, (*path, key), walk, out)
        elif closed:
            out.append(((*path, key), f"{_name(path)}.{key} in body is a forbidden property"))


def _defaulted(node: Node, key: str) -> bool:
    """go-openapi's object validator does not report a missing required property that has a default
    (``createdFromDefaults``), e.g. an OwnerReference's ``apiVersion``, ``kind``, ``name`` and ``uid``."""
    sub = node.properties.get(key)
    return sub is not None and sub.default is not NO_DEFAULT


def _go_kind(value: Any) -> tuple[str, str]:
    """go-openapi's type and format of a value decoded by ``encoding/json`` into an ``interface{}``."""
    if isinstance(value, bool):
        return "boolean", ""
    if isinstance(value, (int, float)):
        return "number", "float64"
    return _GO_KINDS.get(type(value), "string"), ""


_GO_KINDS: dict[type, str] = {str: "string", list: "array", dict: "object"}


def _whole(value: Any) -> bool:
    """``swag.IsFloat64AJSONInteger``: a float64 with no fractional part."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer()


def _type_problem(value: Any, node: Node) -> str | None:
    """go-openapi's ``typeValidator`` (``validate/type.go``): what follows "must be of type", or None.

    A declared format is compared first for values that are neither strings nor arrays (``int64: ""`` for a
    boolean or an object); a string or an array under a format of a non-numeric type passes the type check.
    """
    types, fmt = node.types, node.format or ""
    if not types and not fmt:
        return None
    kind, got = _go_kind(value)
    float_int = kind == "number" and "integer" in types and _whole(value)
    textual = isinstance(value, (str, list))
    if not textual and fmt and not (kind in types or got == fmt or float_int):
        return f'{fmt}: "{got}"'
    if fmt and textual and "number" not in types and "integer" not in types:
        return None
    if kind in types or float_int:
        return None
    return f'{",".join(types)}: "{kind}"'


