"""Go's rules for plain JSON-like data: lower-casing, "set" versus zero values, nil pointers, JSON text."""

from __future__ import annotations

import json
from typing import Any


def go_lower(text: str) -> str:
    """Go's strings.ToLower: simple one-to-one case mapping (Python's str.lower maps U+0130 to two
    characters and knows a final sigma; Go does neither)."""
    return "".join("i" if c == "\u0130" else c.lower() for c in text)


def child(parent: dict[str, Any], key: str) -> dict[str, Any]:
    """``parent[key]`` as a mapping, created empty when absent or null (Go: allocate a nil pointer)."""
    value = parent.get(key)
    if not isinstance(value, dict):
        value = {}
        parent[key] = value
    return value


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


def go_json(value: Any) -> str:
    """Compact JSON as Go's encoding/json writes a decoded map (sorted keys, HTML-safe escapes)."""
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def go_type_name(obj: dict[str, Any] | None) -> str:
    """How Go's ``%T`` prints a decoded API object (``<nil>`` when there is none)."""
    if obj is None:
        return "<nil>"
    version = str(obj.get("apiVersion", "")).rsplit("/", 1)[-1]
    return f"*{version}.{obj.get('kind')}"
