"""Rewriting a JSON manifest as JSON: the YAML round-trip editor would turn it into flow-style YAML.

Only a file that is one JSON value is handled here (a byte order mark before it is kept). Every value
whose data does not change is copied from the original text byte for byte, so ``"\\u00e9"`` stays
``"\\u00e9"`` and ``1E2`` stays ``1E2``; existing keys keep their order and spelling and new keys follow
them; new values are written in the file's own indentation (spaces or tabs, or none) and line ends.
The result is parsed again and must hold exactly the new data, else the file is refused.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import InputError, Location
from ..records import dataclass
from ..yamlio.values import same

BOM = "\ufeff"
_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(text: str) -> Any:
    """The value of ``text`` when it is exactly one JSON value, else None (as a YAML stream it is not JSON)."""
    body = text.removeprefix(BOM)
    if not body.lstrip(_SPACE).startswith(("{", "[")):
        return None
    try:
        return json.loads(body, parse_constant=_no_constants)
    except (ValueError, RecursionError):
        return None


@dataclass(frozen=True)
class _Node:
    """Where a value is spelled in the original text, and where its members are."""

    start: int
    end: int
    keys: dict[str, tuple[str, _Node]] | None = None  # object member -> (its key as written, its value)
    items: tuple[_Node, ...] | None = None


def _skip(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in _SPACE:
        pos += 1
    return pos


def _scan(text: str, pos: int) -> _Node:
    """The spans of the value starting at ``pos`` (``text`` is known to be valid JSON)."""
    start = pos
    if text[pos] == "{":
        keys: dict[str, tuple[str, _Node]] = {}
        pos = _skip(text, pos + 1)
        while text[pos] != "}":
            key, key_end = _DECODER.raw_decode(text, pos)
            value = _scan(text, _skip(text, _skip(text, key_end) + 1))
            keys[key] = (text[pos:key_end], value)
            pos = _skip(text, value.end)
            pos = _skip(text, pos + 1) if text[pos] == "," else pos
        return _Node(start, pos + 1, keys=keys)
    if text[pos] == "[":
        items: list[_Node] = []
        pos = _skip(text, pos + 1)
        while text[pos] != "]":
            item = _scan(text, pos)
            items.append(item)
            pos = _skip(text, item.end)
            pos = _skip(text, pos + 1) if text[pos] == "," else pos
        return _Node(start, pos + 1, items=tuple(items))
    _, end = _DECODER.raw_decode(text, pos)
    return _Node(start, end)


@dataclass(frozen=True)
class _Style:
    indent: str | None  # one level of indentation; None: everything on one line
    newline: str


def _style(text: str) -> _Style:
    newline = "\r\n" if "\r\n" in text else "\n"
    for line in text.splitlines()[1:]:
        body = line.lstrip(" \t")
        if body and len(body) < len(line):
            return _Style(line[: len(line) - len(body)], newline)
    return _Style(None, newline)


@dataclass(frozen=True)
class _Writer:
    text: str
    style: _Style

    def value(self, new: Any, old: Any, node: _Node | None, level: int) -> str:
        if node is not None and same(old, new):
            return self.text[node.start : node.end]
        if isinstance(new, dict):
            known = node.keys if node is not None and node.keys is not None and isinstance(old, dict) else {}
            order = [k for k in known if k in new] + [k for k in new if k not in known]
            members = []
            for k in order:
                raw, child = known.get(k, (_scalar(k), None))
                members.append(f"{raw}: {self.value(new[k], old.get(k) if child else None, child, level + 1)}")
            return self._wrap("{", members, "}", level)
        if isinstance(new, list):
            olds = old if node is not None and node.items is not None and isinstance(old, list) else []
            nodes = node.items if olds and node is not None and node.items is not None else ()
            members = [
                self.value(x, olds[i] if i < len(olds) else None, nodes[i] if i < len(nodes) else None, level + 1)
                for i, x in enumerate(new)
            ]
            return self._wrap("[", members, "]", level)
        return _scalar(new)

    def _wrap(self, opening: str, members: list[str], closing: str, level: int) -> str:
        if not members:
            return opening + closing
        if self.style.indent is None:
            return opening + ", ".join(members) + closing
        pad = self.style.newline + self.style.indent * (level + 1)
        return opening + pad + ("," + pad).join(members) + self.style.newline + self.style.indent * level + closing


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def dump_like(text: str, old: Any, new: Any, source: str = "<json>") -> str:
    """``new`` as JSON spelled like ``text``: unchanged values byte for byte, its indentation and line ends.

    InputError when the result would not read back as ``new`` (or ``new`` holds a value JSON cannot
    spell, such as NaN).
    """
    bom = BOM if text.startswith(BOM) else ""
    body = text.removeprefix(BOM)
    first = _skip(body, 0)
    node = _scan(body, first)
    try:
        out = _Writer(body, _style(body)).value(new, old, node, 0)
    except ValueError as exc:
        raise InputError(f"cannot write this file as JSON: {exc}", Location(source)) from None
    result = bom + body[:first] + out + body[node.end :]
    if not same(parse(result), new):
        raise InputError("cannot rewrite this JSON file without changing its meaning", Location(source))
    return result
