"""The new text of a file whose VirtualMachines take their suggestions, kept as ``render --write`` keeps it.

Each rewritten VM replaces its object in its document (at the item's place in a ``kind: List``); the file
then goes through :func:`~kubectl_instancetype.gitops.plan.rewritten`: unchanged documents byte for byte,
changed ones through the round-trip editor with their comments, a JSON file as JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.golang import clone_json
from ..errors import InputError, Location
from ..gitops.plan import rewritten
from ..yamlio import load_stream
from .tree import Path, get

Spec = dict[str, Any]


def suggested_text(text: str, source: str, vms: Mapping[tuple[int, Path], Spec]) -> str:
    """``text`` with the object at (document index, path in the document) replaced by ``vms[...]``."""
    if not vms:
        return text
    docs = load_stream(text, source)
    new: dict[int, Any] = {}
    for doc in docs:
        for (index, path), vm in vms.items():
            if index == doc.index:
                new[index] = _replaced(new.get(index, doc.data), path, vm, source)
    return rewritten(text, new, source, docs)


def _replaced(data: Any, path: Path, value: Spec, source: str) -> Any:
    """A copy of ``data`` holding ``value`` at ``path``."""
    if not path:
        return clone_json(value)
    out = clone_json(data)
    parent = get(out, path[:-1])
    if not isinstance(parent, dict | list):
        raise InputError("file changed while suggestions were being made", Location(source))
    parent[path[-1]] = clone_json(value)  # type: ignore[index]
    return out
