"""Printing rendered documents as they come: YAML streams and kubectl-style JSON, one object at a time.

Rendering 10,000 VMs must not hold 10,000 expansions: each document is written and dropped. JSON output
is one object for a single input document, else a ``v1`` ``List`` written piece by piece, byte for byte
what dumping the whole List at once would print.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TextIO

from ..render import Item
from ..yamlio import dump_json, dump_yaml

_ITEM_INDENT = " " * 8
_LIST_HEAD = '{\n    "apiVersion": "v1",\n    "items": ['
_LIST_TAIL = '    "kind": "List",\n    "metadata": {\n        "resourceVersion": ""\n    }\n}\n'


def print_stream(items: Iterable[Item], output: str, single: bool, out: TextIO | None = None) -> None:
    """Write each rendered item to ``out`` (stdout) as ``yaml`` or ``json`` (items that failed are left out)."""
    stream = out or sys.stdout
    as_list = output == "json" and not single
    if as_list:
        stream.write(_LIST_HEAD)
    written = 0
    for item in items:
        if item.rendered is None:
            continue
        if output == "yaml":
            stream.write(("---\n" if written else "") + dump_yaml(item.rendered))
        elif as_list:
            text = dump_json(item.rendered).rstrip("\n").replace("\n", "\n" + _ITEM_INDENT)
            stream.write(("," if written else "") + "\n" + _ITEM_INDENT + text)
        else:
            stream.write(dump_json(item.rendered))
        written += 1
    if as_list:
        stream.write(("\n    ],\n" if written else "],\n") + _LIST_TAIL)
