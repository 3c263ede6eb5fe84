"""The strict conversion of a processed, unstructured VirtualMachine into KubeVirt's typed ``v1.VirtualMachine``.

The engine (``template/processor.go``) calls apimachinery's
``runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(obj, vm, true)``
(``k8s.io/apimachinery/pkg/runtime/converter.go``), walked here over KubeVirt's OpenAPI definitions:

* a struct takes only a map (``cannot restore struct from: string``), a map only a map (``cannot restore map
  from string``), a list only a list; a string field only a string (``unrecognized type: string`` — numbers
  from JSON are float64, which Go cannot convert to a string), a bool only a bool, an integer a whole number
  (``cannot convert float64 to int32``); the first such error ends the conversion;
* keys a struct does not have are collected and reported together, sorted, as ``strict decoding error:
  unknown field "spec.somefield", …`` — unless a type error came first;
* types with their own JSON decoding are handed the JSON of their value: ``metav1.Time``, ``Quantity`` and,
  surprisingly, the whole VMI spec (``VirtualMachineInstanceSpec.UnmarshalJSON`` in
  staging/src/kubevirt.io/api/core/v1/types.go decodes through an alias type with plain ``encoding/json``): below
  ``spec.template.spec`` unknown fields are silently dropped, a type error reads ``json: cannot unmarshal string
  into Go struct field VMISpecAlias.domain.cpu.cores of type uint32``, and decoding goes on after one (the first
  is reported), while a Quantity's own error ends it at once.

The result is the typed VM as Go would print it again (``to_printed``): unknown fields below the VMI spec gone,
zero plain fields omitted, Quantities canonical, IP addresses respelled (``api.encoding.encode_vm``).
"""

from __future__ import annotations

from typing import Any

from ..api.encoding import encode_vm
from ..api.golang import go_json
from ..api.ipaddr import sanitize_ip
from ..quantity import QuantityError, from_json
from ..schema.godecode import GO_INTEGERS
from ..schema.gotime import parse_rfc3339
from ..schema.tables import MAIN, Definitions, Node, kubevirt_definitions
from .gojson import type_error
from .gotypes import ALIASED, GO_NAMED
from .substitution import json_kind

VMI_SPEC = "v1.VirtualMachineInstanceSpec"
QUANTITY = "k8s.io.apimachinery.pkg.api.resource.Quantity"
TIME = "k8s.io.apimachinery.pkg.apis.meta.v1.Time"
OBJECT_META = "k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta"
OPAQUE = ("k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1",)


class ConversionError(ValueError):
    """The converter's error; the message is apimachinery's (or encoding/json's). ``path`` is the field at
    fault in the VM (the first of several unknown fields), when known."""

    def __init__(self, message: str, path: tuple[str | int, ...] | None = None) -> None:
        super().__init__(message)
        self.path = path


def _int_kind(node: Node) -> str:
    return "int32" if node.format == "int32" else "int64"


def _go_name(definition: str) -> str:
    """Go's name of the type of an OpenAPI definition (``k8s.io.api.core.v1.Affinity`` -> ``v1.Affinity``)."""
    return ".".join(definition.split(".")[-2:])


class _Converter:
    def __init__(self, definitions: Definitions) -> None:
        self.defs = definitions
        self.unknown: list[str] = []
        self.unknown_at: dict[str, tuple[str | int, ...]] = {}

    def resolve(self, node: Node) -> tuple[Node, str | None]:
        name = None
        while node.ref is not None:
            name = node.ref
            node = self.defs.nodes[node.ref]
        return node, name

    def value(self, value: Any, node: Node, path: str, at: tuple[str | int, ...]) -> Any:
        """``fromUnstructured``: the converted value (``None``: the zero value)."""
        try:
            return self._value(value, node, path, at)
        except ConversionError as exc:
            if exc.path is None:
                exc.path = at
            raise

    def _value(self, value: Any, node: Node, path: str, at: tuple[str | int, ...]) -> Any:
        if value is None:
            return None
        node, name = self.resolve(node)
        if name == VMI_SPEC:
            return _JSONDecoder(self.defs).decode_root(value, node)
        if name in (TIME,) or (node.types == ("string", "null")):
            return _time(value)
        if name == QUANTITY or node.int_or_string:
            return _quantity(value) if name == QUANTITY else _int_or_string(value)
        if name in OPAQUE:
            return value
        if node.type == "object" or node.properties:
            if node.properties or not isinstance(node.additional, Node):
                return self.struct(value, node, path, at)
            return self.map(value, node.additional, path, at)
        if node.type == "array":
            if not isinstance(value, list):
                raise ConversionError(f"cannot restore slice from {json_kind(value)}")
            item = node.items
            return [self.value(v, item, f"{path}[{i}]", (*at, i)) if item is not None else v
                    for i, v in enumerate(value)]
        return _scalar(value, node)

    def struct(self, value: Any, node: Node, path: str, at: tuple[str | int, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ConversionError(f"cannot restore struct from: {json_kind(value)}")
        out: dict[str, Any] = {}
        props = node.properties
        for key, item in value.items():
            if key in props:
                converted = self.value(item, props[key], f"{path}.{key}" if path else key, (*at, key))
                if converted is not None:
                    out[key] = converted
        for key in value:
            if key not in props:
                self.unknown.append(f'unknown field "{path}.{key}"' if path else f'unknown field "{key}"')
                self.unknown_at.setdefault(self.unknown[-1], (*at, key))
        return out

    def map(self, value: Any, item: Node, path: str, at: tuple[str | int, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ConversionError(f"cannot restore map from {json_kind(value)}")
        resolved, _ = self.resolve(item)
        out = {}
        for key, v in value.items():
            converted = self.value(v, item, path, at)
            out[key] = converted if converted is not None else _zero(resolved)
        return out


def _zero(node: Node) -> Any:
    return {"string": "", "boolean": False, "integer": 0, "number": 0}.get(str(node.type))


def _scalar(value: Any, node: Node) -> Any:
    kind = node.type
    if kind == "string":
        if not isinstance(value, str):
            raise ConversionError("unrecognized type: string")
    elif kind == "boolean":
        if not isinstance(value, bool):
            raise ConversionError("unrecognized type: bool")
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConversionError(f"unrecognized type: {_int_kind(node)}")
        if isinstance(value, float):
            if not value.is_integer():
                raise ConversionError(f"cannot convert float64 to {_int_kind(node)}")
            return int(value)
    elif kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ConversionError("unrecognized type: float64")
    return value


def _time(value: Any) -> Any:
    """``metav1.Time.UnmarshalJSON``."""
    if not isinstance(value, str):
        raise ConversionError(f"json: cannot unmarshal {_json_word(value)} into Go value of type string")
    parsed = parse_rfc3339(value)
    if parsed.error:
        raise ConversionError(parsed.error)
    return parsed.stored


def _quantity(value: Any) -> Any:
    try:
        from_json(value)
    except QuantityError as exc:
        raise ConversionError(exc.message) from None
    return value


def _int_or_string(value: Any) -> Any:
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        return int(value)
    raise ConversionError(f"json: cannot unmarshal {_json_word(value)} into Go value of type int32")


def _json_word(value: Any) -> str:
    """How encoding/json names a JSON value in an UnmarshalTypeError (numbers carry their text)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number " + go_json(value)
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


class _JSONDecoder:
    """encoding/json's ``Unmarshal`` into the VMI spec's alias type: lenient about unknown fields, the first
    type error kept while decoding goes on, a custom decoder's error returned at once."""

    def __init__(self, definitions: Definitions) -> None:
        self.defs = definitions
        self.first: str | None = None
        self.first_at: tuple[str | int, ...] = ()
        self.root = "VMISpecAlias"  # the type a field path starts from: an alias type decodes on its own
        self.base: tuple[str | int, ...] = ()

    def decode_root(self, value: Any, node: Node) -> Any:
        if not isinstance(value, dict):
            raise ConversionError(f"json: cannot unmarshal {_json_word(value).split(' ')[0]} into Go value of "
                                  "type v1.VMISpecAlias")
        out = self.struct(value, node, ())
        if self.first is not None:
            raise ConversionError(self.first, ("spec", "template", "spec", *self.first_at))
        return out

    def type_error(self, value: Any, go_type: str, where: tuple[str | int, ...], number: bool = False) -> None:
        if self.first is None:
            word = _json_word(value)
            if not number and word.startswith("number"):
                word = "number"
            self.first_at = where
            self.first = type_error(word, self.root, ".".join(str(step) for step in where[len(self.base):]),
                                    go_type)

    def go_type(self, node: Node, where: tuple[str | int, ...]) -> str:
        raw = node
        name = None
        while raw.ref is not None:
            name = raw.ref
            raw = self.defs.nodes[raw.ref]
        if name is not None:
            return _go_name(name)
        named = GO_NAMED.get(tuple("*" if isinstance(step, int) else str(step) for step in where))
        if named is not None:
            return named
        if raw.type == "array":
            return "[]" + (self.go_type(raw.items, where) if raw.items is not None else "interface {}")
        if raw.type == "object" and isinstance(raw.additional, Node):
            return "map[string]" + self.go_type(raw.additional, where)
        if raw.type == "integer":
            pattern = tuple("*" if isinstance(step, int) else step for step in where)
            return GO_INTEGERS.get(pattern, _int_kind(raw))
        return {"string": "string", "boolean": "bool", "number": "float64"}.get(str(raw.type), "interface {}")

    def value(self, value: Any, node: Node, where: tuple[str | int, ...]) -> Any:
        if value is None:
            return None
        go_type = self.go_type(node, where)
        resolved = node
        name = None
        while resolved.ref is not None:
            name = resolved.ref
            resolved = self.defs.nodes[resolved.ref]
        if name == QUANTITY:
            return _quantity(value)
        if name == TIME:
            return _time(value)
        if resolved.int_or_string or set(resolved.types) == {"string", "number"}:  # IntOrString (a probe's port)
            return _int_or_string(value)
        alias = ALIASED.get(_go_name(name)) if name is not None else None
        if alias is not None:
            return self.aliased(value, resolved, where, alias)
        if resolved.type == "object" or resolved.properties:
            if not isinstance(value, dict):
                return self.type_error(value, go_type, where)
            if resolved.properties or not isinstance(resolved.additional, Node):
                return self.struct(value, resolved, where)
            return {k: self.zero_if_null(self.value(v, resolved.additional, (*where, k)), resolved.additional)
                    for k, v in value.items()}
        if resolved.type == "array":
            if not isinstance(value, list):
                return self.type_error(value, go_type, where)
            items = resolved.items
            return [self.zero_if_null(self.value(v, items, (*where, i)), items) if items is not None else v
                    for i, v in enumerate(value)]
        return self.scalar(value, resolved, go_type, where)

    def aliased(self, value: Any, node: Node, where: tuple[str | int, ...], alias: str) -> Any:
        """A type with its own ``UnmarshalJSON`` decoding through ``alias``: Go names the alias, not the path."""
        if not isinstance(value, dict):
            if self.first is None:
                self.first_at = where
                word = _json_word(value).split(" ")[0]
                self.first = f"json: cannot unmarshal {word} into Go value of type v1.{alias}"
            return None
        saved = self.root, self.base
        self.root, self.base = alias, where
        try:
            return self.struct(value, node, where)
        finally:
            self.root, self.base = saved

    def resolve(self, node: Node) -> tuple[Node, str | None]:
        name = None
        while node.ref is not None:
            name = node.ref
            node = self.defs.nodes[node.ref]
        return node, name

    def zero_if_null(self, value: Any, node: Node) -> Any:
        """A list item or map value decoded from ``null``: Go's zero value of its type (a struct printed with
        its fields that have no omitempty)."""
        if value is not None:
            return value
        resolved, _ = self.resolve(node)
        if resolved.properties:
            return self.struct({}, resolved, ())
        return _zero(resolved)

    def struct(self, value: dict[str, Any], node: Node, where: tuple[str | int, ...]) -> dict[str, Any]:
        props = node.properties
        folded = {key.lower(): key for key in props}
        out: dict[str, Any] = {}
        for key, item in value.items():
            name = key if key in props else folded.get(key.lower())
            if name is None:
                continue  # encoding/json ignores unknown fields
            converted = self.value(item, props[name], (*where, name))
            if converted is not None:
                out[name] = converted
        for name in node.required:  # the fields without omitempty: Go prints their zero value
            if name not in out and name in props:
                resolved, _ = self.resolve(props[name])
                if resolved.type in ("string", "boolean", "integer", "number") and not resolved.int_or_string:
                    out[name] = _zero(resolved)
        return out

    def scalar(self, value: Any, node: Node, go_type: str, where: tuple[str | int, ...]) -> Any:
        kind = node.type
        if kind == "string" and not isinstance(value, str):
            return self.type_error(value, go_type, where)
        if kind == "boolean" and not isinstance(value, bool):
            return self.type_error(value, go_type, where)
        if kind in ("integer", "number"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return self.type_error(value, go_type, where)
            if kind == "integer":
                if not float(value).is_integer() or not _fits(int(value), go_type):
                    return self.type_error(value, go_type, where, number=True)
                return int(value)
        return value


_RANGES = {"int32": (-(2**31), 2**31 - 1), "uint32": (0, 2**32 - 1), "uint": (0, 2**64 - 1),
           "int64": (-(2**63), 2**63 - 1), "int": (-(2**63), 2**63 - 1)}


def _fits(number: int, go_type: str) -> bool:
    low, high = _RANGES.get(go_type, _RANGES["int64"])
    return low <= number <= high


def convert(vm: dict[str, Any], release: str = MAIN) -> dict[str, Any]:
    """The typed VirtualMachine of ``vm`` (an unstructured object) as Go would print it, ``kind`` and
    ``apiVersion`` forced; :class:`ConversionError` with apimachinery's message when the conversion fails."""
    definitions = kubevirt_definitions(release)
    converter = _Converter(definitions)
    out: dict[str, Any] = {}
    for key in ("kind", "apiVersion"):
        if vm.get(key) is not None and not isinstance(vm[key], str):
            raise ConversionError("unrecognized type: string")
    meta: Any = {}
    if vm.get("metadata") is not None:
        meta = converter.struct(vm["metadata"], definitions.nodes[OBJECT_META], "metadata", ("metadata",))
    spec: Any = None
    if vm.get("spec") is not None:
        spec = converter.struct(vm["spec"], definitions.nodes[definitions.root], "spec", ("spec",))
    status = vm.get("status")
    if status is not None and not isinstance(status, dict):
        raise ConversionError(f"cannot restore struct from: {json_kind(status)}")
    if status:
        _status_unknown(converter, status, release)
    known = {"kind", "apiVersion", "metadata", "spec", "status"}
    converter.unknown.extend(f'unknown field "{key}"' for key in vm if key not in known)
    if converter.unknown:
        found = sorted(converter.unknown)
        raise ConversionError("strict decoding error: " + ", ".join(found), converter.unknown_at.get(found[0]))
    out = {"kind": "VirtualMachine", "apiVersion": "kubevirt.io/v1", "metadata": _meta_order(_omit_meta(meta)),
           "spec": _printed_spec(spec or {}), "status": _printed_status(status or {}, release)}
    encode_vm(out)
    return out


def _status_unknown(converter: _Converter, status: dict[str, Any], release: str) -> None:
    """The keys of ``status`` that ``v1.VirtualMachineStatus`` does not have, which strict decoding refuses with
    the others (the OpenAPI table holds the spec's types only: the CRD's status schema names the fields)."""
    from ..schema.tables import crd_schemas

    node = crd_schemas(release)["VirtualMachine"].properties.get("status")
    if node is not None:
        _unknown(converter, status, node, "status", ("status",))


def _unknown(converter: _Converter, value: Any, node: Any, path: str, at: tuple[str | int, ...]) -> None:
    if node.preserve_unknown or value is None:
        return
    try:
        _status_type(value, node)
    except ConversionError as exc:
        exc.path = at
        raise
    if isinstance(value, dict) and node.properties:
        for key, item in value.items():
            if key in node.properties:
                _unknown(converter, item, node.properties[key], f"{path}.{key}", (*at, key))
            else:
                converter.unknown.append(f'unknown field "{path}.{key}"')
                converter.unknown_at.setdefault(converter.unknown[-1], (*at, key))
    elif isinstance(value, dict) and not isinstance(node.additional, bool) and node.additional is not None:
        for key, item in value.items():
            _unknown(converter, item, node.additional, path, (*at, key))
    elif isinstance(value, list) and node.items is not None:
        for i, item in enumerate(value):
            _unknown(converter, item, node.items, f"{path}[{i}]", (*at, i))


def _printed_status(status: dict[str, Any], release: str) -> dict[str, Any]:
    """The status as Go prints the typed one: the fields without omitempty (a condition's ``status`` and
    ``type``: the CRD's required ones) with their zero value when absent; a copy, the input unchanged."""
    from ..schema.tables import crd_schemas

    node = crd_schemas(release)["VirtualMachine"].properties.get("status")
    return _with_zeros(status, node) if node is not None and status else status


def _with_zeros(value: Any, node: Any) -> Any:
    if node is None or node.preserve_unknown:
        return value
    if isinstance(value, dict) and node.properties:
        out = {key: _with_zeros(item, node.properties.get(key)) for key, item in value.items()}
        for name in node.required:
            child = node.properties.get(name)
            if name not in out and child is not None and child.type in ("string", "boolean", "integer"):
                out[name] = _zero(child)
        return out
    if isinstance(value, list) and node.items is not None:
        return [_with_zeros(item, node.items) for item in value]
    return value


def _status_type(value: Any, node: Node) -> None:
    """``fromUnstructured``'s refusal of a status value of the wrong type (the CRD's status schema gives the
    Go types): a struct or a map takes only a map, a slice only a list, a scalar only its kind; it ends the
    conversion at once, before strict decoding names any unknown field."""
    if node.format == "date-time":
        _time(value)
    elif node.int_or_string:
        return
    elif node.type == "object":
        if not isinstance(value, dict):
            restore = "struct from:" if node.properties or not isinstance(node.additional, Node) else "map from"
            raise ConversionError(f"cannot restore {restore} {json_kind(value)}")
    elif node.type == "array":
        if not isinstance(value, list):
            raise ConversionError(f"cannot restore slice from {json_kind(value)}")
    elif node.type in ("string", "boolean", "integer", "number"):
        _scalar(value, node)


# ObjectMeta's fields in Go's declaration order, as encoding/json prints them (its maps with sorted keys)
_META_ORDER = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation",
               "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations",
               "ownerReferences", "finalizers", "managedFields")


def _meta_order(meta: Any) -> Any:
    if not isinstance(meta, dict):
        return meta
    ordered = {key: meta[key] for key in _META_ORDER if key in meta}
    for key in ("labels", "annotations"):
        if isinstance(ordered.get(key), dict):
            ordered[key] = dict(sorted(ordered[key].items()))
    return {**ordered, **{k: v for k, v in meta.items() if k not in ordered}}


# ObjectMeta's plain fields Go omits when empty (the rest are maps, lists, pointers or structs).
_META_PLAIN = ("name", "generateName", "namespace", "selfLink", "uid", "resourceVersion")
_MATCHER_PLAIN = ("name", "kind", "revisionName", "inferFromVolume")


def _omit_meta(meta: Any) -> Any:
    if isinstance(meta, dict):
        for key in _META_PLAIN:
            if meta.get(key) == "":
                del meta[key]
        if meta.get("generation") == 0:
            del meta["generation"]
    return meta


def _printed_spec(spec: dict[str, Any]) -> dict[str, Any]:
    """The VM spec as Go prints it: empty plain fields omitted, ``template`` always there (``null`` when
    absent: it has no omitempty), the template's metadata and the domain's resources always there (structs)."""
    for key in ("instancetype", "preference"):
        matcher = spec.get(key)
        if isinstance(matcher, dict):
            for name in _MATCHER_PLAIN:
                if matcher.get(name) == "":
                    del matcher[name]
    for dvt in spec.get("dataVolumeTemplates") or []:
        if isinstance(dvt, dict) and "metadata" in dvt:
            dvt["metadata"] = _meta_order(_omit_meta(dvt["metadata"]))
            for name in ("apiVersion", "kind"):
                if dvt.get(name) == "":
                    del dvt[name]
    template = spec.get("template")
    if isinstance(template, dict):
        template["metadata"] = _meta_order(_omit_meta(template.get("metadata") or {}))
        vmi = template.get("spec")
        if isinstance(vmi, dict):
            # DomainSpec and its Resources and Devices are plain structs: Go always prints them
            domain = vmi.setdefault("domain", {})
            if isinstance(domain, dict):
                domain.setdefault("resources", {})
                domain.setdefault("devices", {})
            for interface in ((vmi.get("domain") or {}).get("devices") or {}).get("interfaces") or []:
                options = interface.get("dhcpOptions") if isinstance(interface, dict) else None
                if isinstance(options, dict) and isinstance(options.get("ntpServers"), list):
                    options["ntpServers"] = [sanitize_ip(s) if isinstance(s, str) else s
                                             for s in options["ntpServers"]]
    else:
        spec["template"] = None
    ordered = {key: spec[key] for key in _SPEC_ORDER if key in spec}
    if isinstance(template, dict):
        ordered["template"] = {"metadata": template["metadata"],
                               **{k: v for k, v in template.items() if k != "metadata"}}
    return {**ordered, **{k: v for k, v in spec.items() if k not in ordered}}


# VirtualMachineSpec's fields in Go's declaration order, as encoding/json prints them
_SPEC_ORDER = ("running", "runStrategy", "instancetype", "preference", "template", "dataVolumeTemplates",
               "updateVolumesStrategy")
