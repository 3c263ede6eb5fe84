"""The explained views of a render: each value the rendering set, with its origin.

YAML carries each origin as a trailing comment on the line of the value it explains (removing the comments
gives the plain render); JSON is ``{"object": ..., "origins": {JSON pointer: origin}}`` for tools. Documents
the render did not set anything in (other kinds) come out plain.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .api.origin import TEMPLATE, Origin, Path, json_pointer
from .render import Item
from .schemas import header
from .yamlio.emit import dump_yaml_commented


def _origins(item: Item) -> Mapping[Path, Origin]:
    """The render's origins and, in a template's VM, the parameter behind each value written with ``${X}``
    (where the render set nothing itself)."""
    origins = item.origins or {}
    if not origins or not item.document.prefix:
        return origins
    from .vmtemplate.origins import parameter_paths

    filled = {path: Origin(TEMPLATE, "template parameter" + ("s " if len(names) > 1 else " ") + ", ".join(names))
              for path, names in parameter_paths(item.document).items()}
    return {**filled, **origins} if filled else origins


def explained_yaml(item: Item) -> str:
    """The rendered document with each value's origin as a trailing comment."""
    origins = _origins(item)
    return dump_yaml_commented(item.rendered, {path: origin.text() for path, origin in origins.items()})


def explained_json(item: Item) -> dict[str, Any]:
    """The rendered document and, by JSON pointer, the origin of each value its rendering set."""
    origins = sorted(_origins(item).items(), key=lambda entry: json_pointer(entry[0]))
    return {**header("Explanation"), "object": item.rendered,
            "origins": {json_pointer(path): origin.as_json() for path, origin in origins}}
