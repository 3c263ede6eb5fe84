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
    slot = owner.ca.items.get(key) or [None, None, None, None]
    before: list[CommentToken] = []  # comments put above the key by an earlier edit come first
    _add_tokens(slot[1], seen, [] if skip_own else before)
    tokens: list[CommentToken] = []
    _add_tokens(slot, seen, [] if skip_own else tokens)
    _walk_tokens(value, seen, tokens)
    tokens.sort(key=lambda t: (getattr(t.start_mark, "line", 1 << 30), getattr(t.start_mark, "column", 0)))
    lines = [line.strip() for token in before + tokens for line in token.value.splitlines()]
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


def _tail_path(node: Any) -> list[CommentedMap | CommentedSeq]:
    """The block collections from ``node`` down to the one holding its last line."""
    path: list[Any] = []
    current = node
    while isinstance(current, (CommentedMap, CommentedSeq)) and current and not current.fa.flow_style():
        path.append(current)
        current = current[next(reversed(current)) if isinstance(current, CommentedMap) else len(current) - 1]
    return path


def detach_outer(node: Any, column: int) -> list[str]:
    """Take away the comment lines after ``node`` that are indented less than ``column`` (raw lines).

    They introduce what follows ``node`` and must stay after anything appended to it. ruamel.yaml keeps
    them in the deepest tail slot or in the end comments of the collections on the way back out.
    """
    out: list[str] = []
    where = _tail(node)
    if where is not None:
        owner, key, slot = where
        entry = owner.ca.items.get(key)
        if entry and isinstance(entry[slot], CommentToken):
            entry[slot] = _cut(entry[slot], entry[slot].value.split("\n"), 1, column, out)
    for collection in reversed(_tail_path(node)):
        end = collection.ca.end or []
        for i, token in enumerate(end):
            if isinstance(token, CommentToken):
                lines = token.value.split("\n")
                lines[0] = " " * (token.column or 0) + lines[0]  # an end comment starts with a full line
                end[i] = _cut(token, lines, 0, column, out)
        if end:
            collection.ca.end = [token for token in end if token is not None]
    return out


def _cut(token: CommentToken, lines: list[str], first: int, column: int, out: list[str]) -> CommentToken | None:
    """Move the lines of ``token`` from the first one indented less than ``column`` on into ``out``."""
    found = 0 if out else next(
        (i for i in range(first, len(lines)) if lines[i].strip() and _indent(lines[i]) < column), None
    )
    if found is None:
        return token
    cut = found
    while cut > 1 and not lines[cut - 1].strip():
        cut -= 1
    out.extend(line for line in lines[cut:] if line.strip())
    kept = "\n".join(lines[:cut]) + "\n"
    if not kept.strip():
        return None
    token.value = kept.lstrip(" ") if first == 0 else kept
    return token


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


def hoist(seq: CommentedSeq, column: int) -> None:
    """Move the full-line comments between two items from the first item's tail to the second item.

    Before items are reordered or removed, each comment must travel with the item it introduces.
    """
    for i in range(len(seq) - 1):
        owner, key, slot = _tail_of_key(seq, i)
        entry = owner.ca.items.get(key)
        token = entry[slot] if entry else None
        if not isinstance(token, CommentToken) or "\n" not in token.value.rstrip("\n"):
            continue
        head, _, rest = token.value.partition("\n")
        lines = [line.strip() for line in rest.split("\n") if line.strip().startswith("#")]
        if head.strip():
            token.value = head + "\n"
        else:
            entry[slot] = None
        place_before(seq, i + 1, lines, column)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))
