"""Field errors worded as the API server words them (apimachinery ``util/validation/field``).

Every error the server's create path reports is one of these: a field path, a type (``Required value``,
``Invalid value``, ...), the offending value and a detail. :meth:`FieldError.text` is Go's
``field.Error.Error()``, :meth:`FieldError.key` the part every tool must print (``spec.memory: Required value``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

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


def go_value(value: Any) -> str:
    """``value`` as Go's ``%v`` (numbers, booleans) or JSON (strings quoted, collections) prints it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and math.isfinite(value):
        return str(int(value)) if value.is_integer() and abs(value) < 1e21 else repr(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


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
