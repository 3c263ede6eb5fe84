"""The CEL rules (``x-kubernetes-validations``) of KubeVirt's CRDs, evaluated as the API server does.

KubeVirt's CRDs hold a handful of rules on scalar fields (``self.startsWith('/')``, ``!self.contains('..')``,
``self == true``). This module evaluates the part of CEL those rules are written in: literals (strings,
integers, booleans), ``self``, the string methods ``startsWith``/``endsWith``/``contains``/``matches``,
``size()``, ``!``, ``==``/``!=``/``<``/``<=``/``>``/``>=``, ``&&``/``||`` and parentheses. A rule outside it
is a :class:`RuleError` (the tests compile every rule of the shipped tables, so a regenerated table with a new
kind of rule fails there, not at a user's run). A failed rule is ``Invalid value: "<schema type>": <message>``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from .fielderror import FieldError, Path, invalid
from .tables import Node

Expr = Callable[[Any], Any]


@functools.cache
def _token_re() -> re.Pattern[str]:
    """One token of a CEL rule (compiled on first use)."""
    return re.compile(r"\s*(?:(?P<str>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(?P<num>\d+)|(?P<name>[A-Za-z_]\w*)"
                      r"|(?P<op>&&|\|\||==|!=|<=|>=|[!().,<>]))")


_METHODS: dict[str, Callable[..., Any]] = {
    "startsWith": lambda s, p: s.startswith(p), "endsWith": lambda s, p: s.endswith(p),
    "contains": lambda s, p: p in s, "matches": lambda s, p: re.search(p, s) is not None, "size": len,
}
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


class RuleError(ValueError):
    """A rule written in CEL this evaluator does not cover."""


def _tokens(rule: str) -> list[str]:
    out, pos = [], 0
    while pos < len(rule.rstrip()):
        match = _token_re().match(rule, pos)
        if match is None:
            raise RuleError(f"cannot read CEL rule {rule!r} at {pos}")
        out.append(match.group().strip())
        pos = match.end()
    return out


class _Parser:
    def __init__(self, rule: str) -> None:
        self.rule, self.tokens, self.pos = rule, _tokens(rule), 0

    def peek(self) -> str:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ""

    def take(self, want: str | None = None) -> str:
        token = self.peek()
        if not token or (want is not None and token != want):
            raise RuleError(f"cannot read CEL rule {self.rule!r}: expected {want or 'more'}")
        self.pos += 1
        return token

    def parse(self) -> Expr:
        expr = self.binary(0)
        if self.peek():
            raise RuleError(f"cannot read CEL rule {self.rule!r}: unexpected {self.peek()!r}")
        return expr

    def binary(self, level: int) -> Expr:
        ops = (("||",), ("&&",), tuple(_COMPARE))
        if level == len(ops):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in ops[level]:
            op, right = self.take(), self.binary(level + 1)
            left = _combine(op, left, right)
        return left

    def unary(self) -> Expr:
        if self.peek() == "!":
            self.take()
            inner = self.unary()
            return lambda s: not inner(s)
        return self.postfix(self.primary())

    def primary(self) -> Expr:
        token = self.take()
        if token == "(":
            inner = self.binary(0)
            self.take(")")
            return inner
        if token == "self":
            return lambda s: s
        if token in ("true", "false"):
            return _constant(token == "true")
        if token.isdigit():
            return _constant(int(token))
        if token[0] in "'\"":
            return _constant(token[1:-1].encode().decode("unicode_escape"))
        raise RuleError(f"cannot read CEL rule {self.rule!r}: {token!r}")

    def postfix(self, target: Expr) -> Expr:
        while self.peek() == ".":
            self.take()
            name = self.take()
            if name not in _METHODS:
                raise RuleError(f"CEL method {name!r} of rule {self.rule!r} is not supported")
            self.take("(")
            args = [] if self.peek() == ")" else [self.binary(0)]
            self.take(")")
            target = _call(_METHODS[name], target, args)
        return target


def _constant(value: Any) -> Expr:
    return lambda s: value


def _combine(op: str, left: Expr, right: Expr) -> Expr:
    if op == "||":
        return lambda s: bool(left(s)) or bool(right(s))
    if op == "&&":
        return lambda s: bool(left(s)) and bool(right(s))
    compare = _COMPARE[op]
    return lambda s: compare(left(s), right(s))


def _call(method: Callable[..., Any], target: Expr, args: list[Expr]) -> Expr:
    return lambda s: method(target(s), *(a(s) for a in args))


@functools.cache
def compile_rule(rule: str) -> Expr:
    """The rule as a function of ``self``; RuleError when it is written outside the supported part of CEL."""
    return _Parser(rule).parse()


def check_rules(value: Any, node: Node, path: Path = ()) -> list[FieldError]:
    """Every failed rule in ``value`` (walked along ``node``), worded as the API server words them."""
    errs: list[FieldError] = []
    if value is None or not node.carries("rules"):
        return errs
    errs += failures(value, node, path)
    if isinstance(value, dict):
        carrying, additional = node.carrying("rules")
        for key, item in value.items():
            sub = carrying.get(key) if key in node.properties else additional
            if sub is not None:
                errs.extend(check_rules(item, sub, (*path, key)))
    elif isinstance(value, list) and node.items is not None:
        for i, item in enumerate(value):
            errs.extend(check_rules(item, node.items, (*path, i)))
    return errs


def failures(value: Any, node: Node, path: Path) -> list[FieldError]:
    """The rules of ``node`` itself that ``value`` (not null) fails, in their order."""
    errs: list[FieldError] = []
    for rule, message in node.rules:
        if not compile_rule(rule)(value):
            kind = node.type if isinstance(node.type, str) else "object"
            errs.append(invalid(path, kind, message or f"failed rule: {rule}"))
    return errs
