"""Rewriting a changed document by splicing new text into the old at the node positions libyaml reports.

The round-trip editor (:mod:`.roundtrip`) loads each changed document with ruamel.yaml's pure-Python
round-trip loader and dumps it again: about 15 ms a VM. Most renders change a document in three simple
ways — keys removed, keys added to existing mappings, items appended to lists — which need no tree at
all: the old text stays byte for byte (comments, key order, quoting, indentation, block scalars, flow
style) and only the changed spans are replaced, with text emitted in kubectl's layout. What the editor
promises is kept: new keys come after the existing ones in the order of the new data; the comments of a
removed key stay where the key was, at its column.

:func:`splice` declines (returns None) wherever it could not keep a promise the way the editor does —
anchors, aliases, tags, merge keys, flow collections that change, changed multi-line or quoted scalars,
reordered or removed list items, indentation other than kubectl's — and the caller falls back to the
editor. Its output is loaded back and must read as the new data exactly, or it declines too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .emit import dump_yaml
from .load import events, load_stream
from .values import same


class Decline(Exception):
    """This change is not one that splicing keeps every promise for."""


class _Node:
    """A node of the old text: its span ``[start, end)``, key column, block or flow, and its children."""

    __slots__ = ("col", "end", "entries", "flow", "items", "plain", "start")

    def __init__(self, start: int, col: int, flow: bool, plain: bool) -> None:
        self.start = start
        self.end = start
        self.col = col
        self.flow = flow
        self.plain = plain
        self.entries: list[tuple[_Node, _Node]] | None = None  # a mapping's (key, value) pairs
        self.items: list[_Node] | None = None  # a sequence's items


def splice(text: str, old: Any, new: Any) -> str | None:
    """``text`` (one document, LF line ends) changed to hold ``new``; None when splicing cannot keep the
    editor's promises for this change."""
    try:
        root, layout = _tree(text)
        edits: list[tuple[int, int, str]] = []
        _value(text, root, old, new, edits)
    except Decline:
        return None
    if edits and not layout.fits(edits):
        return None
    # From the end backwards; at one position the inner insertion (recorded first) must come out first.
    out = text
    for _, (start, end, replacement) in sorted(enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[0]),
                                               reverse=True):
        out = out[:start] + replacement + out[end:]
    try:
        docs = load_stream(out, "<splice>")
    except Exception:
        return None
    return out if len(docs) == 1 and same(docs[0].data, new) else None


class _Layout:
    """How the document indents nested collections and quotes strings, as far as its nodes show it."""

    def __init__(self) -> None:
        self.kubectl = True  # two-space mappings, indentless sequences (what the fragments are written in)
        self.single_quotes = 0
        self.double_quotes = 0

    def nested(self, key: _Node, value: _Node) -> None:
        if not value.flow and (value.entries or value.items):
            step = value.col - key.col
            if step != (2 if value.entries is not None else 0):
                self.kubectl = False

    def fits(self, edits: list[tuple[int, int, str]]) -> bool:
        """Whether text written in kubectl's layout and double quotes looks like this document's own."""
        if not self.kubectl:
            return False
        return self.double_quotes >= self.single_quotes or not any('"' in e[2] for e in edits)


def _tree(text: str) -> tuple[_Node, _Layout]:
    stream: Iterator[Any] = events(text)
    layout = _Layout()
    for event in stream:
        if type(event).__name__ == "DocumentStartEvent":
            return _build(next(stream), stream, layout), layout
    raise Decline


def _build(first: Any, stream: Iterator[Any], layout: _Layout) -> _Node:
    stack: list[_Node] = []
    event = first
    while True:
        kind = type(event).__name__
        if kind == "AliasEvent" or getattr(event, "anchor", None) or getattr(event, "tag", None):
            raise Decline
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            node = _Node(event.start_mark.index, event.start_mark.column, bool(event.flow_style), False)
            if kind == "MappingStartEvent":
                node.entries = []
            else:
                node.items = []
            stack.append(node)
            event = next(stream)
            continue
        if kind in ("MappingEndEvent", "SequenceEndEvent"):
            node = stack.pop()
            children = [v for _, v in node.entries] if node.entries is not None else node.items or []
            node.end = event.end_mark.index if node.flow or not children else children[-1].end
        else:
            node = _Node(event.start_mark.index, event.start_mark.column, False, not event.style)
            node.end = event.end_mark.index
            if event.style == "'":
                layout.single_quotes += 1
            elif event.style == '"':
                layout.double_quotes += 1
            if event.style in ("|", ">"):
                node.flow = True  # a block scalar: its end is not where a following line may start
        if not stack:
            return node
        parent = stack[-1]
        if parent.items is not None:
            parent.items.append(node)
        elif parent.entries is not None:
            if parent.entries and parent.entries[-1][1] is _PENDING:
                parent.entries[-1] = (parent.entries[-1][0], node)
                layout.nested(parent.entries[-1][0], node)
            else:
                parent.entries.append((node, _PENDING))
        event = next(stream)


_PENDING = _Node(0, 0, False, False)


def _value(text: str, node: _Node, old: Any, new: Any, edits: list[tuple[int, int, str]]) -> None:
    if old == new and same(old, new):  # == first: it runs in C, and same() is only stricter
        return
    if isinstance(old, dict) and isinstance(new, dict) and node.entries is not None and new:
        _mapping(text, node, old, new, edits)
    elif isinstance(old, list) and isinstance(new, list) and node.items is not None and new:
        _sequence(text, node, old, new, edits)
    elif node.entries is None and node.items is None and not isinstance(new, (dict, list)):
        _scalar(text, node, new, edits)
    else:
        raise Decline


def _mapping(text: str, node: _Node, old: dict[str, Any], new: dict[str, Any],
             edits: list[tuple[int, int, str]]) -> None:
    assert node.entries is not None
    if node.flow or len(node.entries) != len(old):
        raise Decline
    for (key, value), name in zip(node.entries, old, strict=True):
        if key.plain and text[key.start : key.end] == "<<":
            raise Decline
        if name not in new:
            start, end = _line_start(text, key.start), _line_end(text, value)
            rescued = "".join(" " * node.col + c + "\n" for c in _comments(text, start, end, key, value))
            edits.append((start, end, rescued))
        else:
            _value(text, value, old[name], new[name], edits)
    added = {name: new[name] for name in new if name not in old}
    if added:
        at = _line_end(text, node.entries[-1][1])
        edits.append((at, at, _newline(text, at) + _fragment(added, node.col)))


def _sequence(text: str, node: _Node, old: list[Any], new: list[Any], edits: list[tuple[int, int, str]]) -> None:
    assert node.items is not None
    if node.flow or len(new) < len(old) or not _continues(old, new):
        raise Decline
    for item, before, after in zip(node.items, old, new, strict=False):
        _value(text, item, before, after, edits)
    if len(new) > len(old):
        at = _line_end(text, node.items[-1])
        edits.append((at, at, _newline(text, at) + _fragment(new[len(old) :], node.col)))


def _continues(old: list[Any], new: list[Any]) -> bool:
    """Whether the new list keeps the old items in place (the editor's name matching agrees then)."""
    names = [item.get("name") if isinstance(item, dict) else None for item in new]
    olds = [item.get("name") if isinstance(item, dict) else None for item in old]
    if all(isinstance(n, str) for n in names + olds) and len(set(names)) == len(names) and old:
        return names[: len(olds)] == olds
    return True


def _scalar(text: str, node: _Node, new: Any, edits: list[tuple[int, int, str]]) -> None:
    """A changed one-line plain scalar, written plain again when it can be."""
    written = dump_yaml(new)
    if not node.plain or node.flow or written.count("\n") != 1 or written[0] in "'\"|>":
        raise Decline
    if "\n" in text[node.start : node.end]:
        raise Decline
    line_end = text.find("\n", node.end)
    if "#" in text[node.end : len(text) if line_end < 0 else line_end]:
        raise Decline  # the editor keeps a trailing comment's column, padding or not as the length changes
    edits.append((node.start, node.end, written[:-1]))


def _fragment(data: dict[str, Any] | list[Any], col: int) -> str:
    """``data`` as block YAML whose first column is ``col``, keys in the order of the data."""
    lines: list[str] = []
    _emit(data, col, lines, "")
    return "".join(lines)


def _emit(data: Any, col: int, lines: list[str], lead: str) -> None:
    pad = " " * col
    if isinstance(data, dict):
        for i, (name, value) in enumerate(data.items()):
            head = (lead if i == 0 and lead else pad) + _key(name)
            _emit_value(value, col, lines, head)
    else:
        for i, item in enumerate(data):
            head = (lead if i == 0 and lead else pad) + "- "
            if isinstance(item, dict) and item:
                _emit(item, col + 2, lines, head)
            elif isinstance(item, list) and item:
                raise Decline  # nested sequences: kubectl's layout is not the editor's there
            else:
                lines.append(head + _inline(item) + "\n")


def _emit_value(value: Any, col: int, lines: list[str], head: str) -> None:
    if isinstance(value, dict) and value:
        lines.append(head + "\n")
        _emit(value, col + 2, lines, "")
    elif isinstance(value, list) and value:
        lines.append(head + "\n")
        _emit(value, col, lines, "")
    else:
        lines.append(head + " " + _inline(value) + "\n")


def _key(name: str) -> str:
    found = _KEYS.get(name)
    if found is None:
        written = dump_yaml({name: 0})
        if not written.endswith(" 0\n") or written.count("\n") != 1 or written.startswith("?"):
            raise Decline
        found = _KEYS[name] = written[: -len(" 0\n")]
    return found


_KEYS: dict[str, str] = {}  # bounded by the names of the new data's keys, a few hundred


def _inline(value: Any) -> str:
    if value == {} and isinstance(value, dict):
        return "{}"
    if value == [] and isinstance(value, list):
        return "[]"
    written = dump_yaml(value)
    if written.count("\n") != 1 or written[0] in "|>":
        raise Decline
    return written[:-1]


def _line_start(text: str, index: int) -> int:
    start = text.rfind("\n", 0, index) + 1
    if text[start:index].strip(" "):
        raise Decline  # something else shares the line (a flow collection, "- key: …")
    return start


def _line_end(text: str, node: _Node) -> int:
    """Where the line after ``node`` starts. Comment or blank lines there decline: the editor keeps them
    with ``node`` or after what is appended, depending on how ruamel.yaml attached them."""
    if node.flow and node.entries is None and node.items is None:
        raise Decline  # a block scalar: its trailing blank lines belong to it
    end = text.find("\n", node.end)
    pos = len(text) if end < 0 else end + 1
    if pos < len(text):
        end = text.find("\n", pos)
        following = text[pos : len(text) if end < 0 else end].strip(" ")
        if not following or following.startswith("#"):
            raise Decline
    return pos


def _newline(text: str, at: int) -> str:
    return "\n" if at == len(text) and text and not text.endswith("\n") else ""


def _comments(text: str, start: int, end: int, key: _Node, value: _Node) -> list[str]:
    """The comments in ``text[start:end]`` (a removed entry): '#' after a blank, outside any scalar."""
    scalars = list(_scalar_spans(key)) + list(_scalar_spans(value))
    found: list[str] = []
    pos = start
    while True:
        hit = text.find("#", pos, end)
        if hit < 0:
            return found
        line_end = text.find("\n", hit, end)
        line_end = end if line_end < 0 else line_end
        inside = any(s <= hit < e for s, e in scalars)
        if not inside and (hit == 0 or text[hit - 1] in " \t\n"):
            found.append(text[hit:line_end].rstrip())
            pos = line_end
        else:
            pos = hit + 1


def _scalar_spans(node: _Node) -> Iterator[tuple[int, int]]:
    if node.entries is not None:
        for key, value in node.entries:
            yield from _scalar_spans(key)
            yield from _scalar_spans(value)
    elif node.items is not None:
        for item in node.items:
            yield from _scalar_spans(item)
    else:
        yield node.start, node.end
