"""Where the nodes of a loaded document are, found on demand and in time linear in the input.

The single parse of a stream (``load.py``) keeps no per-node positions: that would slow every clean file
down. It records where each document's text starts and ends, which costs nothing. The first ``locate``
in a document then reads that document's text alone — not the stream before it — and indexes every node
of it once; later lookups in the same document (many refused items of one ``kind: List``) are dict
lookups. A file of many refused documents is so read twice in all, never once per error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..records import dataclass

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Span:
    """Where one document's text is in its stream: character offsets, and the line and column it starts at
    (0-based, as the parser's marks)."""

    start: int
    end: int
    line: int
    col: int


class _Node:
    """A node's position (1-based) and its children: key -> (key position, value) or items."""

    __slots__ = ("children", "col", "line")

    def __init__(self, line: int, col: int, children: dict[str, tuple[int, int, _Node]] | list[_Node] | None):
        self.line = line
        self.col = col
        self.children = children


class Positions:
    """The positions of every document of one stream, indexed document by document when first asked."""

    def __init__(self, text: str, events: Callable[[str], Iterator[Any]]) -> None:
        self.text = text
        self._events = events
        self._trees: dict[int, _Node | None] = {}

    def locate(self, index: int, span: Span | None, path: Path) -> tuple[int, int] | None:
        """(line, col), 1-based, of the node at ``path`` in document ``index`` (its deepest existing
        prefix); None when the document cannot be read again."""
        if index not in self._trees:
            self._trees[index] = self._index(index, span)
        tree = self._trees[index]
        return None if tree is None else _find(tree, path)

    def _index(self, index: int, span: Span | None) -> _Node | None:
        if span is not None:
            # The document's own text, padded so that its first line keeps its columns.
            tree = _tree(self._events(" " * span.col + self.text[span.start : span.end]), 0, span.line)
            if tree is not None:
                return tree
        return _tree(self._events(self.text), index, 0)


def _find(node: _Node, path: Path) -> tuple[int, int]:
    for i, want in enumerate(path):
        children = node.children
        if isinstance(children, dict):
            entry = children.get(str(want))
            if entry is None:
                break
            if i == len(path) - 1:
                return entry[0], entry[1]
            node = entry[2]
        elif isinstance(children, list) and isinstance(want, int) and 0 <= want < len(children):
            node = children[want]
        else:
            break
    return node.line, node.col


def _tree(events: Iterator[Any], index: int, line_offset: int) -> _Node | None:
    """The node tree of document ``index`` of an event stream, lines shifted by ``line_offset``."""
    try:
        doc = -1
        for event in events:
            if type(event).__name__ == "DocumentStartEvent":
                doc += 1
                if doc == index:
                    return _build(next(events), events, line_offset)
    except Exception:  # the document was read once already; a second failure only loses the position
        return None
    return None


def _build(first: Any, events: Iterator[Any], line_offset: int) -> _Node:
    # An explicit stack: [node, pending key (line, col, text) or None]; documents may nest deeply.
    stack: list[list[Any]] = []
    event = first
    while True:
        kind = type(event).__name__
        mark = event.start_mark
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            children: dict[str, tuple[int, int, _Node]] | list[_Node] = {} if kind == "MappingStartEvent" else []
            stack.append([_Node(mark.line + line_offset + 1, mark.column + 1, children), None])
            event = next(events)
            continue
        if kind in ("MappingEndEvent", "SequenceEndEvent"):
            node = stack.pop()[0]
        else:  # ScalarEvent, AliasEvent
            node = _Node(mark.line + line_offset + 1, mark.column + 1, None)
        if not stack:
            return node
        top = stack[-1]
        parent = top[0].children
        if isinstance(parent, list):
            parent.append(node)
        elif top[1] is None:
            top[1] = (node.line, node.col, event.value if kind == "ScalarEvent" else None)
        else:
            key_line, key_col, key = top[1]
            if key is not None and key not in parent:
                parent[key] = (key_line, key_col, node)
            top[1] = None
        event = next(events)
