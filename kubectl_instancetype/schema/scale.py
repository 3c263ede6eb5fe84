"""The scale subresource's check on create: ``spec.replicas`` must be an int64 between 0 and 2^31-1.

apiextensions-apiserver ``customResourceValidator.ValidateScaleSpec`` reads the replicas with
``unstructured.NestedInt64``: a value the server does not hold as an int64 (a string, a fraction, a whole
number beyond int64) or a non-object on the way is an ``accessor error`` worded with Go's ``%v`` and ``%T``,
reported on the path ``.spec.replicas`` as the CRD spells it (leading dot included). The status path is not
checked: ``status`` is dropped on create where a status subresource exists, as it does for every scalable
KubeVirt kind.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import go_float_v, go_number
from .fielderror import FieldError, invalid

SPEC_REPLICAS = ("spec", "replicas")
INT32_MAX = 2**31 - 1


def spec_replicas(obj: dict[str, Any], fields: tuple[str, ...] = SPEC_REPLICAS) -> list[FieldError]:
    """The errors ``ValidateScaleSpec`` finds in ``obj``."""
    where = ("." + ".".join(fields),)
    value: Any = obj
    for i, key in enumerate(fields):
        if value is None:
            return []
        if not isinstance(value, dict):
            at = "." + ".".join(fields[: i + 1])
            return [invalid(where, 0, f"{at} accessor error: {go_v(value)} is of the type {go_type(value)}, "
                                      "expected map[string]interface{}")]
        if key not in value:
            return []
        value = value[key]
    number = go_number(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value
    if not isinstance(number, int) or isinstance(number, bool):
        if number is None:
            return []
        return [invalid(where, 0, f"{where[0]} accessor error: {go_v(number)} is of the type {go_type(number)}, "
                                  "expected int64")]
    if number < 0:
        return [invalid(where, number, "should be a non-negative integer")]
    if number > INT32_MAX:
        return [invalid(where, number, f"should be less than or equal to {INT32_MAX}")]
    return []


def go_v(value: Any) -> str:
    """Go's ``%v`` of a decoded JSON value (maps print as ``map[k:v]`` with sorted keys)."""
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        number = go_number(value)
        return str(number) if isinstance(number, int) else go_float_v(number)
    if isinstance(value, dict):
        return "map[" + " ".join(f"{key}:{go_v(value[key])}" for key in sorted(value)) + "]"
    if isinstance(value, list):
        return "[" + " ".join(go_v(item) for item in value) + "]"
    return str(value)


def go_type(value: Any) -> str:
    """Go's ``%T`` of a decoded JSON value."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "int64" if isinstance(go_number(value), int) else "float64"
    names: dict[type, str] = {str: "string", dict: "map[string]interface {}", list: "[]interface {}"}
    return names.get(type(value), "<nil>")
