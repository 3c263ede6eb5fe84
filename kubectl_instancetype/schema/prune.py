"""The API server's decoding steps on an object: pruning unknown fields, dropping nulls, defaulting.

Structural pruning (apiextensions-apiserver ``schema/pruning``) walks the object along the schema and drops
every field the schema does not know, recording its path (``spec.template.sepc``); a value of the wrong shape
is walked all the same (a map where a string belongs loses all its keys, the items of a list where an object
belongs lose theirs). Below ``x-kubernetes-preserve-unknown-fields`` only the known properties are walked.
Then nulls of non-nullable fields without a default are dropped (``defaulting.PruneNonNullableNullsWithout
Defaults``) and defaults are filled in (``defaulting.Default``).

Every function is copy-on-write: it returns its input itself when nothing changes (the common case: a
clean manifest costs no copy), else a new value that shares the unchanged parts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.golang import clone_json
from .fielderror import Path
from .tables import NO_DEFAULT, Node

ROOT_META = frozenset(("apiVersion", "kind", "metadata"))
_DROP = object()


def _mapped(value: dict[str, Any], change: Callable[[str, Any], Any]) -> dict[str, Any]:
    """``value`` with ``change(key, item)`` applied to every item (``_DROP`` removes it); copied only if needed."""
    out: dict[str, Any] | None = None
    for key, item in value.items():
        new = change(key, item)
        if new is not item:
            out = dict(value) if out is None else out
            if new is _DROP:
                del out[key]
            else:
                out[key] = new
    return value if out is None else out


def _listed(value: list[Any], change: Callable[[int, Any], Any]) -> list[Any]:
    out: list[Any] | None = None
    for i, item in enumerate(value):
        new = change(i, item)
        if new is not item:
            out = list(value) if out is None else out
            out[i] = new
    return value if out is None else out


def _schema_of(schema: Node, key: str) -> Node | None:
    sub = schema.properties.get(key)
    return sub if sub is not None or not isinstance(schema.additional, Node) else schema.additional


class _Pruned(list[Path]):
    """The paths pruned, in document order, and whether a null was met in a mapping the walk went through:
    only then can :func:`drop_nulls` find one to drop (it goes through the same mappings, and leaves the
    nulls of lists), so most objects are spared a search for nulls."""

    null = False


def prune(obj: dict[str, Any], schema: Node) -> tuple[dict[str, Any], list[Path], bool]:
    """The resource ``obj`` without the fields its schema does not know, their paths in document order, and
    whether it may hold a null :func:`drop_nulls` drops (False: it holds none)."""
    pruned = _Pruned()
    out: dict[str, Any] | None = None
    for key, item in obj.items():
        if key in ROOT_META:  # not walked, but drop_nulls may go into them
            if item is None or (isinstance(item, (dict, list)) and has_null(item)):
                pruned.null = True
            continue
        if item is None:
            pruned.null = True
        new = _field(key, item, schema, (), pruned)
        if new is not item:
            out = dict(obj) if out is None else out
            if new is _DROP:
                del out[key]
            else:
                out[key] = new
    return (obj if out is None else out), pruned, pruned.null


def _field(key: str, value: Any, schema: Node, parent: Path, pruned: _Pruned) -> Any:
    sub = _schema_of(schema, key)
    if sub is None:
        if schema.additional is True:
            return value
        pruned.append((*parent, key))
        return _DROP
    if not isinstance(value, (dict, list)):
        return value  # a scalar has nothing to prune: no path to build for it
    return _walk(value, sub, (*parent, key), pruned)


def _walk(value: Any, schema: Node | None, path: Path, pruned: _Pruned) -> Any:
    if schema is not None and schema.preserve_unknown:
        return _skip(value, schema, path, pruned)
    if schema is None:
        return _unknown(value, path, pruned)
    if isinstance(value, dict):
        return _object(value, schema, path, pruned)
    if isinstance(value, list):
        return _items(value, schema.items, path, pruned)
    return value


def _items(value: list[Any], items: Node | None, path: Path, pruned: _Pruned) -> list[Any]:
    """:func:`_walk` of every item (a scalar has nothing to prune, under any schema)."""
    out: list[Any] | None = None
    for i, item in enumerate(value):
        if isinstance(item, (dict, list)):
            new = _walk(item, items, (*path, i), pruned)
            if new is not item:
                out = list(value) if out is None else out
                out[i] = new
    return value if out is None else out


def _object(value: dict[str, Any], schema: Node, path: Path, pruned: _Pruned) -> dict[str, Any]:
    """:func:`_field` of every item, inline (the walk's hot loop: scalars of known fields cost no call, nor
    does a step into an object or a list that keeps no unknown fields)."""
    out: dict[str, Any] | None = None
    properties, additional, embedded = schema.properties, schema.additional, schema.embedded
    for key, item in value.items():
        if item is None:
            pruned.null = True
        sub = properties.get(key)
        if sub is None and isinstance(additional, Node):
            sub = additional
        if sub is None:
            if additional is True or (embedded and key in ("apiVersion", "kind")):
                continue
            pruned.append((*path, key))
            out = dict(value) if out is None else out
            del out[key]
        elif isinstance(item, (dict, list)):
            if embedded and key in ("apiVersion", "kind"):  # not walked, but drop_nulls may go into it
                pruned.null = pruned.null or has_null(item)
                continue
            if sub.preserve_unknown:
                new = _skip(item, sub, (*path, key), pruned)
            elif isinstance(item, dict):
                new = _object(item, sub, (*path, key), pruned)
            else:
                new = _items(item, sub.items, (*path, key), pruned)
            if new is not item:
                out = dict(value) if out is None else out
                out[key] = new
    return value if out is None else out


def _unknown(value: Any, path: Path, pruned: _Pruned) -> Any:
    """A value no schema describes: every key of every mapping in it is unknown (lists nested in lists are
    walked without recursion: their depth is bounded only by the loader's limit)."""
    stack: list[tuple[Any, Path]] = [(value, path)]
    while stack:
        here, where = stack.pop()
        if isinstance(here, dict):
            pruned.extend((*where, key) for key in here)
        elif isinstance(here, list):
            stack.extend(((item, (*where, i)) for i, item in reversed(list(enumerate(here)))))
    return _emptied(value)


def _emptied(value: Any) -> Any:
    """``value`` with every mapping in it emptied (copied only where one had keys), without recursion."""
    done: dict[int, Any] = {}
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        node, children_done = stack.pop()
        if isinstance(node, dict) and node:
            done[id(node)] = {}
        elif isinstance(node, list) and not children_done:
            stack.append((node, True))
            stack.extend((item, False) for item in node)
        elif isinstance(node, list):
            new = [done.get(id(item), item) for item in node]
            done[id(node)] = new if any(n is not o for n, o in zip(new, node, strict=True)) else node
    return done.get(id(value), value)


def _skip(value: Any, schema: Node, path: Path, pruned: _Pruned) -> Any:
    """Under x-kubernetes-preserve-unknown-fields: keep unknown keys, still prune inside known ones."""
    if isinstance(value, dict):
        def known(key: str, item: Any) -> Any:
            if item is None:
                pruned.null = True
            sub = _schema_of(schema, key)
            return item if sub is None else _walk(item, sub, (*path, key), pruned)
        return _mapped(value, known)
    if isinstance(value, list) and schema.items is not None:
        items = schema.items
        return _listed(value, lambda i, item: _skip(item, items, (*path, i), pruned))
    return value


def _drops_null(schema: Node) -> bool:
    return schema.default is NO_DEFAULT and not schema.nullable


def has_null(value: dict[str, Any] | list[Any]) -> bool:
    """Whether a null lies anywhere in ``value``: most objects have none, and then :func:`drop_nulls` (a walk
    along the schema) has nothing to do. Each container is searched at C speed, without recursion."""
    stack = [value]
    while stack:
        here = stack.pop()
        children = here.values() if isinstance(here, dict) else here
        if None in children:
            return True
        for child in children:
            if isinstance(child, (dict, list)):
                stack.append(child)
    return False


def drop_nulls(value: Any, schema: Node | None) -> Any:
    """``value`` without the nulls of non-nullable fields that have no default (nulls in lists stay)."""
    if schema is None:
        return value
    if isinstance(value, dict):
        def field(key: str, item: Any) -> Any:
            sub = _schema_of(schema, key)
            if sub is None:
                return item
            return _DROP if item is None and _drops_null(sub) else drop_nulls(item, sub)
        return _mapped(value, field)
    if isinstance(value, list):
        items = schema.items
        return _listed(value, lambda i, item: drop_nulls(item, items))
    return value


def _null_to_default(value: Any, schema: Node) -> bool:
    return value is None and not schema.nullable and schema.default is not NO_DEFAULT


def _default_of(schema: Node) -> Any:
    return default(clone_json(schema.default), schema)


def default(value: Any, schema: Node | None) -> Any:
    """``value`` with the schema's defaults where a field is missing (or a non-nullable null)."""
    if schema is None:
        return value
    carries, known, additional, defaulted, items = _DEFAULTING.get(schema) or _defaulting(schema)
    if not carries:
        return value
    if isinstance(value, dict):
        out: dict[str, Any] | None = None
        for key, item in value.items():
            sub = known.get(key, additional)
            if sub is None or (not isinstance(item, (dict, list)) and item is not None):
                continue  # nothing below has a default, or a scalar: nothing to fill in
            new = _default_of(sub) if _null_to_default(item, sub) else default(item, sub)
            if new is not item:
                out = dict(value) if out is None else out
                out[key] = new
        done = value if out is None else out
        if not defaulted:
            return done
        missing = {key: _default_of(sub) for key, sub in defaulted if key not in done}
        return {**done, **missing} if missing else done
    if isinstance(value, list) and items is not None:
        changed: list[Any] | None = None
        for i, item in enumerate(value):
            new = _default_of(items) if _null_to_default(item, items) else default(item, items)
            if new is not item:
                changed = list(value) if changed is None else changed
                changed[i] = new
        return value if changed is None else changed
    return value


# What :func:`default` knows of a schema node: whether a default lies at or below it, each property's node
# where one lies below it (else None), the additionalProperties schema where one does, the properties with a
# default of their own (in schema order), and the items' schema where a default lies below it.
_Defaulting = tuple[bool, dict[str, Node | None], Node | None, tuple[tuple[str, Node], ...], Node | None]
_DEFAULTING: dict[Node, _Defaulting] = {}


def _defaulting(schema: Node) -> _Defaulting:
    carries = schema.carries("default")
    carrying, additional = schema.carrying("default") if carries else ({}, None)
    items = schema.items if carries else None
    entry = _DEFAULTING[schema] = (
        carries, {key: carrying.get(key) for key in schema.properties} if carries else {}, additional,
        schema.defaulted if carries else (), items if items is not None and items.carries("default") else None,
    )
    return entry
