"""VirtualMachines named twice in one namespace across the inputs: applied together, one replaces the other.

``kubectl apply -f vms/ -R`` sends each object in turn, so of two files that both hold ``default/web`` the
later one wins and the earlier one's VM never runs as written; ``kubectl apply`` says nothing about it. The
later object gets a warning naming where the earlier one is.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import Notice
from ..yamlio import Document

KINDS = frozenset(("VirtualMachine", "VirtualMachinePool"))


def duplicates(documents: Iterable[Document], namespace: str) -> list[Notice]:
    """A warning on every VirtualMachine (or pool) whose kind, namespace and name an earlier one has."""
    first: dict[tuple[str, str, str], Document] = {}
    out: list[Notice] = []
    for doc in documents:
        data = doc.data
        if not isinstance(data, dict) or not isinstance(data.get("kind"), str) or data["kind"] not in KINDS:
            continue
        meta = data.get("metadata")
        if not isinstance(meta, dict) or not isinstance(meta.get("name"), str) or not meta["name"]:
            continue
        name: str = meta["name"]
        key = (str(data["kind"]), str(meta.get("namespace") or namespace), name)
        earlier = first.setdefault(key, doc)
        if earlier is not doc and earlier.location != doc.location:  # a file given twice is one definition
            out.append(Notice(f"{key[0]} {key[1]}/{name} is also defined at {earlier.location}: applied together, "
                              "the later one replaces the earlier (kubectl apply keeps the last it sends)",
                              doc.location))
    return out
