"""Small operations on JSON-like trees (dicts, lists, scalars) used to compose catalog objects.

Catalog objects are assembled from shared fragments, so every fragment must be copied before it lands in
an object: a caller that edits one object must never change another one or the table itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...api.golang import clone_json as copy_tree

__all__ = ["copy_tree", "merge"]


def merge(fragments: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Deep-merge fragments in order into a new dict: nested mappings merge, later scalars win."""
    result: dict[str, Any] = {}
    for fragment in fragments:
        _merge_into(result, fragment)
    return result


def _merge_into(target: dict[str, Any], fragment: dict[str, Any]) -> None:
    for key, value in fragment.items():
        current = target.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            _merge_into(current, value)
        else:
            target[key] = copy_tree(value)


def sorted_tree(value: Any) -> Any:
    """The same tree with every mapping's keys in sorted order, as ``kubectl kustomize`` prints them.

    Order does not matter for equality, but it makes what we emit read like the published bundles.
    """
    if isinstance(value, dict):
        return {key: sorted_tree(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [sorted_tree(item) for item in value]
    return value
