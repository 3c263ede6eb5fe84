"""Reading a VMI spec as Go decodes it: an absent or null field is a nil pointer or an empty string, a null
list item a zero struct."""

from __future__ import annotations

from typing import Any

Obj = dict[str, Any]


def mapping(value: Any) -> Obj:
    """A struct field: ``{}`` when absent or null (check ``is_set`` first where nil matters)."""
    return value if isinstance(value, dict) else {}


def items(value: Any) -> list[Obj]:
    """A list of structs; a null item decodes to the zero struct."""
    return [mapping(v) for v in value] if isinstance(value, list) else []


def text(value: Any) -> str:
    """A string field: ``""`` when absent or null."""
    return value if isinstance(value, str) else ""


def is_set(obj: Obj, key: str) -> bool:
    """A pointer (or slice, map) field that is not nil."""
    return obj.get(key) is not None


def devices(spec: Obj) -> Obj:
    """``spec.domain.devices``."""
    return mapping(mapping(spec.get("domain")).get("devices"))


def disks(spec: Obj) -> list[Obj]:
    """``spec.domain.devices.disks``."""
    return items(devices(spec).get("disks"))


def filesystems(spec: Obj) -> list[Obj]:
    """``spec.domain.devices.filesystems``."""
    return items(devices(spec).get("filesystems"))


def volumes(spec: Obj) -> list[Obj]:
    """``spec.volumes``."""
    return items(spec.get("volumes"))


def volumes_by_name(spec: Obj) -> dict[str, Obj]:
    """``GetVolumesByName``: the last volume of each name."""
    return {text(v.get("name")): v for v in volumes(spec)}
