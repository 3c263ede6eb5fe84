"""Go's rules for plain JSON-like data: lower-casing, "set" versus zero values, nil pointers, JSON text."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decimal import Decimal

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def go_lower(text: str) -> str:
    """Go's strings.ToLower: simple one-to-one case mapping (Python's str.lower maps U+0130 to two
    characters and knows a final sigma; Go does neither)."""
    if text.isascii():  # ASCII letters have one-to-one cases: both lower the same
        return text.lower()
    return "".join("i" if c == "\u0130" else c.lower() for c in text)


def child(parent: dict[str, Any], key: str) -> dict[str, Any]:
    """``parent[key]`` as a mapping, created empty when absent or null (Go: allocate a nil pointer)."""
    value = parent.get(key)
    if not isinstance(value, dict):
        value = {}
        parent[key] = value
    return value


def is_set(value: Any) -> bool:
    """A Go pointer, map or slice field: set when present and not null."""
    return value is not None


def nonzero(value: Any) -> bool:
    """A plain Go string/number/bool field: set when not its zero value."""
    return value not in (None, "", 0, False)


def clone_json(value: Any) -> Any:
    """A deep copy of plain JSON-like data (much faster than copy.deepcopy)."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():  # the common scalars are taken without a call
            kind = item.__class__
            out[key] = item if kind is str or kind is int or kind is bool or item is None else clone_json(item)
        return out
    if isinstance(value, list):
        return [item if item.__class__ is str else clone_json(item) for item in value]
    return value


def go_json(value: Any) -> str:
    """Compact JSON as Go's encoding/json writes a decoded map: sorted keys, HTML-safe escapes, and numbers
    as the API server holds them (``1.0`` is ``1``, ``1e21`` is ``1e+21``; see :func:`go_number`)."""
    value, marked = _go_numbers(value)
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    if marked:
        text = _marked_re().sub(lambda m: m.group(1), text)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


_MARK = "\x00go-number:"


@cache
def _marked_re() -> re.Pattern[str]:
    """A marked Go number (compiled on first use)."""
    return re.compile(r'"\\u0000go-number:([^"]*)"')


def _go_numbers(value: Any) -> tuple[Any, bool]:
    """``value`` with every number Go writes differently from Python (floats, ints beyond int64) replaced by
    a marked string holding Go's text, and whether there was one (most documents have none: then ``value``
    itself comes back)."""
    if isinstance(value, dict):
        pairs = {k: _go_numbers(v) for k, v in value.items()}
        if not any(marked for _, marked in pairs.values()):
            return value, False
        return {k: new for k, (new, _) in pairs.items()}, True
    if isinstance(value, list):
        items = [_go_numbers(v) for v in value]
        if not any(marked for _, marked in items):
            return value, False
        return [new for new, _ in items], True
    if isinstance(value, float) or (isinstance(value, int) and not isinstance(value, bool)
                                    and not INT64_MIN <= value <= INT64_MAX):
        number = go_number(value)
        return _MARK + (str(number) if isinstance(number, int) else go_float_json(number)), True
    return value, False


def go_type_name(obj: dict[str, Any] | None) -> str:
    """How Go's ``%T`` prints a decoded API object (``<nil>`` when there is none)."""
    if obj is None:
        return "<nil>"
    version = str(obj.get("apiVersion", "")).rsplit("/", 1)[-1]
    return f"*{version}.{obj.get('kind')}"


def go_number(value: int | float) -> int | float:
    """A JSON number as the API server holds it: an int64 when the text is one, else a float64.

    apimachinery's JSON decoding (``util/json``) keeps a number as int64 only when it parses as one; a whole
    number beyond int64 (``9223372036854775808``, YAML's ``1e20``) becomes a float64, and so does every
    fraction. YAML's ``1.0`` reaches the server as ``1`` (go-yaml's float64 is written back as JSON ``1``).
    """
    if isinstance(value, float) and value.is_integer() and INT64_MIN <= value <= INT64_MAX:
        return int(value)
    if isinstance(value, int) and not INT64_MIN <= value <= INT64_MAX:
        return float(value)
    return value


def _exact(value: float) -> Decimal:
    """The decimal digits of ``value``'s shortest repr (decimal imported on first use: few documents hold
    floats)."""
    from decimal import Decimal

    return Decimal(repr(value))


def go_float_json(value: float) -> str:
    """A float64 as Go's encoding/json writes it: plain digits below 1e21, else exponent form (``1e+21``,
    ``1e-7``), always the shortest text that reads back the same."""
    magnitude = abs(value)
    if magnitude != 0 and (magnitude < 1e-6 or magnitude >= 1e21):
        text = repr(value)
        mantissa, _, exponent = text.partition("e")
        sign, digits = exponent[0], exponent[1:].lstrip("0") or "0"
        return f"{mantissa}e{sign}{digits}"
    return format(_exact(value).normalize(), "f")


def go_float_v(value: float) -> str:
    """A float64 as Go's ``%v`` prints it (``strconv.FormatFloat(f, 'g', -1, 64)``): exponent form when the
    exponent is below -4 or at least 6 (``1e+06``, ``1.2345675e+06``, ``1e-05``), else plain digits
    (``1.5``, ``123456.5``)."""
    if value != value or value in (float("inf"), float("-inf")):
        return {True: "+Inf", False: "-Inf"}[value > 0] if value == value else "NaN"
    if value == 0:
        return "0"
    exponent = _exact(value).adjusted()
    if exponent < -4 or exponent >= 6:
        mantissa, _, power = repr(value).partition("e")
        if not power:  # repr chose plain digits: write it as Go's exponent form
            mantissa, _, power = f"{_exact(value).normalize():e}".partition("e")
        sign, digits = power[0], power[1:].lstrip("0")
        return f"{mantissa}e{sign}{digits.rjust(2, '0')}"
    return format(_exact(value).normalize(), "f")
