"""The types of the fields expansion reads, checked as the API server's OpenAPI validation would.

A VM or catalog object whose fields have the wrong type (``cpu.guest: two``, ``domain: []``) cannot be
processed: the check names the first such field so the CLI can point at its ``line:col``. Only the fields
expansion reads or copies are described; everything else passes through untouched.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .quantity import QuantityError, from_json

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Problem:
    """The first field of the wrong type: where, and KubeVirt's API server's wording of why."""

    path: Path
    message: str


INT, STR, BOOL, QTY, OBJ, ANY = "integer", "string", "boolean", "quantity", "object", "any"
Schema = str | Mapping[str, Any] | tuple[str, Any]


def map_of(item: Schema) -> tuple[str, Schema]:
    return ("map", item)


def list_of(item: Schema) -> tuple[str, Schema]:
    return ("list", item)


_PY_TYPES: dict[str, tuple[type, ...]] = {INT: (int,), STR: (str,), BOOL: (bool,), OBJ: (dict,)}
_GO_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number"}


def _kind_name(value: Any) -> str:
    return _GO_NAMES.get(type(value), type(value).__name__)


def _dotted(path: Path) -> str:
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else step)
    return out


def _wrong(path: Path, value: Any, want: str) -> Problem:
    return Problem(path, f"{_dotted(path)} in body must be of type {want}: \"{_kind_name(value)}\"")


def check(value: Any, schema: Schema, path: Path = ()) -> Problem | None:
    """The first field of ``value`` that does not fit ``schema`` (null fits everything: it is unset)."""
    if value is None or schema == ANY:
        return None
    if isinstance(schema, str):
        return _check_scalar(value, schema, path)
    if isinstance(schema, tuple):
        return _check_collection(value, schema, path)
    if not isinstance(value, dict):
        return _wrong(path, value, "object")
    for key, sub in schema.items():
        if key in value:
            problem = check(value[key], sub, (*path, key))
            if problem:
                return problem
    return None


def _check_scalar(value: Any, schema: str, path: Path) -> Problem | None:
    if schema == QTY:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            return _wrong(path, value, "string")
        try:
            from_json(value)
        except QuantityError as exc:
            return Problem(path, f"{_dotted(path)}: {exc.message}")
        return None
    if schema == INT and isinstance(value, float) and value.is_integer():
        return None
    if isinstance(value, bool) and schema != BOOL:
        return _wrong(path, value, schema)
    if not isinstance(value, _PY_TYPES[schema]):
        return _wrong(path, value, schema)
    return None


def _check_collection(value: Any, schema: tuple[str, Any], path: Path) -> Problem | None:
    kind, item = schema
    if kind == "list":
        if not isinstance(value, list):
            return _wrong(path, value, "array")
        pairs: Any = enumerate(value)
    else:
        if not isinstance(value, dict):
            return _wrong(path, value, "object")
        pairs = value.items()
    for key, sub in pairs:
        problem = check(sub, item, (*path, key))
        if problem:
            return problem
    return None
