"""The words of Go's ``encoding/json`` for a value of the wrong type (``UnmarshalTypeError.Error()``), as the
Go that builds virtctl writes them (encoding/json backed by json/v2): the field is the JSON path from the
decoded root type, and when its last step is an array index (``.disks.0``) the phrase ``Go struct field`` is
left out (json/v2's heuristic: the value is likely a slice element, not a struct field)."""

from __future__ import annotations

_DIGITS = frozenset("0123456789")


def type_error(word: str, struct: str, field: str, go_type: str) -> str:
    """``json: cannot unmarshal WORD into [Go struct field ]STRUCT.FIELD of type GO_TYPE``."""
    last = field.rpartition(".")[2]
    into = "" if last and set(last) <= _DIGITS else "Go struct field "
    return f"json: cannot unmarshal {word} into {into}{struct}.{field} of type {go_type}"
