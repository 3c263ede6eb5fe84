"""Cutting a YAML stream into the exact text of each document, so that documents can be replaced one by one.

A stream is cut into alternating *gaps* and *bodies*: a body is the text of one document's root node
(with the comments and blank lines that follow it up to the document's end), a gap is everything between
two bodies (document markers, directives, comments before ``---``, ``...``). Joining the pieces gives the
text back byte for byte, so a rewrite replaces only the bodies it changes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..records import dataclass
from .load import Document, events, load_stream


@dataclass(frozen=True)
class Body:
    """The text span ``[start, end)`` of one non-empty document, its number in the stream (as
    :attr:`Document.index`) and its data as load_stream reads it."""

    index: int
    start: int
    end: int
    data: Any


@dataclass(frozen=True)
class Layout:
    """A stream's non-empty documents, in order, with their spans; the text between them is left alone."""

    text: str
    bodies: tuple[Body, ...]

    def pieces(self) -> Iterator[tuple[Body | None, str]]:
        """The stream as (body or None for a gap, text) pieces whose concatenation is ``text``."""
        pos = 0
        for body in self.bodies:
            yield None, self.text[pos : body.start]
            yield body, self.text[body.start : body.end]
            pos = body.end
        yield None, self.text[pos:]


def _spans(text: str) -> list[tuple[int, int]]:
    """The body span of every document of the stream, empty ones included, in stream order.

    Documents are numbered as :func:`load_stream` numbers them (by document start, before empty
    documents are dropped), so an empty document before a VM does not shift the VM's number.
    """
    spans: list[tuple[int, int]] = []
    root: Any = None
    for event in events(text):
        kind = type(event).__name__
        if kind == "DocumentStartEvent":
            root = None
        elif kind == "DocumentEndEvent":
            spans.append((_line_start(text, root.start_mark.index), event.start_mark.index))
        elif root is None:
            root = event
    return spans


def _line_start(text: str, index: int) -> int:
    """Where a root node's body starts: its line's start when only blanks precede it, else the node itself."""
    start = text.rfind("\n", 0, index) + 1
    return start if text[start:index].strip(" ") == "" else index


def split(text: str, source: str, docs: list[Document] | None = None) -> Layout:
    """The layout of ``text``; documents are numbered exactly as :func:`load_stream` numbers them.

    ``docs`` are the documents of ``text`` when the caller has loaded them already (a file is parsed once).
    """
    # load_stream drops one byte order mark and the parser skips one more without counting it in its marks
    offset = 1 if text.startswith("\ufeff") else 0
    offset += 1 if text.startswith("\ufeff", offset) else 0
    docs = load_stream(text, source) if docs is None else docs
    spans = _spans(text[offset:])
    bodies = []
    for doc in docs:
        start, end = spans[doc.index]
        bodies.append(Body(doc.index, start + offset, end + offset, doc.data))
    return Layout(text, tuple(bodies))
