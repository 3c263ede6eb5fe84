"""Templates as virtctl prints them without processing: a template's parameters (``virtctl template process
--print-params``) and an OpenShift Template converted into a VirtualMachineTemplate (``virtctl template
convert``), as the plain data Go's encoders write (``pkg/virtctl/template/process`` and ``…/convert`` at
kubevirt/kubevirt d923fdb8).

Both print Go structs: ``v1beta1.Parameter`` (``name`` always, the other fields only when set, in declaration
order) and ``v1beta1.VirtualMachineTemplate`` (``kind``, ``apiVersion``, ``metadata`` with the name,
namespace, labels and annotations ``convertTemplate`` copies, ``spec`` with ``virtualMachine``, ``parameters``
and ``message``; ``creationTimestamp`` and ``status`` are ``omitzero``). The VirtualMachine is a
``runtime.RawExtension``: Go prints it as it was read, which for YAML is the JSON sigs.k8s.io/yaml made of it
(keys sorted, ``1.0`` written ``1``) and for JSON the object as written.
"""

from __future__ import annotations

from typing import Any

from ..api.golang import go_number
from .document import DecodeError, Template, go_string, read_template
from .parameters import Parameter

VMT_API_VERSION = "template.kubevirt.io/v1beta1"


def parameters(template: Template) -> list[dict[str, Any]] | None:
    """``[]v1beta1.Parameter`` as encoding/json writes it (None: Go's nil slice, printed ``null``)."""
    if not template.parameters and not template.listed:
        return None
    return [parameter(p) for p in template.parameters]


def parameter(p: Parameter) -> dict[str, Any]:
    out: dict[str, Any] = {"name": p.name}
    for key, value in (("displayName", p.display_name), ("description", p.description), ("value", p.value),
                       ("generate", p.generate), ("from", p.source)):
        if value:
            out[key] = value
    if p.required:
        out["required"] = True
    return out


def converted(data: Any, from_json: bool) -> dict[str, Any]:
    """The VirtualMachineTemplate ``virtctl template convert`` makes of a decoded OpenShift Template (any
    first document is read as one, as virtctl reads it); :class:`DecodeError` or
    :class:`~.document.ConvertError` as virtctl refuses it. ``from_json``: the file was JSON (its VM is
    printed as written)."""
    template = read_template(data, openshift=True)
    meta = _metadata(data.get("metadata") if isinstance(data, dict) else None)
    spec: dict[str, Any] = {"virtualMachine": template.vm if from_json else _as_yaml_json(template.vm)}
    listed = parameters(template)
    if listed:
        spec["parameters"] = listed
    if template.message:
        spec["message"] = template.message
    out: dict[str, Any] = {"kind": "VirtualMachineTemplate", "apiVersion": VMT_API_VERSION}
    if meta:
        out["metadata"] = meta
    out["spec"] = spec
    return out


def _metadata(meta: Any) -> dict[str, Any]:
    """The ObjectMeta fields convertTemplate copies, decoded as Go decodes them (strings; maps of strings)."""
    if not isinstance(meta, dict):
        return {}
    out: dict[str, Any] = {}
    for key in ("name", "namespace"):
        text = go_string(meta.get(key), ("metadata", key), True)
        if text:
            out[key] = text
    for key in ("labels", "annotations"):
        items = meta.get(key)
        if items is None:
            continue
        if not isinstance(items, dict):
            raise DecodeError(_map_error(items, key), ("metadata", key))
        if items:
            out[key] = {str(k): go_string(v, ("metadata", key, k), True) for k, v in sorted(items.items())}
    return out


def _map_error(value: Any, key: str) -> str:
    word = {str: "string", list: "array", bool: "bool"}.get(type(value), "number")
    return (f"error unmarshaling JSON: while decoding JSON: json: cannot unmarshal {word} into Go struct field "
            f".metadata.{key} of type map[string]string")


def _as_yaml_json(value: Any) -> Any:
    """A YAML value as the JSON sigs.k8s.io/yaml writes of it: keys sorted, numbers as Go holds them."""
    if isinstance(value, dict):
        return {str(k): _as_yaml_json(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, list):
        return [_as_yaml_json(v) for v in value]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return go_number(value)
    return value
