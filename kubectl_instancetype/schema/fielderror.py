"""Field errors worded as the API server words them (apimachinery ``util/validation/field``).

Every error the server's create path reports is one of these: a field path, a type (``Required value``,
``Invalid value``, ...), the offending value and a detail. :meth:`FieldError.text` is Go's
``field.Error.Error()``, :meth:`FieldError.key` the part every tool must print (``spec.memory: Required value``).
"""

from __future__ import annotations

import json
from typing import Any

from ..api.golang import go_float_v, go_json, go_number
from ..records import dataclass

Path = tuple[str | int, ...]

REQUIRED = "FieldValueRequired"
INVALID = "FieldValueInvalid"
TYPE_INVALID = "FieldValueTypeInvalid"
NOT_SUPPORTED = "FieldValueNotSupported"
DUPLICATE = "FieldValueDuplicate"
FORBIDDEN = "FieldValueForbidden"
TOO_LONG = "FieldValueTooLong"
TOO_MANY = "FieldValueTooMany"

TYPE_TEXT = {
    REQUIRED: "Required value", INVALID: "Invalid value", TYPE_INVALID: "Invalid value",
    NOT_SUPPORTED: "Unsupported value", DUPLICATE: "Duplicate value", FORBIDDEN: "Forbidden",
    TOO_LONG: "Too long", TOO_MANY: "Too many",
}
# Errors after which the server skips the CEL rules (apiextensions-apiserver strategy.go hasBlockingErr).
BLOCKING = frozenset((NOT_SUPPORTED, REQUIRED, TOO_LONG, TOO_MANY, TYPE_INVALID))
_BARE = frozenset((REQUIRED, FORBIDDEN, TOO_LONG))  # bodies that never print the value
OMIT = object()


def dotted(path: Path) -> str:
    """A JSON path as the server prints it: ``spec.disks[0].name`` (``<nil>`` for the object itself)."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "<nil>"


class GoStruct(dict[str, Any]):
    """A Go struct's JSON (an ``OwnerReference``): encoding/json writes its fields in declaration order, not
    sorted as it writes a map's keys."""


def go_value(value: Any) -> str:
    """``value`` as ``field.Error`` prints a bad value (apimachinery ``util/validation/field/errors.go``): Go's
    ``%v`` for numbers and booleans (the server holds whole numbers as int64, the rest as float64), ``%q`` for
    strings, JSON for the rest."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        number = go_number(value)
        return str(number) if isinstance(number, int) else go_float_v(number)
    if isinstance(value, str):
        return go_quote(value)
    if isinstance(value, GoStruct) or (isinstance(value, list) and any(isinstance(v, GoStruct) for v in value)):
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return go_json(value)


_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v",
            '"': '\\"', "\\": "\\\\"}


def go_quote(text: str) -> str:
    """Go's ``%q`` (``strconv.Quote``): printable characters as they are, the rest escaped."""
    if text.isprintable() and '"' not in text and "\\" not in text:
        return f'"{text}"'
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif char.isprintable():
            out.append(char)
        elif ord(char) < 0x80:
            out.append(f"\\x{ord(char):02x}")
        else:
            out.append(f"\\u{ord(char):04x}" if ord(char) < 0x10000 else f"\\U{ord(char):08x}")
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class FieldError:
    """One field error: where, which type, the bad value and the detail."""

    path: Path
    type: str
    value: Any = OMIT
    detail: str = ""

    @property
    def field(self) -> str:
        return dotted(self.path)

    @property
    def blocking(self) -> bool:
        return self.type in BLOCKING

    def key(self) -> str:
        return f"{self.field}: {TYPE_TEXT[self.type]}"

    def text(self) -> str:
        body = TYPE_TEXT[self.type]
        if self.type not in _BARE and self.value is not OMIT:
            body += f": {go_value(self.value)}"
        return f"{self.field}: {body}: {self.detail}" if self.detail else f"{self.field}: {body}"


def required(path: Path, detail: str = "") -> FieldError:
    return FieldError(path, REQUIRED, OMIT, detail)


def invalid(path: Path, value: Any, detail: str) -> FieldError:
    return FieldError(path, INVALID, value, detail)


def not_supported(path: Path, value: Any, allowed: list[Any]) -> FieldError:
    detail = "supported values: " + ", ".join(go_value(str(v) if isinstance(v, str) else v) for v in allowed)
    return FieldError(path, NOT_SUPPORTED, value, detail)
