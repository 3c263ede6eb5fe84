"""Moving comments around a ruamel.yaml round-trip tree while it is being edited.

ruamel.yaml hangs a full-line comment on the node *before* it: the comment above ``preference:`` is
stored after the value of the key that precedes it, possibly deep inside that value. Editing the tree
therefore needs two repairs, both done here:

* a removed or replaced node takes its comments with it, so they are *rescued* and re-attached as
  full-line comments before the next sibling (or after the previous one);
* a node appended at the end of a collection would slip in between that collection's last value and the
  comments that follow it at a shallower indentation (they introduce whatever comes after the
  collection), so those comments are *detached* first and put back after the new last node.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.comments import CommentedBase, CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString
from ruamel.yaml.tokens import CommentToken


def _walk_tokens(node: Any, seen: set[int], out: list[CommentToken]) -> None:
    if isinstance(node, CommentedBase):
        ca = node.ca
        slots: list[Any] = [ca.comment, ca.end, *ca.items.values()]
        for slot in slots:
            _add_tokens(slot, seen, out)
    if isinstance(node, dict):
        for value in node.values():
            _walk_tokens(value, seen, out)
    elif isinstance(node, list):
        for value in node:
            _walk_tokens(value, seen, out)


def _add_tokens(slot: Any, seen: set[int], out: list[CommentToken]) -> None:
    if isinstance(slot, CommentToken):
        if id(slot) not in seen:
            seen.add(id(slot))
            out.append(slot)
    elif isinstance(slot, list):
        for item in slot:
            _add_tokens(item, seen, out)


def rescue(owner: CommentedBase, key: Any, value: Any, skip_own: bool = False) -> list[str]:
    """The text of every comment on ``owner[key]`` and inside ``value``, one stripped line each, in order.

    With ``skip_own`` the comments on the key itself stay where they are and are left out.
    """
    seen: set[int] = set()
    tokens: list[CommentToken] = []
    _add_tokens(owner.ca.items.get(key), seen, [] if skip_own else tokens)
    _walk_tokens(value, seen, tokens)
    tokens.sort(key=lambda t: (getattr(t.start_mark, "line", 1 << 30), getattr(t.start_mark, "column", 0)))
    lines = [line.strip() for token in tokens for line in token.value.splitlines()]
    return [line for line in lines if line.startswith("#")]


def place_before(owner: CommentedBase, key: Any, lines: list[str], column: int) -> None:
    """Show ``lines`` as full-line comments just above ``owner[key]`` (a mapping key or a list index)."""
    if not lines:
        return
    tokens = [CommentToken(f"{line}\n", CommentMark(column)) for line in lines]
    slot = owner.ca.items.setdefault(key, [None, None, None, None])
    slot[1] = tokens + list(slot[1] or [])


def _tail(node: Any) -> tuple[CommentedBase, Any, int] | None:
    """Where the comment that follows the last line of a block collection's text is kept."""
    if not isinstance(node, (CommentedMap, CommentedSeq)) or not node or node.fa.flow_style():
        return None
    return _tail_of_key(node, next(reversed(node)) if isinstance(node, CommentedMap) else len(node) - 1)


def _tail_of_key(owner: CommentedMap | CommentedSeq, key: Any) -> tuple[CommentedBase, Any, int]:
    """Where the comment that follows the text of ``owner[key]`` is kept."""
    deeper = _tail(owner[key])
    if deeper is not None:
        return deeper
    return owner, key, 2 if isinstance(owner, CommentedMap) else 0


def detach_outer(node: Any, column: int) -> list[str]:
    """Take away the comment lines after ``node`` that are indented less than ``column`` (raw lines)."""
    where = _tail(node)
    if where is None:
        return []
    owner, key, slot = where
    entry = owner.ca.items.get(key)
    token = entry[slot] if entry else None
    if not isinstance(token, CommentToken):
        return []
    lines = token.value.split("\n")
    cut = next((i for i in range(1, len(lines)) if lines[i].strip() and _indent(lines[i]) < column), None)
    if cut is None:
        return []
    while cut > 1 and not lines[cut - 1].strip():
        cut -= 1
    kept = "\n".join(lines[:cut]) + "\n"
    if kept.strip():
        token.value = kept
    else:
        entry[slot] = None
    return lines[cut:-1] if lines[-1] == "" else lines[cut:]


def append_after(node: Any, raw_lines: list[str]) -> None:
    """Put ``raw_lines`` (with their own indentation) after the last line of block collection ``node``."""
    where = _tail(node)
    if raw_lines and where is not None:
        _append(*where, raw_lines)


def append_after_key(owner: CommentedMap | CommentedSeq, key: Any, raw_lines: list[str]) -> None:
    """Put ``raw_lines`` (with their own indentation) after the last line of ``owner[key]``."""
    if raw_lines:
        _append(*_tail_of_key(owner, key), raw_lines)


def _append(owner: Any, key: Any, slot: int, raw_lines: list[str]) -> None:
    entry = owner.ca.items.setdefault(key, [None, None, None, None])
    token = entry[slot]
    text = "".join(f"{line}\n" for line in raw_lines)
    if isinstance(token, CommentToken):
        token.value = token.value + text
    else:
        value = owner[key]
        block_scalar = isinstance(value, (LiteralScalarString, FoldedScalarString))
        entry[slot] = CommentToken(text if block_scalar else "\n" + text, CommentMark(0))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
