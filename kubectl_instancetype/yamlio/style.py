"""The formatting habits of a YAML file, detected so that re-emitted text looks like its neighbours.

A :class:`Style` holds what ruamel.yaml needs to write new or changed nodes the way the file already
does: the mapping indent, the sequence dash offset and item indent (indented ``key:\\n  - a`` or
indentless ``key:\\n- a``), the quote character the file prefers, and its line ending. Each measure is
the most common one in the document being rewritten, then in the whole file, then kubectl's habits
(two spaces, indentless sequences, double quotes).
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

from ..records import dataclass
from .split import events


@dataclass(frozen=True)
class Style:
    """Indentation in ruamel.yaml's terms (``YAML.indent(mapping, sequence, offset)``), quotes, newline."""

    mapping: int = 2
    sequence: int = 2
    offset: int = 0
    quote: str = '"'
    newline: str = "\n"


@dataclass
class _Samples:
    """How often each indentation and quote style occurs in some text."""

    mapping: Counter[int]
    offset: Counter[int]
    width: Counter[int]
    quote: Counter[str]


def _measure(text: str) -> _Samples:
    """Count, for every block collection nested in a block mapping or sequence, how far it is indented."""
    samples = _Samples(Counter(), Counter(), Counter(), Counter())
    stack: list[list[Any]] = []  # [is_mapping, column of the pending key or the dash, items seen]
    for event in events(text):
        kind = type(event).__name__
        col = event.start_mark.column
        if kind in ("MappingEndEvent", "SequenceEndEvent"):
            stack.pop()
            _advance(stack)
            continue
        if kind not in ("ScalarEvent", "AliasEvent", "MappingStartEvent", "SequenceStartEvent"):
            continue
        block = kind.endswith("StartEvent") and not event.flow_style
        _sample(samples, stack, kind, col, block)
        if kind == "ScalarEvent" and event.style in ('"', "'"):
            samples.quote[event.style] += 1
        if kind.endswith("StartEvent"):
            stack.append([kind == "MappingStartEvent", col, 0])
        else:
            _advance(stack)
    return samples


def _sample(samples: _Samples, stack: list[list[Any]], kind: str, col: int, block: bool) -> None:
    """Record the indentation of a node that starts at column ``col`` under the innermost open collection."""
    if not stack:
        return
    is_mapping, parent_col, seen = stack[-1]
    if is_mapping and seen % 2 == 0:  # a key: remember its column for the value that follows
        stack[-1][1] = col
        return
    if is_mapping and block and col > parent_col:
        counter = samples.mapping if kind == "MappingStartEvent" else samples.offset
        counter[col - parent_col] += 1
    elif is_mapping and block and kind == "SequenceStartEvent" and col == parent_col:
        samples.offset[0] += 1
    elif not is_mapping and seen == 0 and col > parent_col:
        samples.width[col - parent_col] += 1


def _advance(stack: list[list[Any]]) -> None:
    """One more node finished inside the innermost open collection."""
    if stack:
        stack[-1][2] += 1


def _common(first: Counter[Any], second: Counter[Any], default: Any) -> Any:
    for counter in (first, second):
        if counter:
            return counter.most_common(1)[0][0]
    return default


@functools.lru_cache(maxsize=4)
def _file_style(whole: str) -> tuple[Any, str]:
    """The whole file's measurements and line ending, once per file (every changed document asks)."""
    newline = "\r\n" if whole.count("\r\n") * 2 > whole.count("\n") else "\n"
    return _measure(whole.removeprefix("\ufeff")), newline  # read as load_stream reads it


def file_quote(whole: str) -> str:
    """The quote the whole file prefers, as :func:`detect` takes it for a document that quotes nothing."""
    return _common(_file_style(whole)[0].quote, Counter(), '"')


def detect(body: str, whole: str) -> Style:
    """The style of document text ``body`` (LF line ends), completed from the whole file's text."""
    here = _measure(body)
    there, newline = _file_style(whole)
    mapping = _common(here.mapping, there.mapping, 2)
    offset = _common(here.offset, there.offset, 0)
    width = max(2, _common(here.width, there.width, 2))
    quote = _common(here.quote, there.quote, '"')
    return Style(mapping, offset + width, offset, quote, newline)
