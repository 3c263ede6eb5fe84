"""Label selectors written as text (``app=web,tier in (a,b),!legacy``), as k8s.io/apimachinery/pkg/labels
``Parse`` reads them: Flux's ``labelSelector`` and ``annotationSelector`` take this form.

Requirements are joined by commas and must all hold: ``key``, ``!key``, ``key=value``, ``key==value``,
``key!=value`` (also true without the key), ``key in (a,b)``, ``key notin (a,b)`` (also true without the key),
``key>n`` and ``key<n`` (integers).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

Matcher = Callable[[Mapping[str, str]], bool]
_REQUIREMENT = re.compile(
    r"\s*(?:(?P<not>!)\s*(?P<nkey>[^\s,!=<>()]+)"
    r"|(?P<key>[^\s,!=<>()]+)\s*(?:(?P<op>==|=|!=|<|>)\s*(?P<value>[^\s,!=<>()]*)"
    r"|\s(?P<set>in|notin)\s*\((?P<values>[^()]*)\))?)\s*(?:,|\Z)")


def parse(text: str) -> Matcher:
    """A function telling whether labels satisfy ``text``; ValueError for a selector apimachinery refuses."""
    checks: list[Matcher] = []
    position = 0
    while position < len(text):
        found = _REQUIREMENT.match(text, position)
        if found is None or found.end() == position:
            raise ValueError(f"unable to parse requirement at {text[position:]!r}")
        checks.append(_check(found))
        position = found.end()
        if text[position - 1 : position] == "," and position == len(text):
            raise ValueError("a requirement is missing after ','")
    return lambda labels: all(check(labels) for check in checks)


def _check(found: re.Match[str]) -> Matcher:
    if found["not"]:
        key = found["nkey"]
        return lambda labels: key not in labels
    key, op = found["key"], found["op"]
    if op is None and found["set"] is None:
        return lambda labels: key in labels
    if op in ("=", "=="):
        value = found["value"]
        return lambda labels: labels.get(key) == value
    if op == "!=":
        value = found["value"]
        return lambda labels: labels.get(key) != value
    if op in ("<", ">"):
        bound = _integer(found["value"])
        return lambda labels: _compare(labels.get(key), op, bound)
    values = {v.strip() for v in found["values"].split(",")}
    if found["set"] == "in":
        return lambda labels: labels.get(key) in values
    return lambda labels: labels.get(key) not in values


def _integer(text: str) -> int:
    if not re.fullmatch(r"-?[0-9]+", text):
        raise ValueError(f"for 'Gt', 'Lt' operators, the value must be an integer: {text!r}")
    return int(text)


def _compare(value: str | None, op: str, bound: int) -> bool:
    if value is None or not re.fullmatch(r"-?[0-9]+", value):
        return False
    return int(value) < bound if op == "<" else int(value) > bound
