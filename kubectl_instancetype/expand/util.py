"""Small helpers for editing plain VM data with Go's notion of "set"."""

from __future__ import annotations

from typing import Any


def child(parent: dict[str, Any], key: str) -> dict[str, Any]:
    """``parent[key]`` as a mapping, created empty when absent or null (Go: allocate a nil pointer)."""
    value = parent.get(key)
    if not isinstance(value, dict):
        value = {}
        parent[key] = value
    return value


def lookup(data: Any, *keys: str) -> Any:
    """The value at ``keys`` or None when any step is missing or null."""
    for key in keys:
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def is_set(value: Any) -> bool:
    """A Go pointer, map or slice field: set when present and not null."""
    return value is not None


def nonzero(value: Any) -> bool:
    """A plain Go string/number/bool field: set when not its zero value."""
    return value not in (None, "", 0, False)


def clone_json(value: Any) -> Any:
    """A deep copy of plain JSON-like data (much faster than copy.deepcopy)."""
    if isinstance(value, dict):
        return {k: clone_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [clone_json(v) for v in value]
    return value
