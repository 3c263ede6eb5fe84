"""Kubernetes lists among the inputs: ``kind: List`` (and the ``*List`` kinds of known API groups) as their items.

kubectl reads a List as the objects it holds; so does every command, before anything is checked or rendered.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..api.lists import is_list
from ..errors import InputError
from ..yamlio import Document


def flatten(docs: Iterable[Document]) -> Iterator[Document]:
    """Documents with ``kind: List`` (and the ``*List`` kinds of known API groups) replaced by their items."""
    for doc in docs:
        data = doc.data
        if is_list(data):
            items = data["items"] or []
            if not isinstance(items, list):
                raise InputError("items of a List must be a list", doc.locate(("items",)))
            for i, item in enumerate(items):
                yield from flatten([doc.nested(item, "items", i)])
        else:
            yield doc
