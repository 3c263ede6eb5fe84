"""metav1.LabelSelector objects matched as apimachinery does."""

from __future__ import annotations

from typing import Any

import pytest

from kubectl_instancetype.api.labelselector import selector_matches

LABELS = {"app": "web", "tier": "front"}


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        ({}, True),  # the empty selector matches everything
        ({"matchLabels": {"app": "web"}}, True),
        ({"matchLabels": {"app": "db"}}, False),
        ({"matchExpressions": [{"key": "tier", "operator": "In", "values": ["front", "back"]}]}, True),
        ({"matchExpressions": [{"key": "zone", "operator": "NotIn", "values": ["a"]}]}, True),
        ({"matchExpressions": [{"key": "zone", "operator": "Exists"}]}, False),
        ({"matchExpressions": [{"key": "zone", "operator": "DoesNotExist"}]}, True),
        ({"matchLabels": {"app": "web"}, "matchExpressions": [{"key": "tier", "operator": "In", "values": ["x"]}]},
         False),
        ({"matchExpressions": [{"key": "tier", "operator": "In", "values": []}]}, None),
        ({"matchExpressions": [{"key": "tier", "operator": "Exists", "values": ["x"]}]}, None),
        ({"matchExpressions": [{"key": "tier", "operator": "Equals", "values": ["x"]}]}, None),
        ("app=web", None),
    ],
)
def test_selector_matches(selector: Any, expected: bool | None) -> None:
    assert selector_matches(selector, LABELS) is expected
