"""Rewriting a changed document by splicing new text into the old at the node positions libyaml reports.

The round-trip editor (:mod:`.roundtrip`) loads each changed document with ruamel.yaml's pure-Python
round-trip loader and dumps it again: about 15 ms a VM. Most renders change a document in three simple
ways — keys removed, keys added to existing mappings, items appended to lists — which need no tree at
all: the old text stays byte for byte (comments, key order, quoting, indentation, block scalars, flow
style) and only the changed spans are replaced, with text emitted in kubectl's layout. What the editor
promises is kept: new keys come after the existing ones in the order of the new data; the comments of a
removed key stay where the key was, at its column.

:func:`An empty flow collection that the expansion fills (``devices: {}``) becomes a block collection, in the
document's own sequence indentation (indented or not under its key); a flow collection with content that
changes stays flow, through the editor. Directives (``%TAG``) are read with the body; tags are kept on
nodes that do not change (a standard ``!!map``/``!!seq`` tag on a collection never matters).

:func:`splice` declines (returns None) wherever it could not keep a promise the way the editor does —
anchors, aliases, changed tagged nodes, merge keys, flow collections with content that change, changed
multi-line or quoted scalars, reordered or removed list items, mapping indentation other than two spaces
— and the caller falls back to the editor. Its output is loaded back and must read as the new data
exactly, or it declines too.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from .emit import dump_yaml
from .keyorder import placed
from .load import events, load_stream
from .values import reads_as_string, same


class Decline(Exception):
    """This change is not one that splicing keeps every promise for."""


class _Node:
    """A node of the old text: its span ``[start, end)``, key column, block or flow, and its children."""

    __slots__ = ("col", "end", "entries", "flow", "items", "plain", "start", "tagged")

    def __init__(self, start: int, col: int, flow: bool, plain: bool) -> None:
        self.start = start
        self.end = start
        self.col = col
        self.flow = flow
        self.plain = plain
        self.tagged = False  # a tag other than the standard one of its collection kind: kept only unchanged
        self.entries: list[tuple[_Node, _Node]] | None = None  # a mapping's (key, value) pairs
        self.items: list[_Node] | None = None  # a sequence's items


def splice(text: str, old: Any, new: Any, prelude: str = "", verify: bool = True,
           file_quote: Callable[[], str] = lambda: '"') -> str | None:
    """``text`` (one document, LF line ends) changed to hold ``new``; None when splicing cannot keep the
    editor's promises for this change. ``prelude`` is the directives the document is read under (``%TAG``),
    with the ``---`` that ends them. Without ``verify`` the output is not loaded back here: the caller
    checks the whole stream once, and splices again with ``verify`` when that check fails. ``file_quote``
    is the quote the whole file prefers (asked only when the document quotes nothing itself)."""
    if text and not text.endswith("\n"):  # spliced with a final line end, which the caller takes off again
        return splice(text + "\n", old, new, prelude, verify, file_quote)
    try:
        root, layout = _tree(prelude + text, len(prelude))
        edits = _Edits(layout.sequence)
        _value(text, root, old, new, edits)
    except Decline:
        return None
    except Exception:  # a body that does not read on its own (what the editor then says, it says)
        return None
    if edits and not layout.fits(edits, file_quote):
        return None
    # From the end backwards; at one position the inner insertion (recorded first) must come out first.
    out = text
    for _, (start, end, replacement) in sorted(enumerate(edits), key=lambda e: (e[1][0], e[1][1], e[0]),
                                               reverse=True):
        out = out[:start] + replacement + out[end:]
    if not verify:
        return out
    try:
        docs = load_stream(prelude + out, "<splice>")
    except Exception:
        return None
    return out if len(docs) == 1 and same(docs[0].data, new) else None


class _Layout:
    """How the document indents nested collections and quotes strings, as far as its nodes show it."""

    def __init__(self) -> None:
        self.kubectl = True  # two-space mappings (what the fragments are written in)
        self.sequence_steps: set[int] = set()  # how far block sequences are indented under their key
        self.single_quotes = 0
        self.double_quotes = 0
        self.first_quote = '"'  # the quote of the first quoted scalar

    @property
    def sequence(self) -> int:
        """How far the fragments indent a sequence under its key: the document's own way (0 or 2), or
        kubectl's (0) when it has none."""
        return next(iter(self.sequence_steps), 0)

    def nested(self, key: _Node, value: _Node) -> None:
        if not value.flow and (value.entries or value.items):
            step = value.col - key.col
            if value.entries is not None:
                self.kubectl = self.kubectl and step == 2
            elif step in (0, 2):
                self.sequence_steps.add(step)
            else:
                self.kubectl = False

    def quote(self, file_quote: Callable[[], str]) -> str:
        """The quote this document prefers, decided as the editor decides it (:func:`.style.detect`): the
        more frequent, on a tie the first written, and the whole file's when the document quotes nothing."""
        if self.single_quotes != self.double_quotes:
            return "'" if self.single_quotes > self.double_quotes else '"'
        return self.first_quote if self.single_quotes else file_quote()

    def fits(self, edits: _Edits, file_quote: Callable[[], str]) -> bool:
        """Whether text written in this layout and double quotes looks like this document's own (and as the
        editor would write it: new strings in the quote the document prefers)."""
        if not self.kubectl or len(self.sequence_steps) > 1:
            return False
        return not any('"' in e[2] for e in edits) or self.quote(file_quote) == '"'


def _tree(text: str, offset: int = 0) -> tuple[_Node, _Layout]:
    stream: Iterator[Any] = events(text)
    layout = _Layout()
    for event in stream:
        if type(event).__name__ == "DocumentStartEvent":
            return _build(next(stream), stream, layout, offset), layout
    raise Decline


_STANDARD = {"MappingStartEvent": "tag:yaml.org,2002:map", "SequenceStartEvent": "tag:yaml.org,2002:seq"}


def _build(first: Any, stream: Iterator[Any], layout: _Layout, offset: int = 0) -> _Node:
    stack: list[_Node] = []
    event = first
    while True:
        kind = type(event).__name__
        if kind == "AliasEvent" or getattr(event, "anchor", None):
            raise Decline
        tag = getattr(event, "tag", None)
        tagged = bool(tag) and tag != "!" and tag != _STANDARD.get(kind)
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            node = _Node(event.start_mark.index - offset, event.start_mark.column, bool(event.flow_style), False)
            node.tagged = tagged
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
            node.end = event.end_mark.index - offset if node.flow or not children else children[-1].end
        else:
            node = _Node(event.start_mark.index - offset, event.start_mark.column, False,
                         not event.style and not tag)
            node.tagged = tagged
            node.end = event.end_mark.index - offset
            if event.style == "'":
                layout.first_quote = layout.first_quote if layout.single_quotes + layout.double_quotes else "'"
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


class _Edits(list[tuple[int, int, str]]):
    """The replacements ``(start, end, text)`` of one splice, and how far its fragments indent a sequence
    under its key (the document's way)."""

    def __init__(self, sequence: int) -> None:
        super().__init__()
        self.sequence = sequence


def _value(text: str, node: _Node, old: Any, new: Any, edits: _Edits,
           key: _Node | None = None, item: bool = False) -> None:
    """Splice the change of ``node`` (the value of block mapping ``key``, or an ``item`` of a block
    sequence, or neither: the root) from ``old`` to ``new``."""
    if old == new and same(old, new):  # == first: it runs in C, and same() is only stricter
        return
    if node.tagged:
        raise Decline  # a changed node whose tag says how to read it: the editor keeps or refuses it
    if node.flow and (node.entries is not None or node.items is not None):
        _flow(text, node, old, new, edits, key, item)
    elif isinstance(old, dict) and isinstance(new, dict) and node.entries is not None and new:
        _mapping(text, node, old, new, edits)
    elif isinstance(old, list) and isinstance(new, list) and node.items is not None and new:
        _sequence(text, node, old, new, edits)
    elif node.entries is None and node.items is None and not isinstance(new, (dict, list)):
        _scalar(text, node, new, edits)
    else:
        raise Decline


def _mapping(text: str, node: _Node, old: dict[str, Any], new: dict[str, Any],
             edits: _Edits) -> None:
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
            _value(text, value, old[name], new[name], edits, key=key)
    added = {name: new[name] for name in new if name not in old}
    if added and placed(old, new)[0]:
        raise Decline  # a key to put before others (a pin): the editor places it
    if added:
        at = _line_end(text, node.entries[-1][1])
        edits.append((at, at, _newline(text, at) + _fragment(added, node.col, edits.sequence)))


def _sequence(text: str, node: _Node, old: list[Any], new: list[Any], edits: _Edits) -> None:
    assert node.items is not None
    if node.flow or len(new) < len(old) or not _continues(old, new):
        raise Decline
    for item, before, after in zip(node.items, old, new, strict=False):
        _value(text, item, before, after, edits, item=True)
    if len(new) > len(old):
        at = _line_end(text, node.items[-1])
        edits.append((at, at, _newline(text, at) + _fragment(new[len(old) :], node.col, edits.sequence)))


def _flow(text: str, node: _Node, old: Any, new: Any, edits: _Edits, key: _Node | None,
          item: bool) -> None:
    """An empty flow collection the expansion fills (``devices: {}``, the style of KubeVirt's docs and of
    ``virtctl create vm``) becomes a block collection in the document's layout, written where it was: an
    empty collection has no style of its own to keep. A flow collection with content keeps its flow style:
    the editor writes it (its scalars keep their quotes)."""
    span = text[node.start : node.end]
    line_end = text.find("\n", node.end)
    rest = text[node.end : len(text) if line_end < 0 else line_end]
    if node.entries and isinstance(old, dict) and isinstance(new, dict) and "\n" not in span:
        _flow_added(text, node, old, new, edits)
        return
    if node.entries or node.items or "\n" in span or "#" in span or rest.strip(" "):
        raise Decline
    if not isinstance(new, (dict, list)) or not new:
        edits.append((node.start, node.end, _inline(new)))
        return
    if key is not None:  # "key: {...}" -> "key:" and the block below it
        start = node.start
        while start > 0 and text[start - 1] == " ":
            start -= 1
        if text[start - 1 : start] != ":":
            raise Decline
        col = key.col + (2 if isinstance(new, dict) else edits.sequence)
        block = _fragment(new, col, edits.sequence)
        edits.append((start, node.end, "\n" + block[:-1]))
    elif item and isinstance(new, dict):  # "- {...}" -> "- key: ..." and the keys below it
        block = _fragment(new, node.col, edits.sequence)
        edits.append((node.start, node.end, block[node.col : -1]))
    else:
        raise Decline


def _flow_added(text: str, node: _Node, old: dict[str, Any], new: dict[str, Any],
                edits: _Edits) -> None:
    """Keys added to a one-line flow mapping whose entries stay (``{image: quay.io/x:41}`` that the
    expansion gives an ``imagePullPolicy``): written before its ``}``, in flow style, as the editor would."""
    assert node.entries is not None
    if len(node.entries) != len(old) or any(name not in new or not same(old[name], new[name]) for name in old):
        raise Decline
    close = node.end - 1
    if text[close] != "}":
        raise Decline
    before = close
    while text[before - 1] == " ":
        before -= 1
    added = "".join(f", {_key(name)} {_flow_scalar(new[name])}" for name in new if name not in old)
    edits.append((before, before, added))


_PLAIN_IN_FLOW = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*\Z")


def _flow_scalar(value: Any) -> str:
    """A scalar (or empty collection) as it can be written inside a flow collection."""
    if isinstance(value, (dict, list)):
        if value:
            raise Decline  # nested content: the editor writes it
        return "{}" if isinstance(value, dict) else "[]"
    if isinstance(value, str):
        if _PLAIN_IN_FLOW.match(value) and reads_as_string(value):
            return value
        return json.dumps(value, ensure_ascii=False)
    return _inline(value)


def _continues(old: list[Any], new: list[Any]) -> bool:
    """Whether the new list keeps the old items in place (the editor's name matching agrees then)."""
    names = [item.get("name") if isinstance(item, dict) else None for item in new]
    olds = [item.get("name") if isinstance(item, dict) else None for item in old]
    if all(isinstance(n, str) for n in names + olds) and len(set(names)) == len(names) and old:
        return names[: len(olds)] == olds
    return True


def _scalar(text: str, node: _Node, new: Any, edits: _Edits) -> None:
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


def _fragment(data: dict[str, Any] | list[Any], col: int, sequence: int) -> str:
    """``data`` as block YAML whose first column is ``col``, keys in the order of the data."""
    lines: list[str] = []
    _emit(data, col, lines, "", sequence)
    return "".join(lines)


def _emit(data: Any, col: int, lines: list[str], lead: str, sequence: int) -> None:
    pad = " " * col
    if isinstance(data, dict):
        for i, (name, value) in enumerate(data.items()):
            head = (lead if i == 0 and lead else pad) + _key(name)
            _emit_value(value, col, lines, head, sequence)
    else:
        for i, item in enumerate(data):
            head = (lead if i == 0 and lead else pad) + "- "
            if isinstance(item, dict) and item:
                _emit(item, col + 2, lines, head, sequence)
            elif isinstance(item, list) and item:
                raise Decline  # nested sequences: kubectl's layout is not the editor's there
            else:
                lines.append(head + _inline(item) + "\n")


def _emit_value(value: Any, col: int, lines: list[str], head: str, sequence: int) -> None:
    if isinstance(value, dict) and value:
        lines.append(head + "\n")
        _emit(value, col + 2, lines, "", sequence)
    elif isinstance(value, list) and value:
        lines.append(head + "\n")
        _emit(value, col + sequence, lines, "", sequence)
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
