"""Editing a ruamel.yaml round-trip tree in place until it holds new plain data, touching as little as it can.

The old plain data (as :func:`load_stream` read it, with Kubernetes' YAML 1.1 rules) is walked alongside
the tree, so a node is only touched where the old and new values differ. The choices:

* mapping keys that stay keep their place; removed keys go, their comments moved to the next key (or
  after the previous one); **new keys are appended after the existing ones, in the order of the new data**;
* lists whose items all carry a unique ``name`` on both sides (disks, interfaces, volumes, networks, …) are
  matched by name and take the new order, each item keeping its comments; other lists are matched by
  position;
* a changed scalar keeps its quoting or block style where the new value allows it (``keep``);
* a node reached twice through an alias is copied before it is changed, so the other uses keep their value;
  a mapping with a merge key (``<<``) that changes is written out in full.
"""

from __future__ import annotations

import copy
from typing import Any

from ruamel.yaml.anchor import Anchor
from ruamel.yaml.comments import CommentedBase, CommentedMap, CommentedSeq

from ..records import dataclass, field
from . import comments
from .keyorder import placed
from .style import Style
from .values import fresh, same, scalar
from .values import key as new_key

_Pairs = list[tuple[int | None, Any]]  # for each new list item: the old item it continues, and its new data
_Orphans = dict[int | None, list[str]]  # comments of removed list items, by the old item they now precede


def _shared(node: Any, seen: set[int], shared: set[int]) -> None:
    """Collect the ids of collections reachable more than once (anchors with aliases, merge sources)."""
    if not isinstance(node, (CommentedMap, CommentedSeq)):
        return
    if id(node) in seen:
        shared.add(id(node))
        return
    seen.add(id(node))
    children = list(node.values()) if isinstance(node, CommentedMap) else list(node)
    if isinstance(node, CommentedMap):
        children += merge_sources(node)
    for child in children:
        _shared(child, seen, shared)


def merge_sources(node: CommentedMap) -> list[Any]:
    """The mappings a ``<<`` merge key pulls into ``node``.

    ruamel.yaml 0.18 keeps ``(position, mapping)`` pairs in ``CommentedMap.merge``, 0.19 the mappings
    themselves (with the position on the list); setup.cfg allows both.
    """
    return [entry[1] if isinstance(entry, tuple) else entry for entry in node.merge]


def _column(node: Any) -> int:
    col = getattr(getattr(node, "lc", None), "col", None)
    return col if isinstance(col, int) else 0


@dataclass
class Editor:
    """Edits one document's tree; ``keep`` keeps scalar styles (off for the cautious second attempt)."""

    style: Style
    keep: bool = True
    shared: set[int] = field(default_factory=set)

    def document(self, root: Any, old: Any, new: Any) -> Any:
        """The edited root (the same object unless its type changed)."""
        _shared(root, set(), self.shared)
        result = self.value(root, old, new)
        if result is not root and isinstance(result, CommentedBase):
            lines = comments.rescue(root, None, root)
            if lines:
                result.yaml_set_start_comment("\n".join(line[1:].lstrip() for line in lines))
        return result

    def value(self, node: Any, old: Any, new: Any) -> Any:
        """``node`` edited in place when it can be, else a new node to put where it was."""
        if same(old, new):
            return node
        maps = isinstance(node, CommentedMap) and isinstance(old, dict) and isinstance(new, dict)
        if maps and new and not node.merge and len(node) == len(old):
            self._mapping(node, old, new)
            return node
        if isinstance(node, CommentedSeq) and isinstance(old, list) and isinstance(new, list) and new:
            self._sequence(node, old, new)
            return node
        if not isinstance(new, (dict, list)) and not isinstance(node, (CommentedMap, CommentedSeq)):
            return scalar(new, node, self.style, self.keep)
        return fresh(new, self.style, self.keep)

    def _child(self, owner: CommentedMap | CommentedSeq, key: Any, old: Any, new: Any) -> None:
        """Edit ``owner[key]``; when it is replaced, the comments inside it follow it."""
        node = owner[key]
        if id(node) in self.shared and not same(old, new):
            if node.anchor.value:  # keep the anchor where it is written, even if no alias is left
                node.yaml_set_anchor(node.anchor.value, always_dump=True)
            node = copy.deepcopy(node)  # the other uses of an anchored node keep its old value
            setattr(node, Anchor.attrib, Anchor())
            owner[key] = node
        result = self.value(node, old, new)
        if result is node:
            return
        lines = comments.rescue(owner, key, node, skip_own=True)
        owner[key] = result
        comments.append_after_key(owner, key, [" " * _column(node) + line for line in lines])

    def _mapping(self, node: CommentedMap, old: dict[str, Any], new: dict[str, Any]) -> None:
        keys = dict(zip(list(old), list(node), strict=True))  # each name's key in the tree
        for key, name in zip(list(node), list(old), strict=True):
            if name not in new:
                self._remove_key(node, key)
            elif not same(old[name], new[name]):
                self._child(node, key, old[name], new[name])
        before, after = placed(old, new)
        for name, anchor in before:  # before the key the new data puts after it (a pin's kubectl order)
            at = list(node).index(keys[anchor])
            node.insert(at, new_key(name, self.style), fresh(new[name], self.style, self.keep))
        if after:
            outer = comments.detach_outer(node, _column(node))
            for name in after:
                node[new_key(name, self.style)] = fresh(new[name], self.style, self.keep)
            comments.append_after(node, outer)

    def _remove_key(self, node: CommentedMap, key: Any) -> None:
        keys = list(node)
        col = _column(node)
        last = keys[-1] == key
        outer = comments.detach_outer(node, col) if last else []
        lines = comments.rescue(node, key, node[key])
        del node[key]
        node.ca.items.pop(key, None)
        if not last:
            comments.place_before(node, keys[keys.index(key) + 1], lines, col)
        elif node:
            comments.append_after(node, [" " * col + line for line in lines] + outer)

    def _sequence(self, node: CommentedSeq, old: list[Any], new: list[Any]) -> None:
        pairs = _match(old, new)
        if [i for i, _ in pairs] == list(range(len(old))):
            for i, (_, item) in enumerate(pairs):
                self._child(node, i, old[i], item)
            return
        col = _column(node)
        outer = comments.detach_outer(node, col)
        comments.hoist(node, col)
        kept = {i for i, _ in pairs if i is not None}
        orphans: _Orphans = {}
        for i in range(len(old)):
            if i not in kept:
                later = min((j for j in kept if j > i), default=None)
                orphans.setdefault(later, []).extend(comments.rescue(node, i, node[i]))
        self._rebuild(node, old, pairs, orphans)
        tail = [" " * col + line for line in orphans.get(None, [])]
        comments.append_after(node, tail + outer)

    def _rebuild(self, node: CommentedSeq, old: list[Any], pairs: _Pairs, orphans: _Orphans) -> None:
        """Put the items in their new order, each with its own comments."""
        items = list(node)
        slots = dict(node.ca.items)
        del node[:]
        node.ca.items.clear()
        for position, (i, item) in enumerate(pairs):
            node.append(items[i] if i is not None else fresh(item, self.style, self.keep))
            if i is None:
                continue
            if i in slots:
                node.ca.items[position] = slots[i]
            self._child(node, position, old[i], item)
            comments.place_before(node, position, orphans.pop(i, []), _column(node))


def _names(items: list[Any]) -> list[str] | None:
    names = [item.get("name") if isinstance(item, dict) else None for item in items]
    if all(isinstance(name, str) for name in names) and len(set(names)) == len(names):
        return [str(name) for name in names]
    return None


def _match(old: list[Any], new: list[Any]) -> _Pairs:
    """For each new item, the index of the old item it continues (by ``name`` when every item has one)."""
    old_names, new_names = _names(old), _names(new)
    if old_names is not None and new_names is not None and old:
        where = {name: i for i, name in enumerate(old_names)}
        return [(where.get(name), item) for name, item in zip(new_names, new, strict=True)]
    return [(i if i < len(old) else None, item) for i, item in enumerate(new)]
