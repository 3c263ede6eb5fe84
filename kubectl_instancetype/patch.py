"""RFC 6902 JSON patches that turn one JSON-like document into another (``render -o patch``).

The patch is meant to be read and reviewed, and applied by kustomize, ``kubectl patch --type json``
or any RFC 6902 library, so it is minimal and deterministic rather than clever:

* objects are diffed key by key: keys of the old object in the old object's order (``remove`` or a
  recursive diff), then keys only the new object has, sorted by code point (``add``). The output
  depends only on the documents, never on ``PYTHONHASHSEED``;
* non-empty lists whose items are all objects with a unique string ``name`` in both documents
  (KubeVirt's disks, interfaces, volumes, networks, …) are matched by name: the longest run of names whose
  relative order is unchanged is kept and diffed in place, the other old items are removed from the
  highest index down, and the other new items are added at their final index (``/-`` only when
  appending at the end);
* other lists are diffed index by index, or replaced whole when that patch is shorter;
* there are no ``move``, ``copy`` or ``test`` operations, and values are compared strictly as JSON:
  ``true``, ``1`` and ``1.0`` differ.

Recursion is one Python frame per nesting level, so documents as deep as the loader's
``max_depth`` (512) are handled with the default recursion limit.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from typing import Any

from .errors import ToolError
from .records import dataclass

Op = dict[str, Any]


@dataclass(frozen=True)
class _Pair:
    """Two values at the same path still to be diffed: a step that recurses."""

    old: Any
    new: Any
    path: str


_Step = Op | _Pair


def make_patch(old: Any, new: Any) -> list[Op]:
    """RFC 6902 operations turning plain JSON-like ``old`` into ``new`` (``[]`` when they are equal)."""
    out: list[Op] = []
    _diff(old, new, "", out)
    return out


class PatchError(ToolError):
    """A patch that does not turn the document into its target: a bug of ours, never printed."""


def checked_patch(old: Any, new: Any) -> list[Op]:
    """:func:`make_patch`, applied to a copy of ``old`` by the ``jsonpatch`` library (an independent RFC 6902
    implementation, as kustomize and ``kubectl patch`` are) and compared with ``new``; PatchError when the
    result differs, so that a wrong patch is refused rather than printed."""
    import jsonpatch

    ops = make_patch(old, new)
    try:
        patched = jsonpatch.apply_patch(old, ops)
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
        raise PatchError(f"the patch does not apply ({exc})") from None
    if not _same(patched, new):
        raise PatchError("the patch does not reproduce the expansion")
    return ops


def escape(token: str) -> str:
    """One RFC 6901 reference token: ``~`` becomes ``~0`` and ``/`` becomes ``~1``, in that order."""
    return token.replace("~", "~0").replace("/", "~1")


def _diff(old: Any, new: Any, path: str, out: list[Op]) -> None:
    """Append to ``out`` the operations turning ``old`` into ``new``, both found at ``path``.

    The only recursive function: one frame per nesting level.
    """
    if _same(old, new):
        return
    steps, may_shorten = _plan(old, new, path)
    ops: list[Op] = [] if may_shorten else out
    for step in steps:
        if isinstance(step, _Pair):
            _diff(step.old, step.new, step.path, ops)
        else:
            ops.append(step)
    if may_shorten:
        whole = [_op("replace", path, new)]
        out.extend(whole if _size(whole) < _size(ops) else ops)


def _plan(old: Any, new: Any, path: str) -> tuple[list[_Step], bool]:
    """The steps turning ``old`` into ``new`` (unequal), and whether one whole ``replace`` may be shorter."""
    if isinstance(old, dict) and isinstance(new, dict):
        return _object_steps(old, new, path), False
    if isinstance(old, list) and isinstance(new, list):
        old_names, new_names = _names(old), _names(new)
        if old_names is None or new_names is None:
            return _indexed_steps(old, new, path), True
        return _keyed_steps(old, new, old_names, new_names, path), False
    return [_op("replace", path, new)], False


def _object_steps(old: dict[str, Any], new: dict[str, Any], path: str) -> list[_Step]:
    """Removals and recursions in the old object's key order, then additions in sorted key order."""
    steps: list[_Step] = []
    for key, value in old.items():
        child = f"{path}/{escape(key)}"
        steps.append(_Pair(value, new[key], child) if key in new else _op("remove", child))
    added = sorted(key for key in new if key not in old)
    steps.extend(_op("add", f"{path}/{escape(key)}", new[key]) for key in added)
    return steps


def _names(items: list[Any]) -> list[str] | None:
    """The items' names when every item is an object with a unique string ``name``, else None."""
    if not items:
        return None
    names: list[str] = []
    for item in items:
        name = item.get("name") if isinstance(item, dict) else None
        if not isinstance(name, str):
            return None
        names.append(name)
    return names if len(set(names)) == len(names) else None


def _keyed_steps(
    old: list[Any], new: list[Any], old_names: list[str], new_names: list[str], path: str
) -> list[_Step]:
    """Match items by name: remove the unkept from the end, then walk ``new`` adding or diffing.

    After the removals the list holds the kept items in order; while walking ``new`` the list is
    ``new[:j]`` followed by the kept items not reached yet, so a kept item is always at index ``j``.
    """
    kept = _kept(old_names, new_names)
    steps: list[_Step] = [
        _op("remove", f"{path}/{i}") for i in reversed(range(len(old))) if old_names[i] not in kept
    ]
    where = {name: i for i, name in enumerate(old_names)}
    remaining = len(kept)
    for j, (name, item) in enumerate(zip(new_names, new, strict=True)):
        if name in kept:
            remaining -= 1
            steps.append(_Pair(old[where[name]], item, f"{path}/{j}"))
        else:
            steps.append(_op("add", f"{path}/{j if remaining else '-'}", item))
    return steps


def _kept(old_names: list[str], new_names: list[str]) -> frozenset[str]:
    """Names of a longest sequence of common items whose relative order is the same in both lists.

    Names are unique, so this is the longest increasing subsequence of the common names' old
    positions taken in new order (patience sorting, O(n log n), deterministic).
    """
    where = {name: i for i, name in enumerate(old_names)}
    common = [name for name in new_names if name in where]
    tails: list[int] = []  # tails[t]: index in `common` ending the best run of length t + 1
    tail_pos: list[int] = []  # the old positions of those ends, increasing
    previous = [-1] * len(common)
    for k, name in enumerate(common):
        t = bisect_left(tail_pos, where[name])
        previous[k] = tails[t - 1] if t else -1
        if t == len(tails):
            tails.append(k)
            tail_pos.append(where[name])
        else:
            tails[t], tail_pos[t] = k, where[name]
    kept: list[str] = []
    k = tails[-1] if tails else -1
    while k >= 0:
        kept.append(common[k])
        k = previous[k]
    return frozenset(kept)


def _indexed_steps(old: list[Any], new: list[Any], path: str) -> list[_Step]:
    """Index by index: diff the common prefix, append with ``/-``, remove surplus from the end."""
    steps: list[_Step] = [
        _Pair(before, after, f"{path}/{i}") for i, (before, after) in enumerate(zip(old, new, strict=False))
    ]
    steps.extend(_op("add", f"{path}/-", item) for item in new[len(old) :])
    steps.extend(_op("remove", f"{path}/{i}") for i in reversed(range(len(new), len(old))))
    return steps


def _size(ops: list[Op]) -> int:
    """Length of the compact JSON text of ``ops``: the measure of a patch's length."""
    return len(json.dumps(ops, separators=(",", ":"), ensure_ascii=False, default=str))


def _op(op: str, path: str, value: Any = None) -> Op:
    """One operation; ``add`` and ``replace`` carry a copy of ``value`` so the patch never aliases ``new``."""
    if op == "remove":
        return {"op": op, "path": path}
    return {"op": op, "path": path, "value": _clone(value)}


def _clone(value: Any) -> Any:
    """A deep copy of JSON-like data made iteratively, so any depth the loader accepts is fine."""
    if not isinstance(value, dict | list):
        return value
    root: Any = {} if isinstance(value, dict) else [None] * len(value)
    stack = [(value, root)]
    while stack:
        source, target = stack.pop()
        for key, child in source.items() if isinstance(source, dict) else enumerate(source):
            if isinstance(child, dict | list):
                copied: Any = {} if isinstance(child, dict) else [None] * len(child)
                stack.append((child, copied))
                child = copied
            target[key] = child
    return root


def _kind(value: Any) -> type:
    """The JSON type of a value (bool before int: ``True == 1`` in Python, not in JSON)."""
    for kind in (bool, int, float, str, dict, list):
        if isinstance(value, kind):
            return kind
    return type(value)


def _same(a: Any, b: Any) -> bool:
    """Strict JSON equality, iteratively: types must match, floats compare by their text."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        kind = _kind(x)
        if kind is not _kind(y):
            return False
        if kind is dict:
            if x.keys() != y.keys():
                return False
            stack.extend((x[key], y[key]) for key in x)
        elif kind is list:
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif (repr(x) != repr(y)) if kind is float else (x != y):
            return False
    return True
