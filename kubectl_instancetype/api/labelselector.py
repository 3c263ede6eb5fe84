"""A ``metav1.LabelSelector`` object matched against labels, as ``metav1.LabelSelectorAsSelector`` and
``Selector.Matches`` do (k8s.io/apimachinery/pkg/apis/meta/v1/helpers.go).

An empty selector matches everything; ``matchLabels`` and ``matchExpressions`` must all hold; ``NotIn`` and
``DoesNotExist`` also match labels without the key. A selector apimachinery cannot convert (an unknown
operator, ``In``/``NotIn`` without values, ``Exists``/``DoesNotExist`` with values, a non-string value) is
reported as None, which callers treat as KubeVirt does: it matches nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def selector_matches(selector: Any, labels: Mapping[str, str]) -> bool | None:
    """Whether ``labels`` satisfy the LabelSelector object ``selector``; None when it is invalid."""
    if not isinstance(selector, dict):
        return None
    checks: list[bool] = []
    match_labels = selector.get("matchLabels") or {}
    if not isinstance(match_labels, dict) or not all(isinstance(v, str) for v in match_labels.values()):
        return None
    checks.extend(key in labels and labels[key] == value for key, value in match_labels.items())
    for expression in selector.get("matchExpressions") or []:
        result = _expression(expression, labels)
        if result is None:
            return None
        checks.append(result)
    return all(checks)


def _expression(expression: Any, labels: Mapping[str, str]) -> bool | None:
    if not isinstance(expression, dict):
        return None
    key, operator = expression.get("key"), expression.get("operator")
    values = expression.get("values") or []
    if not isinstance(key, str) or not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        return None
    if operator in ("In", "NotIn"):
        if not values:
            return None
        found = key in labels and labels[key] in values
        return found if operator == "In" else not found
    if operator in ("Exists", "DoesNotExist"):
        if values:
            return None
        return (key in labels) == (operator == "Exists")
    return None
