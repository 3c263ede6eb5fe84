"""An object's ``metadata`` as the API server decodes it: JSON into Go's ``ObjectMeta``, then back.

apiextensions-apiserver ``schema/objectmeta`` (``GetObjectMetaWithOptions``, ``SetObjectMeta``) decodes the
metadata with sigs.k8s.io/json's strict decoder, a fork of Go's encoding/json, into ``metav1.ObjectMeta`` and
its nested ``OwnerReference`` and ``ManagedFieldsEntry`` structs, and writes the struct back. The decoder's
rules, all visible in the API server's answers:

* a value of the wrong JSON type is remembered (the first one, in key order: the metadata reaches the decoder
  re-encoded from a map, so with sorted keys) and decoding goes on; the error names the innermost struct and
  the JSON path (``Go struct field OwnerReference.ownerReferences.uid of type types.UID``);
* a timestamp is decoded by ``metav1.Time.UnmarshalJSON``; its error ends decoding at once and wins over a
  remembered one (:mod:`.gotime` words it);
* unknown fields (``metadata.labelz``, ``metadata.ownerReferences[0].extra``; names match case-sensitively)
  are reported only when decoding succeeded;
* ``null`` leaves the zero value; writing back drops ``omitempty`` zero values, except behind pointers
  (``deletionGracePeriodSeconds: 0`` stays) and in ``OwnerReference``'s four plain fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..api.golang import INT64_MAX, INT64_MIN, go_float_json
from ..records import dataclass, field
from .fielderror import Path
from .gotime import parse_rfc3339

_ZERO_TIME = "0001-01-01T00:00:00Z"


@dataclass(frozen=True)
class GoType:
    """A Go type the metadata decodes into: ``kind`` is how it decodes, ``name`` how errors print it."""

    kind: str  # string, int64, bool, time, raw, map, slice, struct
    name: str
    elem: GoType | None = None
    fields: Mapping[str, GoField] = field(default_factory=dict)


@dataclass(frozen=True)
class GoField:
    """A struct field: its type, whether it is a pointer (keeps zero values) and ``omitempty``."""

    type: GoType
    pointer: bool = False
    omitempty: bool = True


_STR, _UID, _INT, _BOOL = GoType("string", "string"), GoType("string", "types.UID"), GoType("int64", "int64"), \
    GoType("bool", "bool")
_TIME, _RAW = GoType("time", "string"), GoType("raw", "v1.FieldsV1")
_OWNER = GoType("struct", "OwnerReference", fields={
    "apiVersion": GoField(_STR, omitempty=False), "kind": GoField(_STR, omitempty=False),
    "name": GoField(_STR, omitempty=False), "uid": GoField(_UID, omitempty=False),
    "controller": GoField(_BOOL, pointer=True), "blockOwnerDeletion": GoField(_BOOL, pointer=True),
})
_MANAGED = GoType("struct", "ManagedFieldsEntry", fields={
    "manager": GoField(_STR), "operation": GoField(GoType("string", "v1.ManagedFieldsOperationType")),
    "apiVersion": GoField(_STR), "time": GoField(_TIME, pointer=True), "fieldsType": GoField(_STR),
    "fieldsV1": GoField(_RAW, pointer=True), "subresource": GoField(_STR),
})
_STRMAP = GoType("map", "map[string]string", _STR)
OBJECT_META = GoType("struct", "ObjectMeta", fields={
    "name": GoField(_STR), "generateName": GoField(_STR), "namespace": GoField(_STR), "selfLink": GoField(_STR),
    "uid": GoField(_UID), "resourceVersion": GoField(_STR), "generation": GoField(_INT),
    "creationTimestamp": GoField(_TIME), "deletionTimestamp": GoField(_TIME, pointer=True),
    "deletionGracePeriodSeconds": GoField(_INT, pointer=True), "labels": GoField(_STRMAP),
    "annotations": GoField(_STRMAP), "ownerReferences": GoField(GoType("slice", "[]v1.OwnerReference", _OWNER)),
    "finalizers": GoField(GoType("slice", "[]string", _STR)),
    "managedFields": GoField(GoType("slice", "[]v1.ManagedFieldsEntry", _MANAGED)),
})
FIELDS = OBJECT_META.fields
# the fields of ObjectMeta that hold a plain string (omitempty: an empty one is not written back)
_STRING_FIELDS = frozenset(key for key, spec in FIELDS.items() if spec.type.kind == "string" and not spec.pointer)
_ABSENT = object()


@dataclass(frozen=True)
class DecodedMeta:
    """The metadata as stored, its unknown fields, or the decode error that refuses the object."""

    meta: dict[str, Any]
    unknown: tuple[Path, ...] = ()
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


class _Abort(Exception):
    """An error that ends decoding at once (a timestamp's)."""


@dataclass
class _Decoder:
    """One decoding: Go's error context (innermost struct, JSON field names), the first type error, the
    unknown fields."""

    track_unknown: bool
    struct: str = ""
    stack: list[str] = field(default_factory=list)
    path: list[str | int] = field(default_factory=list)
    saved: tuple[str, str] | None = None  # (message, top-level metadata field)
    unknown: list[Path] = field(default_factory=list)

    def message(self, what: str, type_name: str) -> str:
        where = f"Go struct field {self.struct}.{'.'.join(self.stack)}" if self.stack else "Go value"
        return f"json: cannot unmarshal {what} into {where} of type {type_name}"

    def mismatch(self, what: str, type_name: str) -> Any:
        if self.saved is None:
            self.saved = (self.message(what, type_name), str(self.path[0]) if self.path else "")
        return _ABSENT

    def value(self, value: Any, go: GoType) -> Any:
        """``value`` decoded into ``go`` and written back (``_ABSENT``: Go's zero value)."""
        if value is None:
            return _ABSENT
        decode = _DECODERS[go.kind]
        return decode(self, value, go)

    def struct_value(self, value: Any, go: GoType) -> Any:
        if not isinstance(value, dict):
            return self.mismatch(json_kind(value), f"v1.{go.name}")
        outer, out = self.struct, {}
        for key in sorted(value):
            spec = go.fields.get(key)
            if spec is None:
                if self.track_unknown:
                    self.unknown.append(("metadata", *self.path, key))
                continue
            item = value[key]
            if item.__class__ is str and spec.type.kind == "string":
                out[key] = item  # the common case, without the error context a mismatch needs
                continue
            self.struct = go.name
            self.stack.append(key)
            self.path.append(key)
            got = self.value(item, spec.type)
            self.stack.pop()
            self.path.pop()
            self.struct = outer
            out[key] = got
        return _write_back(out, go)


def _string(decoder: _Decoder, value: Any, go: GoType) -> Any:
    return value if isinstance(value, str) else decoder.mismatch(json_kind(value), go.name)


def _int64(decoder: _Decoder, value: Any, go: GoType) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return decoder.mismatch(json_kind(value), go.name)
    if isinstance(value, float) and value.is_integer() and INT64_MIN <= value <= INT64_MAX:
        return int(value)
    if isinstance(value, int) and INT64_MIN <= value <= INT64_MAX:
        return value
    return decoder.mismatch(f"number {go_float_json(float(value))}", go.name)


def _bool(decoder: _Decoder, value: Any, go: GoType) -> Any:
    return value if isinstance(value, bool) else decoder.mismatch(json_kind(value), go.name)


def _time(decoder: _Decoder, value: Any, go: GoType) -> Any:
    if not isinstance(value, str):
        raise _Abort(decoder.message(json_kind(value), "string"))
    parsed = parse_rfc3339(value)
    if parsed.error:
        raise _Abort(parsed.error)
    return parsed.stored


def _raw(decoder: _Decoder, value: Any, go: GoType) -> Any:
    return value  # FieldsV1 keeps any JSON as it is


def _map(decoder: _Decoder, value: Any, go: GoType) -> Any:
    if not isinstance(value, dict):
        return decoder.mismatch(json_kind(value), go.name)
    if all(item.__class__ is str for item in value.values()):
        return dict(value)  # the common case: every value a string already
    out = {}
    for key in sorted(value):
        got = decoder.value(value[key], _STR)
        out[key] = "" if got is _ABSENT else got
    return out


def _slice(decoder: _Decoder, value: Any, go: GoType) -> Any:
    if not isinstance(value, list):
        return decoder.mismatch(json_kind(value), go.name)
    assert go.elem is not None
    out = []
    for index, item in enumerate(value):
        decoder.path.append(index)
        got = decoder.value(item, go.elem)
        decoder.path.pop()
        out.append(_zero(go.elem) if got is _ABSENT else got)
    return out


def _zero(go: GoType) -> Any:
    return _write_back({}, go) if go.kind == "struct" else ""


def _write_back(values: dict[str, Any], go: GoType) -> dict[str, Any]:
    """A decoded struct as ``ToUnstructured`` writes it: ``omitempty`` drops zero values, not pointed-to ones;
    a struct with fields that are always written (``OwnerReference``) keeps Go's field order."""
    if go.kind == "struct" and all(spec.omitempty for spec in go.fields.values()):
        return {key: got for key, got in values.items() if got is not _ABSENT and not _omitted(got, go.fields[key])}
    out: dict[str, Any] = {}
    for key, spec in go.fields.items():
        got = values.get(key, _ABSENT)
        if got is _ABSENT:
            if not spec.omitempty:
                out[key] = ""
        elif not _omitted(got, spec):
            out[key] = got
    return out


def _omitted(value: Any, spec: GoField) -> bool:
    return spec.omitempty and not spec.pointer and _is_zero(value, spec.type)


def _is_zero(value: Any, go: GoType) -> bool:
    if go.kind == "time":
        return bool(value == _ZERO_TIME)
    return not isinstance(value, bool) and value in ("", 0, {}, [])


_DECODERS = {"string": _string, "int64": _int64, "bool": _bool, "time": _time, "raw": _raw, "map": _map,
             "slice": _slice, "struct": _Decoder.struct_value}


def decode(meta: Any, track_unknown: bool) -> DecodedMeta:
    """``metadata`` decoded as ObjectMeta and written back (a copy), or the decode error."""
    if meta is None:
        return DecodedMeta({})
    if not isinstance(meta, dict):
        return DecodedMeta({}, error=f"json: cannot unmarshal {json_kind(meta)} into Go value of type v1.ObjectMeta")
    if meta.keys() <= _STRING_FIELDS and all(value.__class__ is str for value in meta.values()):
        # the common metadata (a name, a namespace): what the decoder below makes of it, without its error context
        return DecodedMeta({key: meta[key] for key in sorted(meta) if meta[key]})
    decoder = _Decoder(track_unknown)
    try:
        out = decoder.struct_value(meta, OBJECT_META)
    except _Abort as abort:
        return DecodedMeta({}, error=str(abort), error_field=str(decoder.path[0]) if decoder.path else None)
    if decoder.saved is not None:
        return DecodedMeta({}, error=decoder.saved[0], error_field=decoder.saved[1] or None)
    return DecodedMeta(out, tuple(decoder.unknown))
