"""``kubectl apply`` of a custom resource: the three-way JSON merge patch (RFC 7386) and its application.

A custom resource has no strategic-merge metadata, so kubectl builds the patch with
``jsonmergepatch.CreateThreeWayJSONMergePatch`` (k8s.io/apimachinery/pkg/util/jsonmergepatch/patch.go):
the deletions are what the last applied configuration (``original``) had and the new one (``modified``)
drops; the additions and changes are where ``modified`` differs from the live object (``current``). Lists are
replaced whole. Fields only the server wrote (a firmware UUID, the status) stay, unless ``original`` had them
and ``modified`` removes them.
"""

from __future__ import annotations

from typing import Any

from .golang import clone_json

Json = Any


def _deletions(original: Json, modified: Json) -> dict[str, Any]:
    """The keys ``original`` has and ``modified`` drops, as ``null`` (nested mappings recursively)."""
    out: dict[str, Any] = {}
    for key, value in original.items():
        if key not in modified:
            out[key] = None
        elif isinstance(value, dict) and isinstance(modified[key], dict):
            nested = _deletions(value, modified[key])
            if nested:
                out[key] = nested
    return out


def _changes(current: Json, modified: Json) -> dict[str, Any]:
    """What ``modified`` adds or changes relative to ``current`` (deletions ignored, like
    ``CreateMergePatch`` with ``IgnoreDeletions``)."""
    out: dict[str, Any] = {}
    for key, value in modified.items():
        if key not in current:
            out[key] = clone_json(value)
        elif isinstance(value, dict) and isinstance(current[key], dict):
            nested = _changes(current[key], value)
            if nested:
                out[key] = nested
        elif value != current[key] or type(value) is not type(current[key]):
            out[key] = clone_json(value)
    return out


def _merged(into: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merged(into[key], value)
        else:
            into[key] = value
    return into


def three_way_patch(original: Json, modified: Json, current: Json) -> dict[str, Any]:
    """The merge patch ``kubectl apply`` sends (``CreateThreeWayJSONMergePatch``)."""
    return _merged(_deletions(original or {}, modified), _changes(current, modified))


def apply_merge_patch(target: Json, patch: Json) -> Json:
    """RFC 7386: ``patch`` applied to a copy of ``target``; ``null`` removes a key, lists are replaced."""
    if not isinstance(patch, dict):
        return clone_json(patch)
    out = clone_json(target) if isinstance(target, dict) else {}
    for key, value in patch.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = apply_merge_patch(out.get(key), value)
    return out


def kubectl_apply(original: Json, modified: Json, current: Json) -> Json:
    """The live object after ``kubectl apply`` of ``modified`` over ``current`` last applied as ``original``."""
    return apply_merge_patch(current, three_way_patch(original, modified, current))
