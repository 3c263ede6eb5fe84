"""The RuntimeClass admission of a Pod being created, before quota admission sees it: a RuntimeClass with an
``overhead.podFixed`` sets the Pod's ``spec.overhead`` (counted on top of its requests, and of its non-zero
limits), and a Pod whose overhead differs from it is refused (``plugin/pkg/admission/runtimeclass``)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..quantity import QuantityError, from_json

MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead"
WITHOUT = "pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead"


def _same(a: Any, b: Any) -> bool:
    """``apiequality.Semantic.DeepEqual`` of two resource lists: the same names, equal quantities."""
    if not isinstance(a, dict) or not isinstance(b, dict) or set(a) != set(b):
        return False
    try:
        return all(from_json(a[name]) == from_json(b[name]) for name in a)
    except QuantityError:
        return False


def admitted(pod: Mapping[str, Any], runtime_class: Mapping[str, Any] | None) -> tuple[dict[str, Any], str]:
    """The Pod as RuntimeClass admission leaves it (``runtime_class``: the one it names, None for none or one
    not known), and the refusal ("" when it is admitted)."""
    spec = pod.get("spec") or {}
    fixed = ((runtime_class or {}).get("overhead") or {}).get("podFixed")
    current = spec.get("overhead")
    if fixed is None:
        return dict(pod), WITHOUT if runtime_class is not None and current is not None else ""
    if current is not None and not _same(current, fixed):
        return dict(pod), MISMATCH
    out = copy.deepcopy(dict(pod))
    out.setdefault("spec", {})["overhead"] = copy.deepcopy(fixed)
    return out, ""
