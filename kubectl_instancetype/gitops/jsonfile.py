"""Rewriting a JSON manifest as JSON: the YAML round-trip editor would turn it into flow-style YAML.

Only a file that is one JSON value is handled here. Its indentation (the first indented line's, or none)
and final newline are kept, existing keys keep their order and new keys follow them, so the diff shows
what the expansion adds and nothing else.
"""

from __future__ import annotations

import json
from typing import Any


def parse(text: str) -> Any:
    """The value of ``text`` when it is exactly one JSON value, else None (as a YAML stream it is not JSON)."""
    if not text.lstrip().startswith(("{", "[")):
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def ordered_like(old: Any, new: Any) -> Any:
    """``new`` with the keys of each object in ``old``'s order first (positions match list items)."""
    if isinstance(old, dict) and isinstance(new, dict):
        keys = [k for k in old if k in new] + [k for k in new if k not in old]
        return {k: ordered_like(old.get(k), new[k]) for k in keys}
    if isinstance(old, list) and isinstance(new, list):
        return [ordered_like(old[i] if i < len(old) else None, x) for i, x in enumerate(new)]
    return new


def _indent(text: str) -> int | None:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" ")
        if stripped and len(stripped) < len(line):
            return len(line) - len(stripped)
    return None


def dump_like(text: str, old: Any, new: Any) -> str:
    """``new`` as JSON spelled like ``text``: its indentation, line ends and final newline."""
    indent = _indent(text)
    out = json.dumps(ordered_like(old, new), indent=indent, ensure_ascii=False, allow_nan=False,
                     separators=(",", ": ") if indent is not None else (", ", ": "))
    newline = "\r\n" if "\r\n" in text else "\n"
    out = out.replace("\n", newline)
    return out + newline if text.endswith("\n") else out
