"""Plain values compared strictly and turned into ruamel.yaml nodes that load back exactly.

Kubernetes reads YAML with the 1.1 rules of :func:`resolve_plain` (``yes`` is true, ``012`` is 10,
``1e9`` is a number) while ruamel.yaml writes by the 1.2 rules, so a new string is quoted here whenever
the 1.1 rules would read it, unquoted, as something else. Where a changed scalar replaces an old one, the
old one's quoting or block style is kept when the new value can be written that way.
"""

from __future__ import annotations

import math
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from .load import resolve_plain
from .style import Style

_KEPT_STYLES = (DoubleQuotedScalarString, SingleQuotedScalarString, LiteralScalarString, FoldedScalarString)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``1``, ``1.0`` and ``True`` are three different values, NaN equals NaN."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if type(a) is not type(b) and not (isinstance(a, str) and isinstance(b, str)):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


def reads_as_string(text: str) -> bool:
    """Whether ``text`` written as a plain scalar is read back as the same string by Kubernetes."""
    return resolve_plain(text) == text and isinstance(resolve_plain(text), str)


def string(text: str, old: Any, style: Style, keep: bool) -> str:
    """A string node for ``text``, in the style of ``old`` when that style can hold it."""
    if keep and isinstance(old, _KEPT_STYLES):
        block = isinstance(old, (LiteralScalarString, FoldedScalarString))
        if not block or _fits_block(text):
            return type(old)(text)
    if keep and "\n" in text.rstrip("\n") and _fits_block(text):
        return LiteralScalarString(text)
    if not reads_as_string(text):
        return SingleQuotedScalarString(text) if style.quote == "'" else DoubleQuotedScalarString(text)
    return text


def _fits_block(text: str) -> bool:
    """Whether a literal block can carry ``text`` unchanged (no leading blanks, tabs or trailing spaces)."""
    lines = text.split("\n")
    return (
        bool(text.strip())
        and not text[0].isspace()
        and all(line == line.rstrip() and "\t" not in line and line.isprintable() for line in lines)
    )


def scalar(new: Any, old: Any, style: Style, keep: bool) -> Any:
    """The node for scalar ``new`` replacing ``old`` (None when the value is new)."""
    if isinstance(new, str):
        return string(new, old, style, keep)
    return new


def key(name: str, style: Style) -> str:
    """A new mapping key, quoted when Kubernetes would read it unquoted as another type (``yes``, ``1e9``)."""
    return string(name, None, style, False)


def fresh(new: Any, style: Style, keep: bool) -> Any:
    """A new ruamel.yaml node for plain data ``new``, in block style."""
    if isinstance(new, dict):
        mapping = CommentedMap()
        for name, value in new.items():
            mapping[key(name, style)] = fresh(value, style, keep)
        return mapping
    if isinstance(new, list):
        return CommentedSeq(fresh(item, style, keep) for item in new)
    return scalar(new, None, style, keep)
