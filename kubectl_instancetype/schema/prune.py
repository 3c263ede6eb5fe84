"""The API server's decoding steps on an object: pruning unknown fields, dropping nulls, defaulting.

Structural pruning (apiextensions-apiserver ``schema/pruning``) walks the object along the schema and drops
every field the schema does not know, recording its path (``spec.template.sepc``); a value of the wrong shape
is walked all the same (a map where a string belongs loses all its keys, the items of a list where an object
belongs lose theirs). Below ``x-kubernetes-preserve-unknown-fields`` only the known properties are walked.
Then nulls of non-nullable fields without a default are dropped (``defaulting.PruneNonNullableNullsWithout
Defaults``) and defaults are filled in (``defaulting.Default``). Each function mutates the copy it is given.
"""

from __future__ import annotations

import copy
from typing import Any

from .fielderror import Path
from .tables import NO_DEFAULT, Node

ROOT_META = frozenset(("apiVersion", "kind", "metadata"))


def prune(obj: dict[str, Any], schema: Node) -> list[Path]:
    """Drop the unknown fields of the resource ``obj`` in place; their paths, in document order."""
    pruned: list[Path] = []
    for key in list(obj):
        if key in ROOT_META:
            continue  # the resource root: type meta stays, metadata is decoded as ObjectMeta
        _field(obj, key, schema, (), pruned)
    return pruned


def _field(mapping: dict[str, Any], key: str, schema: Node, parent: Path, pruned: list[Path]) -> None:
    sub = schema.properties.get(key)
    if sub is None and isinstance(schema.additional, Node):
        sub = schema.additional
    if sub is None:
        if schema.additional is not True:
            pruned.append((*parent, key))
            del mapping[key]
        return
    _walk(mapping[key], sub, (*parent, key), pruned)


def _walk(value: Any, schema: Node | None, path: Path, pruned: list[Path]) -> None:
    if schema is not None and schema.preserve_unknown:
        _skip(value, schema, path, pruned)
    elif isinstance(value, dict):
        if schema is None:
            pruned.extend((*path, key) for key in value)
            value.clear()
            return
        for key in list(value):
            if schema.embedded and key in ("apiVersion", "kind"):
                continue
            _field(value, key, schema, path, pruned)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _walk(item, schema.items if schema is not None else None, (*path, i), pruned)


def _skip(value: Any, schema: Node, path: Path, pruned: list[Path]) -> None:
    """Under x-kubernetes-preserve-unknown-fields: keep unknown keys, still prune inside known ones."""
    if isinstance(value, dict):
        for key, item in value.items():
            sub = schema.properties.get(key)
            if sub is None and isinstance(schema.additional, Node):
                sub = schema.additional
            if sub is not None:
                _walk(item, sub, (*path, key), pruned)
    elif isinstance(value, list) and schema.items is not None:
        for i, item in enumerate(value):
            _skip(item, schema.items, (*path, i), pruned)


def _drops_null(schema: Node) -> bool:
    return schema.default is NO_DEFAULT and not schema.nullable


def drop_nulls(value: Any, schema: Node | None) -> None:
    """Remove the null values of non-nullable fields without a default (nulls in lists stay)."""
    if schema is None:
        return
    if isinstance(value, dict):
        for key in list(value):
            sub = schema.properties.get(key)
            if sub is None and isinstance(schema.additional, Node):
                sub = schema.additional
            if sub is None:
                continue
            if value[key] is None and _drops_null(sub):
                del value[key]
            else:
                drop_nulls(value[key], sub)
    elif isinstance(value, list):
        for item in value:
            drop_nulls(item, schema.items)


def _null_to_default(value: Any, schema: Node) -> bool:
    return value is None and not schema.nullable and schema.default is not NO_DEFAULT


def default(value: Any, schema: Node | None) -> None:
    """Fill in the schema's defaults where a field is missing (or a non-nullable null)."""
    if schema is None:
        return
    if isinstance(value, dict):
        for key, prop in schema.properties.items():
            if prop.default is not NO_DEFAULT and (key not in value or _null_to_default(value[key], prop)):
                value[key] = copy.deepcopy(prop.default)
        for key, item in value.items():
            sub = schema.properties.get(key)
            extra = schema.additional
            if sub is None and isinstance(extra, Node):
                sub = extra
                if _null_to_default(item, extra):
                    value[key] = item = copy.deepcopy(extra.default)
            default(item, sub)
    elif isinstance(value, list) and schema.items is not None:
        for i, item in enumerate(value):
            if _null_to_default(item, schema.items):
                value[i] = item = copy.deepcopy(schema.items.default)
            default(item, schema.items)
