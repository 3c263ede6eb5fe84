"""Printing rendered documents as they come: YAML streams and kubectl-style JSON, one object at a time.

Rendering 10,000 VMs must not hold 10,000 expansions: each document is written and dropped. JSON output
is one object for a single input document, else a ``v1`` ``List`` written piece by piece, byte for byte
what dumping the whole List at once would print. With ``explain``, each document's explained view
(:mod:`..explain`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TextIO

from ..render import Item
from ..yamlio import dump_json, dump_yaml

_ITEM_INDENT = " " * 8
_LIST_HEAD = '{\n    "apiVersion": "v1",\n    "items": ['
_LIST_TAIL = '    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'


def print_stream(items: Iterable[Item], output: str, single: bool, out: TextIO | None = None,
                 explain: bool = False) -> None:
    """Write each rendered item to ``out`` (stdout) as ``yaml`` or ``json`` (items that failed are left out)."""
    text = item_text(output, single, explain)
    print_texts((text(item) for item in items if item.rendered is not None), output, single, out)


def item_text(output: str, single: bool, explain: bool = False) -> Callable[[Item], str]:
    """What :func:`print_texts` prints of a rendered item (made where the item is, in a ``--jobs`` worker)."""
    if explain:
        from ..explain import explained_json, explained_yaml
    as_list = output == "json" and not single

    def text(item: Item) -> str:
        if output == "yaml":
            return explained_yaml(item) if explain else dump_yaml(item.rendered)
        dumped = dump_json(explained_json(item) if explain else item.rendered)
        return dumped.rstrip("\n").replace("\n", "\n" + _ITEM_INDENT) if as_list else dumped

    return text


def print_texts(texts: Iterable[str | None], output: str, single: bool, out: TextIO | None = None) -> None:
    """Write the texts of :func:`item_text` to ``out`` (stdout) as one stream (None: left out)."""
    stream = out or sys.stdout
    as_list = output == "json" and not single
    if as_list:
        stream.write(_LIST_HEAD)
    written = 0
    for text in texts:
        if text is None:
            continue
        if output == "yaml":
            stream.write(("---\n" if written else "") + text)
        elif as_list:
            stream.write(("," if written else "") + "\n" + _ITEM_INDENT + text)
        else:
            stream.write(text)
        written += 1
    if as_list:
        stream.write(("\n    ],\n" if written else "],\n") + _LIST_TAIL)
