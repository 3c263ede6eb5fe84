"""An object's ``metadata`` as the API server decodes it: JSON into Go's ``ObjectMeta``, then back.

apiextensions-apiserver ``schema/objectmeta`` (``GetObjectMetaWithOptions``, ``SetObjectMeta``): a field of
the wrong JSON type is a decode error worded by Go's ``encoding/json``; fields ``ObjectMeta`` does not have
are unknown (``metadata.labelz``) and dropped; empty values are dropped on the way back (``omitempty``);
null sets the zero value. Field names match case-sensitively.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_STRING, _INT, _TIME, _STRMAP, _STRLIST, _OBJLIST = "string", "int64", "time", "map", "strings", "objects"
FIELDS = {
    "name": _STRING, "generateName": _STRING, "namespace": _STRING, "selfLink": _STRING, "uid": _STRING,
    "resourceVersion": _STRING, "generation": _INT, "creationTimestamp": _TIME, "deletionTimestamp": _TIME,
    "deletionGracePeriodSeconds": _INT, "labels": _STRMAP, "annotations": _STRMAP,
    "ownerReferences": _OBJLIST, "finalizers": _STRLIST, "managedFields": _OBJLIST,
}
_GO_TYPES = {
    "uid": "types.UID", "generation": "int64", "deletionGracePeriodSeconds": "int64",
    "labels": "map[string]string", "annotations": "map[string]string", "finalizers": "[]string",
    "ownerReferences": "[]v1.OwnerReference", "managedFields": "[]v1.ManagedFieldsEntry",
}
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z")


@dataclass(frozen=True)
class DecodedMeta:
    """The metadata as stored, its unknown fields, or the decode error that refuses the object."""

    meta: dict[str, Any]
    unknown: tuple[str, ...] = ()
    error: str | None = None
    error_field: str | None = None


def json_kind(value: Any) -> str:
    """Go's name of a JSON value's kind in unmarshal errors."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    names: dict[type, str] = {str: "string", list: "array", dict: "object"}
    return names.get(type(value), "null")


def _mismatch(value: Any, name: str, go_type: str) -> str:
    return f"json: cannot unmarshal {json_kind(value)} into Go struct field ObjectMeta.{name} of type {go_type}"


def _field_error(name: str, value: Any) -> str | None:
    kind = FIELDS[name]
    go_type = _GO_TYPES.get(name, "string")
    if value is None:
        return None
    if kind == _STRING and not isinstance(value, str):
        return _mismatch(value, name, go_type)
    if kind == _INT and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return _mismatch(value, name, go_type)
    if kind == _INT and isinstance(value, float) and not value.is_integer():
        return f"json: cannot unmarshal number {value} into Go struct field ObjectMeta.{name} of type int64"
    if kind == _TIME:
        return _time_error(name, value)
    if kind == _STRMAP:
        return _map_error(name, value, go_type)
    if kind in (_STRLIST, _OBJLIST):
        return _list_error(name, value, go_type, str if kind == _STRLIST else dict)
    return None


def _time_error(name: str, value: Any) -> str | None:
    if not isinstance(value, str):
        return _mismatch(value, name, "string")
    if not _RFC3339.match(value):
        return f'parsing time "{value}" as "2006-01-02T15:04:05Z07:00": cannot parse "{value}" as "2006"'
    return None


def _map_error(name: str, value: Any, go_type: str) -> str | None:
    if not isinstance(value, dict):
        return _mismatch(value, name, go_type)
    for item in value.values():
        if item is not None and not isinstance(item, str):
            return _mismatch(item, name, "string")
    return None


def _list_error(name: str, value: Any, go_type: str, item_type: type) -> str | None:
    if not isinstance(value, list):
        return _mismatch(value, name, go_type)
    for item in value:
        if item is not None and not isinstance(item, item_type):
            inner = "string" if item_type is str else go_type[2:]
            return _mismatch(item, name, inner)
    return None


def decode(meta: Any, track_unknown: bool) -> DecodedMeta:
    """``metadata`` decoded as ObjectMeta and written back (a copy), or the decode error."""
    if meta is None:
        return DecodedMeta({})
    if not isinstance(meta, dict):
        return DecodedMeta({}, error=f"json: cannot unmarshal {json_kind(meta)} into Go value of type v1.ObjectMeta")
    unknown = tuple(f"metadata.{key}" for key in meta if key not in FIELDS) if track_unknown else ()
    out: dict[str, Any] = {}
    for key, value in sorted(meta.items()):  # kubectl sends JSON with sorted keys; Go reports the first error
        if key not in FIELDS:
            continue
        error = _field_error(key, value)
        if error is not None:
            return DecodedMeta({}, error=error, error_field=key)
        if value not in (None, "", 0, {}, []) or isinstance(value, bool):
            out[key] = _stored(key, value)
    return DecodedMeta(out, unknown)


def _stored(key: str, value: Any) -> Any:
    if FIELDS[key] == _STRMAP:
        return {k: "" if v is None else v for k, v in value.items()}
    if FIELDS[key] == _INT:
        return int(value)
    return value
