"""Reading a template file as virtctl reads it: the first document decoded into a ``VirtualMachineTemplate``
(``pkg/virtctl/template/process``), an OpenShift ``Template`` converted first (``pkg/virtctl/template/convert``).

virtctl decodes YAML with ``sigs.k8s.io/yaml``, which converts YAML to JSON knowing the target type: a scalar
where the template has a string becomes that string (``value: 010`` is ``"8"``, ``yes`` is ``"true"``, ``1.0``
is ``"1"``, ``~`` is ``""``), a string where it has a boolean is a decode error. ``spec.virtualMachine`` is an
untyped raw object, so its scalars keep their YAML types.
"""

from __future__ import annotations

import base64
import math
import re
import struct
from collections.abc import Mapping
from typing import Any

from ..api.golang import go_json
from ..records import dataclass
from .gojson import type_error
from .parameters import Parameter

_WRAP = "error unmarshaling JSON: while decoding JSON: "
_ROOTLESS = re.compile(r"into (Go struct field )?\.")


class DecodeError(ValueError):
    """The template or a params file cannot be decoded; the message is virtctl's (without its prefix)."""

    def __init__(self, message: str, path: tuple[str | int, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Template:
    """A decoded template: its parameters, message and raw VirtualMachine (``None`` when absent or null).

    ``origin`` is where the VM sits in the file's document (``("spec", "virtualMachine")``, or
    ``("objects", 0)`` for an OpenShift Template)."""

    parameters: tuple[Parameter, ...]
    message: str
    vm: Any
    origin: tuple[str | int, ...]
    openshift: bool = False
    name: str = ""
    annotations: Mapping[str, str] | None = None
    listed: bool = False  # the parameters were a list (Go's empty slice, not nil, when it holds none)


def _float32_text(value: float) -> str:
    """``strconv.FormatFloat(v, 'g', -1, 32)``, as ``sigs.k8s.io/yaml`` writes a float into a string field: the
    shortest digits that read back as the same float32, in exponent form below 1e-4 and from 1e6."""
    if value != value or value in (float("inf"), float("-inf")):
        return "NaN" if value != value else ("+Inf" if value > 0 else "-Inf")
    single = struct.unpack("f", struct.pack("f", value))[0]
    if single == 0:
        return "0"
    text = f"{single:.8e}"
    for places in range(9):
        text = f"{single:.{places}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == single:
            break
    mantissa, exponent = text.split("e")
    power = int(exponent)
    sign = "-" if mantissa.startswith("-") else ""
    digits = mantissa.lstrip("-").replace(".", "").rstrip("0") or "0"
    if power < -4 or power >= 6:
        body = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return f"{sign}{body}e{'-' if power < 0 else '+'}{abs(power):02d}"
    from decimal import Decimal

    return sign + format(Decimal(f"0.{digits}e{power + 1}").normalize(), "f")


def go_string(value: Any, where: tuple[str | int, ...], yaml: bool) -> str:
    """A scalar decoded into a Go string field (``sigs.k8s.io/yaml`` converts YAML scalars to the target)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if yaml and isinstance(value, bool):
        return "true" if value else "false"
    if yaml and isinstance(value, int):
        return str(value)
    if yaml and isinstance(value, float):
        return _float32_text(value)
    raise DecodeError(_type_error(value, "string", where), where)


def _type_error(value: Any, go_type: str, where: tuple[str | int, ...]) -> str:
    word = {bool: "bool", str: "string", list: "array", dict: "object"}.get(type(value), "number")
    return _WRAP + type_error(word, "", ".".join(str(step) for step in where), go_type)


def _bool(value: Any, where: tuple[str | int, ...]) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    raise DecodeError(_type_error(value, "bool", where), where)


def _parameters(items: Any, where: tuple[str | int, ...], yaml: bool, package: str = "v1beta1"
                ) -> tuple[Parameter, ...]:
    """``[]v1beta1.Parameter`` (``[]v1.Parameter`` of template.openshift.io for an OpenShift Template)."""
    if items is None:
        return ()
    if not isinstance(items, list):
        raise DecodeError(_type_error(items, f"[]{package}.Parameter", where), where)
    out = []
    fields = (("name", "name"), ("displayName", "display_name"), ("description", "description"),
              ("value", "value"), ("generate", "generate"), ("from", "source"))
    for i, item in enumerate(items):
        at = (*where, i)
        if item is None:
            out.append(Parameter())
            continue
        if not isinstance(item, dict):
            raise DecodeError(_type_error(item, f"{package}.Parameter", at), at)
        values = {attr: go_string(item.get(key), (*at, key), yaml) for key, attr in fields}
        out.append(Parameter(**values, required=_bool(item.get("required"), (*at, "required"))))
    return tuple(out)


def _unsupported(value: Any) -> str | None:
    """Go's text of the first number JSON cannot hold (YAML's ``.inf``, ``.nan``), None when there is none."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if value != value else ("+Inf" if value > 0 else "-Inf")
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for item in items:
        found = _unsupported(item)
        if found:
            return found
    return None


def is_openshift(data: Any) -> bool:
    """Whether a first document is converted as an OpenShift Template before it is processed: its ``kind`` is
    ``Template``, read as a decoder reads ``{kind}`` alone (every other field is untyped JSON there, so a
    number JSON cannot hold anywhere — YAML's ``.inf`` — leaves the kind unread and the document is processed
    as a VirtualMachineTemplate, which refuses that number)."""
    return isinstance(data, dict) and data.get("kind") == "Template" and not _unsupported(data)


_STRING_META = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion")
_STRING_PARAMETER = ("name", "displayName", "description", "value", "generate", "from")


def _untyped(data: dict[str, Any], openshift: bool) -> list[Any]:
    """The parts of a template document whose scalars reach JSON as they are: sigs.k8s.io/yaml writes a YAML
    scalar read into a Go string field as that string (``.inf`` is "+Inf", which virtctl processes), while
    anywhere else (the raw VirtualMachine, a bool, an unknown key) an infinity is a value JSON cannot hold."""
    out: list[Any] = []

    def scalar(value: Any) -> bool:
        return not isinstance(value, (dict, list))

    def parameters(items: Any) -> None:
        for item in items if isinstance(items, list) else [items]:
            if isinstance(item, dict):
                out.extend(v for k, v in item.items() if not (k in _STRING_PARAMETER and scalar(v)))
            else:
                out.append(item)

    def meta(value: Any) -> None:
        if not isinstance(value, dict):
            out.append(value)
            return
        for key, item in value.items():
            if key in ("labels", "annotations") and isinstance(item, dict):
                out.extend(v for v in item.values() if not scalar(v))
            elif not (key in _STRING_META and scalar(item)):
                out.append(item)

    for key, value in data.items():
        if key == "metadata":
            meta(value)
        elif openshift and key == "parameters":
            parameters(value)
        elif openshift and key == "message" and scalar(value):
            continue
        elif not openshift and key == "spec" and isinstance(value, dict):
            for name, item in value.items():
                if name == "parameters":
                    parameters(item)
                elif not (name == "message" and scalar(item)):
                    out.append(item)
        else:
            out.append(value)
    return out


def read_template(data: Any, yaml: bool = True, openshift: bool | None = None, one_object: bool = True) -> Template:
    """The template of a decoded first document (an OpenShift Template is converted as ``virtctl template
    convert`` converts it: exactly one object, the parameters and message kept, top-level labels dropped).
    ``openshift``: read as an OpenShift Template whatever its kind (``template convert``); None: by its kind.
    ``one_object``: False when only the parameters are wanted (``--print-params``): an OpenShift Template of
    several objects or none is read all the same (its VM ``None``)."""
    if openshift is None:
        openshift = is_openshift(data)
    bad = _unsupported(_untyped(data, openshift) if isinstance(data, dict) else data)
    if bad:  # sigs.k8s.io/yaml writes the YAML as JSON first, which cannot hold it
        raise DecodeError(f"error converting YAML to JSON: json: unsupported value: {bad}")
    if not isinstance(data, dict):
        word = {str: "string", list: "array", bool: "bool"}.get(type(data), "number")
        kind = "v1.Template" if openshift else "v1beta1.VirtualMachineTemplate"
        raise DecodeError(f"{_WRAP}json: cannot unmarshal {word} into Go value of type {kind}")
    _type_meta_and_meta(data, yaml)
    meta: dict[str, Any] = data["metadata"] if isinstance(data.get("metadata"), dict) else {}
    annotations: dict[str, Any] = meta["annotations"] if isinstance(meta.get("annotations"), dict) else {}
    name: str = meta["name"] if isinstance(meta.get("name"), str) else ""
    if openshift:  # any apiVersion: a legacy "v1" too
        labels = data.get("labels")  # the labels oc process gives the objects: dropped, but decoded
        if labels is not None:
            if not isinstance(labels, dict):
                raise DecodeError(_type_error(labels, "map[string]string", ("labels",)), ("labels",))
            for key in _keys(labels, yaml):
                go_string(labels[key], ("labels", key), yaml)
        parameters = _parameters(data.get("parameters"), ("parameters",), yaml, "v1")
        message = go_string(data.get("message"), ("message",), yaml)
        objects = data.get("objects")
        if objects is not None and not isinstance(objects, list):
            raise DecodeError(_type_error(objects, "[]runtime.RawExtension", ("objects",)), ("objects",))
        if (not objects or len(objects) != 1) and one_object:
            raise ConvertError(f"template must contain exactly one object, found {len(objects or [])}")
        vm = objects[0] if objects and len(objects) == 1 else None
        return Template(parameters, message, vm, ("objects", 0), True, name, annotations,
                        isinstance(data.get("parameters"), list))
    spec = data.get("spec")
    if spec is None:
        spec = {}
    if not isinstance(spec, dict):
        raise DecodeError(_type_error(spec, "v1beta1.VirtualMachineTemplateSpec", ("spec",)), ("spec",))
    parameters = _parameters(spec.get("parameters"), ("spec", "parameters"), yaml)
    message = go_string(spec.get("message"), ("spec", "message"), yaml)
    _status(data.get("status"))
    return Template(parameters, message, spec.get("virtualMachine"), ("spec", "virtualMachine"), False, name,
                    annotations, isinstance(spec.get("parameters"), list))


_META_STRINGS = frozenset(("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion"))
_META_INTS = frozenset(("generation", "deletionGracePeriodSeconds"))
_META_TIMES = frozenset(("creationTimestamp", "deletionTimestamp"))
_OWNER_TYPES = {"apiVersion": "string", "kind": "string", "name": "string", "uid": "types.UID",
                "controller": "bool", "blockOwnerDeletion": "bool"}


def _keys(value: dict[Any, Any], yaml: bool) -> list[Any]:
    """The order encoding/json meets a map's keys in: sigs.k8s.io/yaml writes YAML as JSON with sorted keys."""
    return sorted(value, key=str) if yaml else list(value)


def _type_meta_and_meta(data: dict[str, Any], yaml: bool) -> None:
    """``metav1.TypeMeta`` (inline: sigs.k8s.io/yaml does not see its fields, so no YAML scalar becomes their
    string) and ``metav1.ObjectMeta`` of the template, as encoding/json refuses them: the first wrong value in
    the order JSON holds them."""
    for key in ("apiVersion", "kind"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise DecodeError(_type_error(value, "string", (key,)), (key,))
    meta = data.get("metadata")
    if meta is None:
        return
    if not isinstance(meta, dict):
        raise DecodeError(_type_error(meta, "v1.ObjectMeta", ("metadata",)), ("metadata",))
    for key in _keys(meta, yaml):
        value, at = meta[key], ("metadata", key)
        if value is None:
            continue
        if key in _META_STRINGS:
            go_string(value, at, yaml)
        elif key in _META_INTS:
            _int64(value, at)
        elif key in _META_TIMES:
            _time(value, at)
        elif key in ("labels", "annotations"):
            if not isinstance(value, dict):
                raise DecodeError(_type_error(value, "map[string]string", at), at)
            for name in _keys(value, yaml):
                go_string(value[name], (*at, name), yaml)
        elif key == "finalizers":
            _list(value, "[]string", at, lambda item, where: go_string(item, where, yaml))
        elif key == "ownerReferences":
            _list(value, "[]v1.OwnerReference", at, lambda item, where: _owner(item, where, yaml))
        elif key == "managedFields":
            _list(value, "[]v1.ManagedFieldsEntry", at, _managed_field)


def _list(value: Any, go_type: str, at: tuple[str | int, ...], item: Any) -> None:
    if not isinstance(value, list):
        raise DecodeError(_type_error(value, go_type, at), at)
    for i, entry in enumerate(value):
        if entry is not None:
            item(entry, (*at, i))


def _owner(value: Any, at: tuple[str | int, ...], yaml: bool) -> None:
    if not isinstance(value, dict):
        raise DecodeError(_type_error(value, "v1.OwnerReference", at), at)
    for key in _keys(value, yaml):
        go_type = _OWNER_TYPES.get(str(key))
        if go_type is None or value[key] is None:
            continue
        if go_type == "bool":
            _bool(value[key], (*at, key))
        elif (isinstance(value[key], (dict, list)) or not yaml) and not isinstance(value[key], str):
            raise DecodeError(_type_error(value[key], go_type, (*at, key)), (*at, key))


def _managed_field(value: Any, at: tuple[str | int, ...]) -> None:
    if not isinstance(value, dict):
        raise DecodeError(_type_error(value, "v1.ManagedFieldsEntry", at), at)


def _int64(value: Any, at: tuple[str | int, ...]) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise DecodeError(_type_error(value, "int64", at), at)
    if (isinstance(value, float) and not value.is_integer()) or not -(2**63) <= value < 2**63:
        field = ".".join(str(step) for step in at)
        raise DecodeError(_WRAP + type_error(f"number {go_json(value)}", "", field, "int64"), at)


def _time(value: Any, at: tuple[str | int, ...]) -> None:
    """``metav1.Time.UnmarshalJSON``: a string (or null) parsed as RFC 3339; its errors name no field."""
    from ..schema.gotime import parse_rfc3339

    if not isinstance(value, str):
        word = {bool: "bool", list: "array", dict: "object"}.get(type(value), "number")
        raise DecodeError(f"{_WRAP}json: cannot unmarshal {word} into Go value of type string", at)
    parsed = parse_rfc3339(value)
    if parsed.error:
        raise DecodeError(_WRAP + parsed.error, at)


def _status(status: Any) -> None:
    """``v1beta1.VirtualMachineTemplateStatus``: an object whose ``conditions`` is a list (unknown fields are
    ignored; the conditions' scalars are converted from YAML like every string field)."""
    if status is None:
        return
    if not isinstance(status, dict):
        raise DecodeError(_type_error(status, "v1beta1.VirtualMachineTemplateStatus", ("status",)), ("status",))
    conditions = status.get("conditions")
    if conditions is not None and not isinstance(conditions, list):
        at = ("status", "conditions")
        raise DecodeError(_type_error(conditions, "[]v1.Condition", at), at)


class ConvertError(ValueError):
    """An OpenShift Template ``virtctl template convert`` refuses."""


def raw_vm_error(vm: Any, converted: bool = False) -> str | None:
    """``getVirtualMachineObject``'s refusal of the raw VM, as the field error's text; None when it is a map.
    ``converted``: the VM of an OpenShift Template, whose raw bytes are those ``template convert -o json``
    printed (``json.MarshalIndent`` with one space, the VM two levels deep)."""
    if vm is None:
        return "spec.virtualMachine: Invalid value: null: virtualMachine is required and cannot be empty"
    if isinstance(vm, dict):
        return None
    text = go_json(vm)
    if converted:
        text = _go_indent(text, "  ")
    raw = base64.b64encode(text.encode("utf-8")).decode("ascii")
    word = {bool: "bool", str: "string", list: "array"}.get(type(vm), "number")
    return (f'spec.virtualMachine.raw: Invalid value: "{raw}": error decoding virtualMachine: json: cannot '
            f"unmarshal {word} into Go value of type map[string]interface {{}}")


def _go_indent(compact: str, prefix: str) -> str:
    """``json.Indent(compact, prefix, " ")`` as encoding/json's MarshalIndent writes a nested value: a newline
    and the prefix plus one space per level after every ``[``/``{`` that is not empty, ``,`` and before a
    closing bracket; ``": "`` after a key."""
    out: list[str] = []
    depth, in_string, escaped, i = 0, False, False, 0
    while i < len(compact):
        c = compact[i]
        if in_string:
            out.append(c)
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c in "[{":
            if i + 1 < len(compact) and compact[i + 1] in "]}":
                out.append(c + compact[i + 1])
                i += 1
            else:
                depth += 1
                out.append(c + "\n" + prefix + " " * depth)
        elif c in "]}":
            depth -= 1
            out.append("\n" + prefix + " " * depth + c)
        elif c == ",":
            out.append(",\n" + prefix + " " * depth)
        elif c == ":":
            out.append(": ")
        else:
            out.append(c)
        i += 1
    return "".join(out)


def read_params(data: Any) -> dict[str, str]:
    """A params file's values (``map[string]string``; YAML scalars become strings, ``null`` is ``""``)."""
    if data is None:
        return {}
    # a scalar is written into its string as the template's are (``.inf`` is "+Inf"); nested, JSON must hold it
    bad = _unsupported([v for v in data.values() if isinstance(v, (dict, list))] if isinstance(data, dict) else data)
    if bad:
        raise DecodeError(f"error converting YAML to JSON: json: unsupported value: {bad}")
    if not isinstance(data, dict):
        word = {str: "string", list: "array", bool: "bool"}.get(type(data), "number")
        raise DecodeError(f"{_WRAP}json: cannot unmarshal {word} into Go value of type map[string]string")
    out = {}
    for key, value in data.items():
        if isinstance(value, (dict, list)):
            # Go names the map key as a field of no struct: the decoder is handed a *interface{} (sigs.k8s.io/yaml)
            word = "object" if isinstance(value, dict) else "array"
            raise DecodeError(_WRAP + type_error(word, "", str(key), "string"), (key,))
        out[str(key)] = go_string(value, (key,), True)
    return out


def json_decode_error(data: Any, root: str, target: str = "") -> DecodeError | None:
    """The error of encoding/json when a JSON file (its text starts with ``{``) is decoded and the YAML reading
    that follows fails too: apimachinery's ``YAMLOrJSONDecoder`` tries JSON first and, when YAML fails as well,
    returns JSON's error (``k8s.io/apimachinery/pkg/util/yaml/decoder.go``), which has no sigs.k8s.io/yaml
    wording, takes no number or bool for a string (the YAML reading converts them) and names the field from
    the root type (Go 1.26's encoding/json: ``Go struct field VirtualMachineTemplate.spec.parameters.0.value``).
    ``root`` is the decoded type's name ("" for a map), ``target`` what is decoded: ``params``, ``openshift``
    (``template convert``) or a template.
    None: JSON finds no type error (the YAML reading's error stands)."""
    try:
        if target == "params":
            _strict_params(data)
        else:
            read_template(data, yaml=False, openshift=True if target == "openshift" else None)
    except DecodeError as exc:
        text = str(exc).removeprefix(_WRAP)
        return DecodeError(_ROOTLESS.sub(lambda m: f"into {m.group(1) or ''}{root}.", text, count=1), exc.path)
    return None


def _strict_params(data: Any) -> None:
    if not isinstance(data, dict):
        return
    for key, value in data.items():
        if value is not None and not isinstance(value, str):
            word = {dict: "object", list: "array", bool: "bool"}.get(type(value), "number")
            raise DecodeError(type_error(word, "", str(key), "string"), (key,))
