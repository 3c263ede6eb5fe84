"""The one walk of ``omit_zero_plain_fields`` drops what a walk of each path of PLAIN_FIELDS on its own drops."""

from __future__ import annotations

import copy
import random
from typing import Any

from kubectl_instancetype.api.omitempty import PLAIN_FIELDS, _omit, omit_zero_plain_fields


def _by_path(spec: Any) -> None:  # the walk before: each path from the root
    for path, fields in PLAIN_FIELDS.items():
        nodes = [spec]
        for key in path:
            if key == "[]":
                nodes = [item for node in nodes if isinstance(node, list) for item in node]
            else:
                nodes = [node.get(key) for node in nodes if isinstance(node, dict)]
        for node in nodes:
            if isinstance(node, dict):
                _omit(node, fields)


def _spec(rng: random.Random) -> dict[str, Any]:
    spec: dict[str, Any] = {}
    for path, fields in PLAIN_FIELDS.items():
        nodes = [spec]
        for key in path:
            if key == "[]":
                continue
            nxt = []
            for node in nodes:
                if isinstance(node, list):
                    node = node[0] if node else node.append({}) or node[0]
                child = node.setdefault(key, [{}, {}] if rng.random() < 0.5 else {})
                nxt.append(child)
            nodes = nxt
        for node in nodes:
            target = node[rng.randrange(len(node))] if isinstance(node, list) and node else node
            if isinstance(target, dict):
                for name in fields:
                    target[name] = rng.choice([False, 0, "", None, True, 1, "x", 0.0])
    return spec


def test_one_walk_drops_what_each_path_drops() -> None:
    rng = random.Random(25)
    for _ in range(300):
        spec = _spec(rng)
        expected = copy.deepcopy(spec)
        _by_path(expected)
        omit_zero_plain_fields(spec)
        assert spec == expected
