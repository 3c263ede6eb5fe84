"""The explained views of a render: each value the rendering set, with its origin.

YAML carries each origin as a trailing comment on the line of the value it explains (removing the comments
gives the plain render); JSON is ``{"object": ..., "origins": {JSON pointer: origin}}`` for tools. Documents
the render did not set anything in (other kinds) come out plain.
"""

from __future__ import annotations

from typing import Any

from .api.origin import json_pointer
from .render import Item
from .schemas import header
from .yamlio.emit import dump_yaml_commented


def explained_yaml(item: Item) -> str:
    """The rendered document with each value's origin as a trailing comment."""
    origins = item.origins or {}
    return dump_yaml_commented(item.rendered, {path: origin.text() for path, origin in origins.items()})


def explained_json(item: Item) -> dict[str, Any]:
    """The rendered document and, by JSON pointer, the origin of each value its rendering set."""
    origins = sorted((item.origins or {}).items(), key=lambda entry: json_pointer(entry[0]))
    return {**header("Explanation"), "object": item.rendered,
            "origins": {json_pointer(path): origin.as_json() for path, origin in origins}}
