"""Validating an object against its CRD schema, as the API server's OpenAPI validator does.

kube-openapi ``pkg/validation/validate`` as apiextensions-apiserver runs it (``ValidateCustomResource``): at
every node the type, enum, string, number, array and object checks that apply to the value's kind all run
(a value of the wrong type can earn an enum error too), and every error of the object is collected. The
errors are converted as ``validation.ConvertErrors`` does: missing fields are ``Required value``, enums
``Unsupported value``, types ``Invalid value: "<kind>"``, lengths and counts ``Too long``/``Too many``.
List-type uniqueness (``listtype.ValidateListSetsAndMaps``) is checked on the same walk.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import INT64_MAX, INT64_MIN
from . import cel
from .fielderror import (
    DUPLICATE,
    TOO_LONG,
    TOO_MANY,
    TYPE_INVALID,
    FieldError,
    Path,
    dotted,
    go_quote,
    invalid,
    not_supported,
    required,
)
from .gotime import is_date_time
from .tables import Node


def kind_of(value: Any) -> str:
    """The JSON kind of a value, as the validator names it: the server holds a whole number as an int64 when
    it fits one, and as a float64 ("number") otherwise (:func:`..api.golang.go_number`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "integer" if _is_integer(value) else "number"
    names: dict[type, str] = {str: "string", list: "array", dict: "object"}
    return names.get(type(value), "string")


def _is_integer(value: Any) -> bool:
    if value.__class__ is int:
        return bool(INT64_MIN <= value <= INT64_MAX)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or value.is_integer()) and INT64_MIN <= value <= INT64_MAX


_CHECKS: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict), "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str), "boolean": lambda v: isinstance(v, bool), "integer": _is_integer,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool), "null": lambda v: v is None,
}


# The one kind of the values most nodes hold, found by their class alone (the checks below cover the rest).
_KIND_BY_CLASS = {dict: "object", list: "array", str: "string", bool: "boolean"}


def type_matches(value: Any, wanted: str | tuple[str, ...] | None, int_or_string: bool = False) -> bool:
    if int_or_string:
        return isinstance(value, str) or _is_integer(value)
    if wanted is None:
        return True
    kind = _KIND_BY_CLASS.get(value.__class__)
    if kind is not None:
        return kind == wanted if isinstance(wanted, str) else kind in wanted
    if isinstance(wanted, str):
        return bool(_CHECKS[wanted](value))
    return any(_CHECKS[kind](value) for kind in wanted)


def validate(value: Any, node: Node, path: Path = (), rules: list[FieldError] | None = None) -> list[FieldError]:
    """Every schema error of ``value`` (which the server has already pruned and defaulted); with ``rules``,
    the failures of the CEL rules (:func:`.cel.check_rules`, in its order) of every value of the right type
    are added there on the same walk (the server evaluates them only when no error blocks them)."""
    errs: list[FieldError] = []
    _node(value, node, path, errs, rules)
    return errs


def _node(value: Any, node: Node, path: Path, errs: list[FieldError], rules: list[FieldError] | None) -> None:
    cls = value.__class__
    if cls in (_SEEN.get(node) or _see(node))[1]:  # a container of the right type: only its contents to check
        if cls is dict:
            _object(value, node, path, errs, rules)
        else:
            _array(value, node, path, errs, rules)
        return
    if value is None and node.nullable:
        if node.enum is not None and None not in node.enum:  # the enum check still runs on a null
            errs.append(not_supported(path, value, list(node.enum)))
        return
    typed = True
    if node.date_time and value is not None:
        format_error = _date_time(value, path)
        if format_error is not None:
            errs.append(format_error)
            typed = False
        # kube-openapi's type check gives way to the format check (``validate/type.go``): a string or a list
        # is no type error there, any other value only the format's
    elif not type_matches(value, node.type, node.int_or_string):
        typed = False
        wanted = "integer,string" if node.int_or_string else node.type
        errs.append(_type_error(value, wanted, path))
        if node.any_of:
            errs += _any_of(value, node.any_of, path)
    if node.enum is not None and value not in node.enum:
        errs.append(not_supported(path, value, list(node.enum)))
    if rules is not None and node.rules and typed and value is not None:
        rules += cel.failures(value, node, path)
    if isinstance(value, dict):
        _object(value, node, path, errs, rules)
    elif isinstance(value, str):
        if node.limits or node.pattern is not None:
            _string(value, node, path, dotted(path), errs)
    elif isinstance(value, list):
        _array(value, node, path, errs, rules)
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and node.limits:
        _number(value, node, path, dotted(path), errs)


def _date_time(value: Any, path: Path) -> FieldError | None:
    """The ``date-time`` format, the one string format apiextensions keeps of KubeVirt's (``int32``/``int64``
    are stripped): a string must be one (strfmt ``IsDateTime``); a non-string is reported with the Go format
    of its type ("int64", "float64", "" for booleans and objects); a list is let through."""
    if isinstance(value, list):
        return None
    if isinstance(value, str):
        shown = go_quote(value)
        return None if is_date_time(value) else FieldError(
            path, TYPE_INVALID, value, f"{dotted(path)} in body must be of type date-time: {shown}")
    kind = kind_of(value)
    go_format = {"integer": "int64", "number": "float64"}.get(kind, "")
    return FieldError(path, TYPE_INVALID, go_format, f'{dotted(path)} in body must be of type date-time: "{go_format}"')




def _type_error(value: Any, wanted: Any, path: Path) -> FieldError:
    kind = kind_of(value)
    return FieldError(path, TYPE_INVALID, kind, f'{dotted(path)} in body must be of type {wanted}: "{kind}"')


def _any_of(value: Any, branches: tuple[str, ...], path: Path) -> list[FieldError]:
    """kube-openapi's anyOf (``schema_props.go``): when no branch holds, a root-level error and the errors of
    the branch that matched most, the first on a tie (KubeVirt's anyOf branches are bare types)."""
    if any(type_matches(value, branch) for branch in branches):
        return []
    at_least_one = f"{go_quote(dotted(path))} must validate at least one schema (anyOf)"
    return [invalid((), "", at_least_one), _type_error(value, branches[0], path)]


def _string(value: str, node: Node, path: Path, field: str, errs: list[FieldError]) -> None:
    limits = node.limits
    if "maxL" in limits and len(value) > limits["maxL"]:
        unit = "byte" if limits["maxL"] == 1 else "bytes"
        errs.append(FieldError(path, TOO_LONG, value, f"may not be more than {limits['maxL']} {unit}"))
    if "minL" in limits and len(value) < limits["minL"]:
        errs.append(invalid(path, value, f"{field} in body should be at least {limits['minL']} chars long"))
    if node.pattern is not None and not node.pattern.search(value):
        errs.append(invalid(path, value, f"{field} in body should match '{node.pattern_text}'"))


def _number(value: float, node: Node, path: Path, field: str, errs: list[FieldError]) -> None:
    limits = node.limits
    checks = (
        ("min", lambda v, b: v >= b, "greater than or equal to"), ("max", lambda v, b: v <= b, "less than or equal to"),
        ("xmin", lambda v, b: v > b, "greater than"), ("xmax", lambda v, b: v < b, "less than"),
    )
    for key, ok, words in checks:
        if key in limits and not ok(value, limits[key]):
            errs.append(invalid(path, value, f"{field} in body should be {words} {limits[key]}"))
    if "mo" in limits and limits["mo"] and (value / limits["mo"]) % 1:
        errs.append(invalid(path, value, f"{field} in body should be a multiple of {limits['mo']}"))


def _array(value: list[Any], node: Node, path: Path, errs: list[FieldError], rules: list[FieldError] | None) -> None:
    limits = node.limits
    if "maxI" in limits and len(value) > limits["maxI"]:
        errs.append(FieldError(path, TOO_MANY, len(value), f"must have at most {limits['maxI']} items"))
    if "minI" in limits and len(value) < limits["minI"]:
        errs.append(invalid(path, value, f"{dotted(path)} in body should have at least {limits['minI']} items"))
    items = node.items
    if items is not None:
        leaves = (_SEEN.get(items) or _see(items))[0]
        for i, item in enumerate(value):
            if item.__class__ not in leaves:
                _node(item, items, (*path, i), errs, rules)
    if node.list_type is not None:
        errs.extend(duplicates(value, node, path))


def _object(value: dict[str, Any], node: Node, path: Path, errs: list[FieldError],
            rules: list[FieldError] | None) -> None:
    limits = node.limits
    if "maxP" in limits and len(value) > limits["maxP"]:
        errs.append(FieldError(path, TOO_MANY, len(value), f"must have at most {limits['maxP']} items"))
    if node.required and not value.keys() >= node.required_set:
        errs.extend(required((*path, key)) for key in node.required if key not in value)
    known, additional = _FIELDS.get(node) or _fields(node)
    for key, item in value.items():
        sub = known.get(key, additional)
        if sub is None:
            continue
        cls = item.__class__
        if cls is dict and cls in sub[2]:  # an object where one belongs: straight to its fields
            _object(item, sub[0], (*path, key), errs, rules)
        elif cls not in sub[1]:
            _node(item, sub[0], (*path, key), errs, rules)


# What the walk knows of a schema node: the classes of the scalars it has nothing to say about (strings and
# booleans of the right type, no enum, limits, pattern, format or CEL rule: most leaves are, and checking them
# in the object spares building their path), and the container classes of the right type when it has no enum,
# no format and no rule (only their contents remain to check). The answers depend on a value's class alone.
_SEEN: dict[Node, tuple[frozenset[type], frozenset[type]]] = {}
# What the walk knows of an object node: each property's node and what _SEEN knows of it, and the same of the
# additionalProperties schema (None: none, or any value)
_Field = tuple[Node, frozenset[type], frozenset[type]]
_FIELDS: dict[Node, tuple[dict[str, _Field], _Field | None]] = {}


def _see(node: Node) -> tuple[frozenset[type], frozenset[type]]:
    leaves = frozenset(cls for cls, sample in ((str, ""), (bool, False))
                       if not node.checks_scalars and not node.rules
                       and type_matches(sample, node.type, node.int_or_string))
    typed = frozenset(cls for cls, sample in ((dict, {}), (list, []))
                      if node.enum is None and not node.date_time and not node.rules
                      and type_matches(sample, node.type, node.int_or_string))
    seen = _SEEN[node] = (leaves, typed)
    return seen


def _fields(node: Node) -> tuple[dict[str, _Field], _Field | None]:
    additional = node.additional
    fields = _FIELDS[node] = (
        {key: (sub, *(_SEEN.get(sub) or _see(sub))) for key, sub in node.properties.items()},
        (additional, *(_SEEN.get(additional) or _see(additional))) if isinstance(additional, Node) else None,
    )
    return fields


def duplicates(items: list[Any], node: Node, path: Path) -> list[FieldError]:
    """``x-kubernetes-list-type: set`` items and ``map`` keys must be unique (the later copy is the error)."""
    if node.list_type not in ("set", "map"):
        return []
    seen: set[str] = set()
    errs: list[FieldError] = []
    for i, item in enumerate(items):
        if node.list_type == "map":
            if not isinstance(item, dict):
                continue
            key: Any = {k: item[k] for k in node.map_keys if k in item}
        else:
            key = item
        token = repr(sorted(key.items()) if isinstance(key, dict) else key)
        if token in seen:
            errs.append(FieldError((*path, i), DUPLICATE, key))
        seen.add(token)
    return errs
