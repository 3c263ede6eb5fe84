"""Paths into a VirtualMachine's JSON tree: reading, removing, and the differences between two trees.

A path is a tuple of keys and list indexes from the document root, as the render's origins and KubeVirt's
field paths are; a difference is shown as an RFC 6901 JSON pointer, the spelling ``kubectl patch`` and the
kustomize patches of ``render -o patch`` use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..api.golang import clone_json
from ..records import dataclass

Path = tuple[str | int, ...]
MISSING: Any = object()  # what :func:`get` returns for a path that leads nowhere


@dataclass(frozen=True)
class Difference:
    """One value that differs between the original VM's expansion and the rewritten VM's."""

    path: Path
    before: Any  # MISSING when absent
    after: Any

    @property
    def pointer(self) -> str:
        return pointer(self.path)

    def sentence(self) -> str:
        """``/spec/template/spec/domain/memory/guest: 3Gi → 4Gi``; ``(absent)`` for a missing side."""
        return f"{self.pointer}: {shown(self.before)} → {shown(self.after)}"


def pointer(path: Path) -> str:
    """``path`` as a JSON pointer (``~`` and ``/`` in keys escaped)."""
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


def shown(value: Any) -> str:
    """A value for a one-line message: scalars as YAML writes them, collections as compact JSON."""
    if value is MISSING:
        return "(absent)"
    if isinstance(value, str):
        return value if value and value.strip() == value else json.dumps(value)
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def get(tree: Any, path: Path) -> Any:
    """The value at ``path``, or :data:`MISSING`."""
    for key in path:
        if isinstance(key, int):
            if not isinstance(tree, list) or not 0 <= key < len(tree):
                return MISSING
        elif not isinstance(tree, dict) or key not in tree:
            return MISSING
        tree = tree[key]
    return tree


def without(tree: Any, *paths: Path) -> Any:
    """A copy of ``tree`` without the values at ``paths`` (those that lead nowhere are ignored)."""
    out = clone_json(tree)
    for path in paths:
        parent = get(out, path[:-1])
        if isinstance(parent, dict):
            parent.pop(path[-1], None)
    return out


def leaves(value: Any) -> int:
    """How many scalar values (and empty collections) ``value`` holds: the weight of a removal."""
    if isinstance(value, dict) and value:
        return sum(leaves(v) for v in value.values())
    if isinstance(value, list) and value:
        return sum(leaves(v) for v in value)
    return 1


def differences(before: Any, after: Any, path: Path = ()) -> Iterator[Difference]:
    """Every value that differs between two JSON trees, depth first in ``before``'s key order then
    ``after``'s; lists of different lengths differ as a whole."""
    if isinstance(before, dict) and isinstance(after, dict):
        for key in [*before, *(k for k in after if k not in before)]:
            yield from differences(before.get(key, MISSING), after.get(key, MISSING), (*path, key))
    elif isinstance(before, list) and isinstance(after, list) and len(before) == len(after):
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            yield from differences(old, new, (*path, index))
    elif before is MISSING or after is MISSING or type(before) is not type(after) or before != after:
        yield Difference(path, before, after)
