"""What KubeVirt's JSON re-encoding does to a VM or VMI it returns: Quantities in canonical spelling,
null pointers and zero plain fields omitted, ``features.acpi`` always present (a non-pointer struct).
A value the encoding respells or adds gets that as its origin, unless a stage already explains it.
"""

from __future__ import annotations

from typing import Any

from ..quantity import canonical
from .ipaddr import sanitize_ip
from .omitempty import omit_zero_plain_fields, omit_zero_status_fields
from .origin import NO_TRACE, Path, Trace, named

Spec = dict[str, Any]

# ObjectMeta's fields in Go's declaration order, as encoding/json prints them.
_META_ORDER = (
    "name",
    "generateName",
    "namespace",
    "uid",
    "resourceVersion",
    "generation",
    "labels",
    "annotations",
    "ownerReferences",
    "finalizers",
)
CANONICAL = named("KubeVirt's canonical Quantity spelling")
ACPI = named("KubeVirt default features.acpi (always present)")
TEMPLATE_METADATA = named("KubeVirt default template metadata (always present)")


def _canonical_map(mapping: Any, trace: Trace = NO_TRACE, path: Path = ()) -> None:
    if isinstance(mapping, dict):
        for key, value in mapping.items():
            if value is not None:
                mapping[key] = spelled = canonical(value)
                if spelled != value:
                    trace.set_new((*path, key), CANONICAL)


def _canonical_keys(mapping: Any, keys: tuple[str, ...], trace: Trace = NO_TRACE, path: Path = ()) -> None:
    if isinstance(mapping, dict):
        for key in keys:
            value = mapping.get(key)
            if value is not None:
                mapping[key] = spelled = canonical(value)
                if spelled != value:
                    trace.set_new((*path, key), CANONICAL)


def encode_vmi_spec(spec: Spec, trace: Trace = NO_TRACE) -> None:
    """Re-encode a VMI spec (a VM template's spec) in place: canonical Quantities, Go's omitted zeros."""
    omit_zero_plain_fields(spec)
    domain = spec.get("domain")
    if isinstance(domain, dict):
        resources = domain.get("resources")
        if isinstance(resources, dict):
            _canonical_map(resources.get("requests"), trace, ("domain", "resources", "requests"))
            _canonical_map(resources.get("limits"), trace, ("domain", "resources", "limits"))
        memory = domain.get("memory")
        _canonical_keys(memory, ("guest", "maxGuest"), trace, ("domain", "memory"))
        if isinstance(memory, dict):
            _canonical_keys(memory.get("reservedOverhead"), ("addedOverhead",), trace,
                            ("domain", "memory", "reservedOverhead"))
        machine = domain.get("machine")
        if isinstance(machine, dict) and machine.get("type") is None:
            # Machine.Type is `json:"type"`, without omitempty (staging/src/kubevirt.io/api/core/v1/schema.go):
            # a `machine: {}` that reaches the output is printed with an empty type.
            machine["type"] = ""
        features = domain.get("features")
        if isinstance(features, dict) and features.get("acpi") is None:
            features["acpi"] = {}
            trace.set_new(("domain", "features", "acpi"), ACPI)
    _sanitize_nameservers(spec.get("dnsConfig"))
    for index, volume in enumerate(spec.get("volumes") or []):
        if isinstance(volume, dict):
            for key in ("emptyDisk", "hostDisk"):
                _canonical_keys(volume.get(key), ("capacity",), trace, ("volumes", index, key))


def _sanitize_nameservers(dns_config: Any) -> None:
    """The VMI spec's decoder respells the nameservers it can read as IP addresses
    (staging/src/kubevirt.io/api/core/v1/types.go, ``UnmarshalJSON``)."""
    if isinstance(dns_config, dict) and isinstance(dns_config.get("nameservers"), list):
        dns_config["nameservers"] = [sanitize_ip(ns) if isinstance(ns, str) else ns for ns in dns_config["nameservers"]]


def encode_vm(vm: Spec, trace: Trace = NO_TRACE) -> None:
    """Canonicalise a VirtualMachine in place as KubeVirt's encoding would print it (``trace``: rooted at
    the VM)."""
    omit_zero_status_fields(vm.get("status"))
    spec = vm.get("spec")
    if not isinstance(spec, dict):
        return
    for key in ("instancetype", "preference"):
        if key in spec and spec[key] is None:
            del spec[key]
    template_spec = (spec.get("template") or {}).get("spec")
    if isinstance(template_spec, dict):
        encode_vmi_spec(template_spec, trace.at("spec", "template", "spec"))
    for index, dvt in enumerate(spec.get("dataVolumeTemplates") or []):
        for claim in ("pvc", "storage"):
            resources = ((dvt.get("spec") or {}).get(claim) or {}).get("resources")
            if isinstance(resources, dict):
                at = ("spec", "dataVolumeTemplates", index, "spec", claim, "resources")
                _canonical_map(resources.get("requests"), trace, (*at, "requests"))
                _canonical_map(resources.get("limits"), trace, (*at, "limits"))


def encode_vmi(vmi: Spec, trace: Trace = NO_TRACE) -> Spec:
    """``vmi`` as KubeVirt prints it: canonical Quantities, metadata keys in ObjectMeta order (``trace``: rooted
    at its spec)."""
    encode_vmi_spec(vmi["spec"], trace)
    memory = (vmi.get("status") or {}).get("memory")
    if isinstance(memory, dict):
        for key, value in memory.items():
            memory[key] = canonical(value)
    meta = vmi["metadata"]
    ordered = {key: meta[key] for key in _META_ORDER if meta.get(key) not in (None, {}, [])}
    ordered.update((k, v) for k, v in meta.items() if k not in _META_ORDER)
    vmi["metadata"] = ordered
    return {key: vmi[key] for key in ("kind", "apiVersion", "metadata", "spec", "status") if key in vmi}
