"""Substituting parameter values into the template's VirtualMachine (``template/template.go``
``substituteParameters`` and ``template/visit.go``).

The file form of a template always reaches the engine as an unstructured object (a decoded JSON map), so the
walk here is the engine's walk of ``map[string]interface{}``: every string, map keys included, is
substituted. ``${{X}}`` as a whole string is replaced by the value decoded as JSON (a number, a boolean, an
object…; text that is not JSON stays a string; ``null`` is refused), and a decoded value is not walked again.
``${X}`` inside a string is replaced by the value's text: the engine walks the matches of the *original* string
and replaces the first occurrence of each in turn (``${A}-${B}`` with ``A=${B}`` gives ``x-${B}``).

The engine's walk costs the string's length for every reference (quadratic). Here the references are replaced
in one pass, and the pass is kept when it is the engine's answer: when no reference a later step looks for
occurs in the text already replaced (see :func:`_shadowed`), which holds unless a value (or a value with the
text around it) spells a reference; then the engine's walk is run as it is.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..yamlio.load import DEFAULT_LIMITS
from .parameters import STRING_REFERENCE, VALUE_REFERENCE


class SubstitutionError(ValueError):
    """A reference the engine cannot substitute; the message is the engine's."""


class NestingError(ValueError):
    """A ``${{X}}`` value nested deeper than the documents this tool reads (``Limits.max_depth``): every later
    walk of the VM (conversion, checks, output) would recurse through it."""


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (its strings left out), in one pass, without
    decoding it."""
    if "[" not in text and "{" not in text:
        return 0
    depth = deepest = 0
    for bracket in _BRACKET.finditer(_JSON_STRING.sub("", text)):
        if bracket.group(0) in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def substitute(text: str, values: Mapping[str, str]) -> tuple[str, bool]:
    """``substituteParameters``: the substituted text and whether it is a string (``False``: a whole-value
    ``${{X}}`` whose text is to be read as JSON)."""
    whole = VALUE_REFERENCE.match(text)
    if whole:
        name = whole.group(1)
        if name not in values:
            raise SubstitutionError(f"found parameter '{name}' but it was not defined")
        return values[name], False
    matches = list(STRING_REFERENCE.finditer(text))
    for match in matches:
        if match.group(1) not in values:
            raise SubstitutionError(f"found parameter '{match.group(1)}' but it was not defined")
    if not matches:
        return text, True
    pieces: list[str] = []
    starts: list[int] = []  # where each value begins in the result
    position = length = 0
    for match in matches:
        gap, value = text[position:match.start()], values[match.group(1)]
        starts.append(length + len(gap))
        pieces += (gap, value)
        length += len(gap) + len(value)
        position = match.end()
    pieces.append(text[position:])
    out = "".join(pieces)
    if not _shadowed(out, matches, starts):
        return out, True
    return _step_by_step(text, matches, values), True


def _shadowed(out: str, matches: list[re.Match[str]], starts: list[int]) -> bool:
    """Whether the engine, replacing the first occurrence of match ``i``'s text after the ``i`` before it, would
    find one before the match itself: an occurrence of that text ending by ``starts[i]`` in the one-pass result.

    Until the first such step the engine's string is the one-pass result up to ``starts[i]``, followed by the
    original text from match ``i`` on; an occurrence lying in the original text alone would be a match of the
    original, and none can straddle the match (a reference holds one ``$``, at its start)."""
    first_end: dict[str, int] = {}
    for found in STRING_REFERENCE.finditer(out):
        first_end.setdefault(found.group(0), found.end())
    return any(first_end.get(match.group(0), len(out) + 1) <= start for match, start in zip(matches, starts,
                                                                                          strict=True))


def _step_by_step(text: str, matches: list[re.Match[str]], values: Mapping[str, str]) -> str:
    """The engine's own walk: the first occurrence of each match's text replaced in turn."""
    out = text
    for match in matches:
        out = out.replace(match.group(0), values[match.group(1)], 1)
    return out


_NOTHING = object()


def go_any(text: str) -> Any:
    """``json.Unmarshal`` into ``any``: numbers are float64 (a whole number keeps Python's int only while
    float64 holds it exactly); ``_NOTHING`` when Go would refuse the text (NaN, overflow, bad JSON)."""
    def constant(name: str) -> Any:
        raise ValueError(name)

    try:
        data = json.loads(text, parse_constant=constant, parse_int=_go_int, parse_float=_go_float)
    except (ValueError, RecursionError):
        return _NOTHING
    return data


def _go_int(text: str) -> int | float:
    number = int(text) if len(text) < 400 else float(text)
    if isinstance(number, int) and float(number) != number:
        return float(number)
    if isinstance(number, float) and not math.isfinite(number):
        raise ValueError(text)
    return number


def _go_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(text)
    return number


def json_kind(value: Any) -> str:
    """reflect's Kind of a JSON value decoded into an ``any`` by encoding/json (every number a float64)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "float64"
    if isinstance(value, str):
        return "string"
    return "slice" if isinstance(value, list) else "map"


def go_type(value: Any) -> str:
    """The Go type a JSON value decodes to in an ``any`` (``%T``)."""
    kind = json_kind(value)
    return {"slice": "[]interface {}", "map": "map[string]interface {}"}.get(kind, kind)


Transform = Callable[[str], tuple[str, bool]]


def _replaced(existing: Any, target: str, transform: Transform) -> Any:
    """``visitUnsettableValues`` for a map key (``target`` ``string``) or an ``interface{}`` value."""
    if not isinstance(existing, str):
        return walk(existing, transform)
    text, as_string = transform(existing)
    if as_string:
        return text
    if json_depth(text) > DEFAULT_LIMITS.max_depth:
        raise NestingError(f"nested deeper than the limit of {DEFAULT_LIMITS.max_depth} levels")
    data = go_any(text)
    if data is _NOTHING:
        return text
    if data is None:
        raise SubstitutionError(f"cannot assign nil value to target type {target}")
    if target == "string" and not isinstance(data, str):
        raise SubstitutionError(f"substituted value type {go_type(data)} is not assignable to target type string")
    return data


def walk(value: Any, transform: Transform) -> Any:
    """``value`` with ``transform`` applied to every string and map key (a new tree; ``value`` is kept)."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        renamed: dict[str, Any] = {}
        for key, item in value.items():
            new_key = _replaced(key, "string", transform)
            new_item = _replaced(item, "interface {}", transform)
            if new_key == key:
                out[key] = new_item
            else:
                renamed[new_key] = new_item
        out.update(renamed)  # the engine deletes the renamed keys, then sets every update
        return out
    if isinstance(value, list):
        return [_replaced(item, "interface {}", transform) for item in value]
    return value


def substitute_all(vm: Any, values: Mapping[str, str]) -> Any:
    """``substituteAllParameters`` on an unstructured VirtualMachine."""
    return walk(vm, lambda text: substitute(text, values))


def referenced(vm: Any) -> set[str]:
    """``collectAllReferencedParameters``: every name a string or map key of ``vm`` references."""
    from .parameters import references_in

    names: set[str] = set()

    def collect(text: str) -> tuple[str, bool]:
        names.update(references_in(text))
        return text, True

    walk(vm, collect)
    return names
