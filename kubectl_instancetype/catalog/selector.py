"""kubectl's label selector syntax (``-l``), parsed and matched as apimachinery's ``labels.Parse`` does.

Requirements are separated by commas and all must hold: ``k=v``, ``k==v``, ``k!=v``, ``k in (a,b)``,
``k notin (a,b)``, ``k`` (exists), ``!k`` (does not exist), ``k>n`` and ``k<n`` (integer values). As in
Kubernetes, ``!=`` and ``notin`` also match objects without the label.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..errors import UsageError
from ..records import dataclass

_KEY = r"(?:[a-z0-9](?:[-a-z0-9.]*[a-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?"
_VALUE = r"(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?"
_SET = re.compile(rf"\s*({_KEY})\s+(in|notin)\s*\(([^()]*)\)\s*\Z")
_BINARY = re.compile(rf"\s*({_KEY})\s*(==|=|!=|>|<)\s*({_VALUE})\s*\Z")
_EXISTS = re.compile(rf"\s*(!?)\s*({_KEY})\s*\Z")


@dataclass(frozen=True)
class Requirement:
    """One requirement: a key, an operator (``in``, ``notin``, ``exists``, ``!``, ``gt``, ``lt``) and values."""

    key: str
    operator: str
    values: frozenset[str] = frozenset()

    def matches(self, labels: Mapping[str, str]) -> bool:
        present = self.key in labels
        value = labels.get(self.key, "")
        if self.operator == "exists":
            return present
        if self.operator == "!":
            return not present
        if self.operator == "in":
            return present and value in self.values
        if self.operator == "notin":
            return not present or value not in self.values
        return present and _compare(value, next(iter(self.values)), self.operator)


@dataclass(frozen=True)
class Selector:
    """Every requirement of a selector; the empty selector matches everything."""

    requirements: tuple[Requirement, ...] = ()

    def matches(self, labels: Mapping[str, str] | None) -> bool:
        return all(r.matches(labels or {}) for r in self.requirements)


def _compare(value: str, bound: str, operator: str) -> bool:
    try:
        number = int(value)
    except ValueError:
        return False
    return number > int(bound) if operator == "gt" else number < int(bound)


def parse_selector(text: str) -> Selector:
    """``text`` as a selector; UsageError (exit 2) naming the requirement that cannot be parsed."""
    if not text.strip():
        return Selector()
    return Selector(tuple(_requirement(part) for part in _split(text)))


def _split(text: str) -> list[str]:
    """Split on the commas that are not inside ``( … )``."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _requirement(part: str) -> Requirement:
    if match := _SET.match(part):
        values = [v.strip() for v in match.group(3).split(",")]
        if all(re.fullmatch(_VALUE, v) for v in values):
            return Requirement(match.group(1), match.group(2), frozenset(values))
    elif match := _BINARY.match(part):
        key, operator, value = match.groups()
        if operator in (">", "<"):
            if not re.fullmatch(r"-?[0-9]+", value):
                raise UsageError(f"unable to parse requirement: {part.strip()!r}: for '{operator}', the value "
                                 "must be an integer")
            return Requirement(key, "gt" if operator == ">" else "lt", frozenset((value,)))
        return Requirement(key, "notin" if operator == "!=" else "in", frozenset((value,)))
    elif match := _EXISTS.match(part):
        return Requirement(match.group(2), "!" if match.group(1) else "exists")
    raise UsageError(f"unable to parse requirement: {part.strip()!r} is not a valid label selector requirement")
